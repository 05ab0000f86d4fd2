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

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from synthdeid import SynthdeidError, hookimpl
from synthdeid.api import RegisterGenerator
from synthdeid.toolkit import from_mapping, lazy_exports

from .config import NAME, CausalLMSettings

if TYPE_CHECKING:
    from .generator import CausalLMGenerator

__getattr__ = lazy_exports(__name__, {"CausalLMGenerator": ".generator"})


def create(config: Mapping[str, Any]) -> CausalLMGenerator:
    """The factory registered as ``causal_lm``: the settings are checked before the model code loads."""
    if isinstance(config, Mapping) and config.get("dp"):
        raise SynthdeidError(
            f"generator {NAME!r}: dp is not supported. DP-SGD through peft's LoRA layers needs per-sample "
            "gradients of the adapters only, and Opacus with PEFT LoRA has been reported to corrupt updates "
            "silently (hooks on wrapped base layers, frozen weights receiving noise); no tested path exists "
            "here yet. Train the `gpt2` or `lstm` generator with dp instead, or remove dp"
        )
    settings = from_mapping(CausalLMSettings, config, f"generator {NAME!r}")
    from .generator import CausalLMGenerator

    return CausalLMGenerator(settings)


@hookimpl
def register_generators(register: RegisterGenerator) -> None:
    register(NAME, create, config=CausalLMSettings)  # checked without importing torch


__all__ = ["CausalLMGenerator", "CausalLMSettings", "create", "register_generators"]
