"""Every exact occurrence of a PHI string found in a note becomes a span too.

A tagger that finds ``Aafje`` once and misses it two sentences later would otherwise leave the
original beside its surrogate, and the output would link the two. An occurrence counts where it
stands as whole words: ``Jansen`` is found in "dhr. Jansen." but not in "Jansens". The pass is
linear in the note's length: candidates are looked up by the word they start with.
"""

from __future__ import annotations

import re

from synthdeid.corpus.records import Document, Span

_TOKEN = re.compile(r"\w+|[^\w\s]")
_WORD = re.compile(r"\w")


def add_every_occurrence(doc: Document) -> tuple[Document, int]:
    """``doc`` with a span (of the same label) on every whole-word occurrence of a found span's
    text that no span covers yet, and how many it added. Longer strings win where two could start."""
    if not doc.spans:
        return doc, 0
    text = doc.text
    labels: dict[str, str] = {}
    for span in doc.spans:
        surface = text[span.start : span.end]
        if surface.strip():
            labels.setdefault(surface, span.label)
    by_first: dict[str, list[str]] = {}
    for surface in sorted(labels, key=len, reverse=True):
        first = _TOKEN.search(surface)
        if first is not None and first.start() == 0:  # a span starting with a space is left as it is
            by_first.setdefault(first.group(), []).append(surface)
    taken = sorted(doc.spans)
    added: list[Span] = []
    i = 0  # the first span that ends after the current token
    last_end = 0
    for m in _TOKEN.finditer(text):
        start = m.start()
        if start < last_end:
            continue
        candidates = by_first.get(m.group())
        if not candidates:
            continue
        while i < len(taken) and taken[i].end <= start:
            i += 1
        for surface in candidates:
            end = start + len(surface)
            if not text.startswith(surface, start) or _word_continues(text, end, surface):
                continue
            if i < len(taken) and taken[i].start < end:
                continue  # overlaps a span already there (often: it is that span)
            added.append(Span(start, end, labels[surface]))
            last_end = end
            break
    if not added:
        return doc, 0
    return Document.create(doc.id, text, [*doc.spans, *added]), len(added)


def _word_continues(text: str, end: int, surface: str) -> bool:
    """Whether the match ends inside a word ("Jansen" in "Jansens")."""
    return end < len(text) and _WORD.match(surface[-1]) is not None and _WORD.match(text[end]) is not None
