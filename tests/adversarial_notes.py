"""Long notes without spaces or sentence ends, shaped to make a regex rescan ahead from every
position (#41): the tokenizer's e-mail alternative on ``x-x-x-``, the sentence splitter's
boundary on ``.....``, and mixtures of the characters URLs, e-mails, numbers and tags share."""

from __future__ import annotations

import random

UNITS = {
    "letters": "a",
    "letter-dash": "x-",
    "letter-at": "a@",
    "letter-dot": "a.",
    "digit-dot": "1.",
    "digits": "1",
    "dots": ".",
    "marks": "!?.)",
    "tag-open": "<a",
    "plus-digit": "+1",
    "e-mails": "a.b@c.nl",
    "words": "Jansen kwam op twaalf maart bij de huisarts ",
}
"""Repeated to the note's length."""

MIXTURES = {"mixture": "aA1.,:/-@+_'<>!?)", "mixture-email": "ab.-@"}
"""Random characters from these (seeded)."""


def note(shape: str, length: int) -> str:
    """A note of ``length`` characters of the given shape (a key of ``UNITS`` or ``MIXTURES``,
    or ``run-email``: one run of ``x-`` ending in an e-mail domain)."""
    if shape == "run-email":
        tail = "@umcg.nl"
        return ("x-" * length)[: length - len(tail)] + tail
    if shape in MIXTURES:
        rng = random.Random(41)
        alphabet = MIXTURES[shape]
        return "".join(rng.choice(alphabet) for _ in range(length))
    unit = UNITS[shape]
    return (unit * (length // len(unit) + 1))[:length]


SHAPES = (*UNITS, *MIXTURES, "run-email")
