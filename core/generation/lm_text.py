"""The language-model text of a generator: the inline lines per split, and the share of them it
learns from (shared by the ``train_lm`` and ``audit_lm`` stages)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from synthdeid import paths
from synthdeid.corpus.formats import read_jsonl
from synthdeid.corpus.inline import strip_tags
from synthdeid.corpus.split import check_share, share_indices
from synthdeid.generation.lm import uses_tags

LM_SPLITS = ("train", "dev")
"""The splits a language model learns from (train) and is validated and prompted on (dev)."""


def nonblank_lines(path: str | Path) -> list[str]:
    """The non-blank lines of a text file (one inline note per line)."""
    return [line for line in Path(path).read_text(encoding="utf-8").split("\n") if line.strip()]


def training_text(spec: dict[str, Any], name: str, text_path: Callable[[str], str] = paths.inline_text,
                  ids_path: Callable[[str], str] = paths.pseudonymized) -> tuple[dict[str, list[str]], dict[str, list[str]], float]:
    """The generator's LM text per split (``text_path(split)``, untagged with ``tags: false``), the
    document id of each line (``train_ids``, ``dev_ids``, from ``ids_path(split)``) and its
    ``data_share``: with a share below 1 (the data-constraint ablation of Vakili et al.) the training
    lines are a seeded share of the notes (the generator's ``config.seed``), the same for train_lm
    and audit_lm."""
    tagged = uses_tags(spec, name)
    text = {split: [line if tagged else strip_tags(line) for line in nonblank_lines(text_path(split))]
            for split in LM_SPLITS}
    ids = {f"{split}_ids": [d.id for d in read_jsonl(ids_path(split))] for split in LM_SPLITS}
    share = check_share(spec.get("data_share", 1.0), f"generators.{name}.data_share")
    if share < 1:
        keep = share_indices(len(text["train"]), share, int((spec.get("config") or {}).get("seed", 0)))
        text["train"] = [text["train"][i] for i in keep]
        ids["train_ids"] = [ids["train_ids"][i] for i in keep]
    return text, ids, share
