"""The LSTM generator's settings (``Settings``), built from its ``params.yaml`` section."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import field_validator, model_validator

from synthdeid import SynthdeidError
from synthdeid.toolkit import PRECISIONS, DPConfig, Settings, renames, setting

WHAT = "generator 'lstm'"
PRESETS = ("default", "paper")
PAPER: dict[str, Any] = dict(
    layers=2,
    embedding_size=650,
    hidden_size=650,
    tied=True,
    dropout=0.5,
    learning_rate=20.0,
    lr_backoff=4.0,
    min_lr=0.1,
    batch_size=20,
    seq_len=35,
    min_count=10,
    max_epochs=50,
    grad_clip=0.25,
)
"""The paper's settings (``preset: paper``)."""


class LSTMConfig(Settings):
    """A word-level LSTM language model (Melamud & Shivade 2019, as re-implemented by Libbi et al.
    2021, section 3.3.1), trained from scratch with truncated backpropagation through time over
    the concatenated token stream of the training notes.

    The defaults are sized for the demo corpus (~235k training tokens, 5.6k words at
    ``min_count=2``) on 2 CPU cores: one tied layer of 384 units, dropout 0.3, 6 epochs, a few
    minutes. On the demo it beat 2x256 (validation perplexity 7.4 vs 8.9 after 4 epochs) and
    trained faster; the paper's learning-rate schedule is kept.

    ``LSTMConfig.paper()`` (or ``preset: paper`` in params) is the paper's configuration: 2 layers,
    650 embedding and hidden units, tied input/output weights, dropout 0.5, plain SGD with
    learning rate 20 divided by 4 after every epoch whose validation loss did not improve
    (minimum 0.1), batch 20, sequence length 35, words seen fewer than 10 times become ``<unk>``,
    50 epochs, gradient norm clipped at 0.25.

    Renamed settings (the old names still work for one release, with a ``DeprecationWarning``):
    ``lr`` is now ``learning_rate``, ``clip`` is ``grad_clip``.
    """

    layers: int = setting(1, ge=1, description="stacked LSTM layers")
    embedding_size: int = setting(384, ge=1, description="width of the word embeddings")
    hidden_size: int = setting(384, ge=1, description="LSTM units per layer")
    tied: bool = setting(
        True, description="share the input embedding with the output layer (embedding_size == hidden_size)"
    )
    """Share the input embedding with the output layer (needs embedding_size == hidden_size)."""
    dropout: float = setting(0.3, ge=0, lt=1, description="dropout between layers")
    learning_rate: float = setting(20.0, gt=0, renamed_from="lr", description="initial learning rate of plain SGD")
    lr_backoff: float = setting(
        4.0, ge=1, description="divide the learning rate by this after an epoch without a lower validation loss"
    )
    """Divide the learning rate by this after an epoch whose validation loss did not improve."""
    min_lr: float = setting(0.1, gt=0, description="stop when the learning rate falls below this")
    batch_size: int = setting(20, ge=1, description="parallel columns of the token stream")
    seq_len: int = setting(35, ge=1, description="truncated-BPTT chunk length")
    """Truncated-BPTT chunk length; the hidden state is carried (detached) across chunks."""
    eval_batch_size: int = setting(10, ge=1, description="parallel columns when computing the validation loss")
    min_count: int = setting(2, ge=1, description="words seen fewer times in training become <unk>")
    """Words seen fewer times in training become ``<unk>`` (special tokens are always kept)."""
    max_epochs: int = setting(6, ge=1, description="epochs to train at most")
    patience: int = setting(
        3, ge=0, description="stop after this many epochs without a lower validation loss (0: never early)"
    )
    """Stop after this many epochs without a lower validation loss (the best epoch's weights are
    what ``model.pt`` holds); 0: never stop early."""
    max_train_tokens: int = setting(0, ge=0, description="a training budget in tokens (0: none)")
    """A training budget in tokens (epochs x the training stream's tokens; 0: none): training stops
    after the epoch that reaches it, so a corpus twice the size gets half the epochs and a small
    corpus many more (deterministic, unlike a time limit). With a high ``max_epochs``, training
    length follows the corpus: the budget bounds it, ``patience`` ends it at convergence."""
    grad_clip: float = setting(0.25, gt=0, renamed_from="clip", description="gradient norm clipping")
    seed: int = setting(0, ge=0, description="null: the seed of the training data (params)")
    threads: int = setting(2, ge=1, description="torch threads for training and generation")
    """``torch.set_num_threads`` for training and generation. Training is byte-identical for the
    same data, config and thread count (float sums differ slightly across thread counts)."""
    precision: str = setting("auto", choices=PRECISIONS, description="training arithmetic: fp32, bf16 or auto")
    """Training arithmetic (``synthdeid.precision``): fp32; bf16 (autocast: products in bfloat16,
    weights and losses in float32); auto: bf16 on a CPU with bfloat16 instructions, else fp32.
    Validation, generation and DP training stay in float32."""
    dp: DPConfig | None = setting(None, description="differentially private training (DP-SGD settings; null: off)")
    """Differentially private training (``synthdeid.generation.dp.DPConfig``, e.g. ``{noise_multiplier: 1.0}``):
    DP-SGD with one note per sample (Opacus ``DPLSTM``) instead of truncated BPTT over the stream;
    ``grad_clip`` and ``batch_size`` are replaced by ``dp.max_grad_norm`` and ``dp.batch_size``."""

    @classmethod
    def paper(cls, **overrides: Any) -> LSTMConfig:
        """The configuration of the Libbi et al. (2021) paper (see the class docstring)."""
        return cls.model_validate({"preset": "paper", **overrides})

    @model_validator(mode="before")
    @classmethod
    def _preset(cls, data: Any) -> Any:
        """``preset: paper`` starts from the paper's values (the settings given override them,
        under their current or former names); ``preset: default`` from the defaults."""
        if not isinstance(data, Mapping) or "preset" not in data:
            return data
        config = dict(data)
        preset = config.pop("preset")
        if preset not in PRESETS:
            raise SynthdeidError(f"{WHAT}: unknown preset {preset!r}; presets: {', '.join(PRESETS)}")
        given = {renames(cls).get(str(k), str(k)) for k in config}
        base = {k: v for k, v in PAPER.items() if k not in given} if preset == "paper" else {}
        return {**base, **config}

    @field_validator("dp", mode="before")
    @classmethod
    def _dp_switch(cls, value: Any) -> Any:
        return DPConfig.switch(value)  # null or false: off

    @model_validator(mode="after")
    def _tied_sizes(self) -> LSTMConfig:
        if self.tied and self.embedding_size != self.hidden_size:
            raise SynthdeidError(
                f"{WHAT}: tied weights need embedding_size == hidden_size, got {self.embedding_size} and "
                f"{self.hidden_size}; set them equal or set tied: false (check its section in params.yaml)"
            )
        return self
