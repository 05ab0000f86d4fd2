"""The ``hf_token_classification`` tagger plugin: any transformers encoder from a local
directory, or a tiny BERT trained from scratch with its own WordPiece vocabulary, fine-tuned
for BIO token classification on 128-word windows (Vakili et al. 2025). transformers is
imported only when a tagger is trained or loaded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synthdeid import hookimpl
from synthdeid.api import RegisterTagger

from .config import HFTaggerConfig

NAME = "hf_token_classification"


def create(config: Mapping[str, Any] | None = None) -> Any:
    """The tagger for a params config mapping (``HFTaggerConfig.from_dict``: unknown keys raise
    ``SynthdeidError``, ``preset: vakili`` starts from the settings of Vakili et al. 2025)."""
    from .model import HFTagger

    return HFTagger(config if isinstance(config, HFTaggerConfig) else HFTaggerConfig.from_dict(config))


@hookimpl
def register_taggers(register: RegisterTagger) -> None:
    register(NAME, create, config=HFTaggerConfig)  # checked without importing transformers
