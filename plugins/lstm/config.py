"""The LSTM generator's settings: a frozen dataclass built from its ``params.yaml`` section."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from synthdeid import SynthdeidError
from synthdeid.config import from_mapping
from synthdeid.dp import DPConfig

PRESETS = ("default", "paper")
PAPER: dict[str, Any] = dict(layers=2, embedding_size=650, hidden_size=650, tied=True, dropout=0.5, lr=20.0,
                             lr_backoff=4.0, min_lr=0.1, batch_size=20, seq_len=35, min_count=10,
                             max_epochs=50, clip=0.25)
"""The paper's settings (``preset: paper``)."""


@dataclass(frozen=True)
class LSTMConfig:
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
    """

    layers: int = 1
    embedding_size: int = 384
    hidden_size: int = 384
    tied: bool = True
    """Share the input embedding with the output layer (needs embedding_size == hidden_size)."""
    dropout: float = 0.3
    lr: float = 20.0
    """Initial learning rate of plain SGD."""
    lr_backoff: float = 4.0
    """Divide the learning rate by this after an epoch whose validation loss did not improve."""
    min_lr: float = 0.1
    batch_size: int = 20
    """Parallel columns of the token stream."""
    seq_len: int = 35
    """Truncated-BPTT chunk length; the hidden state is carried (detached) across chunks."""
    eval_batch_size: int = 10
    min_count: int = 2
    """Words seen fewer times in training become ``<unk>`` (special tokens are always kept)."""
    max_epochs: int = 6
    patience: int = 3
    """Stop after this many epochs without a lower validation loss (the best epoch's weights are
    what ``model.pt`` holds); 0: never stop early."""
    max_train_tokens: int = 0
    """A training budget in tokens (epochs x the training stream's tokens; 0: none): training stops
    after the epoch that reaches it, so a corpus twice the size gets half the epochs and a small
    corpus many more (deterministic, unlike a time limit). With a high ``max_epochs``, training
    length follows the corpus: the budget bounds it, ``patience`` ends it at convergence."""
    clip: float = 0.25
    """Gradient norm clipping."""
    seed: int = 0
    threads: int = 2
    """``torch.set_num_threads`` for training and generation. Training is byte-identical for the
    same data, config and thread count (float sums differ slightly across thread counts)."""
    dp: DPConfig | None = None
    """Differentially private training (``synthdeid.dp.DPConfig``, e.g. ``{noise_multiplier: 1.0}``):
    DP-SGD with one note per sample (Opacus ``DPLSTM``) instead of truncated BPTT over the stream;
    ``clip`` and ``batch_size`` are replaced by ``dp.max_grad_norm`` and ``dp.batch_size``."""

    @classmethod
    def paper(cls, **overrides: Any) -> "LSTMConfig":
        """The configuration of the Libbi et al. (2021) paper (see the class docstring)."""
        return cls.from_dict({"preset": "paper", **overrides})

    @classmethod
    def from_dict(cls, config: dict[str, Any] | None) -> "LSTMConfig":
        """Build from a params mapping; ``preset: paper`` starts from the paper's values, and
        unknown keys raise ``SynthdeidError`` listing the valid ones."""
        config = dict(config or {})
        preset = config.pop("preset", "default")
        if preset not in PRESETS:
            raise SynthdeidError(f"generator 'lstm': unknown preset {preset!r}; presets: {', '.join(PRESETS)}")
        base = PAPER if preset == "paper" else {}
        if "dp" in config:
            config["dp"] = DPConfig.parse(config["dp"], "generator 'lstm': dp")
        return from_mapping(cls, {**base, **config}, "generator 'lstm'", also=["preset"])

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def __post_init__(self) -> None:
        def bad(problem: str) -> SynthdeidError:
            return SynthdeidError(f"generator 'lstm': {problem} (check its section in params.yaml)")

        if not isinstance(self.dp, (DPConfig, type(None))):
            object.__setattr__(self, "dp", DPConfig.parse(self.dp, "generator 'lstm': dp"))
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise bad(f"{f.name} must be true or false, got {value!r}")
            if f.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                raise bad(f"{f.name} must be a whole number, got {value!r}")
            if f.type == "float":
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise bad(f"{f.name} must be a number, got {value!r}")
                object.__setattr__(self, f.name, float(value))
        for name in ("layers", "embedding_size", "hidden_size", "batch_size", "seq_len", "eval_batch_size",
                     "min_count", "max_epochs", "threads"):
            if getattr(self, name) < 1:
                raise bad(f"{name} must be at least 1, got {getattr(self, name)}")
        for name in ("patience", "max_train_tokens"):
            if getattr(self, name) < 0:
                raise bad(f"{name} must be at least 0 (0: none), got {getattr(self, name)}")
        if not 0 <= self.dropout < 1:
            raise bad(f"dropout must be in [0, 1), got {self.dropout}")
        if self.lr <= 0 or self.min_lr <= 0 or self.clip <= 0:
            raise bad("lr, min_lr and clip must be > 0")
        if self.lr_backoff < 1:
            raise bad(f"lr_backoff must be >= 1 (the divisor of the learning rate), got {self.lr_backoff}")
        if self.seed < 0:
            raise bad(f"seed must be >= 0, got {self.seed}")
        if self.tied and self.embedding_size != self.hidden_size:
            raise bad(f"tied weights need embedding_size == hidden_size, got {self.embedding_size} and "
                      f"{self.hidden_size}; set them equal or set tied: false")
