"""The learned agent: a saved MaskablePPO policy playing through the env's observation.

By default it loads the model shipped in ``agents/models/`` (trained by
``semiautomines train``); ``--model PATH`` picks another. The policy is fully
convolutional (one logit per cell), so the same weights play any board size:
this agent therefore runs the policy network directly rather than through
``model.predict``, which insists on the training board's observation shape.

Model files are weights only (``NAME.pt`` + ``NAME.json``, see
:mod:`~semiautomines_agents.model_files`): loading one cannot run code. A
stable-baselines3 ``.zip`` unpickles Python objects when loaded, so it is
refused unless the caller passes ``trust_model=True`` (``--trust-model``).
"""

from __future__ import annotations

import base64
import json
import pickletools
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from ..base import Agent
from .model_files import TRUST_RISK, WEIGHTS_SUFFIX, ModelFileError, is_sb3_zip, load_policy

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
"""Where the shipped models live."""


LEGACY_POLICY_MODULE = "agents.policies"
"""Where a model saved while this package installed as ``agents`` (the shipped
one among them) says its policy class lives."""


class ModelNotFoundError(FileNotFoundError):
    """No model file where one was asked for (or none shipped yet), or none that loads."""


class UntrustedModelError(ModelNotFoundError):
    """A stable-baselines3 zip, refused because loading it could run code."""


DEFAULT_MODEL = "ppo_expert"
"""The shipped model the ``ppo`` agent plays by default: the strongest on expert
(``ppo_expert`` beats ``ppo_beginner`` there by 1.5 points on 20,000 paired games;
``agents/models/README.md`` compares them)."""


def default_model_path() -> Path:
    """The shipped model: ``agents/models/ppo_default.pt`` if someone put one
    there, else :data:`DEFAULT_MODEL`, else the last ``ppo_*.pt`` by name.

    :raises ModelNotFoundError: when no model has been shipped.
    """
    for name in ("ppo_default", DEFAULT_MODEL):
        preferred = MODELS_DIR / f"{name}{WEIGHTS_SUFFIX}"
        if preferred.is_file():
            return preferred
    candidates = sorted(MODELS_DIR.glob(f"ppo_*{WEIGHTS_SUFFIX}"))
    if not candidates:
        raise ModelNotFoundError(
            f"no PPO model shipped yet (nothing matches {MODELS_DIR}/ppo_*{WEIGHTS_SUFFIX}); "
            "train one with semiautomines train or pass --model PATH"
        )
    return candidates[-1]


def obs_mode_of(observation_shape: tuple[int, ...], sidecar: Path) -> str:
    """The env observation a model was trained on.

    From ``<model>.json`` when it exists (``obs_mode``, or ``env_kwargs.obs_mode``
    as ``semiautomines train`` writes it), else from the observation shape
    (11 planes, 12 planes with probabilities, or a 2-D grid).
    """
    if sidecar.is_file():
        meta = json.loads(sidecar.read_text())
        mode = meta.get("obs_mode") or meta.get("env_kwargs", {}).get("obs_mode")
        if mode:
            return str(mode)
    if len(observation_shape) == 2:
        return "grid"
    if observation_shape[0] == 12:
        return "planes+probabilities"
    return "planes"


def saved_policy_module(path: Path) -> str | None:
    """The module a saved model names for its policy class (read, not imported),
    or ``None`` when the file does not say."""
    try:
        with zipfile.ZipFile(path) as archive:
            data = json.loads(archive.read("data"))
        pickled = base64.b64decode(data["policy_class"][":serialized:"])
        names = [arg for _, arg, _ in pickletools.genops(pickled) if isinstance(arg, str)]
    except (OSError, KeyError, TypeError, ValueError, zipfile.BadZipFile):
        return None
    return names[0] if names else None


def _no_schedule(_progress_remaining: float) -> float:
    return 0.0


