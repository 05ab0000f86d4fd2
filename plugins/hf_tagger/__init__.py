"""The ``hf_token_classification`` tagger plugin: any transformers encoder from a local
directory, or a tiny BERT trained from scratch with its own WordPiece vocabulary, fine-tuned
for BIO token classification on 128-word windows (Vakili et al. 2025). transformers is
imported only when a tagger is trained or loaded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synthdeid import hookimpl
from synthdeid.api import RegisterTagger
from synthdeid.toolkit import load_settings

from .config import HFTaggerConfig

NAME = "hf_token_classification"


def tagger(settings: HFTaggerConfig) -> Any:
    """The tagger of ``settings`` (the registry's factory: it hands over the built settings)."""
    from .model import HFTagger

    return HFTagger(settings)


def create(config: HFTaggerConfig | Mapping[str, Any] | None = None) -> Any:
    """The tagger for built settings or a params config mapping, for Python callers (unknown
    keys raise ``SettingError``; ``preset: vakili`` starts from the settings of Vakili et al. 2025)."""
    return tagger(load_settings(HFTaggerConfig, config, f"tagger {NAME!r}"))


@hookimpl
def register_taggers(register: RegisterTagger) -> None:
    register(NAME, tagger, config=HFTaggerConfig)  # checked without importing transformers
