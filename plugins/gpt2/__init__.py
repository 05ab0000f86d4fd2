"""The ``gpt2`` generator: a GPT-2 (transformers) trained on the inline-tag text with a byte-level
BPE whose tags, ``<PAR>`` and ``<EOD>`` are single tokens. From scratch by default; with
``pretrained: /local/dir`` the vocabulary is adapted and the model fine-tuned, optionally with
gradual unfreezing (Libbi et al. 2021, section 3.3.2 and Appendix A).

Output folder: ``model/`` (weights and tokenizer, transformers format), ``generator.json``
(resolved config and special tokens), ``metrics.json`` and the per-epoch ``checkpoint.pt``.

This module registers the plugin and parses its config; the model code (``generator``: torch,
transformers) is imported when the factory builds a generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from synthdeid import hookimpl
from synthdeid.api import RegisterGenerator
from synthdeid.toolkit import lazy_exports

from .config import NAME, GPT2Settings

if TYPE_CHECKING:
    from .generator import GPT2Generator

__getattr__ = lazy_exports(__name__, {"GPT2Generator": ".generator", "DEFAULT_VOCAB": ".generator"})


def create(settings: GPT2Settings) -> GPT2Generator:
    """The factory registered as ``gpt2``: its settings are built (and checked) by the registry or
    the study spec before the model code loads."""
    from .generator import GPT2Generator

    return GPT2Generator(settings)


@hookimpl
def register_generators(register: RegisterGenerator) -> None:
    register(NAME, create, config=GPT2Settings)  # checked without importing torch


__all__ = ["GPT2Generator", "GPT2Settings", "create", "register_generators"]
