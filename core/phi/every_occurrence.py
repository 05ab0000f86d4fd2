"""Every exact occurrence of a PHI string found in a note becomes a span too.

A tagger that finds ``Aafje`` once and misses it two sentences later would otherwise leave the
original beside its surrogate, and the output would link the two. An occurrence counts where it
stands as whole words: ``Jansen`` is found in "dhr. Jansen." but not in "Jansens". The pass is
linear in the note's length: at each word, only the lengths (in words) of the found strings that
start with it are tried, each a dictionary lookup.
"""

from __future__ import annotations

import re

from synthdeid.corpus.records import Document, Span

_TOKEN = re.compile(r"\w+|[^\w\s]")


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
    lengths: dict[str, set[int]] = {}  # first word -> the found strings' lengths in words
    for surface in labels:
        words = _TOKEN.findall(surface)
        if words and surface.startswith(words[0]) and surface.endswith(words[-1]):
            lengths.setdefault(words[0], set()).add(len(words))
    by_first = {word: sorted(ns, reverse=True) for word, ns in lengths.items()}
    tokens = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text)]
    taken = sorted(doc.spans)
    added: list[Span] = []
    i = 0  # the first span that ends after the current token
    last_end = 0
    for t, (start, _, word) in enumerate(tokens):
        counts = by_first.get(word)
        if counts is None or start < last_end:
            continue
        while i < len(taken) and taken[i].end <= start:
            i += 1
        for n in counts:  # a string's ends are token ends: whole words by construction
            if t + n > len(tokens):
                continue
            end = tokens[t + n - 1][1]
            label = labels.get(text[start:end])
            if label is None or (i < len(taken) and taken[i].start < end):
                continue  # no such string, or it overlaps a span already there (often: it is that span)
            added.append(Span(start, end, label))
            last_end = end
            break
    if not added:
        return doc, 0
    return Document.create(doc.id, text, [*doc.spans, *added]), len(added)
