"""Shared code of the transformers-based generators (``gpt2``, ``causal_lm``): the
``AutoregressiveLM`` adapter, inline-text tokenization, the training loop."""

from synthdeid.generation.hf_lm.adapter import (
    HFCausalLM,
    State,
    fork_cache,
    index_cache,
)
from synthdeid.generation.hf_lm.common import config_dict, read_meta
from synthdeid.generation.hf_lm.tokenizer import (
    InlineCodec,
    add_special_tokens,
    train_bpe,
)
from synthdeid.generation.hf_lm.train_loop import (
    LoopSettings,
    Stage,
    apply_stage,
    pack_blocks,
    train_stages,
)

__all__ = [
    "HFCausalLM",
    "InlineCodec",
    "LoopSettings",
    "Stage",
    "State",
    "add_special_tokens",
    "apply_stage",
    "config_dict",
    "fork_cache",
    "index_cache",
    "pack_blocks",
    "read_meta",
    "train_bpe",
    "train_stages",
]
