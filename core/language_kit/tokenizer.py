"""A fast regex tokenizer for clinical text with inline PHI tags, built per language.

Tokens are character offsets; whitespace is never part of a token. Inline tags
(``<NameSTART>``, ``<PAR>``, ...), URLs, e-mail addresses, the language's abbreviations
("dhr.", "i.v.m.", "Dra.", "t.ex."), initials ("J.P."), dates, times, decimals and dashed phone
numbers stay whole.

Tokenizing is linear in the text's length. The e-mail alternative has no left anchor (it may
start after a token that ended inside a run of e-mail characters), so trying it from every
position rescans the run ahead: quadratic on a long run without spaces. It can only match inside
a run of word characters and ``.+-`` that ends in ``@`` and a domain, so those runs are found
first (one linear pass) and the pattern with the e-mail alternative runs there only; elsewhere
the same pattern without it gives the same tokens.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

TAG = r"<(?:[A-Za-z_]+(?:START|END)|PAR|EOD)>"
EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
_EMAIL_RUN = re.compile(r"(?<![\w.+-])[\w.+-]+(?=@[\w-]+\.[\w-])")
"""The runs where ``EMAIL`` matches: at any of their positions, and nowhere else."""
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
        parts = (TAG, url, EMAIL, abbreviation, number, word, r"\.{2,}", r"\S")
        self.pattern = re.compile("|".join(f"(?:{p})" for p in parts))
        self._no_email = re.compile("|".join(f"(?:{p})" for p in parts if p != EMAIL))
        self._abbreviation = re.compile(rf"(?:{abbreviation})\Z")

    def tokenize(self, text: str) -> list[tuple[int, int]]:
        """Character offsets ``(start, end)`` of the tokens of ``text``."""
        if "@" not in text:
            return [m.span() for m in self._no_email.finditer(text)]
        out: list[tuple[int, int]] = []
        pos = 0
        for run in _EMAIL_RUN.finditer(text):
            start, end = run.span()
            if end <= pos:  # inside a token already (a URL)
                continue
            for m in self._no_email.finditer(text, pos):
                if m.start() >= start:
                    break
                out.append(m.span())
                pos = m.end()
            pos = max(pos, start)
            while pos < end:  # every position of the run matches (an e-mail address at least)
                hit = self.pattern.match(text, pos)
                assert hit is not None
                out.append(hit.span())
                pos = hit.end()
        out.extend(m.span() for m in self._no_email.finditer(text, pos))
        return out

    def is_abbreviation(self, word: str) -> bool:
        """Whether ``word`` (ending in a period) is a known abbreviation or an initial ("J.", "J.P.")."""
        return self._abbreviation.match(word) is not None
