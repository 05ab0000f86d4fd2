"""Postprocessing a generated corpus: its raw notes parsed into standoff documents (malformed tags
removed and counted, no note dropped except by a counted rule), and the checks on the corpus and its
``fresh_surrogates`` labels that stop the ``postprocess`` stage with the fix."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from pathlib import Path
from typing import Any

from synthdeid.api import LanguagePack, Tokenize
from synthdeid.corpus.accounting import Counts
from synthdeid.corpus.inline import decode
from synthdeid.corpus.records import Document
from synthdeid.corpus.span_bounds import SpanBounds
from synthdeid.errors import SynthdeidError
from synthdeid.generation.raw_notes import read_raw_notes
from synthdeid.generation.unknown_fill import Filled, UnknownFiller, has_unknown
from synthdeid.phi.fresh_surrogates import FreshSettings


def decode_corpus(
    path: str | Path,
    labels: list[str],
    require_phi: bool,
    counts: Counts,
    bounds: SpanBounds,
    tokenize: Tokenize,
    fill: UnknownFiller | None = None,
) -> tuple[list[Document], list[Any]]:
    """The kept documents and every note's tag counts. Each ``<unk>`` the LM wrote is filled with an
    ordinary word by ``fill`` (counted in ``counts.extra["unknown_words"]``; an ``<unk>`` without a
    filler is an error). A span outside ``bounds`` (a label without training spans, a span longer
    than its label's training spans) is removed with its text and counted by reason in
    ``counts.extra["spans_dropped"]``; empty notes, notes with nothing left and, with
    ``require_phi``, notes without PHI are rejected and counted by reason."""
    docs, tag_counts = [], []
    dropped: Counter[str] = Counter()
    shapes: Counter[str] = Counter()
    filled_notes = inside = 0
    for raw in read_raw_notes(path):
        counts.took()
        decoded = decode(raw["text"], raw["id"], labels=labels)
        tag_counts.append(decoded.counts)
        document = decoded.document
        if fill is not None:
            document, by_shape, n_inside = fill.fill(document)
            filled_notes += bool(by_shape)
            shapes.update(by_shape)
            inside += n_inside
        elif has_unknown(document.text):
            raise SynthdeidError(
                f"note {raw['id']!r} of {path} holds <unk>, and there is no word list to fill it with "
                "(the language pack has no ordinary_words); generate it again with generate.unknown_words: never"
            )
        doc, reasons = bounds.trim(document, tokenize) if document.text.strip() else (None, [])
        dropped.update(reasons)
        if not decoded.document.text.strip():
            counts.reject("empty note")
        elif doc is None:
            counts.reject("nothing left once its spans outside the training bounds were removed")
        elif require_phi and not doc.spans:
            counts.reject("no PHI (the decoder's require_phi)")
        else:
            docs.append(doc)
            counts.kept()
    counts.extra["spans_dropped"] = dict(sorted(dropped.items()))
    if fill is not None:
        counts.extra["unknown_words"] = Filled(filled_notes, sum(shapes.values()), inside, dict(shapes)).as_dict()
    return docs, tag_counts


def require_tags_for_taggers(
    corpus: str, generator: str, trained_on: Collection[str], docs: list[Document], labels: list[str]
) -> None:
    """A corpus the utility taggers train on (``trained_on``: ``utility.synthetic`` and ``augmented``)
    must hold PHI tags; ``generator`` is the one that wrote it (named in the error)."""
    if corpus in trained_on and docs and not any(d.spans for d in docs) and labels:
        raise SynthdeidError(
            f"postprocess@{corpus}: the {len(docs)} notes generate@{corpus} wrote hold no PHI tags, so the taggers "
            f"of utility.synthetic/augmented cannot train on them: generator {generator!r} learned none (stage "
            f"train_lm@{generator}; its validation loss is in data/metrics/train_lm/{generator}.json); train it "
            f"longer or on more notes (generators.{generator}.config: max_epochs, max_train_tokens), or check that "
            "the training notes hold PHI (`synthdeid check`)"
        )


def check_fresh_labels(fresh: FreshSettings | None, corpus: str, labels: list[str]) -> None:
    """The labels of ``corpora.CORPUS.fresh_surrogates`` (``fresh``; None: off) are labels of the
    corpus. (Training shapes for a DP generator's corpus are refused with the study spec.)"""
    unknown = set(fresh.labels or ()) - set(labels) if fresh is not None else set()
    if unknown:
        raise SynthdeidError(
            f"corpora.{corpus}.fresh_surrogates.labels: {', '.join(sorted(unknown))} "
            f"is no label of this corpus; the labels are {', '.join(sorted(labels))} (params.yaml)"
        )


def unknown_filler(
    pack: LanguagePack, lm_notes: list[Document], real: list[Document], generator: Any, seed: int
) -> UnknownFiller | None:
    """What fills the ``<unk>`` of a corpus whose LM (``generator``: its study section) learned
    from ``lm_notes`` (the pseudonymized training notes; ``real``: the same notes with their real
    PHI): the pack's ordinary words, no word of either; None when the pack has none."""
    if pack.ordinary_words is None:
        return None
    floor = getattr(generator.settings, "min_count", 1)  # a word-level LM's <unk> threshold
    floor = floor if isinstance(floor, int) else 1
    return UnknownFiller.of(pack.ordinary_words(), lm_notes, pack.tokenize, floor, seed, real)
