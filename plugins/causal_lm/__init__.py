"""The ``causal_lm`` generator: a pretrained transformers causal LM from a local folder (GPT-SW3,
FLOR, Llama-style, ...) fine-tuned on the inline-tag text with LoRA (peft; Vakili et al. 2025):
the tag tokens, ``<PAR>`` and ``<EOD>`` are added to its tokenizer, the embeddings grow, and
the new token rows train with the adapter (peft ``trainable_token_indices``). ``load_in_4bit``
gives QLoRA on a CUDA GPU with bitsandbytes.

Output folder: ``adapter/`` (LoRA weights, trained token rows, tokenizer), ``generator.json``
(resolved config, special and new token ids), ``metrics.json`` and ``checkpoint.pt``.

This module registers the plugin and parses its config; the model code (``generator``: torch,
transformers, peft) is imported when the factory builds a generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from synthdeid import hookimpl
from synthdeid.api import RegisterGenerator
from synthdeid.toolkit import lazy_exports

from .config import NAME, CausalLMSettings

if TYPE_CHECKING:
    from .generator import CausalLMGenerator

__getattr__ = lazy_exports(__name__, {"CausalLMGenerator": ".generator"})


def create(settings: CausalLMSettings) -> CausalLMGenerator:
    """The factory registered as ``causal_lm``: its settings are built (and checked: a ``dp`` setting
    is refused with the reason) by the registry or the study spec before the model code loads."""
    from .generator import CausalLMGenerator

    return CausalLMGenerator(settings)


@hookimpl
def register_generators(register: RegisterGenerator) -> None:
    register(NAME, create, config=CausalLMSettings)  # checked without importing torch


__all__ = ["CausalLMGenerator", "CausalLMSettings", "create", "register_generators"]
