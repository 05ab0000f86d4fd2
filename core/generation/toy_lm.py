"""A tiny bigram language model implementing ``AutoregressiveLM``: for tests, benchmarks of the
decoding loop, and as the smallest example of the generator interface."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import torch

from synthdeid.corpus.inline import EOD, PAR, special_tokens


class BigramLM:
    """Next-token logits depend on the last token only: ``table[last]``."""

    def __init__(
        self,
        words: Sequence[str],
        labels: Sequence[str] = ("Name", "Date"),
        seed: int = 0,
        table: torch.Tensor | None = None,
    ) -> None:
        self.vocab = ["<unk>", *special_tokens(labels), *words]
        self.index = {t: i for i, t in enumerate(self.vocab)}
        self.eod_id = self.index[EOD]
        g = torch.Generator().manual_seed(seed)
        n = len(self.vocab)
        self.table = table if table is not None else torch.randn(n, n, generator=g)

    @classmethod
    def fit(cls, lines: Sequence[str], labels: Sequence[str] = ("Name", "Date"), smoothing: float = 0.1) -> BigramLM:
        """Count bigrams of space-separated inline text (log of smoothed counts as logits)."""
        words = sorted({t for line in lines for t in line.split()} - set(special_tokens(labels)) - {"<unk>"})
        lm = cls(words, labels)
        counts = torch.full((len(lm.vocab),) * 2, smoothing)
        for line in lines:
            ids = lm.encode(line)
            for a, b in pairwise(ids):
                counts[a, b] += 1
        lm.table = counts.log()
        return lm

    def encode(self, text: str) -> list[int]:
        return [self.index.get(t, 0) for t in text.split()]

    def decode(self, ids: list[int]) -> str:
        return " ".join(self.vocab[i] for i in ids)

    def start(self, prompts: list[list[int]]) -> tuple[Any, torch.Tensor]:
        last = torch.tensor([p[-1] if p else self.index[PAR] for p in prompts], dtype=torch.long)
        return last, self.table[last]

    def step(self, state: Any, tokens: torch.Tensor) -> tuple[Any, torch.Tensor]:
        return tokens, self.table[tokens]

    def select(self, state: Any, rows: torch.Tensor) -> Any:
        return state[rows]
