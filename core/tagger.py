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
from typing import Any, Protocol

from .records import Document, Span

Tokenize = Callable[[str], list[tuple[int, int]]]


class TrainedTagger(Protocol):
    def predict(self, docs: Sequence[Document]) -> list[list[Span]]:
        """Predicted spans per document (the documents' own spans are ignored). Every document
        gets a prediction, long ones included (windowed, never truncated)."""
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
