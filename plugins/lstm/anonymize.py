"""Vocabulary anonymization of a trained LSTM (``synthdeid.vocab_anonymize``): the given tokens'
entries in ``vocab.json`` become random ``<unk_N>`` strings (same ids, so ``model.pt`` is
unchanged), which the sampler never generates. ``checkpoint.pt`` holds the old vocabulary and is
deleted: the model directory is then fit for release, and a further training starts afresh."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from synthdeid.inline import EOD, PAR
from synthdeid.vocab_anonymize import unk_tokens

from .train import CHECKPOINT, VOCAB
from .vocab import UNK, Vocab


def replace_tokens(model_dir: Path, tokens: Iterable[str], seed: int = 0) -> int:
    """Replace ``tokens`` in the model's vocabulary; returns how many entries were replaced."""
    vocab = Vocab.load(Path(model_dir) / VOCAB)
    targets = set(tokens) - {UNK, PAR, EOD}
    ids = [i for i, t in enumerate(vocab.tokens) if t in targets and not (t.startswith("<") and t.endswith(">"))]
    if ids:
        new = list(vocab.tokens)
        for i, unk in zip(ids, unk_tokens(len(ids), seed, vocab.tokens)):
            new[i] = unk
        Vocab(new).save(Path(model_dir) / VOCAB)
    (Path(model_dir) / CHECKPOINT).unlink(missing_ok=True)
    return len(ids)
