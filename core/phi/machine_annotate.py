"""Machine annotation (Vakili et al. 2025): a tagger trained on the real gold notes annotates the
notes of an untagged generator, which then form a synthetic corpus like any other.

Every input note is accounted for: annotated, or rejected for a counted reason (an empty note; a
note the tagger found no PHI in, with ``require_phi``); a span outside the real training notes'
span bounds (``synthdeid.corpus.span_bounds``) is removed with its text, counted. Spans the input already had are replaced by
the tagger's (their number is reported)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from synthdeid.api import Tokenize, TrainedTagger
from synthdeid.corpus.accounting import Counts
from synthdeid.corpus.records import Document, label_counts
from synthdeid.corpus.span_bounds import SpanBounds
from synthdeid.errors import InputError, SynthdeidError
from synthdeid.progress import track

BATCH = 256
"""Notes per ``predict`` call (the tagger batches its windows itself; this only paces the progress bar)."""


def machine_annotate(
    docs: Sequence[Document],
    tagger: TrainedTagger,
    counts: Counts,
    require_phi: bool = False,
    source: str = "the corpus",
    bounds: tuple[SpanBounds, Tokenize] | None = None,
) -> list[Document]:
    """The non-empty notes of ``docs`` with the tagger's spans, in input order; ``counts`` records
    every note in, out and rejected. ``source`` names the input file in errors. With ``bounds``
    (the real training notes' span bounds and the tokenizer they count in), a span outside them is
    removed with its text, counted by reason in ``counts.extra["spans_dropped"]``."""
    notes = []
    for doc in docs:
        counts.took()
        if doc.text.strip():
            notes.append(doc)
        else:
            counts.reject("empty note")
    batches = [notes[i : i + BATCH] for i in range(0, len(notes), BATCH)]
    out: list[Document] = []
    dropped: Counter[str] = Counter()
    for batch in track(batches, f"machine-annotating {len(notes)} notes", total=len(batches)):
        predicted = tagger.predict(batch)
        if len(predicted) != len(batch):
            raise SynthdeidError(f"the tagger predicted {len(predicted)} of {len(batch)} notes of {source}")
        for doc, spans in zip(batch, predicted):
            try:
                annotated = Document.create(doc.id, doc.text, spans)
            except InputError as e:
                raise InputError(
                    f"the tagger predicted an invalid span: {e.problem}",
                    path=source,
                    doc_id=doc.id,
                    fix="this is a bug in the tagger plugin; report it with this note",
                ) from None
            if bounds is not None:
                trimmed, reasons = bounds[0].trim(annotated, bounds[1])
                dropped.update(reasons)
                if trimmed is None:
                    counts.reject("nothing left once its spans outside the training bounds were removed")
                    continue
                annotated = trimmed
            if require_phi and not annotated.spans:
                counts.reject("no PHI found (require_phi)")
                continue
            out.append(annotated)
            counts.kept()
    if bounds is not None:
        counts.extra["spans_dropped"] = dict(sorted(dropped.items()))
    return out


def annotation_stats(before: Sequence[Document], after: Sequence[Document]) -> dict[str, object]:
    """Spans per tag of the annotated notes, notes with PHI, and the input spans replaced."""
    return {
        "spans": sum(len(d.spans) for d in after),
        "spans_per_tag": label_counts(after),
        "documents_with_phi": sum(1 for d in after if d.spans),
        "input_spans_replaced": sum(len(d.spans) for d in before),
    }


def require_some_phi(
    docs: Sequence[Document], annotated: Sequence[Document], stage: str, tagger: str, source: str
) -> None:
    """An error naming the upstream tagger when it found no PHI in any note: it learned nothing, and
    every tagger trained on the corpus would fail later with a message about its own input."""
    if docs and not any(d.spans for d in annotated):
        raise InputError(
            f"{stage}: {tagger} found no PHI in any of the {len(docs)} notes: it learned nothing, "
            "so no tagger can train on this corpus",
            path=source,
            fix="train that tagger until it finds PHI: more epochs or a larger budget (taggers.NAME."
            "config max_epochs, max_train_tokens) or more annotated notes; `synthdeid check` shows "
            "how many the splits hold",
        )
