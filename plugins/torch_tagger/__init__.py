"""The ``torch_bilstm_crf`` tagger plugin: a BiLSTM-CRF over word, word-shape and character-CNN
features written directly in torch over index tensors (no per-token objects), trained from
scratch with early stopping on the validation notes. torch is imported only when a tagger is
trained or loaded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synthdeid import hookimpl
from synthdeid.api import RegisterTagger
from synthdeid.toolkit import load_settings

from .config import TorchTaggerConfig

NAME = "torch_bilstm_crf"


def tagger(settings: TorchTaggerConfig) -> Any:
    """The tagger of ``settings`` (the registry's factory: it hands over the built settings)."""
    from .model import TorchTagger

    return TorchTagger(settings)


def create(config: TorchTaggerConfig | Mapping[str, Any] | None = None) -> Any:
    """The tagger for built settings or a params config mapping, for Python callers (unknown
    keys raise ``SettingError``, as from the registry)."""
    return tagger(load_settings(TorchTaggerConfig, config, f"tagger {NAME!r}"))


@hookimpl
def register_taggers(register: RegisterTagger) -> None:
    register(NAME, tagger, config=TorchTaggerConfig)  # checked without importing torch
