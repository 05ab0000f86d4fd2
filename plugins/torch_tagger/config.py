"""Settings of the ``torch_bilstm_crf`` tagger (the ``taggers.<name>.config`` section of params)."""

from __future__ import annotations

from dataclasses import dataclass

CONTEXTS = ("line", "note")


@dataclass(frozen=True)
class TorchTaggerConfig:
    """A BiLSTM-CRF over word, word-shape and character-CNN features (Lample et al. 2016, Ma &
    Hovy 2016), written in torch over index tensors: every embedding is trained here from the
    training notes, nothing is downloaded. Training stops early on the validation notes'
    entity F1 (``patience``) and keeps the best epoch's weights."""

    word_dim: int = 100
    """Word embeddings (lower-cased, digits as 0); words first seen in training once are read as
    unknown with probability ``word_unk_rate`` so the unknown-word vector learns."""
    word_unk_rate: float = 0.5
    shape_dim: int = 20
    """Word-shape embeddings (``Jansen`` -> ``Xx``, ``06-1234`` -> ``d-d``, first word of a line
    marked), the feature that carries casing and digit patterns."""
    char_dim: int = 30
    char_filters: int = 64
    """Character CNN: filters of width ``char_width`` over the first ``max_word_chars`` characters."""
    char_width: int = 3
    max_word_chars: int = 24
    hidden_size: int = 128
    """LSTM units per direction."""
    layers: int = 1
    dropout: float = 0.5
    context: str = "line"
    """The sequence the LSTM reads: ``note`` (the note's words across lines, cut into windows of
    ``max_tokens``) or ``line`` (each line alone, as the flair tagger does). On the demo corpus
    lines learn faster per epoch (dev F1 0.96 after 4 epochs against 7) at the same final F1."""
    max_tokens: int = 128
    token_split: str = "suffix"
    """How the language pack's tokens are cut for tagging (``synthdeid.plugins.flair_tagger.words.split_tokens``):
    ``suffix`` cuts punctuation off a token's end (``H.`` -> ``H`` ``.``), ``punctuation`` also
    inside it (word runs and single marks), ``pack`` keeps the pack's tokens. A gold span must
    start and end on token edges to be tagged exactly: with the ``es`` pack's tokens 5.8% of
    MEDDOCAN's dev spans cannot (``Sexo: H.`` is one token, the span ``H``), with ``suffix`` or
    ``punctuation`` 0.05%. MEDDOCAN train -> dev entity F1: pack 0.894, suffix 0.932,
    punctuation 0.935 (patience 5: 0.946 and 0.937; ``punctuation`` splits e-mails and ages)."""
    learning_rate: float = 0.004
    """Adam's learning rate."""
    batch_size: int = 32
    """Windows per update (length-bucketed)."""
    max_epochs: int = 40
    patience: int = 3
    """Stop after this many epochs without a better validation F1 (the best epoch's weights are kept)."""
    max_train_tokens: int = 0
    """A training budget in tokens (epochs x training tokens; 0 for none): training stops after the
    epoch that reaches it, so a corpus twice the size gets half the epochs (deterministic, unlike
    a time limit)."""
    grad_clip: float = 5.0
    seed: int = 0
    threads: int = 2
    """torch threads while training and predicting (0: leave torch's setting)."""
    predict_batch_size: int = 64

    def __post_init__(self) -> None:
        checks = {
            "word_dim >= 1": self.word_dim >= 1,
            "shape_dim >= 0": self.shape_dim >= 0,
            "char_dim >= 0 and char_filters >= 0": self.char_dim >= 0 and self.char_filters >= 0,
            "char_width odd and >= 1": self.char_width >= 1 and self.char_width % 2 == 1,
            "max_word_chars >= 1": self.max_word_chars >= 1,
            "hidden_size >= 1": self.hidden_size >= 1,
            "layers >= 1": self.layers >= 1,
            "0 <= dropout < 1": 0 <= self.dropout < 1,
            "0 <= word_unk_rate <= 1": 0 <= self.word_unk_rate <= 1,
            f"context in {'/'.join(CONTEXTS)}": self.context in CONTEXTS,
            "max_tokens >= 1": self.max_tokens >= 1,
            "token_split in pack/suffix/punctuation": self.token_split in ("pack", "suffix", "punctuation"),
            "learning_rate > 0": self.learning_rate > 0,
            "batch_size >= 1": self.batch_size >= 1,
            "max_epochs >= 1": self.max_epochs >= 1,
            "patience >= 1": self.patience >= 1,
            "max_train_tokens >= 0": self.max_train_tokens >= 0,
            "grad_clip > 0": self.grad_clip > 0,
            "threads >= 0": self.threads >= 0,
            "predict_batch_size >= 1": self.predict_batch_size >= 1,
        }
        failed = [k for k, ok in checks.items() if not ok]
        if failed:
            raise ValueError("need " + "; ".join(failed))

    @property
    def uses_chars(self) -> bool:
        return self.char_dim > 0 and self.char_filters > 0
