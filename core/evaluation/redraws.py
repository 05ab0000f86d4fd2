"""Mention replacement for taggers trained on synthetic notes: the notes several times over, each
copy with its own fresh surrogates (``utility.surrogate_redraws``).

A tagger that sees ``Zorgcentrum De Linde`` in one context only may learn the name; one that sees
the same context with three different care homes must learn the context. The copies keep the
notes' text around the spans, so the context is what repeats and the PHI is what changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from synthdeid.corpus.records import Document

if TYPE_CHECKING:
    from synthdeid.api import LanguagePack
    from synthdeid.spec.study import Study

REDRAW_ID = "~redraw{k}"
"""Appended to a copy's id (``note~redraw1``)."""


def with_redraws(
    docs: Sequence[Document], redraws: int, redraw: Callable[[list[Document], int], list[Document]]
) -> list[Document]:
    """``docs`` followed by ``redraws - 1`` copies, copy ``k`` being ``redraw(docs, k)`` (the same
    notes, one each, with new surrogates)."""
    out = list(docs)
    for k in range(1, redraws):
        again = redraw(list(docs), k)
        if len(again) != len(docs):
            raise ValueError(f"redraw {k} returned {len(again)} notes for {len(docs)}")
        out += [Document.create(d.id + REDRAW_ID.format(k=k), d.text, d.spans) for d in again]
    return out


def study_redraw(study: Study, corpus: str, pack: LanguagePack) -> Callable[[list[Document], int], list[Document]]:
    """The redraw of ``corpus``'s notes as the study draws its fresh surrogates: its
    ``fresh_surrogates`` settings (a machine-annotated or plain corpus: every label, generated
    shapes), the pseudonymized training notes' shapes and the study's head words."""
    from synthdeid import paths
    from synthdeid.corpus.formats import read_jsonl
    from synthdeid.generation.origin import Origin
    from synthdeid.phi.fresh_surrogates import EVERY_LABEL, redrawer
    from synthdeid.phi.head_words import HeadWords

    settings = Origin.read(paths.corpus_origin(corpus)).fresh_surrogates or EVERY_LABEL
    real = list(read_jsonl(paths.pseudonymized("train")))
    return redrawer(pack, study.pseudonymize.seed, real, settings, HeadWords.read(paths.HEAD_WORDS))
