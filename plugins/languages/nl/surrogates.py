"""Dutch surrogate PHI for one document: the shared generators with Dutch word lists, Dutch places
and a burgerservicenummer that passes the 11-proef."""

from __future__ import annotations

import random

from faker import Faker

from synthdeid.toolkit import BaseSurrogates, shape_replace

from .data import surrogate_data
from .places import DutchPlaces


class DutchSurrogates(BaseSurrogates):
    """Surrogates for the PHI of one Dutch document (implements ``DocumentSurrogates``)."""

    language = "Dutch"
    code = "nl"
    places_class = DutchPlaces

    def __init__(self, doc_id: str, seed: int, faker: Faker) -> None:
        super().__init__(doc_id, seed, faker, surrogate_data())

    def ssn(self, original: str) -> str:
        """A BSN that passes the 11-proef, in the original's layout ("123.456.782")."""
        positions = [i for i, c in enumerate(original) if c.isdigit()]
        if len(positions) not in (8, 9):
            return shape_replace(original, self.rng)
        bsn = make_bsn(self.rng, leading_zero=len(positions) == 8)
        digits = bsn[-len(positions) :]
        out = list(original)
        for i, d in zip(positions, digits):
            out[i] = d
        return "".join(out)


def make_bsn(rng: random.Random, leading_zero: bool = False) -> str:
    """A random 9-digit burgerservicenummer passing the 11-proef
    (9*d1 + 8*d2 + ... + 2*d8 - d9 divisible by 11)."""
    while True:
        d = [rng.randrange(10) for _ in range(8)]
        if leading_zero:
            d[0] = 0
        check = sum((9 - i) * x for i, x in enumerate(d)) % 11
        if check == 10 or not any(d):
            continue
        return "".join(map(str, d)) + str(check)


def is_valid_bsn(text: str) -> bool:
    """Whether the digits of ``text`` form a 9-digit number passing the 11-proef."""
    d = [int(c) for c in text if c.isdigit()]
    if len(d) != 9 or not any(d):
        return False
    return (sum((9 - i) * x for i, x in enumerate(d[:8])) - d[8]) % 11 == 0
