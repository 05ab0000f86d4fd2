"""The ``mlm_fill`` generator's settings (the ``generators.mlm_fill`` section of params.yaml)."""

from __future__ import annotations

from typing import Any

from pydantic import model_validator

from synthdeid import SynthdeidError
from synthdeid.toolkit import Settings, renames, setting

WHAT = "generator 'mlm_fill'"
FILL_MODES = ("simultaneous", "iterative")

# settings that change neither the tokenizer nor the trained weights: a checkpoint stays valid
NOT_TRAINING = frozenset({"max_epochs", "mask_ratio", "fill", "threads"})


class MLMFillConfig(Settings):
    """Masked-LM refill (Belkadi et al. 2024). Sizes apply when ``pretrained`` is None.

    Renamed settings (the old names still work for one release, with a ``DeprecationWarning``):
    ``epochs`` is now ``max_epochs`` (here every epoch runs), ``lr`` is ``learning_rate``,
    ``min_frequency`` is ``min_count``, ``max_length`` is ``block_size``."""

    pretrained: str | None = setting(
        None, description="a local folder of a transformers masked LM and its tokenizer (null: from scratch)"
    )
    """A local directory with a transformers masked LM and its tokenizer (never a hub id)."""
    mask_ratio: float = setting(
        0.25, ge=0, le=1, description="share of the non-PHI words masked and refilled at generation"
    )
    """Share of the non-PHI words masked and refilled at generation (PHI words always are)."""
    fill: str = setting(
        "simultaneous",
        choices=FILL_MODES,
        description="simultaneous: every mask of a window at once; iterative: one at a time, most confident first",
    )
    """``simultaneous``: every mask of a window from one forward pass; ``iterative``: one mask at a
    time, the most confident first, re-running the model after each."""
    # model built from scratch (RoBERTa, byte-level BPE trained on the notes)
    vocab_size: int = setting(8000, ge=262, description="BPE vocabulary size (at least 262)")
    """At least 262: 256 byte tokens, 5 special tokens, merges."""
    hidden_size: int = setting(256, ge=1, description="width of the transformer's hidden states")
    layers: int = setting(4, ge=1, description="transformer layers")
    heads: int = setting(4, ge=1, description="attention heads per layer")
    intermediate_size: int = setting(1024, ge=1, description="width of the feed-forward layers")
    dropout: float = setting(0.1, ge=0, lt=1, description="dropout of the transformer")
    min_count: int = setting(
        2,
        ge=1,
        renamed_from="min_frequency",
        description="a BPE merge needs at least this many occurrences in the training notes",
    )
    block_size: int = setting(
        256, ge=8, renamed_from="max_length", description="tokens per window, [CLS] and [SEP] included"
    )
    """Tokens per window, [CLS] and [SEP] included; longer notes are processed in windows."""
    # training
    mlm_probability: float = setting(0.15, ge=0, le=1, description="share of the tokens masked per training step")
    """Share of the tokens masked per training step (BERT's 80/10/10 replacement)."""
    phi_mask: float = setting(0.75, ge=0, le=1, description="share of the PHI spans masked whole per training step")
    """Share of the PHI spans masked whole per training step (the paper's phi: 0.75 or 1.0)."""
    max_epochs: int = setting(10, ge=0, renamed_from="epochs", description="epochs to train")
    learning_rate: float | None = setting(
        None, gt=0, renamed_from="lr", description="null: 5e-4 from scratch, 5e-5 when fine-tuning pretrained"
    )
    """None: 5e-4 from scratch, 5e-5 when fine-tuning ``pretrained``."""
    warmup_steps: int = setting(0, ge=0, description="optimizer steps over which the learning rate rises from 0")
    """Optimizer steps over which the learning rate rises linearly from 0 to ``learning_rate``."""
    batch_size: int = setting(16, ge=1, description="windows per optimizer step")
    weight_decay: float = setting(0.01, ge=0, description="AdamW's weight decay")
    seed: int = setting(0, ge=0, description="null: the seed of the training data (params)")
    threads: int = setting(2, ge=1, description="torch threads")

    @model_validator(mode="after")
    def _heads_divide(self) -> MLMFillConfig:
        if self.hidden_size % self.heads:
            raise SynthdeidError(f"{WHAT}: hidden_size ({self.hidden_size}) must be a multiple of heads ({self.heads})")
        return self

    def resolved(self) -> MLMFillConfig:
        """The config with defaults that depend on other settings filled in."""
        if self.learning_rate is not None:
            return self
        return self.replace(learning_rate=5e-5 if self.pretrained else 5e-4)

    def training_changes(self, saved: dict[str, Any]) -> list[str]:
        """Settings that differ from a checkpoint's (maybe saved under former names) and would make
        resuming it wrong."""
        former = renames(MLMFillConfig)
        saved = {former.get(k, k): v for k, v in saved.items()}
        mine = self.resolved().model_dump()
        return sorted(k for k in mine if k not in NOT_TRAINING and saved.get(k) != mine[k])
