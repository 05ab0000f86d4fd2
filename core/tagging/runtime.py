"""Helpers shared by the tagger plugins: the resolved config written next to the model (and read back), quiet library logging, torch threads and seeds."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from synthdeid.corpus.accounting import write_json
from synthdeid.errors import InputError, SynthdeidError
from synthdeid.model_files import read_json
from synthdeid.plugin_system.config import Settings, load_settings, renames

S = TypeVar("S", bound=Settings)

CONFIG_FILE = "tagger.json"
RETRAIN = (
    "retrain the tagger with this version of synthdeid (dvc repro the train_tagger stage), or copy the folder again"
)


def write_meta(out_dir: Path, plugin: str, config: Settings, **extra: Any) -> None:
    """``tagger.json``: the plugin name, its resolved settings and what ``load`` needs."""
    write_json({"tagger": plugin, "config": config.model_dump(), **extra}, Path(out_dir) / CONFIG_FILE)


def read_meta(out_dir: Path, plugin: str) -> dict[str, Any]:
    """``tagger.json`` of ``out_dir``, which must name ``plugin`` and hold its ``config``."""
    path = Path(out_dir) / CONFIG_FILE
    if not path.exists():
        raise InputError(
            f"holds no trained {plugin!r} tagger ({CONFIG_FILE} is missing)",
            path=out_dir,
            fix="train it first (dvc repro the train_tagger stage)",
        )
    meta: dict[str, Any] = read_json(path, RETRAIN)
    if meta.get("tagger") != plugin:
        raise InputError(f"holds a {meta.get('tagger')!r} tagger, not {plugin!r}", path=path, fix=RETRAIN)
    if not isinstance(meta.get("config"), dict):
        raise InputError("lacks the key 'config' (the tagger's settings)", path=path, fix=RETRAIN)
    return meta


def saved_config(cls: type[S], meta: dict[str, Any], plugin: str, *, out_dir: Path | None = None, **missing: Any) -> S:
    """The config saved in ``tagger.json`` (``meta`` from ``read_meta``); settings saved under a
    former name by an earlier version are mapped silently (the user cannot edit a trained model),
    and ``missing`` gives values for settings saved before they existed. A config this version
    cannot use is an ``InputError`` naming ``out_dir``'s ``tagger.json``."""
    what = f"tagger {plugin!r}"
    try:
        given = {renames(cls).get(k, k) for k in meta["config"]}  # current names, former ones mapped
        defaults = {k: v for k, v in missing.items() if k not in given}
        return load_settings(cls, {**defaults, **meta["config"]}, what, saved=True)
    except (SynthdeidError, TypeError, ValueError) as e:
        where = CONFIG_FILE if out_dir is None else Path(out_dir) / CONFIG_FILE
        raise InputError(f"holds settings this version cannot use ({e})", path=where, fix=RETRAIN) from None


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


_THREAD_LIMIT: list[int] = []


def limit_threads(n: int) -> None:
    """At most ``n`` torch threads in every later ``torch_threads`` block of this process, whatever
    a saved model's config asks (``synthdeid deidentify --threads``)."""
    _THREAD_LIMIT[:] = [n]


@contextmanager
def torch_threads(n: int) -> Iterator[None]:
    """Use ``n`` torch threads (0 keeps the current setting; never more than ``limit_threads``)
    inside the block."""
    import torch

    old = torch.get_num_threads()
    if _THREAD_LIMIT:
        n = min(n, _THREAD_LIMIT[0]) if n > 0 else 0
    if n > 0:
        torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(old)


def seed_everything(seed: int) -> None:
    """Seed Python's, numpy's and torch's random generators."""
    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
