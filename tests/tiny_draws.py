"""A surrogate source for tests that draws from a tiny list of names, so a draw is often another
original of the note, or a part of one: what the keyed surrogates must refuse."""

from __future__ import annotations

import random


class TinyDraws:
    """``surrogate(original, label)``: a seeded draw from ``names`` other than ``original``, the
    same original the same draw within one source."""

    def __init__(self, seed: int, names: list[str]) -> None:
        self.rng, self.names, self.memo = random.Random(seed), names, {}

    def surrogate(self, original: str, label: str) -> str:
        if original not in self.memo:
            self.memo[original] = self.rng.choice([n for n in self.names if n != original])
        return self.memo[original]
