"""Settings of the ``torch_bilstm_crf`` tagger (the ``taggers.<name>.config`` section of params)."""

from __future__ import annotations

from pydantic import model_validator

from synthdeid import SynthdeidError
from synthdeid.toolkit import PRECISIONS, Settings, setting

NAME = "torch_bilstm_crf"
CONTEXTS = ("line", "note")
TOKEN_SPLITS = ("pack", "suffix", "punctuation")


class TorchTaggerConfig(Settings):
    """A BiLSTM-CRF over word, word-shape and character-CNN features (Lample et al. 2016, Ma &
    Hovy 2016), written in torch over index tensors: every embedding is trained here from the
    training notes, nothing is downloaded. Training stops early on the validation notes'
    entity F1 (``patience``) and keeps the best epoch's weights.

    Renamed setting (the old name still works for one release, with a ``DeprecationWarning``):
    ``word_dim`` is now ``embedding_size``."""

    embedding_size: int = setting(
        100, ge=1, renamed_from="word_dim", description="width of the word embeddings (lower-cased, digits as 0)"
    )
    """Word embeddings (lower-cased, digits as 0); words first seen in training once are read as
    unknown with probability ``word_unk_rate`` so the unknown-word vector learns."""
    word_unk_rate: float = setting(
        0.5, ge=0, le=1, description="words seen once in training are read as unknown with this probability"
    )
    unknown_phi_share: float | None = setting(
        None,
        gt=0,
        lt=1,
        description="calibrate unknown-word training: this share of the words read as unknown are PHI "
        "(null: only singletons are read as unknown)",
    )
    """Calibrated unknown-word training (null: off). Besides singletons, ordinary (``O``) words seen
    more than once are read as unknown at the rate that makes this share of the occurrences read as
    unknown PHI (``training.ordinary_unknown_rate``). On a synthetic corpus nearly every singleton
    is a fresh surrogate, and the tagger would learn "unseen word = PHI"; the study sets this to
    the real training notes' share for taggers trained on synthetic notes
    (``utility.calibrate_unknown_words``)."""
    shape_dim: int = setting(20, ge=0, description="width of the word-shape embeddings (casing and digit patterns)")
    """Word-shape embeddings (``Jansen`` -> ``Xx``, ``06-1234`` -> ``d-d``, first word of a line
    marked), the feature that carries casing and digit patterns."""
    char_dim: int = setting(30, ge=0, description="width of the character embeddings")
    char_filters: int = setting(64, ge=0, description="filters of the character CNN")
    """Character CNN: filters of width ``char_width`` over the first ``max_word_chars`` characters."""
    char_width: int = setting(3, ge=1, description="width of the character CNN's filters (odd)")
    """Odd."""
    max_word_chars: int = setting(24, ge=1, description="characters of a word the character CNN reads")
    hidden_size: int = setting(128, ge=1, description="LSTM units per direction")
    layers: int = setting(1, ge=1, description="stacked BiLSTM layers")
    dropout: float = setting(0.5, ge=0, lt=1, description="dropout of the encoder")
    context: str = setting(
        "line",
        choices=CONTEXTS,
        description="the sequence the LSTM reads: a note's words in windows, or each line alone",
    )
    """The sequence the LSTM reads: ``note`` (the note's words across lines, cut into windows of
    ``max_tokens``) or ``line`` (each line alone, as the flair tagger does). On the demo corpus
    lines learn faster per epoch (dev F1 0.96 after 4 epochs against 7) at the same final F1."""
    max_tokens: int = setting(128, ge=1, description="words per window")
    token_split: str = setting(
        "suffix", choices=TOKEN_SPLITS, description="how the language pack's tokens are cut for tagging"
    )
    """How the language pack's tokens are cut for tagging (``synthdeid.tagging.words.split_tokens``):
    ``suffix`` cuts punctuation off a token's end (``H.`` -> ``H`` ``.``), ``punctuation`` also
    inside it (word runs and single marks), ``pack`` keeps the pack's tokens. A gold span must
    start and end on token edges to be tagged exactly: with the ``es`` pack's tokens 5.8% of
    MEDDOCAN's dev spans cannot (``Sexo: H.`` is one token, the span ``H``), with ``suffix`` or
    ``punctuation`` 0.05%. MEDDOCAN train -> dev entity F1: pack 0.894, suffix 0.932,
    punctuation 0.935 (patience 5: 0.946 and 0.937; ``punctuation`` splits e-mails and ages)."""
    learning_rate: float = setting(0.004, gt=0, description="Adam's learning rate")
    batch_size: int = setting(32, ge=1, description="windows per update (length-bucketed)")
    max_epochs: int = setting(40, ge=1, description="epochs to train at most")
    patience: int = setting(3, ge=1, description="stop after this many epochs without a better validation F1")
    """Stop after this many epochs without a better validation F1 (the best epoch's weights are kept)."""
    max_train_tokens: int = setting(0, ge=0, description="a training budget in tokens (0: none)")
    """A training budget in tokens (epochs x training tokens; 0 for none): training stops after the
    epoch that reaches it, so a corpus twice the size gets half the epochs (deterministic, unlike
    a time limit)."""
    grad_clip: float = setting(5.0, gt=0, description="gradient norm clipping")
    seed: int = setting(0, ge=0, description="null: the seed of the training data (params)")
    threads: int = setting(2, ge=0, description="torch threads (0: leave torch's setting)")
    """torch threads while training and predicting (0: leave torch's setting)."""
    precision: str = setting("auto", choices=PRECISIONS, description="training arithmetic: fp32, bf16 or auto")
    """Training arithmetic (``synthdeid.precision``): fp32; bf16 (autocast: the encoder's products in
    bfloat16, weights, CRF and losses in float32); auto: bf16 on a CPU with bfloat16 instructions,
    else fp32. Validation and prediction stay in float32."""
    predict_batch_size: int = setting(64, ge=1, description="windows per batch when predicting")

    @model_validator(mode="after")
    def _odd_char_width(self) -> TorchTaggerConfig:
        if self.char_width % 2 != 1:
            raise SynthdeidError(f"tagger {NAME!r}: bad settings (need char_width odd, got {self.char_width})")
        return self

    @property
    def uses_chars(self) -> bool:
        return self.char_dim > 0 and self.char_filters > 0
