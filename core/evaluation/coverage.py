"""PHI vocabulary coverage: the share of one corpus's PHI tokens that occur in the same label's
spans of another.

A tagger trained on a corpus whose ``Organization_Company`` spans hold ``Apotheek`` and ``Gemeente``
finds ``Apotheek Dorpskade`` partly by its words; one trained on ``Bouwbedrijf Tuil`` must find it by
its context. The utility report gives, per PHI type, the share of the test set's PHI tokens seen in
same-label spans of each setting's training corpus (what a tagger could have learned by heart),
and the privacy audit the share of the real training notes' PHI tokens that reappear in same-label
spans of a synthetic corpus (what realism costs in exposure). Tokens are the language pack's,
case-folded; tokens without a letter or digit (punctuation) are not counted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from synthdeid.api import Tokenize
from synthdeid.corpus.records import Document


def _words(text: str, tokenize: Tokenize) -> list[str]:
    tokens = (text[a:b] for a, b in tokenize(text))
    return [t.casefold() for t in tokens if any(c.isalnum() for c in t)]


def label_vocabulary(docs: Iterable[Document], tokenize: Tokenize) -> dict[str, set[str]]:
    """The case-folded tokens of each label's spans in ``docs``."""
    vocab: dict[str, set[str]] = {}
    for doc in docs:
        for span in doc.spans:
            vocab.setdefault(span.label, set()).update(_words(doc.surface(span), tokenize))
    return vocab


def coverage(docs: Iterable[Document], vocab: Mapping[str, set[str]], tokenize: Tokenize) -> dict[str, dict[str, Any]]:
    """Per label of ``docs``: its PHI tokens (occurrences), those found in ``vocab`` under the same
    label, and their share; a label without tokens has share ``None``."""
    counts: dict[str, list[int]] = {}
    for doc in docs:
        for span in doc.spans:
            known = vocab.get(span.label, set())
            words = _words(doc.surface(span), tokenize)
            c = counts.setdefault(span.label, [0, 0])
            c[0] += len(words)
            c[1] += sum(w in known for w in words)
    return {
        label: {"tokens": n, "seen": k, "share": round(k / n, 4) if n else None}
        for label, (n, k) in sorted(counts.items())
    }


def exposure(real: Iterable[Document], synthetic: Iterable[Document], tokenize: Tokenize) -> dict[str, Any]:
    """The privacy side of coverage: the share of the real training notes' PHI tokens found in the
    same label's spans of the synthetic notes, per label and over all labels."""
    per_label = coverage(real, label_vocabulary(synthetic, tokenize), tokenize)
    tokens = sum(v["tokens"] for v in per_label.values())
    seen = sum(v["seen"] for v in per_label.values())
    return {"share": round(seen / tokens, 4) if tokens else None, "tokens": tokens, "per_label": per_label}


def exposures(
    real: Iterable[Document], pseudonymized: Iterable[Document], synthetic: Sequence[Document], tokenize: Tokenize
) -> dict[str, Any]:
    """``exposure`` of the real training notes before pseudonymization and as the generator saw them."""
    return {
        "real_training_notes": exposure(real, synthetic, tokenize),
        "pseudonymized_training_notes": exposure(pseudonymized, synthetic, tokenize),
    }
