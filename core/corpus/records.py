"""The canonical standoff record: a document's text and its PHI spans."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

from synthdeid.corpus.tags import TagSet
from synthdeid.errors import InputError


@dataclass(frozen=True, order=True)
class Span:
    """A labelled character range ``text[start:end]`` of a document."""

    start: int
    end: int
    label: str

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "label": self.label}


@dataclass(frozen=True)
class Document:
    """A note with its PHI spans, sorted by offset. Construct it through ``Document.create``
    (or call ``validate``) to have offsets and overlaps checked."""

    id: str
    text: str
    spans: tuple[Span, ...] = field(default=())

    @classmethod
    def create(
        cls,
        id: str,
        text: str,
        spans: Iterable[Span] = (),
        tagset: TagSet | None = None,
        allow_empty: bool = False,
    ) -> Document:
        doc = cls(str(id), text, tuple(sorted(spans)))
        return doc.validate(tagset, allow_empty=allow_empty)

    def validate(self, tagset: TagSet | None = None, allow_empty: bool = False) -> Document:
        """Check the record; returns it (labels mapped when a tag set is given)."""
        if not isinstance(self.text, str):
            raise InputError("text is not a string", doc_id=self.id, fix="store the note as a string")
        if not self.text.strip() and not allow_empty:
            raise InputError(
                "the document is empty",
                doc_id=self.id,
                fix="remove the empty document from the corpus or give it its text",
            )
        n = len(self.text)
        spans = []
        for s in self.spans:
            if not (isinstance(s.start, int) and isinstance(s.end, int)):
                raise InputError(
                    f"span {s} has non-integer offsets",
                    doc_id=self.id,
                    fix="offsets are character positions (integers)",
                )
            if not 0 <= s.start < s.end <= n:
                problem = "has start >= end" if s.start >= s.end else f"is outside the text (length {n})"
                raise InputError(
                    f"span {s.start}-{s.end} ({s.label}) {problem}",
                    doc_id=self.id,
                    fix="correct the offsets: they count characters of the text, end exclusive",
                )
            label: str | None = s.label
            if tagset is not None:
                try:
                    label = tagset.map(s.label)
                except InputError as e:
                    raise e.located(doc_id=self.id) from None
            if label is not None:  # None: the mapping says the label is no PHI (counted by the tag set)
                spans.append(Span(s.start, s.end, label))
        spans.sort()
        for a, b in pairwise(spans):
            if b.start < a.end:
                raise InputError(
                    f"spans overlap: {a.start}-{a.end} {a.label} {self.text[a.start : a.end]!r} and "
                    f"{b.start}-{b.end} {b.label} {self.text[b.start : b.end]!r}",
                    doc_id=self.id,
                    fix="keep one of the two spans (synthdeid needs flat, non-overlapping PHI)",
                )
        return replace(self, spans=tuple(spans))

    def surface(self, span: Span) -> str:
        return self.text[span.start : span.end]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "text": self.text, "spans": [s.to_dict() for s in self.spans]}


def label_counts(docs: Iterable[Document]) -> dict[str, int]:
    """Number of spans per label over ``docs``, sorted by label."""
    counts: dict[str, int] = {}
    for d in docs:
        for s in d.spans:
            counts[s.label] = counts.get(s.label, 0) + 1
    return dict(sorted(counts.items()))
