"""The ``gpt2`` generator's settings (params.yaml: ``train.gpt2``)."""

from __future__ import annotations

from typing import Any

from pydantic import field_validator, model_validator

from synthdeid import SynthdeidError
from synthdeid.toolkit import DEVICE_HELP, PRECISIONS, DPConfig, Settings, setting, valid_device

NAME = "gpt2"
WHAT = f"generator {NAME!r}"


class GPT2Settings(Settings):
    """Renamed settings (the old names still work for one release, with a ``DeprecationWarning``):
    ``n_layer`` is now ``layers``, ``n_embd`` is ``embedding_size``, ``n_head`` is ``heads``,
    ``n_positions`` is ``max_positions``, ``min_frequency`` is ``min_count``, ``epochs`` is
    ``max_epochs``, ``lr`` is ``learning_rate``."""

    # architecture (from scratch; a pretrained model keeps its own)
    layers: int = setting(4, ge=1, renamed_from="n_layer", description="transformer layers")
    embedding_size: int = setting(
        256, ge=1, renamed_from="n_embd", description="width of the token embeddings and hidden states"
    )
    """Width of the token embeddings and hidden states (transformers' ``n_embd``)."""
    heads: int = setting(
        4,
        ge=1,
        renamed_from="n_head",
        description="attention heads per layer (embedding_size must be a multiple of it)",
    )
    max_positions: int = setting(
        512,
        ge=1,
        renamed_from="n_positions",
        description="the longest sequence (prompt + generated tokens) the model handles",
    )
    """The model's position table: the longest sequence (prompt + generated tokens) it can handle
    (transformers' ``n_positions``)."""
    dropout: float = setting(0.1, ge=0, lt=1, description="dropout of the transformer")
    # tokenizer: a byte-level BPE trained on the corpus, tags never split
    vocab_size: int | None = setting(
        None, ge=300, description="BPE size (null: 8000 from scratch, the pretrained model's own)"
    )
    """BPE size; None: 8000 from scratch, the original vocabulary's size with ``pretrained``."""
    min_count: int = setting(
        2,
        ge=1,
        renamed_from="min_frequency",
        description="a BPE merge needs at least this many occurrences in the training text",
    )
    # start from a local pretrained GPT-2 (vocabulary adaptation, Libbi et al. 2021, App. A)
    pretrained: str | None = setting(
        None, description="a local folder of a GPT-2 model to fine-tune (null: train from scratch)"
    )
    # training
    max_epochs: int = setting(3, ge=1, renamed_from="epochs", description="epochs to train at most")
    """Epochs to train: all of them, or fewer under ``max_train_tokens``."""
    max_train_tokens: int = setting(0, ge=0, description="a training budget in tokens (0: none)")
    """A training budget in tokens (0: none): training runs the epochs the budget needs (its tokens
    over one epoch's, rounded up), at most ``max_epochs``, so a small corpus gets more epochs and a
    large one fewer; the learning-rate schedule spans the epochs chosen. Not with gradual
    unfreezing or DP, whose epochs are set stage by stage or spent by the privacy budget."""
    batch_size: int = setting(2, ge=1, description="blocks per optimizer step")
    """Blocks per step: small data needs many small steps (batch 2 reached a much lower validation
    loss than 8 after one epoch on the demo corpus; the demo preset uses 1: 2 epochs gave validation
    loss 4.22 against batch 2's 4.51, in the same time)."""
    block_size: int | None = setting(None, ge=2, description="training sequence length (null: max_positions)")
    """Training sequence length; None: max_positions (positions beyond it would stay untrained)."""
    learning_rate: float = setting(1e-3, gt=0, renamed_from="lr", description="peak learning rate of AdamW")
    weight_decay: float = setting(0.01, ge=0, description="AdamW's weight decay")
    schedule: str = setting("one_cycle", choices=("one_cycle", "cosine"), description="the learning-rate schedule")
    warmup: float = setting(0.1, ge=0, lt=1, description="share of the steps over which the learning rate rises from 0")
    grad_clip: float = setting(1.0, gt=0, description="gradient norm clipping")
    # gradual unfreezing with discriminative learning rates (Libbi et al. 2021, Table A1)
    gradual_unfreezing: bool = setting(False, description="fine-tune the pretrained layers top-down, stage by stage")
    unfreeze_epochs: tuple[int, ...] = setting((1, 1, 1, 2), description="epochs per gradual-unfreezing stage")
    """Epochs per stage; stage k trains the top k+1 of len(unfreeze_epochs) layer groups."""
    unfreeze_lrs: tuple[float, ...] = setting(
        (2e-3, 1e-3, 5e-4, 1e-4), description="top-group learning rate per gradual-unfreezing stage"
    )
    """Top-group learning rate per stage; a group ``d`` groups below the top gets lr / lr_decay**d."""
    lr_decay: float = setting(2.6, ge=1, description="a layer group d groups below the top gets lr / lr_decay**d")
    seed: int | None = setting(None, ge=0, description="null: the seed of the training data (params)")
    """None: the seed of the training data (params)."""
    threads: int = setting(2, ge=1, description="torch threads for training and generation")
    precision: str = setting("auto", choices=PRECISIONS, description="training arithmetic on a CPU: fp32, bf16 or auto")
    """Training arithmetic on a CPU (``synthdeid.precision``): fp32; bf16 (autocast: products in
    bfloat16, weights and losses in float32); auto: bf16 on a CPU with bfloat16 instructions, else
    fp32. Validation, generation and DP training stay in float32."""
    device: str = setting("auto", description="where the model trains and generates: auto, cpu, cuda or cuda:N")
    """Where the model trains and generates: auto (a GPU when CUDA is available; under torchrun,
    each process's own), cpu, cuda or cuda:N."""
    dp: DPConfig | None = setting(None, description="differentially private training (DP-SGD settings; null: off)")
    """Differentially private training (``synthdeid.generation.dp.DPConfig``): DP-SGD with one note per sample
    (no packed blocks), AdamW at ``learning_rate`` for ``max_epochs``; not with gradual unfreezing."""

    @field_validator("dp", mode="before")
    @classmethod
    def _dp_switch(cls, value: Any) -> Any:
        return DPConfig.switch(value)  # null or false: off

    @model_validator(mode="after")
    def _consistent(self) -> GPT2Settings:
        def need(ok: bool, msg: str) -> None:
            if not ok:
                raise SynthdeidError(f"{WHAT}: {msg}")

        need(
            self.dp is None or not self.gradual_unfreezing,
            "dp and gradual_unfreezing do not go together (each unfreezing stage would need its own privacy "
            "budget); set gradual_unfreezing: false to train privately",
        )

        need(
            self.embedding_size % self.heads == 0,
            f"embedding_size ({self.embedding_size}) must be divisible by heads ({self.heads})",
        )
        need(
            self.block_size is None or self.pretrained is not None or self.block_size <= self.max_positions,
            f"block_size must not exceed max_positions ({self.max_positions})",
        )
        need(valid_device(self.device), f"device must be {DEVICE_HELP}")
        need(
            len(self.unfreeze_epochs) == len(self.unfreeze_lrs) >= 2,
            "unfreeze_epochs and unfreeze_lrs need one entry per layer group (at least 2)",
        )
        need(all(e >= 0 for e in self.unfreeze_epochs), "unfreeze_epochs must be >= 0")
        need(all(lr > 0 for lr in self.unfreeze_lrs), "unfreeze_lrs must be > 0")
        return self
