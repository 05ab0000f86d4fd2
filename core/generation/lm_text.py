"""The language-model text of a generator: the inline lines per split, and the share of them it
learns from (shared by the ``train_lm`` and ``audit_lm`` stages)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from synthdeid import paths
from synthdeid.corpus.formats import read_jsonl
from synthdeid.corpus.inline import strip_tags
from synthdeid.corpus.split import share_indices
from synthdeid.generation.lm import uses_tags

if TYPE_CHECKING:
    from synthdeid.spec.study import GeneratorSection

LM_SPLITS = ("train", "dev")
"""The splits a language model learns from (train) and is validated and prompted on (dev)."""


def nonblank_lines(path: str | Path) -> list[str]:
    """The non-blank lines of a text file (one inline note per line)."""
    return [line for line in Path(path).read_text(encoding="utf-8").split("\n") if line.strip()]


def data_seed(generator: Any) -> int:
    """The seed of a built generator's training data (``TrainingData.seed`` and the ``data_share``
    draw): its config's ``seed`` (a plain mapping's key for a plugin that keeps its config as one),
    or 0 when the config leaves it to the data (``None``: gpt2, causal_lm) or declares none."""
    config = getattr(generator, "config", None)
    seed = config.get("seed") if isinstance(config, Mapping) else getattr(config, "seed", None)
    return 0 if seed is None else int(seed)


def training_text(
    spec: GeneratorSection,
    seed: int,
    text_path: Callable[[str], str] = paths.inline_text,
    ids_path: Callable[[str], str] = paths.pseudonymized,
) -> tuple[dict[str, list[str]], dict[str, list[str]], float]:
    """The LM text per split of the generator ``spec`` (``text_path(split)``, untagged with ``tags:
    false``), the document id of each line (``train_ids``, ``dev_ids``, from ``ids_path(split)``) and
    its ``data_share``: with a share below 1 (the data-constraint ablation of Vakili et al.) the
    training lines are a share of the notes drawn with ``seed`` (``data_seed`` of the generator), the
    same for train_lm and audit_lm."""
    tagged = uses_tags(spec)
    text = {
        split: [line if tagged else strip_tags(line) for line in nonblank_lines(text_path(split))]
        for split in LM_SPLITS
    }
    ids = {f"{split}_ids": [d.id for d in read_jsonl(ids_path(split))] for split in LM_SPLITS}
    share = float(spec.data_share)
    if share < 1:
        keep = share_indices(len(text["train"]), share, seed)
        text["train"] = [text["train"][i] for i in keep]
        ids["train_ids"] = [ids["train_ids"][i] for i in keep]
    return text, ids, share
