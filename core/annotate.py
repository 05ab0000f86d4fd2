"""Annotators find PHI spans in raw text; the ``annotate`` stage applies one to a corpus."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from .errors import InputError
from .records import Document, Span
from .tags import TagSet


class Annotator(Protocol):
    """What an annotator plugin's factory returns."""

    def annotate(self, text: str) -> list[Span]:
        """PHI spans of ``text`` with canonical labels (non-overlapping)."""
        ...


def annotate_documents(
    docs: Iterable[Document], annotator: Annotator, tagset: TagSet | None = None
) -> Iterator[Document]:
    """Each document with its spans replaced by the annotator's (validated, labels mapped)."""
    for doc in docs:
        spans = annotator.annotate(doc.text)
        try:
            yield Document.create(doc.id, doc.text, spans, tagset=tagset)
        except InputError as e:
            raise InputError(
                f"the annotator returned invalid spans: {e.problem}",
                doc_id=doc.id,
                fix="this is a bug in the annotator plugin; report it with the document",
            ) from None
