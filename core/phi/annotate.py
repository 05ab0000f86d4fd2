"""Annotators find PHI spans in raw text; the ``annotate`` stage applies one to a corpus."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice

from synthdeid.api import Annotator, BatchAnnotator
from synthdeid.corpus.records import Document, Span
from synthdeid.corpus.tags import TagSet
from synthdeid.errors import InputError

BATCH = 64
"""Notes per call of a ``BatchAnnotator``'s ``annotate_many`` (a model-based annotator predicts a
batch at once; rule-based ones need only ``annotate``)."""


def _spans(docs: Iterable[Document], annotator: Annotator, batch: int) -> Iterator[tuple[Document, list[Span]]]:
    if not isinstance(annotator, BatchAnnotator):
        for doc in docs:
            yield doc, annotator.annotate(doc.text)
        return
    docs = iter(docs)
    while notes := list(islice(docs, batch)):
        predicted = annotator.annotate_many([d.text for d in notes])
        if len(predicted) != len(notes):
            raise InputError(
                f"the annotator returned spans for {len(predicted)} of {len(notes)} notes",
                doc_id=notes[0].id,
                fix="this is a bug in the annotator plugin; report it",
            )
        yield from zip(notes, predicted)


def annotate_documents(
    docs: Iterable[Document], annotator: Annotator, tagset: TagSet | None = None, batch: int = BATCH
) -> Iterator[Document]:
    """Each document with its spans replaced by the annotator's (validated, labels mapped); a
    ``BatchAnnotator`` gets ``batch`` notes a call."""
    for doc, spans in _spans(docs, annotator, batch):
        try:
            yield Document.create(doc.id, doc.text, spans, tagset=tagset)
        except InputError as e:
            raise InputError(
                f"the annotator returned invalid spans: {e.problem}",
                doc_id=doc.id,
                fix="this is a bug in the annotator plugin; report it with the document",
            ) from None
