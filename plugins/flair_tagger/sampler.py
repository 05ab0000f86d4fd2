"""Length-bucketed, seeded batches for flair training.

flair's CRF works on a batch x length x tags x tags tensor, so padding is expensive: on the demo
corpus (lines of median 6 and at most 128 tokens) random batches of 32 were 7x padding. Here
each epoch shuffles the sentences, sorts pools of 50 batches by length, cuts them into batches
and shuffles the batches (the one short batch goes last so the loader's batches stay aligned).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import torch
from flair.samplers import FlairSampler


class LengthBuckets(FlairSampler):
    """Configure with ``bucket_sampler(batch_size, seed)``: flair instantiates the class itself
    and records only its name in the model card (an instance would be saved with the model,
    training sentences included)."""

    batch_size = 32
    seed = 0
    pool = 50

    def __init__(self) -> None:
        super().__init__()
        self.generator = torch.Generator().manual_seed(self.seed)
        self.lengths: list[int] = []

    def set_dataset(self, data_source: Any) -> None:
        super().set_dataset(data_source)
        self.lengths = [len(s) for s in data_source]

    def __iter__(self) -> Iterator[int]:
        n, size = len(self.lengths), self.batch_size
        order = torch.randperm(n, generator=self.generator).tolist()
        full: list[list[int]] = []
        rest: list[int] = []
        for i in range(0, n, size * self.pool):
            chunk = sorted(order[i : i + size * self.pool], key=lambda k: (self.lengths[k], k))
            for j in range(0, len(chunk), size):
                (full.append if len(chunk[j : j + size]) == size else rest.extend)(chunk[j : j + size])
        batches = [full[b] for b in torch.randperm(len(full), generator=self.generator).tolist()]
        return iter([k for batch in batches for k in batch] + rest)


def bucket_sampler(batch_size: int, seed: int) -> type[LengthBuckets]:
    """A ``LengthBuckets`` subclass for one training run."""
    return type("LengthBuckets", (LengthBuckets,), {"batch_size": batch_size, "seed": seed})
