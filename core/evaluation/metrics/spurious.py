"""Spurious spans: predicted entities that overlap no gold entity at all, per predicted label.

Entity F1 counts a boundary error and an invented entity alike. A tagger trained on synthetic
notes whose rare words are all PHI invents entities on ordinary words (``Ehemann``, ``Dulcolax``):
those are the predictions that touch no gold span, and their count beside the real tagger's shows
how much of a synthetic tagger's precision loss is that bias rather than boundaries or labels.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Sequence

from synthdeid.corpus.records import Document
from synthdeid.evaluation.metrics.entity import Prediction, align_predictions


def spurious_spans(gold: Sequence[Document], pred: Sequence[Prediction]) -> dict[str, int]:
    """Predicted spans sharing no character with a gold span of their document, per label (any
    gold label: a span on a PHI word with the wrong tag is no spurious span); ``total`` is their sum."""
    counts: Counter[str] = Counter()
    for doc, spans in align_predictions(gold, pred):
        starts = [s.start for s in doc.spans]
        for p in spans:
            # gold spans are flat and sorted: of those starting before p ends, the last ends last
            i = bisect.bisect_left(starts, p.end)
            if i == 0 or doc.spans[i - 1].end <= p.start:
                counts[p.label] += 1
    return {**dict(sorted(counts.items())), "total": sum(counts.values())}
