"""The Spanish language pack ``es``: tokenizer, sentence splitter and surrogate PHI for clinical
notes (Faker es_ES names and places, DNI/NIE with a valid letter, social security numbers with
valid control digits, Spanish phone layouts and dates). Its ``tag_map`` knows MEDDOCAN's labels,
so a corpus that keeps them (``tags.keep_unmapped``) is pseudonymized too."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synthdeid import hookimpl
from synthdeid.api import LanguagePack, RegisterLanguage
from synthdeid.toolkit import SurrogateFactory, builtin_mapping, make_pack, public_words

from .text import split_sentences, tokenize

__all__ = ["CANARY_TEMPLATE", "factory", "register_languages", "split_sentences", "tokenize"]

CANARY_TEMPLATE = "Nuevo número de teléfono : <Phone_faxSTART> {} {} {} {} {} {} {} {} <Phone_faxEND> . <EOD>"
"""The model canaries' sentence (``synthdeid.privacy.canaries``), as the pack tokenizes it."""


def _build(doc_id: str, seed: int, faker: Any) -> Any:
    from .surrogates import SpanishSurrogates

    return SpanishSurrogates(doc_id, seed, faker)


def factory(config: Mapping[str, Any] | None = None) -> LanguagePack:
    """Build the Spanish language pack from its config (``tag_map``: extra labels)."""
    return make_pack(
        "es",
        "Spanish",
        config,
        tokenize,
        split_sentences,
        SurrogateFactory("es_ES", _build),
        ordinary_words=public_words("es", "es_ES"),
        tag_map=builtin_mapping("meddocan"),
        canary_template=CANARY_TEMPLATE,
    )


@hookimpl
def register_languages(register: RegisterLanguage) -> None:
    """Register the Spanish pack as ``es``."""
    register("es", factory)
