"""The Dutch language pack ``nl``: tokenizer, sentence splitter and surrogate PHI for clinical notes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synthdeid import hookimpl
from synthdeid.api import LanguagePack, RegisterLanguage
from synthdeid.toolkit import PackConfig, SurrogateFactory, make_pack, public_words

from .sentences import split_sentences
from .tokenizer import tokenize

__all__ = ["CANARY_TEMPLATE", "DutchConfig", "factory", "register_languages", "split_sentences", "tokenize"]

CANARY_TEMPLATE = "Nieuw telefoonnummer : <Phone_faxSTART> {} {} {} {} {} {} {} {} <Phone_faxEND> . <EOD>"
"""The model canaries' sentence (``synthdeid.privacy.canaries``), as the pack tokenizes it."""

DutchConfig = PackConfig
"""Settings of the Dutch pack (the ``language`` section of params.yaml, minus its name)."""


def _build(doc_id: str, seed: int, faker: Any) -> Any:
    from .surrogates import DutchSurrogates

    return DutchSurrogates(doc_id, seed, faker)


def factory(config: Mapping[str, Any] | None = None) -> LanguagePack:
    """Build the Dutch language pack from its config."""
    return make_pack(
        "nl",
        "Dutch",
        config,
        tokenize,
        split_sentences,
        SurrogateFactory("nl_NL", _build),
        ordinary_words=public_words("nl", "nl_NL"),
        canary_template=CANARY_TEMPLATE,
    )


@hookimpl
def register_languages(register: RegisterLanguage) -> None:
    """Register the Dutch pack as ``nl``."""
    register("nl", factory)
