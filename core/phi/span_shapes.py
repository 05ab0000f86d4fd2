"""Span shapes from the training notes: what a fresh surrogate is modelled on.

A language pack's surrogates keep the shape of the text they replace (``06-12345678`` gets new
digits in the same layout, ``j.jansen@...`` a new address of the same form). For a generated span
that shape is whatever the generator wrote: a word-level model writes a phone number as ``( 7 )``
or an e-mail as ``Plástica``, and a surrogate of that is no better. ``ShapeBank`` instead lends
each generated span the text of a span of the same label drawn from the training notes (these
are pseudonymized: surrogates already), for the language pack to replace in turn; the borrowed
text itself is never published. Draws are seeded per note and weighted by frequency, and the same
generated text gets the same shape within a note (so a repeated name stays one person).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable

from synthdeid.corpus.records import Document, Span
from synthdeid.phi.pseudonymize import substitute
from synthdeid.phi.seeds import derive_seed


class ShapeBank:
    """The training notes' span texts, by label, in reading order."""

    def __init__(self, by_label: dict[str, tuple[str, ...]]) -> None:
        self.by_label = by_label

    @classmethod
    def from_documents(cls, docs: Iterable[Document]) -> ShapeBank:
        by_label: dict[str, list[str]] = {}
        for doc in docs:
            for span in doc.spans:
                text = doc.surface(span).strip()
                if text:
                    by_label.setdefault(span.label, []).append(text)
        return cls({label: tuple(texts) for label, texts in by_label.items()})

    def reshape(self, doc: Document, seed: int, labels: Collection[str] | None = None) -> Document:
        """``doc`` with each span of ``labels`` (every label: ``None``) given the text of a training
        span of its label; a label the training notes lack keeps the generated text."""
        rng = random.Random(derive_seed(seed, "fresh-shape", doc.id))
        chosen: dict[tuple[str, str], str] = {}

        def replace(span: Span, original: str) -> str | None:
            pool = self.by_label.get(span.label)
            if not pool or (labels is not None and span.label not in labels):
                return None
            key = (span.label, original.casefold())
            if key not in chosen:
                chosen[key] = pool[rng.randrange(len(pool))]
            return chosen[key]

        return substitute(doc, replace)
