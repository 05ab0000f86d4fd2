"""Settings of the ``torch_bilstm_crf`` tagger (the ``taggers.<name>.config`` section of params)."""

from __future__ import annotations

from dataclasses import dataclass

from synthdeid.toolkit import PRECISIONS, check_bounds, setting

NAME = "torch_bilstm_crf"
CONTEXTS = ("line", "note")
TOKEN_SPLITS = ("pack", "suffix", "punctuation")


@dataclass(frozen=True)
class TorchTaggerConfig:
    """A BiLSTM-CRF over word, word-shape and character-CNN features (Lample et al. 2016, Ma &
    Hovy 2016), written in torch over index tensors: every embedding is trained here from the
    training notes, nothing is downloaded. Training stops early on the validation notes'
    entity F1 (``patience``) and keeps the best epoch's weights.

    Renamed setting (the old name still works for one release, with a ``DeprecationWarning``):
    ``word_dim`` is now ``embedding_size``."""

    embedding_size: int = setting(100, ge=1, renamed_from="word_dim")
    """Word embeddings (lower-cased, digits as 0); words first seen in training once are read as
    unknown with probability ``word_unk_rate`` so the unknown-word vector learns."""
    word_unk_rate: float = setting(0.5, ge=0, le=1)
    shape_dim: int = setting(20, ge=0)
    """Word-shape embeddings (``Jansen`` -> ``Xx``, ``06-1234`` -> ``d-d``, first word of a line
    marked), the feature that carries casing and digit patterns."""
    char_dim: int = setting(30, ge=0)
    char_filters: int = setting(64, ge=0)
    """Character CNN: filters of width ``char_width`` over the first ``max_word_chars`` characters."""
    char_width: int = setting(3, ge=1)
    """Odd."""
    max_word_chars: int = setting(24, ge=1)
    hidden_size: int = setting(128, ge=1)
    """LSTM units per direction."""
    layers: int = setting(1, ge=1)
    dropout: float = setting(0.5, ge=0, lt=1)
    context: str = setting("line", choices=CONTEXTS)
    """The sequence the LSTM reads: ``note`` (the note's words across lines, cut into windows of
    ``max_tokens``) or ``line`` (each line alone, as the flair tagger does). On the demo corpus
    lines learn faster per epoch (dev F1 0.96 after 4 epochs against 7) at the same final F1."""
    max_tokens: int = setting(128, ge=1)
    token_split: str = setting("suffix", choices=TOKEN_SPLITS)
    """How the language pack's tokens are cut for tagging (``synthdeid.tagging.words.split_tokens``):
    ``suffix`` cuts punctuation off a token's end (``H.`` -> ``H`` ``.``), ``punctuation`` also
    inside it (word runs and single marks), ``pack`` keeps the pack's tokens. A gold span must
    start and end on token edges to be tagged exactly: with the ``es`` pack's tokens 5.8% of
    MEDDOCAN's dev spans cannot (``Sexo: H.`` is one token, the span ``H``), with ``suffix`` or
    ``punctuation`` 0.05%. MEDDOCAN train -> dev entity F1: pack 0.894, suffix 0.932,
    punctuation 0.935 (patience 5: 0.946 and 0.937; ``punctuation`` splits e-mails and ages)."""
    learning_rate: float = setting(0.004, gt=0)
    """Adam's learning rate."""
    batch_size: int = setting(32, ge=1)
    """Windows per update (length-bucketed)."""
    max_epochs: int = setting(40, ge=1)
    patience: int = setting(3, ge=1)
    """Stop after this many epochs without a better validation F1 (the best epoch's weights are kept)."""
    max_train_tokens: int = setting(0, ge=0)
    """A training budget in tokens (epochs x training tokens; 0 for none): training stops after the
    epoch that reaches it, so a corpus twice the size gets half the epochs (deterministic, unlike
    a time limit)."""
    grad_clip: float = setting(5.0, gt=0)
    seed: int = setting(0, ge=0)
    threads: int = setting(2, ge=0)
    """torch threads while training and predicting (0: leave torch's setting)."""
    precision: str = setting("auto", choices=PRECISIONS)
    """Training arithmetic (``synthdeid.precision``): fp32; bf16 (autocast: the encoder's products in
    bfloat16, weights, CRF and losses in float32); auto: bf16 on a CPU with bfloat16 instructions,
    else fp32. Validation and prediction stay in float32."""
    predict_batch_size: int = setting(64, ge=1)

    def __post_init__(self) -> None:
        check_bounds(self, f"tagger {NAME!r}")
        if self.char_width % 2 != 1:
            raise ValueError(f"need char_width odd, got {self.char_width}")

    @property
    def uses_chars(self) -> bool:
        return self.char_dim > 0 and self.char_filters > 0
