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
from synthdeid.toolkit import from_mapping

from .config import FlairTaggerConfig

NAME = "flair_bilstm_crf"


def create(config: Mapping[str, Any] | None = None) -> Any:
    """The tagger for a params config mapping (unknown keys raise ``SynthdeidError``)."""
    from .model import FlairTagger

    return FlairTagger(from_mapping(FlairTaggerConfig, config, f"tagger {NAME!r}"))


@hookimpl
def register_taggers(register: RegisterTagger) -> None:
    register(NAME, create, config=FlairTaggerConfig)  # checked without importing flair
