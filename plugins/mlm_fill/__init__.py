"""The ``mlm_fill`` generator (Belkadi et al. 2024, "Generating synthetic free-text medical records
with low re-identification risk using masked language modeling").

Instead of writing notes left to right, it takes the pseudonymized training notes, masks every PHI
word and a share (``mask_ratio``) of the other words, and refills the masks with a masked LM trained
on those notes. The PHI spans stay annotated by construction: their positions are known.

``train`` trains (or fine-tunes, with ``pretrained``) the masked LM and stores the source notes;
``load`` returns an ``MLMFillModel`` whose ``generate_corpus`` has the contract of
``synthdeid.generation.generate.generate_corpus``; the sampling decoders' ``choose`` picks the refills.

This module registers the plugin and parses its config; the model code (``generator``, ``fill``:
torch, transformers) is imported when the factory builds a generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from synthdeid import hookimpl
from synthdeid.api import RegisterGenerator
from synthdeid.toolkit import lazy_exports

from .config import MLMFillConfig

if TYPE_CHECKING:
    from .generator import MLMFillGenerator

__getattr__ = lazy_exports(__name__, {"MLMFillGenerator": ".generator", "MLMFillModel": ".fill"})

__all__ = ["MLMFillConfig", "MLMFillGenerator", "MLMFillModel"]


def create(settings: MLMFillConfig) -> MLMFillGenerator:
    """The factory registered as ``mlm_fill``: its settings are built (and checked) by the registry or
    the study spec before the model code loads."""
    from .generator import MLMFillGenerator

    return MLMFillGenerator(settings)


@hookimpl
def register_generators(register: RegisterGenerator) -> None:
    register("mlm_fill", create, config=MLMFillConfig)  # checked without importing torch
