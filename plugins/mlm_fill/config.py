"""The ``mlm_fill`` generator's settings (the ``generators.mlm_fill`` section of params.yaml)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from synthdeid import SynthdeidError

FILL_MODES = ("simultaneous", "iterative")

# settings that change neither the tokenizer nor the trained weights: a checkpoint stays valid
NOT_TRAINING = frozenset({"epochs", "mask_ratio", "fill", "threads"})


@dataclass(frozen=True)
class MLMFillConfig:
    """Masked-LM refill (Belkadi et al. 2024). Sizes apply when ``pretrained`` is None."""

    pretrained: str | None = None
    """A local directory with a transformers masked LM and its tokenizer (never a hub id)."""
    mask_ratio: float = 0.25
    """Share of the non-PHI words masked and refilled at generation (PHI words always are)."""
    fill: str = "simultaneous"
    """``simultaneous``: every mask of a window from one forward pass; ``iterative``: one mask at a
    time, the most confident first, re-running the model after each."""
    # model built from scratch (RoBERTa, byte-level BPE trained on the notes)
    vocab_size: int = 8000
    hidden_size: int = 256
    layers: int = 4
    heads: int = 4
    intermediate_size: int = 1024
    dropout: float = 0.1
    min_frequency: int = 2
    max_length: int = 256
    """Tokens per window, [CLS] and [SEP] included; longer notes are processed in windows."""
    # training
    mlm_probability: float = 0.15
    """Share of the tokens masked per training step (BERT's 80/10/10 replacement)."""
    phi_mask: float = 0.75
    """Share of the PHI spans masked whole per training step (the paper's phi: 0.75 or 1.0)."""
    epochs: int = 10
    lr: float | None = None
    """None: 5e-4 from scratch, 5e-5 when fine-tuning ``pretrained``."""
    warmup_steps: int = 0
    """Optimizer steps over which the learning rate rises linearly from 0 to ``lr``."""
    batch_size: int = 16
    weight_decay: float = 0.01
    seed: int = 0
    threads: int = 2

    def __post_init__(self) -> None:
        problems = []
        if self.fill not in FILL_MODES:
            problems.append(f"fill must be one of {', '.join(FILL_MODES)}, got {self.fill!r}")
        for name in ("mask_ratio", "mlm_probability", "phi_mask", "dropout"):
            if not 0.0 <= float(getattr(self, name)) <= 1.0:
                problems.append(f"{name} must be between 0 and 1, got {getattr(self, name)!r}")
        for name in ("vocab_size", "hidden_size", "layers", "heads", "intermediate_size", "epochs",
                     "batch_size", "threads", "min_frequency", "warmup_steps"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < (0 if name in ("epochs", "warmup_steps") else 1):
                problems.append(f"{name} must be a positive integer, got {value!r}")
        if isinstance(self.vocab_size, int) and self.vocab_size < 262:
            problems.append(f"vocab_size must be at least 262 (256 byte tokens, 5 special tokens, merges), "
                            f"got {self.vocab_size}")
        if not isinstance(self.max_length, int) or self.max_length < 8:
            problems.append(f"max_length must be an integer >= 8, got {self.max_length!r}")
        if self.hidden_size % max(self.heads, 1):
            problems.append(f"hidden_size ({self.hidden_size}) must be a multiple of heads ({self.heads})")
        if self.lr is not None and not float(self.lr) > 0:
            problems.append(f"lr must be > 0, got {self.lr!r}")
        if problems:
            raise SynthdeidError("generator 'mlm_fill': " + "; ".join(problems))

    def resolved(self) -> "MLMFillConfig":
        """The config with defaults that depend on other settings filled in."""
        if self.lr is not None:
            return self
        return replace(self, lr=5e-5 if self.pretrained else 5e-4)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def training_changes(self, saved: dict[str, Any]) -> list[str]:
        """Settings that differ from a checkpoint's and would make resuming it wrong."""
        mine = self.resolved().to_dict()
        return sorted(k for k in mine if k not in NOT_TRAINING and saved.get(k) != mine[k])
