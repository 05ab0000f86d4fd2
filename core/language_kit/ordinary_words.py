"""A language's ordinary words from a public word-frequency list, for the ``ordinary_words`` of a
language pack (``LanguagePack.ordinary_words``): what postprocess fills an LM's ``<unk>`` with.

The list is ``wordfreq``'s (Robyn Speer; code Apache 2.0, word lists CC BY-SA 4.0, built from
Wikipedia, subtitles, news, books, web text and more; docs/language-toolkit.md). It is lower-cased
and mixes in proper nouns, so what the pack draws surrogates from is taken out: every word of the
Faker locale's person, address and company lists (first names, surnames, cities, streets), and
every word that is also among the frequent words of two other major languages (``york``,
``vermont``, ``maria``: names travel between languages, most ordinary words do not; a few
international words such as ``hotel`` go with them). A word frequency list still holds names no
list knows; postprocess also leaves out every word of the training notes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

SKIP_MOST_FREQUENT = 1000
"""The most frequent words are left out: function words and the like, which a word-level LM has
learned anyway; its ``<unk>`` stands for rarer words."""
WORDS = 50_000
"""Words taken from the list after the skipped ones."""
MIN_LENGTH = 3
PROVIDER_KINDS = ("person", "address", "company")
"""The Faker providers whose word lists are taken out of the frequency list."""
OTHER_LANGUAGES = ("en", "de", "es", "fr", "it", "nl", "pt", "sv")
SHARED_IN = 2
"""A word among the frequent words of this many of ``OTHER_LANGUAGES`` (the pack's own aside) is
taken for a name or an international word and left out."""


def _faker_words(locale: str) -> frozenset[str]:
    """The lower-cased words of the Faker ``locale``'s person, address and company lists."""
    from faker import Faker

    words: set[str] = set()
    for provider in Faker(locale).providers:
        if not any(f".{kind}" in type(provider).__module__ for kind in PROVIDER_KINDS):
            continue
        for klass in type(provider).__mro__:
            for value in vars(klass).values():
                words.update(_strings(value))
    return frozenset(w.lower() for text in words for w in text.replace("-", " ").split())


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        return (value,) if "{" not in value and "#" not in value else ()
    if isinstance(value, dict):
        return [k for k in value if isinstance(k, str)]
    if isinstance(value, (tuple, list)):
        return [v for v in value if isinstance(v, str)]
    return ()


def _frequency_list(code: str, n: int) -> list[str]:
    """The ``n`` most frequent words of language ``code`` in ``wordfreq`` (its large list when it
    has one)."""
    import wordfreq

    try:
        return list(wordfreq.top_n_list(code, n, wordlist="large"))
    except LookupError:
        return list(wordfreq.top_n_list(code, n, wordlist="best"))


def _international_words(code: str, n: int) -> frozenset[str]:
    """Words among the ``n`` most frequent of at least ``SHARED_IN`` of ``OTHER_LANGUAGES`` other than ``code``."""
    seen: dict[str, int] = {}
    for other in OTHER_LANGUAGES:
        if other != code:
            for w in set(_frequency_list(other, n)):
                seen[w] = seen.get(w, 0) + 1
    return frozenset(w for w, times in seen.items() if times >= SHARED_IN)


def _ordinary_words(code: str, locale: str | None, skip: int = SKIP_MOST_FREQUENT, n: int = WORDS) -> tuple[str, ...]:
    """Ordinary words of language ``code``: ``wordfreq``'s words ranked ``skip`` to ``skip + n``,
    alphabetic, at least ``MIN_LENGTH`` letters, without the Faker ``locale``'s names and places
    and without words frequent in two other languages (``_international_words``)."""
    names = (_faker_words(locale) if locale else frozenset()) | _international_words(code, skip + n)
    ranked = _frequency_list(code, skip + n)[skip:]
    return tuple(w for w in ranked if w.isalpha() and len(w) >= MIN_LENGTH and w not in names)


def public_words(code: str, locale: str | None = None) -> Callable[[], tuple[str, ...]]:
    """A pack's ``ordinary_words``: ``_ordinary_words(code, locale)``, loaded on first call."""
    return functools.cache(lambda: _ordinary_words(code, locale))
