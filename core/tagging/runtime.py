"""Helpers shared by the tagger plugins: the
resolved config written next to the model (and read back), quiet library logging, torch threads and seeds."""

from __future__ import annotations

import dataclasses
import json
import logging
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from synthdeid import SynthdeidError
from synthdeid.corpus.accounting import write_json
from synthdeid.plugin_system.config import current_names

C = TypeVar("C")

CONFIG_FILE = "tagger.json"


def write_meta(out_dir: Path, plugin: str, config: Any, **extra: Any) -> None:
    """``tagger.json``: the plugin name, its resolved config and what ``load`` needs."""
    write_json({"tagger": plugin, "config": dataclasses.asdict(config), **extra}, Path(out_dir) / CONFIG_FILE)


def read_meta(out_dir: Path, plugin: str) -> dict[str, Any]:
    path = Path(out_dir) / CONFIG_FILE
    if not path.exists():
        raise SynthdeidError(f"{out_dir} holds no trained {plugin!r} tagger ({CONFIG_FILE} is "
                             "missing); train it first (dvc repro the train_tagger stage)")
    meta = json.loads(path.read_text(encoding="utf-8"))
    if meta.get("tagger") != plugin:
        raise SynthdeidError(f"{out_dir} holds a {meta.get('tagger')!r} tagger, not {plugin!r}")
    return meta


def saved_config(cls: type[C], meta: dict[str, Any], plugin: str, **missing: Any) -> C:
    """The config saved in ``tagger.json`` (``meta`` from ``read_meta``); settings saved under a
    former name by an earlier version are mapped silently (the user cannot edit a trained model),
    and ``missing`` gives values for settings saved before they existed."""
    return cls(**{**missing, **current_names(cls, meta["config"], f"tagger {plugin!r}", warn=False)})


@contextmanager
def quiet(*loggers: str, level: int = logging.WARNING) -> Iterator[None]:
    """Raise the level of the named loggers for the duration of the block."""
    saved = [(logging.getLogger(n), logging.getLogger(n).level) for n in loggers]
    for lg, _ in saved:
        lg.setLevel(level)
    try:
        yield
    finally:
        for lg, old in saved:
            lg.setLevel(old)


@contextmanager
def torch_threads(n: int) -> Iterator[None]:
    """Use ``n`` torch threads (0 keeps the current setting) inside the block."""
    import torch

    old = torch.get_num_threads()
    if n > 0:
        torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(old)


def seed_everything(seed: int) -> None:
    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
