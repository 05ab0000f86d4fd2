"""Generic head words of institution names, kept in their surrogates.

A pharmacy in the notes is ``Apotheek Dorpskade``, a municipality ``Gemeente Vuren``, a care home
``Zorggroep Vijverhof``. ``Apotheek``, ``Gemeente`` and ``Zorggroep`` identify no one: they head
many different names in many patients' notes. A surrogate that replaces them too
(``Bouwbedrijf Tuil``) teaches a tagger trained on synthetic notes another vocabulary than the
notes it will read. ``HeadWords`` are the words of a label's training spans that head at least
``min_spans`` different names (what is left of the spans without such words) in at least
``min_notes`` notes (case-folded, letters only; ``HeadWords.from_documents``); a surrogate keeps
them and draws only the rest of the span (``HeadWords.surrogate``). A name's own words, however
often and however variously the notes write the name, head no other name and are replaced.

Which words qualify is decided on the real training notes alone, and written beside the
pseudonymized notes (``data/pseudonymized/head_words.json``) where the privacy audit and the
datasheet read it: a word heads a label's spans in several notes, or it is replaced.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from synthdeid.corpus.formats.textfile import atomic_write
from synthdeid.corpus.records import Document

_WORD = re.compile(r"\S+")


def _fold(word: str) -> str:
    return word.casefold()


@dataclass(frozen=True)
class HeadWords:
    """Per label, the case-folded words a surrogate keeps."""

    by_label: Mapping[str, frozenset[str]]
    min_spans: int = 0
    min_notes: int = 0

    @classmethod
    def from_documents(
        cls, docs: Iterable[Document], labels: Collection[str], min_spans: int, min_notes: int
    ) -> HeadWords:
        """The words of ``labels``' spans that head ``min_spans`` different names in ``min_notes``
        distinct notes; only words of letters (no digit: a house number, a ward).

        Two passes. The candidates are the words found in ``min_spans`` distinct span texts
        (case-folded) of ``min_notes`` notes. A name's own words pass that too when the notes write
        it several ways (``Mariënhaven``, ``Zorgcentrum Mariënhaven``, ``woonzorgcentrum
        Mariënhaven``), so a candidate is kept only if, with every candidate word of the label taken
        out of its spans, what remains (the identifying part) still takes ``min_spans`` distinct
        values in ``min_notes`` notes: ``Apotheek`` heads ``Dorpskade``, ``Vuren``, ``De Linde``;
        ``Mariënhaven`` heads nothing but other candidates."""
        found: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        for doc in docs:
            for span in doc.spans:
                if span.label in labels:
                    words = tuple(w for w in _WORD.findall(_fold(doc.surface(span))) if any(c.isalnum() for c in w))
                    found.setdefault(span.label, []).append((doc.id, words))
        by_label: dict[str, frozenset[str]] = {}
        for label, spans in sorted(found.items()):
            candidates = _heading(spans, set(), min_spans, min_notes)
            kept = _heading(spans, candidates, min_spans, min_notes) & candidates
            if kept:
                by_label[label] = frozenset(kept)
        return cls(by_label, min_spans, min_notes)

    def words(self, label: str) -> frozenset[str]:
        return self.by_label.get(label, frozenset())

    def is_generic(self, label: str, text: str) -> bool:
        """Whether every word of ``text`` is a head word of ``label`` (nothing in it to replace)."""
        heads = self.words(label)
        found = _WORD.findall(text)
        return bool(heads) and bool(found) and all(_fold(w) in heads for w in found)

    def surrogate(self, label: str, original: str, draw: Callable[[str], str]) -> str:
        """``original`` with its leading and trailing head words kept and the part between them
        replaced by ``draw(part)`` with head words at its edges removed (``Apotheek Dorpskade``
        -> ``Apotheek`` + ``Almelo`` of a draw ``Gemeente Almelo``; the whole draw when nothing
        else is left). Without head words: ``draw(original)``; all head words: ``original`` (a
        generic name)."""
        heads = self.words(label)
        words = list(_WORD.finditer(original))
        inner = [i for i, m in enumerate(words) if _fold(m.group()) not in heads]
        if not heads or len(inner) == len(words):
            return draw(original)
        if not inner:
            return original
        start, end = words[inner[0]].start(), words[inner[-1]].end()
        part = original[start:end]
        drawn = draw(part)
        core = self._strip(drawn, heads)
        return original[:start] + (core if core and _fold(core) != _fold(part) else drawn) + original[end:]

    @staticmethod
    def _strip(text: str, heads: frozenset[str]) -> str:
        words = _WORD.findall(text)
        while words and _fold(words[0]) in heads:
            words.pop(0)
        while words and _fold(words[-1]) in heads:
            words.pop()
        return " ".join(words)

    def as_dict(self) -> dict[str, Any]:
        return {
            "min_spans": self.min_spans,
            "min_notes": self.min_notes,
            "words": {label: sorted(words) for label, words in self.by_label.items()},
        }

    def write(self, path: str | Path) -> None:
        with atomic_write(path) as f:
            f.write(json.dumps(self.as_dict(), ensure_ascii=False, indent=1) + "\n")

    @classmethod
    def read(cls, path: str | Path) -> HeadWords:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return cls(
            {label: frozenset(words) for label, words in data["words"].items()}, data["min_spans"], data["min_notes"]
        )


def _heading(spans: list[tuple[str, tuple[str, ...]]], drop: set[str], min_spans: int, min_notes: int) -> set[str]:
    """The words of letters whose spans, without the words ``drop``, take ``min_spans`` distinct
    non-empty texts in ``min_notes`` distinct notes."""
    values: dict[str, set[str]] = {}
    notes: dict[str, set[str]] = {}
    for note, words in spans:
        text = " ".join(x for x in words if x not in drop)
        for w in set(words):
            if w.isalpha() and text:
                values.setdefault(w, set()).add(text)
                notes.setdefault(w, set()).add(note)
    return {w for w, vs in values.items() if len(vs) >= min_spans and len(notes[w]) >= min_notes}


NONE = HeadWords({})
"""No head words: every word of every span is replaced."""
