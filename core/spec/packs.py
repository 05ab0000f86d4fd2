"""The study's language pack and tag set: what most stages build first from the spec (the
``language`` registry is the only one this module looks up; stages look up the plugins they run
themselves, so each stage's DVC deps follow the plugin kinds it really uses)."""

from __future__ import annotations

from synthdeid.api import LanguagePack
from synthdeid.corpus.tags import CANONICAL_TAGS, TagSet, label_mapping
from synthdeid.plugin_system.manager import registry

from .study import Study


def language_pack(study: Study) -> LanguagePack:
    """The study's language pack (``language``)."""
    return registry("language").create(study.language)


def tagset(study: Study, pack: LanguagePack | None = None) -> TagSet:
    """The tag set of ``tags``: canonical tags, ``mapping`` (without one, the language pack's own
    ``tag_map``) and ``keep_unmapped``."""
    mapping = label_mapping(study.tags.mapping)
    if not mapping:
        mapping = dict((pack or language_pack(study)).tag_map)
    return TagSet(CANONICAL_TAGS, mapping, study.tags.keep_unmapped)
