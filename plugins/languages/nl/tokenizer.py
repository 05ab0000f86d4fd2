"""A fast regex tokenizer for Dutch clinical text with inline PHI tags.

Tokens are character offsets; whitespace is never part of a token. Inline tags
(``<NameSTART>``, ``<PAR>``, ...), URLs, e-mail addresses, abbreviations with periods
("dhr.", "i.v.m.", "J.P."), dates, times, decimals and dashed phone numbers stay whole.
"""

from __future__ import annotations

import re

from .data import ABBREVIATIONS

TAG = r"<(?:[A-Za-z_]+(?:START|END)|PAR|EOD)>"
_TLDS = "nl|com|org|net|eu|info|io"  # bare domains; "de", "nu" are Dutch words
URL = (
    r"(?:(?:https?|ftp)://|www\.)[^\s<>\"']*[^\s<>\"'.,;:!?)\]]"
    rf"|(?<![\w.@-])[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.(?:{_TLDS})\b(?:/[^\s<>\"']*[^\s<>\"'.,;:!?)\]])?"
)
EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
ABBREVIATION_PATTERN = (
    r"(?<![\w.])(?:[A-Za-z]\.){2,}"
    r"|(?<![\w.])(?i:"
    + "|".join(re.escape(a) for a in sorted(set(ABBREVIATIONS), key=len, reverse=True))
    + r")"
    r"|(?<![\w.])[A-Z]\.(?!\d)"
)
NUMBER = r"(?:(?<!\w)\+(?=\d))?\d+(?:[.,:/-]\d+)*(?:u(?![^\W\d_]))?"
WORD = r"[^\W\d_][^\W_]*(?:['’][^\W\d_]+)*|['’][st](?![^\W\d_])"

TOKEN_RE = re.compile(
    "|".join(f"(?:{p})" for p in (TAG, URL, EMAIL, ABBREVIATION_PATTERN, NUMBER, WORD, r"\.{2,}", r"\S"))
)
ABBREVIATION_RE = re.compile(rf"(?:{ABBREVIATION_PATTERN})\Z")


def tokenize(text: str) -> list[tuple[int, int]]:
    """Character offsets ``(start, end)`` of the tokens of ``text``."""
    return [m.span() for m in TOKEN_RE.finditer(text)]


def is_abbreviation(word: str) -> bool:
    """Whether ``word`` (ending in a period) is a known abbreviation or an initial ("J.", "J.P.")."""
    return ABBREVIATION_RE.match(word) is not None
