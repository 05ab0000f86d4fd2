"""The ``hf_token_classification`` tagger plugin: any transformers encoder from a local
directory, or a tiny BERT trained from scratch with its own WordPiece vocabulary, fine-tuned
for BIO token classification on 128-word windows (Vakili et al. 2025). transformers is
imported only when a tagger is trained or loaded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synthdeid import SynthdeidError, hookimpl
from synthdeid.api import RegisterTagger
from synthdeid.toolkit import current_names, from_mapping

from .config import PRESETS, HFTaggerConfig

NAME = "hf_token_classification"


def create(config: Mapping[str, Any] | None = None) -> Any:
    """The tagger for a params config mapping (unknown keys raise ``SynthdeidError``). ``preset:
    vakili`` starts from the fine-tuning settings of Vakili et al. (2025, Table 9); keys given
    beside it override the preset's."""
    from .model import HFTagger

    config = current_names(HFTaggerConfig, dict(config or {}), f"tagger {NAME!r}")  # before the preset's
    preset = config.pop("preset", "default")
    if preset not in PRESETS:
        raise SynthdeidError(f"tagger {NAME!r}: unknown preset {preset!r}; presets: {', '.join(PRESETS)}")
    return HFTagger(from_mapping(HFTaggerConfig, {**PRESETS[preset], **config}, f"tagger {NAME!r}", also=["preset"]))


@hookimpl
def register_taggers(register: RegisterTagger) -> None:
    register(NAME, create)
