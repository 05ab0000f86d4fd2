"""Vocabulary anonymization of a trained LSTM (``LSTMGenerator.anonymize_vocab``, the
``synthdeid.api.VocabAnonymizer`` capability that ``synthdeid.generation.vocab_anonymize`` drives): the given tokens'
entries in ``vocab.json`` become random ``<unk_N>`` strings (same ids, so ``model.pt`` is
unchanged), which the sampler never generates. ``checkpoint.pt`` holds the old vocabulary and is
deleted: the model directory is then fit for release, and a further training starts afresh."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from synthdeid import InputError
from synthdeid.toolkit import EOD, PAR, unk_tokens

from .train import CHECKPOINT, VOCAB
from .vocab import UNK, Vocab


def replace_tokens(model_dir: Path, tokens: Iterable[str], seed: int = 0) -> int:
    """Replace ``tokens`` in the model's vocabulary; returns how many entries were replaced."""
    if not (Path(model_dir) / VOCAB).exists():
        raise InputError(
            "no trained word-level model here (vocab.json is missing)",
            path=model_dir,
            fix="point the command at an lstm model directory, e.g. data/models/lstm",
        )
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
