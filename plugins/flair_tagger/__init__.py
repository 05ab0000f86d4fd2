"""The ``flair_bilstm_crf`` tagger plugin: a BiLSTM-CRF (flair ``SequenceTagger``) as in nedap's
"deidentify", with embeddings trained from scratch (no download). flair is imported only when a
tagger is trained or loaded.

``words`` and ``settings`` hold the windowing, BIO and config helpers the transformers tagger
(``synthdeid.plugins.hf_tagger``) shares.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synthdeid import hookimpl
from synthdeid.api import RegisterTagger
from synthdeid.toolkit import load_settings

from .config import FlairTaggerConfig

NAME = "flair_bilstm_crf"


def tagger(settings: FlairTaggerConfig) -> Any:
    """The tagger of ``settings`` (the registry's factory: it hands over the built settings)."""
    from .model import FlairTagger

    return FlairTagger(settings)


def create(config: FlairTaggerConfig | Mapping[str, Any] | None = None) -> Any:
    """The tagger for built settings or a params config mapping, for Python callers (unknown
    keys raise ``SettingError``, as from the registry)."""
    return tagger(load_settings(FlairTaggerConfig, config, f"tagger {NAME!r}"))


@hookimpl
def register_taggers(register: RegisterTagger) -> None:
    register(NAME, tagger, config=FlairTaggerConfig)  # checked without importing flair
