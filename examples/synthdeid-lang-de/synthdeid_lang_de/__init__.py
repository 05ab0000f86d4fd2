"""A third-party synthdeid language pack for German (``de``).

It registers through the same ``register_languages`` hook as the built-in packs and builds on
synthdeid's shared language machinery (``synthdeid.toolkit``): a regex tokenizer
that keeps inline tags whole, a sentence splitter that knows abbreviations, and surrogates for all
16 canonical tags from Faker ``de_DE`` plus German rules (phone layouts, the Steuer-ID check digit,
postcodes, dates such as "12. März 2019").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synthdeid import hookimpl
from synthdeid.api import LanguagePack, RegisterLanguage
from synthdeid.toolkit import SurrogateFactory, make_pack, public_words

from .text import split_sentences, tokenize

__version__ = "0.1.0"
__all__ = ["factory", "register_languages", "split_sentences", "tokenize"]


def _build(doc_id: str, seed: int, faker: Any) -> Any:
    from .surrogates import GermanSurrogates

    return GermanSurrogates(doc_id, seed, faker)


def factory(config: Mapping[str, Any] | None = None) -> LanguagePack:
    """Build the German pack; its config accepts ``tag_map`` (extra labels -> canonical tags)."""
    return make_pack(
        "de",
        "German",
        config,
        tokenize,
        split_sentences,
        SurrogateFactory("de_DE", _build),
        ordinary_words=public_words("de", "de_DE"),
    )


@hookimpl
def register_languages(register: RegisterLanguage) -> None:
    """Register the German pack as ``de``."""
    register("de", factory)
