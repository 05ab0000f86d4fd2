"""Deduplication and the seeded train/dev/test split."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .accounting import Counts
from .errors import InputError
from .records import Document

SPLITS = ("train", "dev", "test")


def deduplicate(docs: Sequence[Document], counts: Counts) -> list[Document]:
    """Documents with an exact duplicate text earlier in the corpus are rejected (counted): a
    copy in both train and test would inflate every utility and privacy figure."""
    seen: set[str] = set()
    out = []
    for d in docs:
        key = " ".join(d.text.split())
        if key in seen:
            counts.reject("duplicate text of an earlier document")
            continue
        seen.add(key)
        out.append(d)
    return out


def split_documents(docs: Sequence[Document], ratios: Sequence[float], seed: int) -> dict[str, list[Document]]:
    """Shuffle with ``seed`` and cut into train/dev/test by ``ratios``; each split sorted by id."""
    if len(ratios) != 3 or any(r < 0 for r in ratios) or abs(sum(ratios) - 1) > 1e-6:
        raise InputError(f"prepare.split must be three non-negative shares summing to 1, got {list(ratios)}",
                         path="params.yaml", fix="e.g. split: [0.8, 0.1, 0.1]")
    order = sorted(docs, key=lambda d: d.id)
    random.Random(seed).shuffle(order)
    n = len(order)
    n_train = round(n * ratios[0])
    n_dev = round(n * ratios[1])
    if n and (n_train == 0 or (ratios[1] and n_dev == 0) or (ratios[2] and n - n_train - n_dev <= 0)):
        raise InputError(f"{n} documents are too few for the split {list(ratios)}: a split would be empty",
                         path="params.yaml", fix="add documents or change prepare.split")
    parts = {"train": order[:n_train], "dev": order[n_train : n_train + n_dev], "test": order[n_train + n_dev :]}
    return {k: sorted(v, key=lambda d: d.id) for k, v in parts.items()}
