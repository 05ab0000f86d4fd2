"""Settings of the ``hf_token_classification`` tagger (the ``taggers.<name>.config`` params)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationInfo, model_validator

from synthdeid import SynthdeidError
from synthdeid.toolkit import DEVICE_HELP, Settings, setting, valid_device

NAME = "hf_token_classification"

SCRATCH_LEARNING_RATE = 1e-3
PRETRAINED_LEARNING_RATE = 5e-5
PRESETS: dict[str, dict[str, object]] = {
    "default": {},
    # Vakili et al. 2025, Table 9 (SweDeClin-BERT, roberta-base-bne): with `model: /local/dir`
    "vakili": {"learning_rate": 1e-4, "weight_decay": 1e-5, "batch_size": 16, "max_epochs": 6, "max_words": 128},
}


class HFTaggerConfig(Settings):
    """Token classification with any transformers encoder, on windows of ``max_words`` words
    (Vakili et al. 2025: 128-word chunks, 6 epochs, batch size 16).

    Without ``model`` a tiny BERT is built from the ``hidden_size`` ... settings with a WordPiece
    vocabulary trained on the training notes (offline, demo-sized); with ``model: /local/dir``
    that encoder (and its tokenizer, or ``tokenizer: /other/dir``) is fine-tuned. Model-hub
    ids are not looked up: this workplace is offline.

    Renamed settings (the old names still work for one release, with a ``DeprecationWarning``):
    ``num_layers`` is now ``layers``, ``num_heads`` is ``heads``, ``max_position_embeddings`` is
    ``max_positions``, ``epochs`` is ``max_epochs`` (every epoch runs; the best on ``select_on`` is
    kept), ``max_grad_norm`` is ``grad_clip``, ``warmup_ratio`` is ``warmup``.
    """

    model: str | None = setting(
        None, description="a local folder of a pretrained transformers encoder (null: train one from scratch)"
    )
    tokenizer: str | None = setting(
        None, description="a local tokenizer folder (null: the model's, or one trained on the notes)"
    )
    # the from-scratch model (ignored with `model`)
    hidden_size: int = setting(128, ge=1, description="width of the from-scratch encoder's hidden states")
    layers: int = setting(
        2, ge=1, renamed_from="num_layers", description="transformer layers of the from-scratch encoder"
    )
    heads: int = setting(2, ge=1, renamed_from="num_heads", description="attention heads per layer")
    intermediate_size: int = setting(512, ge=1, description="width of the feed-forward layers")
    vocab_size: int = setting(8000, ge=1, description="WordPiece vocabulary trained on the training notes (at most)")
    """WordPiece vocabulary trained on the training notes (at most this many entries)."""
    max_positions: int = setting(
        512, ge=1, renamed_from="max_position_embeddings", description="the model's position table, in subword tokens"
    )
    """The model's position table, in subword tokens (transformers' ``max_position_embeddings``)."""
    dropout: float = setting(0.1, ge=0, lt=1, description="dropout of the encoder")
    # training
    max_epochs: int = setting(6, ge=1, renamed_from="epochs", description="epochs to train")
    batch_size: int = setting(16, ge=1, description="windows per optimizer step")
    learning_rate: float | None = setting(
        None, gt=0, description="null: 1e-3 from scratch, 5e-5 for a pretrained model"
    )
    """None: 1e-3 for the from-scratch model, 5e-5 for a pretrained ``model``."""
    weight_decay: float = setting(0.01, ge=0, description="AdamW's weight decay")
    warmup: float = setting(
        0.1,
        ge=0,
        lt=1,
        renamed_from="warmup_ratio",
        description="share of the steps over which the learning rate rises from 0",
    )
    """Share of the training steps over which the learning rate rises linearly from 0."""
    grad_clip: float = setting(1.0, gt=0, renamed_from="max_grad_norm", description="gradient norm clipping")
    select_on: str = setting(
        "f1", choices=("f1", "loss"), description="the epoch kept: best dev entity F1, or the lowest dev loss"
    )
    """Epoch kept: best dev entity F1 (ties: lower dev loss), or ``loss``; the last epoch
    without dev documents."""
    max_words: int = setting(128, ge=1, description="words per window")
    """Words per window; a window longer than the model's positions in subwords is split further."""
    constrained_decoding: bool = setting(
        True, description="best BIO-valid tag sequence per window (Viterbi) instead of each word's argmax"
    )
    """Best BIO-valid tag sequence per window (Viterbi) instead of each word's argmax; on the
    demo corpus it raised test entity F1 of the from-scratch model from 0.69 to 0.77."""
    mark_lines: bool = setting(True, description="put the tokenizer's separator token between the lines of a window")
    """Put the tokenizer's separator token between the lines of a window (the notes' line
    structure is context: without it, the last word of one line and the first of the next
    read as one phrase)."""
    seed: int = setting(0, ge=0, description="null: the seed of the training data (params)")
    threads: int = setting(2, ge=0, description="torch threads (0: leave torch's setting)")
    """torch threads while training and predicting (0: leave torch's setting)."""
    predict_batch_size: int = setting(32, ge=1, description="windows per batch when predicting")
    device: str = setting("auto", description="where the model trains and predicts: auto, cpu, cuda or cuda:N")
    """Where the model trains and predicts: auto (a GPU when CUDA is available; under torchrun,
    each process's own), cpu, cuda or cuda:N."""

    @model_validator(mode="before")
    @classmethod
    def _preset(cls, data: Any, info: ValidationInfo) -> Any:
        """``preset: vakili`` starts from the fine-tuning settings of Vakili et al. (2025, Table 9);
        keys given beside it (under a current or a former name) override the preset's."""
        if not isinstance(data, Mapping) or "preset" not in data:
            return data
        what = (info.context or {}).get("what") or f"tagger {NAME!r}"
        config = dict(data)
        preset = config.pop("preset")
        if not isinstance(preset, str) or preset not in PRESETS:
            raise SynthdeidError(f"{what}: unknown preset {preset!r}; presets: {', '.join(PRESETS)}")
        former = {
            old: name for name, f in cls.model_fields.items() for m in f.metadata for old in getattr(m, "names", ())
        }
        given = {former.get(str(k), str(k)) for k in config}
        return {**{k: v for k, v in PRESETS[preset].items() if k not in given}, **config}

    @model_validator(mode="after")
    def _consistent(self) -> HFTaggerConfig:
        checks = {
            "hidden_size divisible by heads": self.heads > 0 and self.hidden_size % self.heads == 0,
            f"device: {DEVICE_HELP}": valid_device(self.device),
        }
        failed = [k for k, ok in checks.items() if not ok]
        if failed:
            raise SynthdeidError(f"tagger {NAME!r}: bad settings (need " + "; ".join(failed) + ")")
        return self

    @property
    def resolved_learning_rate(self) -> float:
        """``learning_rate``, or its default for a from-scratch or a pretrained model."""
        if self.learning_rate is not None:
            return self.learning_rate
        return PRETRAINED_LEARNING_RATE if self.model else SCRATCH_LEARNING_RATE
