"""Helpers shared by the transformers-based generators: configs as JSON,
fingerprints for resumable training, thread settings."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import torch

from synthdeid import SynthdeidError
from synthdeid.api import TrainingData
from synthdeid.model_files import read_json
from synthdeid.plugin_system.config import Settings, renames

META_FILE = "generator.json"
_NOT_TRAINING = {
    "threads",
    "merge",
    "backend",
    "tensor_parallel_size",
}  # settings that do not change the trained weights


def config_dict(config: Settings) -> dict[str, Any]:
    """The config as plain JSON-able data (tuples as lists)."""
    return json.loads(json.dumps(config.model_dump()))


def read_meta(out_dir: Path, plugin: str) -> dict[str, Any]:
    """The saved ``generator.json`` of a trained model folder; a ``SynthdeidError`` naming the
    train stage when there is none."""
    path = Path(out_dir) / META_FILE
    if not path.exists():
        raise SynthdeidError(
            f"{out_dir} holds no trained {plugin} model ({META_FILE} is missing); "
            f"train it first (dvc repro the train stage)"
        )
    meta: dict[str, Any] = read_json(
        path, f"retrain the {plugin} model (dvc repro the train stage) or restore {META_FILE}"
    )
    if meta.get("generator") != plugin:
        raise SynthdeidError(f"{out_dir} holds a {meta.get('generator')!r} model, not {plugin!r}")
    return meta


def fingerprint(config: Settings, data: TrainingData, seed: int) -> str:
    """A hash of everything that decides the trained weights (a checkpoint of other data or
    settings must not be resumed). Renamed settings are hashed under their former names, so a
    checkpoint written before the rename still resumes."""
    former = {new: old for old, new in renames(type(config)).items()}
    settings = {former.get(k, k): v for k, v in config_dict(config).items() if k not in _NOT_TRAINING}
    h = hashlib.sha256()
    h.update(json.dumps([settings, seed, list(data.special_tokens)], sort_keys=True).encode())
    for part in (data.train, data.dev):
        h.update(b"\x00split")
        for line in part:
            h.update(line.encode("utf-8"))
            h.update(b"\n")
    return h.hexdigest()


def set_threads(threads: int) -> None:
    """Set torch's CPU thread count (at least 1)."""
    if threads < 1:
        raise SynthdeidError(f"threads must be >= 1, got {threads}")
    torch.set_num_threads(threads)


def check_data(data: TrainingData, plugin: str) -> None:
    """Refuse training data a causal LM cannot train on: no text, or no ``<EOD>`` special token."""
    if not data.train:
        raise SynthdeidError(
            f"generator {plugin!r}: the training text is empty",
        )
    if "<EOD>" not in data.special_tokens:
        raise SynthdeidError(f"generator {plugin!r}: TrainingData.special_tokens must include <EOD>")
