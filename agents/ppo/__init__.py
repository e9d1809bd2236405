"""The learned agent and what serves only it: the policy network (:mod:`.policies`),
weights-only model files (:mod:`.model_files`) and the zip converter
(:mod:`.convert_model`). The agent itself is in :mod:`.agent`."""

from .agent import (
    DEFAULT_MODEL,
    LEGACY_POLICY_MODULE,
    MODELS_DIR,
    ModelNotFoundError,
    PPOAgent,
    UntrustedModelError,
    default_model_path,
    load_objects,
    obs_mode_of,
    saved_policy_module,
    untrusted_zip_message,
)

__all__ = [
    "DEFAULT_MODEL",
    "LEGACY_POLICY_MODULE",
    "MODELS_DIR",
    "ModelNotFoundError",
    "PPOAgent",
    "UntrustedModelError",
    "default_model_path",
    "load_objects",
    "obs_mode_of",
    "saved_policy_module",
    "untrusted_zip_message",
]
