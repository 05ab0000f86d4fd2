"""A rule-based sentence splitter that knows a language's abbreviations and initials."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

_LINE = re.compile(r"[^\r\n]+")
# End punctuation, optional closing quotes/brackets, then whitespace. Only from the start of a run
# of end punctuation (where every match starts anyway): from inside "....", each failed attempt
# would rescan the rest of the run, quadratic on a long one.
_BOUNDARY = re.compile(r"(?<![.!?])[.!?]+[\"'”’»)\]]*(\s+)")
_OPEN_TAG = re.compile(r"<[A-Za-z_]+START>\s*")
_OPENERS = "\"'“‘«([¿¡"


def _strip(text: str, start: int, end: int) -> tuple[int, int] | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


class SentenceSplitter:
    """``split_sentences(text)`` for one language.

    ``is_abbreviation(word)`` tells whether a word ending in a period is an abbreviation or an
    initial (no split after it); ``final_abbreviations`` may also end a sentence ("etc.").
    """

    def __init__(self, is_abbreviation: Callable[[str], bool], final_abbreviations: Iterable[str] = ()) -> None:
        self.is_abbreviation = is_abbreviation
        self.final_abbreviations = frozenset(a.casefold() for a in final_abbreviations)

    def _starts_sentence(self, text: str, pos: int) -> bool:
        """Whether the text at ``pos`` (after whitespace) can begin a sentence."""
        m = _OPEN_TAG.match(text, pos)
        if m:
            pos = m.end()
        if pos >= len(text):
            return False
        ch = text[pos]
        if ch in _OPENERS:
            pos += 1
            if pos >= len(text):
                return False
            ch = text[pos]
        return ch.isupper() or ch.isdigit()

    def _no_split_after(self, text: str, end: int) -> bool:
        """Whether the period ending at ``end`` belongs to an abbreviation or an initial."""
        start = end
        while start > 0 and not text[start - 1].isspace():
            start -= 1
        word = text[start:end].lstrip(_OPENERS)
        if not word.endswith(".") or word.casefold() in self.final_abbreviations:
            return False
        return self.is_abbreviation(word)

    def split_sentences(self, text: str) -> list[tuple[int, int]]:
        """Sentence offsets: split at newlines and at ``. ! ?`` followed by whitespace and an
        uppercase letter or digit, except after abbreviations and initials. Offsets exclude the
        surrounding whitespace and every non-space character belongs to exactly one sentence."""
        out: list[tuple[int, int]] = []
        for line in _LINE.finditer(text):
            start, line_end = line.span()
            for b in _BOUNDARY.finditer(text, start, line_end):
                cut = b.start(1)
                if not self._starts_sentence(text, b.end(1)) or self._no_split_after(text, b.start(1)):
                    continue
                span = _strip(text, start, cut)
                if span:
                    out.append(span)
                start = b.end(1)
            span = _strip(text, start, line_end)
            if span:
                out.append(span)
        return out
