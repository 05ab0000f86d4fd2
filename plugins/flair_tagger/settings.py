"""Config and output helpers shared by the tagger plugins: typed configs from params, the
resolved config written next to the model, quiet library logging, torch threads and seeds."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import random
import tempfile
import typing
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from synthdeid import SynthdeidError

C = TypeVar("C")
CONFIG_FILE = "tagger.json"


def parse_config(cls: type[C], config: Mapping[str, Any] | None, plugin: str) -> C:
    """The frozen dataclass ``cls`` built from a params mapping; an unknown key is an error
    that lists the valid ones."""
    config = dict(config or {})
    fields = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(config) - fields)
    if unknown:
        raise SynthdeidError(f"tagger {plugin!r} has no setting(s) {', '.join(unknown)}; "
                             f"its settings are: {', '.join(sorted(fields))}")
    hints = typing.get_type_hints(cls)
    for key, value in config.items():
        if isinstance(value, int) and not isinstance(value, bool) and hints.get(key) in (float, float | None):
            config[key] = float(value)
    try:
        return cls(**config)
    except (TypeError, ValueError) as err:
        raise SynthdeidError(f"tagger {plugin!r}: bad settings ({err})") from None


def write_json(path: Path, data: Any) -> None:
    """Write JSON atomically (temporary file, then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    os.chmod(tmp, 0o644)  # mkstemp creates 0600
    os.replace(tmp, path)


def write_meta(out_dir: Path, plugin: str, config: Any, **extra: Any) -> None:
    """``tagger.json``: the plugin name, its resolved config and what ``load`` needs."""
    write_json(Path(out_dir) / CONFIG_FILE,
               {"tagger": plugin, "config": dataclasses.asdict(config), **extra})


def read_meta(out_dir: Path, plugin: str) -> dict[str, Any]:
    path = Path(out_dir) / CONFIG_FILE
    if not path.exists():
        raise SynthdeidError(f"{out_dir} holds no trained {plugin!r} tagger ({CONFIG_FILE} is "
                             "missing); train it first (dvc repro the train_tagger stage)")
    meta = json.loads(path.read_text(encoding="utf-8"))
    if meta.get("tagger") != plugin:
        raise SynthdeidError(f"{out_dir} holds a {meta.get('tagger')!r} tagger, not {plugin!r}")
    return meta


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
