"""Fresh surrogates after generation: every PHI span of a generated note gets a new surrogate from
the language pack, so PHI strings the generator memorised from its training notes cannot survive
into the published corpus as PHI (the spans are what a generator learned to copy).

Seeded per document (``derive_seed(seed, "fresh", attempt, doc.id)``); every span's text changes
(``pseudonymize`` fails closed otherwise). A draw that happens to give one span the original text
of another span of the same note is redrawn with the next attempt's seed, and a note still failing
after ``MAX_ATTEMPTS`` raises ``SurrogateError``. Dates and ages are exempt from that cross-span
check: language packs shift them by one offset per note (keeping intervals), so "2015" may well
become "2016" while another date "2016" becomes "2017". When no attempt avoids the note's own
strings, a draw may repeat one that is a PHI string of at least ``SHARED_NOTES`` training notes
(``shared_strings``: MEDDOCAN's "mujer", "varón", "niño" for the patient's sex, a label with a
handful of values that cannot avoid them): such a string identifies no one; the report counts
those notes. Anything else still fails closed.

The surrogates come from the same lists the pseudonymization of the training notes drew from, so
a fresh draw can hit a training PHI string by chance. Of the acceptable draws, the one with the
fewest multi-token surrogates ("Anna de Vries", an address; not dates and ages) equal to a training
PHI string is kept (``avoid``, best effort); single tokens (a first name, a city, a profession from
a list of seventy) coincide by chance and are left to it.

``FreshSettings`` chooses which labels are re-drawn (all, or a list: the pattern-like ones a
word-level generator writes badly, phone numbers, e-mails, identifiers) and what the surrogates
are shaped on: the generated text (``generated``) or a training span of the same label
(``training``, ``synthdeid.phi.span_shapes``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from synthdeid.api import LanguagePack, Tokenize
from synthdeid.corpus.records import Document
from synthdeid.errors import SurrogateError, SynthdeidError
from synthdeid.phi.head_words import NONE, HeadWords
from synthdeid.phi.pseudonymize import pseudonymize
from synthdeid.phi.seeds import derive_seed
from synthdeid.phi.span_shapes import ShapeBank
from synthdeid.privacy.audit.leakage import (
    normalise_whitespace,
    phi_leakage,
    real_phi_strings,
)
from synthdeid.privacy.audit.tokens import tokenize_documents
from synthdeid.spec.fresh_settings import EVERY_LABEL, FreshSettings

MAX_ATTEMPTS = 10
SHARED_NOTES = 3
"""A PHI string of at least this many training notes may be repeated when nothing else can be drawn."""
SHIFTED_LABELS = frozenset({"Date", "Age"})
"""Labels whose surrogates are shifted consistently within a note (exempt from the cross-span check)."""


def _key(text: str) -> str:
    return normalise_whitespace(text).casefold()


def span_strings(doc: Document, skip: frozenset[str] = frozenset()) -> set[str]:
    """The PHI strings of ``doc`` (whitespace normalised, case folded), labels in ``skip`` left out."""
    return {_key(doc.surface(s)) for s in doc.spans if s.label not in skip}


def multi_token_strings(docs: Iterable[Document]) -> frozenset[str]:
    """The PHI strings of two or more words of ``docs`` (normalised like ``span_strings``; no dates
    or ages: they are shifted, not drawn)."""
    return frozenset(k for d in docs for k in span_strings(d, SHIFTED_LABELS) if " " in k)


def shared_strings(real: Sequence[Document], notes: int = SHARED_NOTES) -> frozenset[str]:
    """The PHI strings (normalised like ``span_strings``) of at least ``notes`` of the notes ``real``."""
    counts: dict[str, int] = {}
    for d in real:
        for k in span_strings(d):
            counts[k] = counts.get(k, 0) + 1
    return frozenset(k for k, n in counts.items() if n >= notes)


def refresh(
    doc: Document,
    pack: LanguagePack,
    seed: int,
    avoid: frozenset[str] = frozenset(),
    settings: FreshSettings = EVERY_LABEL,
    shapes: ShapeBank | None = None,
    shared: frozenset[str] = frozenset(),
    fallbacks: list[str] | None = None,
    heads: HeadWords = NONE,
    repeat_ok: bool = False,
) -> Document:
    """``doc`` with every PHI span (of ``settings.labels``) replaced by a fresh surrogate (offsets
    re-computed), such that no such span of the result has the text of any such span of ``doc``
    (dates and ages: of the same span); of the acceptable draws, the first with the fewest
    multi-token texts in ``avoid``. With ``shapes``, the surrogates are modelled on training spans.
    When no draw is acceptable, the first whose repeated strings are all in ``shared`` is taken
    (its id appended to ``fallbacks``). With ``heads``, generic head words stay (see
    ``pseudonymize``) and a span of head words only is no PHI string of the note. With
    ``repeat_ok``, a note whose every draw repeats one of its strings gets the first draw instead
    of failing (for redraws of notes whose PHI is replaced already: ``redrawer``)."""
    if not any(settings.covers(s.label) for s in doc.spans):
        return doc
    skip = SHIFTED_LABELS | {s.label for s in doc.spans if not settings.covers(s.label)}
    shaped = shapes.reshape(doc, seed, settings.labels) if shapes is not None else doc
    generic = {_key(d.surface(s)) for d in (doc, shaped) for s in d.spans if heads.is_generic(s.label, d.surface(s))}
    originals = span_strings(doc, skip) - generic
    best, best_hits = None, 0
    fallback = None
    for attempt in range(MAX_ATTEMPTS):
        new = pseudonymize(shaped, pack, derive_seed(seed, "fresh", attempt, doc.id), settings.labels, heads)
        drawn = span_strings(new, skip) - generic
        if drawn & originals:
            if fallback is None and (repeat_ok or drawn & originals <= shared):
                fallback = new
            continue
        hits = len({k for k in drawn if " " in k} & avoid)
        if best is None or hits < best_hits:
            best, best_hits = new, hits
        if not hits:
            break
    if best is None and fallback is not None:
        if fallbacks is not None:
            fallbacks.append(doc.id)
        return fallback
    if best is None:
        raise SurrogateError(
            f"document {doc.id!r}: fresh surrogates kept re-drawing PHI strings of the note itself after "
            f"{MAX_ATTEMPTS} attempts; check the language pack {pack.code!r} surrogates for its labels"
        )
    return best


def unlabel_markless(doc: Document, settings: FreshSettings = EVERY_LABEL) -> Document:
    """``doc`` without the spans (of ``settings.labels``) whose text holds no letter or digit (the
    text stays)."""
    keep = tuple(
        s for s in doc.spans if not settings.covers(s.label) or any(c.isalnum() for c in doc.text[s.start : s.end])
    )
    return doc if len(keep) == len(doc.spans) else Document(doc.id, doc.text, keep)


def untagged_copies(before: Document, after: Document, settings: FreshSettings = EVERY_LABEL) -> int:
    """How many PHI strings of ``before`` (3+ characters; of ``settings.labels``) still occur in
    the text of ``after``: the generator wrote them outside a tag too, where fresh surrogates
    cannot reach them."""
    text = _key(after.text)
    kept = frozenset(s.label for s in before.spans if not settings.covers(s.label))
    return sum(
        1 for s in span_strings(before, kept) if len(s) >= 3 and re.search(rf"(?<!\w){re.escape(s)}(?!\w)", text)
    )


@dataclass
class FreshReport:
    """What ``refresh_corpus`` did: spans replaced, notes with untagged copies left, and, against
    the training notes, the spans whose text is a training PHI string and the PHI leakage (the
    ``leakage`` metric's figures), before and after. After, both are the language pack's chance
    level: the surrogates no longer depend on the training notes."""

    settings: FreshSettings = EVERY_LABEL
    spans_replaced: int = 0
    spans_unlabelled: int = 0
    """Spans without a letter or digit (a generated Phone_fax ``)``): not PHI, nothing to re-draw;
    their label is removed, their text kept."""
    notes_with_untagged_copies: int = 0
    notes_repeating_shared_strings: int = 0
    """Notes where no draw avoided the note's own strings and one repeats a string shared by
    ``SHARED_NOTES`` or more training notes."""
    training_phi_spans_before: int = 0
    training_phi_spans_after: int = 0
    leakage_before: dict[str, Any] = field(default_factory=dict)
    leakage_after: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        share = lambda n: n / self.spans_replaced if self.spans_replaced else None  # noqa: E731
        return {
            **self.settings.as_dict(),
            "spans_replaced": self.spans_replaced,
            "spans_unlabelled_without_letters_or_digits": self.spans_unlabelled,
            "notes_with_untagged_copies": self.notes_with_untagged_copies,
            "notes_repeating_shared_strings": self.notes_repeating_shared_strings,
            "spans_with_training_phi_before": share(self.training_phi_spans_before),
            "spans_with_training_phi_after": share(self.training_phi_spans_after),
            "phi_leakage_before": self.leakage_before,
            "phi_leakage_after": self.leakage_after,
        }


def leakage_rates(
    real: Sequence[Document], synthetic: Sequence[Document], tokenize: Tokenize, min_tokens: int = 2
) -> dict[str, Any]:
    """The share of the real notes' distinct PHI strings found anywhere in the synthetic notes
    (as the ``leakage`` privacy metric computes it: lowercased token sequences)."""
    phi = real_phi_strings(real, tokenize)
    notes = [t.tokens for t in tokenize_documents(synthetic, tokenize)]
    return phi_leakage(phi, notes, min_tokens).rates()


def drawer(
    pack: LanguagePack,
    real: Sequence[Document] = (),
    settings: FreshSettings = EVERY_LABEL,
    heads: HeadWords = NONE,
    repeat_ok: bool = False,
) -> Callable[[Sequence[Document], int, list[str] | None], list[Document]]:
    """``draw(docs, seed, fallbacks)``: ``refresh`` of every note of ``docs`` with ``seed``, against
    the training notes ``real`` (the multi-token strings to avoid, the shared strings and, for
    ``settings.shapes == "training"``, the shapes, built once here); ``repeat_ok`` as there."""
    if settings.shapes == "training" and not real:
        raise SynthdeidError("fresh surrogates shaped on training spans need the training notes (real)")
    avoid = multi_token_strings(real)
    shapes = ShapeBank.from_documents(real) if settings.shapes == "training" else None
    shared = shared_strings(real)

    def draw(docs: Sequence[Document], seed: int, fallbacks: list[str] | None = None) -> list[Document]:
        return [refresh(d, pack, seed, avoid, settings, shapes, shared, fallbacks, heads, repeat_ok) for d in docs]

    return draw


def refresh_corpus(
    docs: Iterable[Document],
    pack: LanguagePack,
    seed: int,
    real: Sequence[Document] = (),
    settings: FreshSettings = EVERY_LABEL,
    heads: HeadWords = NONE,
) -> tuple[list[Document], FreshReport]:
    """Fresh surrogates for every note; with ``real`` (the generator's training notes) no
    multi-token surrogate repeats one of their PHI strings, and the report holds the PHI leakage
    before and after. ``settings.shapes == "training"`` needs ``real`` (the shapes come from it)."""
    draw = drawer(pack, real, settings, heads)
    given = list(docs)
    before = [unlabel_markless(d, settings) for d in given]
    fallbacks: list[str] = []
    after = draw(before, seed, fallbacks)
    report = FreshReport(
        settings=settings,
        notes_repeating_shared_strings=len(fallbacks),
        spans_replaced=sum(settings.covers(s.label) for d in before for s in d.spans),
        spans_unlabelled=sum(len(d.spans) for d in given) - sum(len(d.spans) for d in before),
        notes_with_untagged_copies=sum(untagged_copies(b, a, settings) > 0 for b, a in zip(before, after)),
    )
    if real:
        known = {k for d in real for k in span_strings(d)}
        report.training_phi_spans_before = sum(
            _key(d.surface(s)) in known for d in before for s in d.spans if settings.covers(s.label)
        )
        report.training_phi_spans_after = sum(
            _key(d.surface(s)) in known for d in after for s in d.spans if settings.covers(s.label)
        )
        report.leakage_before = leakage_rates(real, before, pack.tokenize)
        report.leakage_after = leakage_rates(real, after, pack.tokenize)
    return after, report


def redrawer(
    pack: LanguagePack,
    seed: int,
    real: Sequence[Document] = (),
    settings: FreshSettings = EVERY_LABEL,
    heads: HeadWords = NONE,
) -> Callable[[list[Document], int], list[Document]]:
    """``redraw(docs, k)``: ``docs`` with the fresh surrogates of draw ``k`` (seeded from ``seed``
    and ``k``), drawn as ``refresh_corpus`` draws them, without its report (for
    ``evaluation.redraws.with_redraws``). As there, a span without a letter or digit (a machine
    annotator's ``'`` tagged Initials) is no PHI to re-draw: the copy keeps its text, unlabelled.

    Unlike ``refresh_corpus``, a note may repeat one of its own strings when no draw avoids them
    (MEDDOCAN's sex words: a handful of values, already surrogates): the notes' PHI was replaced
    by ``postprocess`` before (or, machine-annotated, the copies add nothing the tagger does not
    read in the notes themselves), and the copies train a tagger; they are never published."""
    draw = drawer(pack, real, settings, heads, repeat_ok=True)
    return lambda docs, k: draw([unlabel_markless(d, settings) for d in docs], derive_seed(seed, "redraw", k), None)
