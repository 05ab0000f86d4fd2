"""Deduplication, the seeded train/dev/test split, and seeded shares of the training data."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from synthdeid.corpus.accounting import Counts
from synthdeid.corpus.records import Document
from synthdeid.errors import InputError

SPLITS = ("train", "dev", "test")


def _text_key(doc: Document) -> str:
    return " ".join(doc.text.split())


def deduplicate(docs: Sequence[Document], counts: Counts, held_out: Sequence[Document] = ()) -> list[Document]:
    """Documents with an exact duplicate text earlier in the corpus (or in ``held_out``, a
    separate test set) are rejected (counted): a copy in both train and test would inflate every
    utility and privacy figure."""
    test_texts = {_text_key(d) for d in held_out}
    seen: set[str] = set()
    out = []
    for d in docs:
        key = _text_key(d)
        if key in test_texts:
            counts.reject("duplicate text of a test-set document")
            continue
        if key in seen:
            counts.reject("duplicate text of an earlier document")
            continue
        seen.add(key)
        out.append(d)
    return out


def prepare_splits(
    docs: Sequence[Document],
    test_docs: Sequence[Document],
    ratios: Sequence[float],
    seed: int,
    counts: Counts,
    min_dev: int = 0,
) -> dict[str, list[Document]]:
    """Deduplicate and split. Without ``test_docs`` the corpus is cut into train/dev/test by
    ``ratios``; with a separate test set the corpus gives train and dev only (the test share of
    ``ratios`` must be 0) and ``test_docs`` (deduplicated) are the test split. A dev split (a dev
    share above 0) holds at least ``min_dev`` notes (``split_documents``)."""
    check_ratios(ratios)
    if not test_docs:
        return split_documents(deduplicate(docs, counts), ratios, seed, min_dev)
    if len(ratios) == 3 and ratios[2]:
        raise InputError(
            f"a separate test set is given (corpus.test_path), but prepare.split {list(ratios)} also "
            "cuts a test share from the corpus",
            path="params.yaml",
            fix="set the test share to 0, e.g. prepare.split: [0.9, 0.1, 0.0]",
        )
    test = deduplicate(test_docs, counts)
    parts = split_documents(deduplicate(docs, counts, held_out=test), ratios, seed, min_dev)
    parts["test"] = sorted(test, key=lambda d: d.id)
    return parts


def check_ratios(ratios: Any) -> None:
    """``prepare.split``: three non-negative numbers (train, dev, test shares) summing to 1."""
    numbers = (
        isinstance(ratios, (list, tuple))
        and len(ratios) == 3
        and all(isinstance(r, (int, float)) and not isinstance(r, bool) and math.isfinite(r) for r in ratios)
    )
    if not numbers or any(r < 0 for r in ratios) or abs(sum(ratios) - 1) > 1e-6:
        shown = list(ratios) if isinstance(ratios, (list, tuple)) else repr(ratios)
        raise InputError(
            f"prepare.split must be three non-negative shares summing to 1, got {shown}",
            path="params.yaml",
            fix="e.g. split: [0.8, 0.1, 0.1] (train, dev, test)",
        )


def split_documents(
    docs: Sequence[Document], ratios: Sequence[float], seed: int, min_dev: int = 0
) -> dict[str, list[Document]]:
    """Shuffle with ``seed`` and cut into train/dev/test by ``ratios``; each split sorted by id.

    A dev split (a dev share above 0) of fewer than ``min_dev`` notes is raised to ``min_dev``
    with notes of the train split (``prepare.min_dev_notes``): early stopping and the prompts rest
    on it, and 5 notes make both noise. When the train split would then keep fewer than
    ``min_dev`` notes, the corpus is refused with the fix."""
    check_ratios(ratios)
    order = sorted(docs, key=lambda d: d.id)
    random.Random(seed).shuffle(order)
    n = len(order)
    n_train = round(n * ratios[0])
    n_dev = round(n * ratios[1]) if ratios[2] else n - n_train
    if n and (n_train == 0 or (ratios[1] and n_dev == 0) or (ratios[2] and n - n_train - n_dev <= 0)):
        raise InputError(
            f"{n} documents are too few for the split {list(ratios)}: a split would be empty",
            path="params.yaml",
            fix="add documents or change prepare.split",
        )
    if ratios[1] and n_dev < min_dev:
        if n_train - (min_dev - n_dev) < min_dev:
            raise InputError(
                f"{n} documents are too few for a dev split of prepare.min_dev_notes = {min_dev} notes "
                f"beside a train split (the split {list(ratios)} gives {n_dev} dev notes)",
                path="params.yaml",
                fix="add documents, lower prepare.min_dev_notes (0: the split's share as it is), "
                "or set the dev share to 0 (taggers then train their full epochs without early stopping)",
            )
        n_train -= min_dev - n_dev
        n_dev = min_dev
    parts = {"train": order[:n_train], "dev": order[n_train : n_train + n_dev], "test": order[n_train + n_dev :]}
    return {k: sorted(v, key=lambda d: d.id) for k, v in parts.items()}


def check_share(value: Any, key: str) -> float:
    """A share of real training data in (0, 1] from params (``key`` names it in the error)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
        raise InputError(
            f"{key} must be a number in (0, 1], not {value!r}",
            path="params.yaml",
            fix="e.g. 0.25 for a quarter of the real training notes; 1 for all of them",
        )
    return float(value)


def share_indices(n: int, share: float, seed: int) -> list[int]:
    """``round(share * n)`` (at least one) of ``range(n)`` from a seeded shuffle, in order; for one
    seed a smaller share's indices lie inside a larger one's (the data-constraint ablation)."""
    order = list(range(n))
    random.Random(seed).shuffle(order)
    return sorted(order[: max(1, round(share * n))]) if n else []
