"""Wiring a language pack: its config (the ``language`` section of params.yaml) and a
``surrogates(doc_id, seed)`` factory that builds one Faker per pack, lazily."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from synthdeid.api import LanguagePack, Offsets
from synthdeid.errors import InputError


@dataclass(frozen=True)
class PackConfig:
    """Settings every built-in pack accepts."""

    tag_map: Mapping[str, str] = field(default_factory=dict)
    """Extra labels mapped onto the canonical tags (e.g. a local corpus's own names)."""

    @classmethod
    def from_dict(cls, code: str, config: Mapping[str, Any]) -> PackConfig:
        known = {"tag_map"}
        unknown = sorted(set(config) - known - {"name", "code"})
        if unknown:
            raise InputError(
                f"unknown setting(s) for language pack {code!r}: {', '.join(unknown)}",
                fix=f"the {code!r} pack accepts: " + ", ".join(sorted(known)),
            )
        return cls(tag_map=dict(config.get("tag_map") or {}))


class SurrogateFactory:
    """``surrogates(doc_id, seed)`` with one lazily built ``Faker(locale)`` for the whole pack.

    ``build(doc_id, seed, faker)`` makes the document's surrogate source.
    """

    def __init__(self, locale: str, build: Callable[[str, int, Any], Any]) -> None:
        self.locale = locale
        self.build = build
        self._faker: Any = None

    def __call__(self, doc_id: str, seed: int) -> Any:
        if self._faker is None:
            from faker import Faker

            self._faker = Faker(self.locale)
        return self.build(doc_id, seed, self._faker)


def make_pack(
    code: str,
    name: str,
    config: Mapping[str, Any] | None,
    tokenize: Callable[[str], Offsets],
    split_sentences: Callable[[str], Offsets],
    surrogates: Callable[[str, int], Any],
    tag_map: Mapping[str, str] | None = None,
    canary_template: str | None = None,
    ordinary_words: Callable[[], Sequence[str]] | None = None,
) -> LanguagePack:
    """A ``LanguagePack`` from its parts; ``config["tag_map"]`` extends the pack's own ``tag_map``.
    ``ordinary_words``: the pack's public word list (``public_words(code, locale)``), or None."""
    cfg = PackConfig.from_dict(code, config or {})
    return LanguagePack(
        code=code,
        name=name,
        tokenize=tokenize,
        split_sentences=split_sentences,
        surrogates=surrogates,
        tag_map={**(tag_map or {}), **cfg.tag_map},
        canary_template=canary_template,
        ordinary_words=ordinary_words,
    )
