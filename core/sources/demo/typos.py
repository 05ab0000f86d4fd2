"""Seeded typing errors for plain (non-PHI) text: swapped, dropped, doubled or mistyped letters."""

from __future__ import annotations

import random
import re

_WORD = re.compile(r"[A-Za-zÀ-ÿ]{4,}")

# Neighbouring keys on a QWERTY keyboard (lower case letters only).
_NEIGHBOURS = {
    "a": "sqz",
    "b": "vn",
    "c": "xv",
    "d": "sf",
    "e": "wr",
    "f": "dg",
    "g": "fh",
    "h": "gj",
    "i": "uo",
    "j": "hk",
    "k": "jl",
    "l": "k",
    "m": "n",
    "n": "bm",
    "o": "ip",
    "p": "o",
    "r": "et",
    "s": "ad",
    "t": "ry",
    "u": "yi",
    "v": "cb",
    "w": "qe",
    "z": "xa",
}


def misspell(word: str, rng: random.Random) -> str:
    """One typing error in ``word`` (first letter kept, so capitalisation survives)."""
    n = len(word)
    i = rng.randrange(1, n - 1)
    kind = rng.random()
    if kind < 0.35:  # swap two neighbouring letters
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if kind < 0.65:  # drop a letter
        return word[:i] + word[i + 1 :]
    if kind < 0.8:  # double a letter
        return word[:i] + word[i] + word[i:]
    c = word[i]
    alt = _NEIGHBOURS.get(c)
    if not alt:
        return word[:i] + word[i + 1 :]
    return word[:i] + rng.choice(alt) + word[i + 1 :]


def add_typos(text: str, rng: random.Random, rate: float) -> str:
    """``text`` with each word of four or more letters misspelt with probability ``rate``."""
    if rate <= 0 or not text:
        return text
    words = list(_WORD.finditer(text))
    if not words:
        return text
    out: list[str] = []
    pos = 0
    for m in words:
        if rng.random() < rate:
            out.append(text[pos : m.start()])
            out.append(misspell(m.group(), rng))
            pos = m.end()
    if pos == 0:
        return text
    out.append(text[pos:])
    return "".join(out)
