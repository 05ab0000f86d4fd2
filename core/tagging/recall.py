"""Recall-biased decoding of a tagger's per-token probabilities (``synthdeid.api.RecallTunable``).
The tagger contract itself is declared in ``synthdeid.api``."""

from __future__ import annotations

from collections.abc import Sequence


def recall_biased_tags(probs: Sequence[Sequence[float]], tags: Sequence[str], min_confidence: float) -> list[int]:
    """Tag ids of one window from per-token tag probabilities (tokens x tags, e.g. a CRF's
    marginals or a softmax): a token is PHI when
    ``1 - P(O) >= min_confidence``, labelled with its most probable label (``B-`` + ``I-``
    probability); it continues the previous token's span when that has the same label, unless
    the token is more likely the start of a new one (``P(B-label) > 0.5``)."""
    index = {t: i for i, t in enumerate(tags)}
    labels = sorted({t[2:] for t in tags if t != "O"})
    pairs = [(index[f"B-{label}"], index.get(f"I-{label}")) for label in labels]
    out: list[int] = []
    previous = None
    for row in probs:
        if 1.0 - row[index["O"]] < min_confidence:
            out.append(index["O"])
            previous = None
            continue
        scores = [row[b] + (row[i] if i is not None else 0.0) for b, i in pairs]
        k = max(range(len(labels)), key=scores.__getitem__)
        b, i = pairs[k]
        inside = previous == k and i is not None and row[b] <= 0.5
        out.append(i if inside else b)  # type: ignore[arg-type]
        previous = k
    return out
