"""Model files that cannot run code: the policy's weights, and its architecture in JSON.

Why: a stable-baselines3 ``.zip`` keeps Python objects (the policy class, the
spaces, the learning-rate schedules) pickled, and loading it unpickles them,
so a model file someone shares can run any code on the machine that loads it.
The format here holds data only:

- ``NAME.pt``: the policy's ``state_dict`` (tensors by name), written with
  ``torch.save`` and read back with ``torch.load(weights_only=True)``, which
  refuses anything but tensors and plain containers;
- ``NAME.json``: the format's name and version, the network's shape (enough
  to rebuild :class:`~semiautomines_agents.policies.CellPolicy`), the
  observation mode, the sha256 of ``NAME.pt``, and the training settings.

A stable-baselines3 zip of a ``CellPolicy`` converts to this format without
being unpickled (:func:`convert_sb3_zip`: the zip's ``policy.pth`` is itself a
weights-only file); loading the zip as a model needs the caller's explicit
trust (``--trust-model``). ``python -m semiautomines_agents.convert_model IN.zip
OUT.pt`` converts.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from minesweep_env.fileio import atomic_write, write_text

if TYPE_CHECKING:
    from .policies import CellPolicy

FORMAT = "semiautomines-cell-policy"
FORMAT_VERSION = 1
WEIGHTS_SUFFIX = ".pt"
SB3_ENTRIES = ("data", "policy.pth")
"""What makes a zip a stable-baselines3 model (its ``data`` entry holds the pickles)."""

TRUST_RISK = (
    "a stable-baselines3 .zip unpickles Python objects when loaded: a crafted file "
    "runs any code it likes, as you"
)
"""What ``--trust-model`` accepts, said wherever a zip is refused or loaded."""

TRAINING_KEYS = ("env_id", "env_kwargs", "timesteps", "args")
"""What a training sidecar carries over into a converted model's sidecar."""

NETWORK_LIMITS = {
    "observation_planes": (11, 12),
    "channels": (1, 1024),
    "blocks": (0, 64),
    "value_hidden": (1, 4096),
}
"""Bounds on the network a sidecar may ask for: a hostile JSON cannot make the
loader allocate without limit."""

MAX_DILATED_BLOCKS = 8
MAX_DILATION = 32
"""Bounds on the optional ``dilations`` list (the trunk's dilated blocks)."""


class ModelFileError(ValueError):
    """A model file that is malformed, or not of the format it claims."""


def sidecar_path(weights: Path) -> Path:
    """``NAME.json`` beside ``NAME.pt``."""
    return weights.with_suffix(".json")


def is_sb3_zip(path: Path) -> bool:
    """Whether ``path`` is a stable-baselines3 model zip (read as a zip listing only)."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
    except (OSError, zipfile.BadZipFile):
        return False
    return all(entry in names for entry in SB3_ENTRIES)


def is_weights_file(path: Path) -> bool:
    """Whether ``path`` has a sidecar declaring this module's format."""
    try:
        meta = json.loads(sidecar_path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(meta, dict) and meta.get("format") == FORMAT


def network_of(policy: CellPolicy) -> dict[str, Any]:
    """The architecture of ``policy`` as the sidecar records it.

    The context layers' keys (``dilations``, ``global_context``) are written only
    when the network has them, so a plain network's sidecar is what it always was
    and a reader that predates them still reads it.
    """
    trunk = policy.features_extractor
    network = {
        "class": "CellPolicy",
        "observation_planes": int(policy.observation_space.shape[0]),
        "channels": int(trunk.stem.out_channels),
        "blocks": len(trunk.blocks),
        "value_hidden": int(policy.value_hidden),
        "prior_scale": float(policy.initial_prior_scale),
        "use_probabilities": bool(trunk.use_probabilities),
        "parameters": sum(p.numel() for p in policy.parameters()),
    }
    if trunk.dilations:
        network["dilations"] = list(trunk.dilations)
    if trunk.context is not None:
        network["global_context"] = True
    return network


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def save_weights(
    state_dict: dict[str, Any], network: dict[str, Any], path: Path, **meta: Any
) -> None:
    """Write ``NAME.pt`` and ``NAME.json``, each whole or not at all.

    :param network: as :func:`network_of` gives it.
    :param meta: more sidecar entries (``obs_mode``, ``env_kwargs``, ``args``...).
    """
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(path, "wb") as handle:
        torch.save({key: value.detach().cpu() for key, value in state_dict.items()}, handle)
    sidecar = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "weights": path.name,
        "weights_sha256": _sha256(path),
        "network": network,
        **meta,
    }
    write_text(sidecar_path(path), json.dumps(sidecar, indent=2) + "\n")


