"""The ``torch_bilstm_crf`` tagger plugin: a BiLSTM-CRF over word, word-shape and character-CNN
features written directly in torch over index tensors (no per-token objects), trained from
scratch with early stopping on the validation notes. torch is imported only when a tagger is
trained or loaded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synthdeid import hookimpl
from synthdeid.api import RegisterTagger
from synthdeid.toolkit import from_mapping

from .config import TorchTaggerConfig

NAME = "torch_bilstm_crf"


def create(config: Mapping[str, Any] | None = None) -> Any:
    """The tagger for a params config mapping (unknown keys raise ``SynthdeidError``)."""
    from .model import TorchTagger

    return TorchTagger(from_mapping(TorchTaggerConfig, config, f"tagger {NAME!r}"))


@hookimpl
def register_taggers(register: RegisterTagger) -> None:
    register(NAME, create, config=TorchTaggerConfig)  # checked without importing torch
