"""The English language pack ``en``: tokenizer, sentence splitter and surrogate PHI for US clinical
notes (Faker en_US names, real US cities and states, valid SSNs, NANP phone numbers in the
original's layout, month-first US dates, ages that stay on their side of HIPAA's 89-year line).
Its ``tag_map`` knows the i2b2 2014 and 2006 de-identification labels, so a corpus that keeps
them (``tags.keep_unmapped``) is pseudonymized too."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synthdeid import hookimpl
from synthdeid.api import LanguagePack, RegisterLanguage
from synthdeid.toolkit import SurrogateFactory, builtin_mapping, make_pack, public_words

from .text import split_sentences, tokenize

__all__ = ["CANARY_TEMPLATE", "factory", "register_languages", "split_sentences", "tokenize"]

CANARY_TEMPLATE = "New phone number : <Phone_faxSTART> {} {} {} {} {} {} {} {} <Phone_faxEND> . <EOD>"
"""The model canaries' sentence (``synthdeid.privacy.canaries``), as the pack tokenizes it."""


def _build(doc_id: str, seed: int, faker: Any) -> Any:
    from .surrogates import EnglishSurrogates

    return EnglishSurrogates(doc_id, seed, faker)


def i2b2_tag_map() -> dict[str, str]:
    """The i2b2 2006 and 2014 labels (they agree where they share a label) on the canonical tags."""
    return {**builtin_mapping("i2b2_2006"), **builtin_mapping("i2b2_2014")}


def factory(config: Mapping[str, Any] | None = None) -> LanguagePack:
    """Build the English language pack from its config (``tag_map``: extra labels)."""
    return make_pack(
        "en",
        "English",
        config,
        tokenize,
        split_sentences,
        SurrogateFactory("en_US", _build),
        ordinary_words=public_words("en", "en_US"),
        tag_map=i2b2_tag_map(),
        canary_template=CANARY_TEMPLATE,
    )


@hookimpl
def register_languages(register: RegisterLanguage) -> None:
    """Register the English pack as ``en``."""
    register("en", factory)