def load_objects(path: Path) -> dict:
    """What ``MaskablePPO.load`` takes as given instead of unpickling from ``path``.

    The learning-rate schedules only matter to training, and each is pickled
    with the name of the module that trained the model; a model saved under
    the old import name names ``agents.policies.CellPolicy``, now
    :class:`~semiautomines_agents.policies.CellPolicy`.
    """
    objects: dict = {"learning_rate": 0.0, "lr_schedule": _no_schedule}
    if saved_policy_module(path) == LEGACY_POLICY_MODULE:
        from .policies import CellPolicy  # torch and sb3: only when a model is loaded

        objects["policy_class"] = CellPolicy
    return objects


def untrusted_zip_message(path: Path) -> str:
    """One line: why a zip is refused, and the two ways on."""
    return (
        f"{path}: refused: {TRUST_RISK}. Pass --trust-model only for a file you made or "
        f"trust, or convert it without unpickling: python -m semiautomines_agents.convert_model "
        f"{path} {path.with_suffix(WEIGHTS_SUFFIX)}"
    )


class PPOAgent(Agent):
    """Plays the most likely valid action of a saved MaskablePPO policy.

    :param model_path: a weights-only model (``NAME.pt`` with ``NAME.json``);
        ``None`` for the shipped default.
    :param trust_model: also load a stable-baselines3 ``.zip`` (which unpickles:
        a crafted file runs code).
    :raises ModelNotFoundError: when the file does not exist or is no model.
    :raises UntrustedModelError: for a stable-baselines3 zip without ``trust_model``.
    """

    name = "ppo"
    deterministic = True

    def __init__(self, model_path: str | Path | None = None, trust_model: bool = False):
        path = Path(model_path) if model_path is not None else default_model_path()
        if not path.is_file():
            raise ModelNotFoundError(f"{path}: no such model file")
        import torch

        torch.set_num_threads(1)  # evaluation runs one process per core
        self.model_path = path
        if is_sb3_zip(path):
            if not trust_model:
                raise UntrustedModelError(untrusted_zip_message(path))
            self._policy, self.obs_mode = _load_sb3_zip(path)
            return
        try:
            self._policy, meta = load_policy(path)
        except ModelFileError as error:
            raise ModelNotFoundError(f"{path}: cannot load a MaskablePPO model ({error})") from None
        planes = meta["network"]["observation_planes"]
        self.obs_mode = obs_mode_of((planes, 1, 1), path.with_suffix(".json"))

    def act(self, observation, action_mask, game=None) -> int:
        import torch

        from .policies import CellPolicy

        with torch.inference_mode():
            obs = torch.as_tensor(np.asarray(observation)[None])
            mask = np.asarray(action_mask, dtype=bool).reshape(1, -1)
            if isinstance(self._policy, CellPolicy):  # the same move, without SB3's objects
                return int(self._policy.best_action(obs, torch.as_tensor(mask))[0])
            # A trusted zip may hold another MaskablePPO policy class.
            distribution = self._policy.get_distribution(obs, action_masks=mask)
            return int(distribution.mode()[0])

    @property
    def policy(self) -> Any:
        """The loaded policy network (a :class:`~.policies.CellPolicy` for every weights
        file), for tools that look inside it rather than play it."""
        return self._policy

    def describe(self) -> str:
        return f"{self.name} ({self.model_path.name})"


def _load_sb3_zip(path: Path) -> tuple[Any, str]:
    """A trusted stable-baselines3 zip's policy and observation mode (this unpickles)."""
    from sb3_contrib import MaskablePPO

    try:
        model = MaskablePPO.load(path, device="cpu", custom_objects=load_objects(path))
    except Exception as error:  # a zip that is not a MaskablePPO model
        raise ModelNotFoundError(f"{path}: cannot load a MaskablePPO model ({error})") from None
    policy = model.policy
    policy.set_training_mode(False)
    return policy, obs_mode_of(tuple(model.observation_space.shape), path.with_suffix(".json"))
