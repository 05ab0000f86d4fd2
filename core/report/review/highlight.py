"""Find shared n-grams in a note and render it as escaped HTML with the matches in ``<mark>``.

An n-gram is a list of tokens (as produced by a language pack's tokenizer). It is found in a text
as that token sequence, case-insensitively: tokens are separated by optional whitespace (required
whitespace between two word characters, so ``["de", "n"]`` does not match ``den``), and a match does
not start or end inside a word. The token ``<PAR>`` (the paper's paragraph marker) also matches a
newline, so n-grams computed on inline-tag text are found in plain text too.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

PAR = "<PAR>"
_PAR_RE = r"(?:<PAR>|\r?\n)"


def _token_pattern(token: str) -> str:
    return _PAR_RE if token.upper() == PAR else re.escape(token)


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def ngram_pattern(tokens: Sequence[str]) -> re.Pattern[str] | None:
    """A compiled case-insensitive pattern for one n-gram, or None for an empty one."""
    toks = [t for t in (str(t).strip() for t in tokens) if t]
    if not toks:
        return None
    parts: list[str] = []
    if _is_word(toks[0][0]):
        parts.append(r"(?<!\w)")
    for i, tok in enumerate(toks):
        if i:
            prev = toks[i - 1]
            word_gap = _is_word(prev[-1]) and _is_word(tok[0]) and PAR not in (prev.upper(), tok.upper())
            parts.append(r"\s+" if word_gap else r"\s*")
        parts.append(_token_pattern(tok))
    if _is_word(toks[-1][-1]):
        parts.append(r"(?!\w)")
    return re.compile("".join(parts), re.IGNORECASE)


def find_ranges(text: str, ngrams: Iterable[Sequence[str]]) -> list[tuple[int, int]]:
    """Character ranges of every occurrence of every n-gram in ``text``, merged and sorted.

    Overlapping and touching occurrences are merged, so a long copied passage (many overlapping
    3-grams) becomes one range. Overlapping occurrences of the same n-gram are all found.
    """
    found: list[tuple[int, int]] = []
    seen: set[tuple[str, ...]] = set()
    for gram in ngrams:
        key = tuple(str(t).lower() for t in gram)
        if key in seen:
            continue
        seen.add(key)
        pattern = ngram_pattern(gram)
        if pattern is None:
            continue
        pos = 0
        while (m := pattern.search(text, pos)) is not None:
            if m.end() > m.start():
                found.append(m.span())
            pos = m.start() + 1
    return merge_ranges(found)


def merge_ranges(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, non-overlapping ranges covering the same characters (touching ranges are joined)."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _escape(text: str) -> str:
    """HTML-escaped text with newlines as ``<br>``."""
    return html.escape(text, quote=True).replace("\r\n", "\n").replace("\n", "<br>\n")


def render_marked(text: str, ranges: Sequence[tuple[int, int]]) -> str:
    """``text`` as escaped HTML, each range wrapped in ``<mark>``; newlines become ``<br>``."""
    out: list[str] = []
    pos = 0
    for start, end in ranges:
        out.append(_escape(text[pos:start]))
        out.append(f"<mark>{_escape(text[start:end])}</mark>")
        pos = end
    out.append(_escape(text[pos:]))
    return "".join(out)
