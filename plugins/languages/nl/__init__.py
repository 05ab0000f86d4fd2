"""The Dutch language pack ``nl``: tokenizer, sentence splitter and surrogate PHI for clinical notes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from synthdeid import hookimpl
from synthdeid.errors import InputError
from synthdeid.hookspecs import Register
from synthdeid.language import LanguagePack

from .sentences import split_sentences
from .tokenizer import tokenize

__all__ = ["DutchConfig", "factory", "register_languages", "split_sentences", "tokenize"]


@dataclass(frozen=True)
class DutchConfig:
    """Settings of the Dutch pack (the ``language`` section of params.yaml, minus its name)."""

    tag_map: Mapping[str, str] = field(default_factory=dict)
    """Extra labels mapped onto the canonical tags (e.g. a local corpus's own names)."""

    @classmethod
    def from_dict(cls, config: Mapping[str, Any]) -> "DutchConfig":
        known = {"tag_map"}
        unknown = sorted(set(config) - known - {"name", "code"})
        if unknown:
            raise InputError(
                f"unknown setting(s) for language pack 'nl': {', '.join(unknown)}",
                fix="the Dutch pack accepts: " + ", ".join(sorted(known)),
            )
        return cls(tag_map=dict(config.get("tag_map") or {}))


class _SurrogateFactory:
    """``surrogates(doc_id, seed)`` with one lazily built Faker("nl_NL") for the whole pack."""

    def __init__(self) -> None:
        self._faker: Any = None

    def __call__(self, doc_id: str, seed: int) -> Any:
        from .surrogates import DutchSurrogates

        if self._faker is None:
            from faker import Faker

            self._faker = Faker("nl_NL")
        return DutchSurrogates(doc_id, seed, self._faker)


def factory(config: Mapping[str, Any] | None = None) -> LanguagePack:
    """Build the Dutch language pack from its config."""
    cfg = DutchConfig.from_dict(config or {})
    return LanguagePack(
        code="nl",
        name="Dutch",
        tokenize=tokenize,
        split_sentences=split_sentences,
        surrogates=_SurrogateFactory(),
        tag_map=dict(cfg.tag_map),
    )


@hookimpl
def register_languages(register: Register) -> None:
    """Register the Dutch pack as ``nl``."""
    register("nl", factory)
