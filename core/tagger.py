"""What tagger plugins provide: a de-identification (NER) model trained on standoff documents
that predicts standoff spans.

A tagger plugin's factory (``register_taggers``) takes its config mapping and returns a
``Tagger``; ``Tagger.train`` writes a model directory; ``Tagger.load`` reads it back as a
``TrainedTagger``. Documents are tokenized with the language pack's tokenizer, which the stage
passes in, so taggers work for any language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from .records import Document, Span

Tokenize = Callable[[str], list[tuple[int, int]]]


class TrainedTagger(Protocol):
    def predict(self, docs: Sequence[Document]) -> list[list[Span]]:
        """Predicted spans per document (the documents' own spans are ignored). Every document
        gets a prediction, long ones included (windowed, never truncated)."""
        ...


@runtime_checkable
class RecallTunable(Protocol):
    """An optional capability of a trained tagger with per-token probabilities: predict with a
    threshold that favours recall (missing PHI is worse than over-redacting)."""

    def predict_min_confidence(self, docs: Sequence[Document], min_confidence: float) -> list[list[Span]]:
        """Spans per document where each token whose probability of being PHI (1 - P(O)) reaches
        ``min_confidence`` is PHI, with its most probable label; 0.5 is close to the best path,
        lower values find more PHI at some precision."""
        ...


class Tagger(Protocol):
    name: str

    def train(self, train: Sequence[Document], dev: Sequence[Document], out_dir: Path,
              tokenize: Tokenize) -> dict[str, Any]:
        """Train on ``train`` (model selection on ``dev``), save to ``out_dir`` (resolved config
        included); returns training metrics."""
        ...

    def load(self, out_dir: Path, tokenize: Tokenize) -> TrainedTagger:
        ...


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