def save_policy(policy: CellPolicy, path: Path, **meta: Any) -> None:
    """Save a :class:`CellPolicy` (e.g. ``model.policy`` of a MaskablePPO) in this format."""
    save_weights(policy.state_dict(), network_of(policy), path, **meta)


def read_sidecar(path: Path) -> dict[str, Any]:
    """The checked sidecar of the weights file ``path``.

    :raises ModelFileError: naming what is wrong.
    """
    where = sidecar_path(path)
    try:
        meta = json.loads(where.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelFileError(f"{path}: no {where.name} beside it (the network's shape)") from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ModelFileError(f"{where}: not a model description ({error})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ModelFileError(f"{where}: not a {FORMAT} description")
    if meta.get("format_version") != FORMAT_VERSION:
        raise ModelFileError(
            f"{where}: format version {meta.get('format_version')!r}, "
            f"this version reads {FORMAT_VERSION}"
        )
    network = meta.get("network")
    if not isinstance(network, dict):
        raise ModelFileError(f"{where}: no 'network' section")
    for key, (low, high) in NETWORK_LIMITS.items():
        value = network.get(key)
        if type(value) is not int or not low <= value <= high:
            raise ModelFileError(f"{where}: network.{key} must be an integer in {low}..{high}")
    if not isinstance(network.get("prior_scale"), (int, float)):
        raise ModelFileError(f"{where}: network.prior_scale must be a number")
    if not isinstance(network.get("use_probabilities"), bool):
        raise ModelFileError(f"{where}: network.use_probabilities must be true or false")
    dilations = network.get("dilations", [])
    if (
        not isinstance(dilations, list)
        or len(dilations) > MAX_DILATED_BLOCKS
        or not all(type(d) is int and 1 <= d <= MAX_DILATION for d in dilations)
    ):
        raise ModelFileError(
            f"{where}: network.dilations must be a list of at most {MAX_DILATED_BLOCKS} "
            f"integers in 1..{MAX_DILATION}"
        )
    if not isinstance(network.get("global_context", False), bool):
        raise ModelFileError(f"{where}: network.global_context must be true or false")
    expected = meta.get("weights_sha256")
    if expected is not None and expected != _sha256(path):
        raise ModelFileError(f"{path}: its sha256 differs from the one in {where.name}")
    return meta


def load_policy(path: Path) -> tuple[CellPolicy, dict[str, Any]]:
    """Rebuild the policy saved at ``path`` (no unpickling); returns it and its sidecar.

    :raises ModelFileError: when the sidecar or the weights are malformed or do not match.
    """
    import numpy as np
    import torch
    from gymnasium import spaces

    from .policies import CellPolicy

    meta = read_sidecar(path)
    network = meta["network"]
    # The network is size-free: only the number of planes shapes the weights.
    space = spaces.Box(0.0, 1.0, (network["observation_planes"], 1, 1), np.float32)
    policy = CellPolicy(
        space,
        spaces.Discrete(1),
        lambda _progress: 0.0,  # no optimiser steps: playing only
        value_hidden=network["value_hidden"],
        prior_scale=float(network["prior_scale"]),
        features_extractor_kwargs={
            "channels": network["channels"],
            "blocks": network["blocks"],
            "use_probabilities": network["use_probabilities"],
            "dilations": tuple(network.get("dilations", ())),
            "global_context": network.get("global_context", False),
        },
    )
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch's refusal of a non-tensor object, or a broken file
        raise ModelFileError(f"{path}: not a weights-only file ({error})") from None
    if not isinstance(state, dict) or not all(
        isinstance(key, str) and isinstance(value, torch.Tensor) for key, value in state.items()
    ):
        raise ModelFileError(f"{path}: not a state_dict (tensors by name)")
    try:
        policy.load_state_dict(state)
    except RuntimeError as error:
        first = str(error).strip().splitlines()[0]
        raise ModelFileError(
            f"{path}: weights do not fit the network in its JSON ({first})"
        ) from None
    policy.set_training_mode(False)
    return policy, meta


def _network_from_state(state: dict[str, Any], policy_kwargs: Any) -> dict[str, Any]:
    """The sidecar's network section, read off a CellPolicy's weights."""
    stem = state["features_extractor.stem.weight"]
    block = re.compile(r"features_extractor\.blocks\.(\d+)\.conv1\.weight")
    blocks = {int(m.group(1)) for key in state if (m := block.fullmatch(key))}
    planes = int(stem.shape[1]) - 1  # the trunk adds an "on the board" plane
    trunk_kwargs = (policy_kwargs or {}).get("features_extractor_kwargs", {})
    use_probabilities = trunk_kwargs.get("use_probabilities")
    network = {
        "class": "CellPolicy",
        "observation_planes": planes,
        "channels": int(stem.shape[0]),
        "blocks": len(blocks),
        "value_hidden": int(state["mlp_extractor.critic.0.weight"].shape[0]),
        "prior_scale": float((policy_kwargs or {}).get("prior_scale", 20.0)),
        "use_probabilities": planes == 12 if use_probabilities is None else use_probabilities,
        "parameters": sum(
            int(value.numel())
            for key, value in state.items()
            if not key.startswith(("pi_features_extractor.", "vf_features_extractor."))
        ),
    }
    # A dilation is not in the weights' shapes: it comes from the zip's keyword arguments.
    dilations = list(trunk_kwargs.get("dilations", ()))
    if any(key.startswith("features_extractor.dilated.") for key in state) and not dilations:
        raise ModelFileError("the policy has dilated blocks, but its dilations are not recorded")
    if dilations:
        network["dilations"] = dilations
    if "features_extractor.context.out.weight" in state:
        network["global_context"] = True
    return network


def convert_sb3_zip(source: Path, out: Path) -> dict[str, Any]:
    """Convert a stable-baselines3 zip of a CellPolicy to ``out`` (``.pt``) + sidecar.

    Nothing is unpickled: the weights come from the zip's ``policy.pth``
    (``weights_only``), the shape from the weights, the plain-JSON parts of the
    zip's ``data`` (policy keyword arguments, timesteps) and, when present,
    the training sidecar ``source.json`` (``env_kwargs``, ``args``).
    Returns the new sidecar.

    :raises ModelFileError: when ``source`` is not such a zip.
    """
    import torch

    if not is_sb3_zip(source):
        raise ModelFileError(f"{source}: not a stable-baselines3 model zip")
    with zipfile.ZipFile(source) as archive:
        data = json.loads(archive.read("data"))
        weights = archive.read("policy.pth")
    try:
        state = torch.load(io.BytesIO(weights), map_location="cpu", weights_only=True)
    except Exception as error:  # torch's refusal of a non-tensor object, or a broken file
        raise ModelFileError(f"{source}: its policy.pth is not weights only ({error})") from None
    if not isinstance(data, dict) or not isinstance(state, dict):
        raise ModelFileError(f"{source}: not a stable-baselines3 model zip")
    if "features_extractor.stem.weight" not in state:
        raise ModelFileError(f"{source}: its policy is not a CellPolicy")
    kwargs = data.get("policy_kwargs")
    plain_kwargs = kwargs if isinstance(kwargs, dict) and ":serialized:" not in kwargs else {}
    meta: dict[str, Any] = {}
    training = source.with_suffix(".json")  # what semiautomines train wrote beside the zip
    if training.is_file():
        found = json.loads(training.read_text(encoding="utf-8"))
        meta = {key: found[key] for key in TRAINING_KEYS if key in found}
    network = _network_from_state(state, plain_kwargs)
    obs_mode = meta.get("env_kwargs", {}).get("obs_mode") or (
        "planes+probabilities" if network["observation_planes"] == 12 else "planes"
    )
    meta.setdefault("timesteps", data.get("num_timesteps"))
    save_weights(state, network, out, obs_mode=obs_mode, converted_from=source.name, **meta)
    return read_sidecar(out)
