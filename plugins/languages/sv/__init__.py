"""The Swedish language pack ``sv``: tokenizer, sentence splitter and surrogate PHI for clinical
notes (Faker sv_SE names and places, personnummer and samordningsnummer with a valid check digit,
Swedish phone layouts and dates). Its ``tag_map`` knows the SEPR PHI labels, so a corpus that
keeps them (``tags.keep_unmapped``) is pseudonymized too."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synthdeid import hookimpl
from synthdeid.api import LanguagePack, RegisterLanguage
from synthdeid.toolkit import SurrogateFactory, builtin_mapping, make_pack, public_words

from .text import split_sentences, tokenize

__all__ = ["CANARY_TEMPLATE", "factory", "register_languages", "split_sentences", "tokenize"]

CANARY_TEMPLATE = "Nytt telefonnummer : <Phone_faxSTART> {} {} {} {} {} {} {} {} <Phone_faxEND> . <EOD>"
"""The model canaries' sentence (``synthdeid.privacy.canaries``), as the pack tokenizes it."""


def _build(doc_id: str, seed: int, faker: Any) -> Any:
    from .surrogates import SwedishSurrogates

    return SwedishSurrogates(doc_id, seed, faker)


def factory(config: Mapping[str, Any] | None = None) -> LanguagePack:
    """Build the Swedish language pack from its config (``tag_map``: extra labels)."""
    return make_pack(
        "sv",
        "Swedish",
        config,
        tokenize,
        split_sentences,
        SurrogateFactory("sv_SE", _build),
        ordinary_words=public_words("sv", "sv_SE"),
        tag_map=builtin_mapping("sepr"),
        canary_template=CANARY_TEMPLATE,
    )


@hookimpl
def register_languages(register: RegisterLanguage) -> None:
    """Register the Swedish pack as ``sv``."""
    register("sv", factory)
