"""The helpers a plugin may reuse, declared in one place: the stable plugin-author surface next to
``synthdeid.api``.

``synthdeid.api`` declares what a plugin implements (the hooks, the factories and the objects they
return); this module is what a plugin builds them from. A third-party plugin imports only
``synthdeid`` (``hookimpl``, ``Document``, ``Span``, the errors), ``synthdeid.api`` and
``synthdeid.toolkit``; every other module of synthdeid is internal and may change between releases
(``tests/test_public_surface.py`` holds the examples and the ``synthdeid new-plugin`` templates to
this). The names are re-exported from where the code lives, so a built-in plugin and a third-party
one run the same code:

- plugin settings: ``setting`` (a config field with its bounds and former names), ``check_bounds``,
  ``from_mapping``, ``current_names`` (a saved config read back under renamed settings),
  ``SettingError``, and ``lazy_exports`` (keep a plugin's registration free of heavy imports);
- language packs (docs/language-toolkit.md documents each): ``Tokenizer``, ``SentenceSplitter``,
  names (``NameLocale``, ``NameSurrogates``, ``clean_names``), dates (``DateLocale``,
  ``DateSurrogates``, ``name_input``), places (``PlaceSurrogates``), the surrogate base
  (``PhoneRules``, ``SurrogateData``, ``BaseSurrogates``), casing and shapes (``shape_replace``,
  ``capitalize_like``, ...), the pack wiring (``PackConfig``, ``SurrogateFactory``, ``make_pack``),
  ``derive_seed`` and the shipped tag mappings (``builtin_mapping``);
- testing a pack: ``pseudonymize`` (a note through the pack's surrogates), ``check_canary_template``
  and ``registry`` (what synthdeid finds installed);
- inline tags: ``PAR``, ``EOD``, ``start_tag``, ``end_tag``, ``special_tokens``, ``strip_tags`` and
  the codec ``encode_inline`` / ``decode_inline`` (``synthdeid.corpus.inline``'s ``encode`` and
  ``decode``; the latter returns an ``InlineDecoded``: the document and its malformed-tag counts);
- taggers: a document's words and windows and their BIO tags (``line_words``, ``split_tokens``,
  ``span_cuts``, ``windows``, ``bio_tags``, ``decode_tags``: tags back to spans, ...), the
  training preamble (``training_labels``), ``recall_biased_tags`` (``api.RecallTunable``) and the
  ``tagger.json`` a trained tagger folder holds, which the ``tagger`` annotator reads
  (``write_tagger_meta``, ``read_tagger_meta``, ``saved_tagger_config``, ``TAGGER_META_FILE``).

Importing this module is cheap (no torch, numpy, transformers or Faker): the pieces built on Faker
(``PlaceSurrogates``, ``PhoneRules``, ``SurrogateData``, ``BaseSurrogates``) are imported on first
use, so a pack's registration stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from synthdeid.corpus.inline import EOD, PAR, end_tag, special_tokens, start_tag, strip_tags
from synthdeid.corpus.inline import Decoded as InlineDecoded
from synthdeid.corpus.inline import decode as decode_inline
from synthdeid.corpus.inline import encode as encode_inline
from synthdeid.corpus.tags import builtin_mapping
from synthdeid.language_kit.dates import DateLocale, DateSurrogates, name_input
from synthdeid.language_kit.names import NameLocale, NameSurrogates, clean_names
from synthdeid.language_kit.pack import PackConfig, SurrogateFactory, make_pack
from synthdeid.language_kit.sentences import SentenceSplitter
from synthdeid.language_kit.shapes import (
    ascii_slug,
    capitalize_like,
    is_all_caps,
    match_case,
    shape_replace,
    strip_accents,
)
from synthdeid.language_kit.tokenizer import Tokenizer
from synthdeid.phi.pseudonymize import pseudonymize
from synthdeid.phi.seeds import derive_seed
from synthdeid.plugin_system.config import SettingError, check_bounds, current_names, from_mapping, setting
from synthdeid.plugin_system.lazy import lazy_exports
from synthdeid.plugin_system.manager import registry
from synthdeid.privacy.canaries import check_template as check_canary_template
from synthdeid.tagging.recall import recall_biased_tags
from synthdeid.tagging.runtime import CONFIG_FILE as TAGGER_META_FILE
from synthdeid.tagging.runtime import read_meta as read_tagger_meta
from synthdeid.tagging.runtime import saved_config as saved_tagger_config
from synthdeid.tagging.runtime import write_meta as write_tagger_meta
from synthdeid.tagging.words import (
    SPLITS,
    Word,
    bio_tags,
    covered_spans,
    entity_f1,
    line_words,
    restrict_labels,
    span_cuts,
    split_tokens,
    training_labels,
    windows,
)
from synthdeid.tagging.words import decode as decode_tags

if TYPE_CHECKING:  # imported on first use (they import Faker)
    from synthdeid.language_kit.places import PlaceSurrogates
    from synthdeid.language_kit.surrogates import BaseSurrogates, PhoneRules, SurrogateData

__getattr__ = lazy_exports(
    __name__,
    {
        "PlaceSurrogates": "synthdeid.language_kit.places",
        "BaseSurrogates": "synthdeid.language_kit.surrogates",
        "PhoneRules": "synthdeid.language_kit.surrogates",
        "SurrogateData": "synthdeid.language_kit.surrogates",
    },
)

__all__ = [  # grouped in the module docstring
    "EOD",
    "PAR",
    "SPLITS",
    "TAGGER_META_FILE",
    "BaseSurrogates",
    "DateLocale",
    "DateSurrogates",
    "InlineDecoded",
    "NameLocale",
    "NameSurrogates",
    "PackConfig",
    "PhoneRules",
    "PlaceSurrogates",
    "SentenceSplitter",
    "SettingError",
    "SurrogateData",
    "SurrogateFactory",
    "Tokenizer",
    "Word",
    "ascii_slug",
    "bio_tags",
    "builtin_mapping",
    "capitalize_like",
    "check_bounds",
    "check_canary_template",
    "clean_names",
    "covered_spans",
    "current_names",
    "decode_inline",
    "decode_tags",
    "derive_seed",
    "encode_inline",
    "end_tag",
    "entity_f1",
    "from_mapping",
    "is_all_caps",
    "lazy_exports",
    "line_words",
    "make_pack",
    "match_case",
    "name_input",
    "pseudonymize",
    "read_tagger_meta",
    "recall_biased_tags",
    "registry",
    "restrict_labels",
    "saved_tagger_config",
    "setting",
    "shape_replace",
    "span_cuts",
    "special_tokens",
    "split_tokens",
    "start_tag",
    "strip_accents",
    "strip_tags",
    "training_labels",
    "windows",
    "write_tagger_meta",
]


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
