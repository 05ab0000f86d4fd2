"""The word vocabulary: ``<unk>``, the special tokens, then the training words by frequency."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from synthdeid import InputError
from synthdeid.toolkit import EOD, PAR, load_json

UNK = "<unk>"
REBUILD = "delete the model directory and train again"


class Vocab:
    """Token strings by id and back. Id 0 is ``<unk>``; every special token is one id."""

    def __init__(self, tokens: Sequence[str]) -> None:
        self.tokens = list(tokens)
        self.index = {t: i for i, t in enumerate(self.tokens)}
        if len(self.index) != len(self.tokens):
            raise InputError("the vocabulary lists a token twice", fix="rebuild the model directory")
        if self.tokens[:1] != [UNK] or EOD not in self.index:
            raise InputError(f"the vocabulary must start with {UNK} and hold {EOD}", fix="rebuild the model directory")
        self.unk_id = 0
        self.eod_id = self.index[EOD]

    @classmethod
    def build(cls, lines: Iterable[str], special_tokens: Iterable[str], min_count: int) -> Vocab:
        """Words seen at least ``min_count`` times (most frequent first, ties alphabetical);
        ``<unk>``, ``<PAR>``, ``<EOD>`` and ``special_tokens`` are always in, whatever their count."""
        counts = Counter(t for line in lines for t in line.split())
        specials = list(dict.fromkeys([UNK, PAR, EOD, *special_tokens]))
        taken = set(specials)
        words = sorted(
            (w for w, c in counts.items() if c >= min_count and w not in taken), key=lambda w: (-counts[w], w)
        )
        return cls(specials + words)

    def __len__(self) -> int:
        return len(self.tokens)

    def encode(self, text: str) -> list[int]:
        """Ids of space-separated tokens; unknown words get the ``<unk>`` id."""
        get = self.index.get
        return [get(t, 0) for t in text.split()]

    def decode(self, ids: Iterable[int]) -> str:
        return " ".join(self.tokens[i] for i in ids)

    def save(self, path: Path) -> None:
        """Write ``vocab.json`` atomically."""
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.tokens, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> Vocab:
        path = Path(path)
        if not path.exists():
            raise InputError(
                "the LSTM model directory has no vocabulary", path=path, fix="train the model first (dvc repro train)"
            )
        tokens = load_json(path, REBUILD)
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise InputError("is not a list of token strings", path=path, fix=REBUILD)
        try:
            return cls(tokens)
        except InputError as e:
            raise e.located(path=path) from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Vocab) and self.tokens == other.tokens

    __hash__ = None  # type: ignore[assignment]
