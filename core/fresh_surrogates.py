"""Fresh surrogates after generation: every PHI span of a generated note gets a new surrogate from
the language pack, so PHI strings the generator memorised from its training notes cannot survive
into the published corpus as PHI (the spans are what a generator learned to copy).

Seeded per document (``derive_seed(seed, "fresh", attempt, doc.id)``); every span's text changes
(``pseudonymize`` fails closed otherwise). A draw that happens to give one span the original text
of another span of the same note is redrawn with the next attempt's seed, and a note still failing
after ``MAX_ATTEMPTS`` raises ``SurrogateError``. Dates and ages are exempt from that cross-span
check: language packs shift them by one offset per note (keeping intervals), so "2015" may well
become "2016" while another date "2016" becomes "2017".

The surrogates come from the same lists the pseudonymization of the training notes drew from, so
a fresh draw can hit a training PHI string by chance. Of the acceptable draws, the one with the
fewest multi-token surrogates ("Anna de Vries", an address; not dates and ages) equal to a training
PHI string is kept (``avoid``, best effort); single tokens (a first name, a city, a profession from
a list of seventy) coincide by chance and are left to it.
"""

from __future__ import annotations

import re

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .audit.leakage import normalise_whitespace, phi_leakage, real_phi_strings
from .audit.tokens import tokenize_documents
from .errors import SurrogateError
from .language import LanguagePack, derive_seed
from .pseudonymize import pseudonymize
from .records import Document

MAX_ATTEMPTS = 10
SHIFTED_LABELS = frozenset({"Date", "Age"})
"""Labels whose surrogates are shifted consistently within a note (exempt from the cross-span check)."""

Tokenize = Callable[[str], list[tuple[int, int]]]


def _key(text: str) -> str:
    return normalise_whitespace(text).casefold()


def span_strings(doc: Document, skip: frozenset[str] = frozenset()) -> set[str]:
    """The PHI strings of ``doc`` (whitespace normalised, case folded), labels in ``skip`` left out."""
    return {_key(doc.surface(s)) for s in doc.spans if s.label not in skip}


def multi_token_strings(docs: Iterable[Document]) -> frozenset[str]:
    """The PHI strings of two or more words of ``docs`` (normalised like ``span_strings``; no dates
    or ages: they are shifted, not drawn)."""
    return frozenset(k for d in docs for k in span_strings(d, SHIFTED_LABELS) if " " in k)


def refresh(doc: Document, pack: LanguagePack, seed: int, avoid: frozenset[str] = frozenset()) -> Document:
    """``doc`` with every PHI span replaced by a fresh surrogate (offsets re-computed), such that no
    span of the result has the text of any span of ``doc`` (dates and ages: of the same span); of
    the acceptable draws, the first with the fewest multi-token texts in ``avoid``."""
    if not doc.spans:
        return doc
    originals = span_strings(doc, SHIFTED_LABELS)
    best, best_hits = None, 0
    for attempt in range(MAX_ATTEMPTS):
        new = pseudonymize(doc, pack, derive_seed(seed, "fresh", attempt, doc.id))
        drawn = span_strings(new, SHIFTED_LABELS)
        if drawn & originals:
            continue
        hits = len({k for k in drawn if " " in k} & avoid)
        if best is None or hits < best_hits:
            best, best_hits = new, hits
        if not hits:
            break
    if best is None:
        raise SurrogateError(
            f"document {doc.id!r}: fresh surrogates kept re-drawing PHI strings of the note itself after "
            f"{MAX_ATTEMPTS} attempts; check the language pack {pack.code!r} surrogates for its labels")
    return best


def unlabel_markless(doc: Document) -> Document:
    """``doc`` without the spans whose text holds no letter or digit (the text stays)."""
    keep = tuple(s for s in doc.spans if any(c.isalnum() for c in doc.text[s.start:s.end]))
    return doc if len(keep) == len(doc.spans) else Document(doc.id, doc.text, keep)


def untagged_copies(before: Document, after: Document) -> int:
    """How many PHI strings of ``before`` (3+ characters) still occur in the text of ``after``:
    the generator wrote them outside a tag too, where fresh surrogates cannot reach them."""
    text = _key(after.text)
    return sum(1 for s in span_strings(before)
               if len(s) >= 3 and re.search(rf"(?<!\w){re.escape(s)}(?!\w)", text))


@dataclass
class FreshReport:
    """What ``refresh_corpus`` did: spans replaced, notes with untagged copies left, and, against
    the training notes, the spans whose text is a training PHI string and the PHI leakage (the
    ``leakage`` metric's figures), before and after. After, both are the language pack's chance
    level: the surrogates no longer depend on the training notes."""

    spans_replaced: int = 0
    spans_unlabelled: int = 0
    """Spans without a letter or digit (a generated Phone_fax ``)``): not PHI, nothing to re-draw;
    their label is removed, their text kept."""
    notes_with_untagged_copies: int = 0
    training_phi_spans_before: int = 0
    training_phi_spans_after: int = 0
    leakage_before: dict[str, Any] = field(default_factory=dict)
    leakage_after: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        share = (lambda n: n / self.spans_replaced if self.spans_replaced else None)
        return {"spans_replaced": self.spans_replaced, "spans_unlabelled_without_letters_or_digits": self.spans_unlabelled,
                "notes_with_untagged_copies": self.notes_with_untagged_copies,
                "spans_with_training_phi_before": share(self.training_phi_spans_before),
                "spans_with_training_phi_after": share(self.training_phi_spans_after),
                "phi_leakage_before": self.leakage_before, "phi_leakage_after": self.leakage_after}


def leakage_rates(real: Sequence[Document], synthetic: Sequence[Document], tokenize: Tokenize,
                  min_tokens: int = 2) -> dict[str, Any]:
    """The share of the real notes' distinct PHI strings found anywhere in the synthetic notes
    (as the ``leakage`` privacy metric computes it: lowercased token sequences)."""
    phi = real_phi_strings(real, tokenize)
    notes = [t.tokens for t in tokenize_documents(synthetic, tokenize)]
    return phi_leakage(phi, notes, min_tokens).rates()


def refresh_corpus(docs: Iterable[Document], pack: LanguagePack, seed: int,
                   real: Sequence[Document] = ()) -> tuple[list[Document], FreshReport]:
    """Fresh surrogates for every note; with ``real`` (the generator's training notes) no
    multi-token surrogate repeats one of their PHI strings, and the report holds the PHI leakage
    before and after."""
    given = list(docs)
    before = [unlabel_markless(d) for d in given]
    avoid = multi_token_strings(real)
    after = [refresh(d, pack, seed, avoid) for d in before]
    report = FreshReport(spans_replaced=sum(len(d.spans) for d in before),
                         spans_unlabelled=sum(len(d.spans) for d in given) - sum(len(d.spans) for d in before),
                         notes_with_untagged_copies=sum(untagged_copies(b, a) > 0 for b, a in zip(before, after)))
    if real:
        known = {k for d in real for k in span_strings(d)}
        report.training_phi_spans_before = sum(_key(d.surface(s)) in known for d in before for s in d.spans)
        report.training_phi_spans_after = sum(_key(d.surface(s)) in known for d in after for s in d.spans)
        report.leakage_before = leakage_rates(real, before, pack.tokenize)
        report.leakage_after = leakage_rates(real, after, pack.tokenize)
    return after, report
