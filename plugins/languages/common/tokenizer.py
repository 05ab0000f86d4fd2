"""A fast regex tokenizer for clinical text with inline PHI tags, built per language.

Tokens are character offsets; whitespace is never part of a token. Inline tags
(``<NameSTART>``, ``<PAR>``, ...), URLs, e-mail addresses, the language's abbreviations
("dhr.", "i.v.m.", "Dra.", "t.ex."), initials ("J.P."), dates, times, decimals and dashed phone
numbers stay whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

TAG = r"<(?:[A-Za-z_]+(?:START|END)|PAR|EOD)>"
EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
LATIN1_UPPER = "À-ÖØ-Þ"
LATIN1 = "À-ÖØ-öø-ÿ"
WORD = r"[^\W\d_][^\W_]*(?:['’][^\W\d_]+)*"


class Tokenizer:
    """``tokenize(text)`` for one language.

    ``abbreviations`` are written with their final period ("dhr."); ``tlds`` are the top-level
    domains a bare domain ("umcg.nl") may end in (leave out those that are words of the
    language); ``number_suffix`` is a regex glued to numbers ("14.30u"); ``extra_words`` are
    alternatives tried before plain words (Dutch "'s", "'t").
    """

    def __init__(
        self,
        abbreviations: Iterable[str],
        tlds: Iterable[str] = ("com", "org", "net", "eu", "info", "io"),
        number_suffix: str = "",
        extra_words: str = "",
    ) -> None:
        url = (
            r"(?:(?:https?|ftp)://|www\.)[^\s<>\"']*[^\s<>\"'.,;:!?)\]]"
            rf"|(?<![\w.@-])[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.(?:{'|'.join(tlds)})\b"
            r"(?:/[^\s<>\"']*[^\s<>\"'.,;:!?)\]])?"
        )
        known = "|".join(re.escape(a) for a in sorted(set(abbreviations), key=len, reverse=True) if a)
        abbreviation = (
            rf"(?<![\w.])(?:[A-Za-z{LATIN1}]\.){{2,}}"
            + (rf"|(?<![\w.])(?i:{known})" if known else "")  # no list: no empty alternative
            + rf"|(?<![\w.])[A-Z{LATIN1_UPPER}]\.(?!\d)"
        )
        number = r"(?:(?<!\w)\+(?=\d))?\d+(?:[.,:/-]\d+)*" + (f"(?:{number_suffix})?" if number_suffix else "")
        word = WORD + (f"|{extra_words}" if extra_words else "")
        self.pattern = re.compile(
            "|".join(f"(?:{p})" for p in (TAG, url, EMAIL, abbreviation, number, word, r"\.{2,}", r"\S"))
        )
        self._abbreviation = re.compile(rf"(?:{abbreviation})\Z")

    def tokenize(self, text: str) -> list[tuple[int, int]]:
        """Character offsets ``(start, end)`` of the tokens of ``text``."""
        return [m.span() for m in self.pattern.finditer(text)]

    def is_abbreviation(self, word: str) -> bool:
        """Whether ``word`` (ending in a period) is a known abbreviation or an initial ("J.", "J.P.")."""
        return self._abbreviation.match(word) is not None
