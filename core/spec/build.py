"""Plugins built from the study spec, for the CLI, benchmarks and tests (a stage builds the plugins it
runs itself, with ``registry``, so that its DVC deps follow the kinds it uses)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from synthdeid.plugin_system.manager import registry

from .packs import language_pack, tagset
from .study import Study

__all__ = [
    "SeededTagger",
    "annotator",
    "decoder",
    "generator",
    "language_pack",
    "privacy_metrics",
    "tagger",
    "tagset",
]


def generator(study: Study, name: str) -> Any:
    """The generator plugin of ``generators.NAME``."""
    spec = study.generators[name]
    return registry("generator").create(spec.plugin, spec.settings)


def decoder(study: Study, corpus: str) -> Any:
    """The decoder plugin of ``corpora.CORPUS``."""
    spec = study.corpora[corpus]
    return registry("decoder").create(spec.decoder, spec.settings)


def tagger(study: Study, overrides: dict[str, Any] | None = None, name: str | None = None) -> Any:
    """The tagger plugin ``taggers.<utility.tagger>`` (or ``taggers.NAME``); ``overrides`` replace config keys."""
    spec = study.taggers[name or study.utility.tagger]
    return registry("tagger").create(spec.plugin, {**spec.config, **(overrides or {})})


def annotator(name: str, config: dict[str, Any] | None = None) -> Any:
    return registry("annotator").create(name, config or {})


def privacy_metrics(configs: dict[str, dict[str, Any] | None]) -> dict[str, Any]:
    """Privacy-metric plugins by name, from ``privacy.metrics`` or ``privacy.model_metrics``."""
    return {name: registry("privacy_metric").create(name, config or {}) for name, config in configs.items()}


@dataclass(frozen=True)
class SeededTagger:
    """``make(seed, threads=None)``: an untrained tagger of one tagger spec with that seed (and
    thread count); picklable, so worker processes can build their own."""

    plugin: str
    config: dict[str, Any] = field(default_factory=dict)

    def __call__(self, seed: int, threads: int | None = None) -> Any:
        extra: dict[str, Any] = {"seed": seed} if threads is None else {"seed": seed, "threads": threads}
        return registry("tagger").create(self.plugin, {**self.config, **extra})

    def threads(self) -> int | None:
        """The tagger's thread setting (None: it has none, so it cannot be split across workers)."""
        return self._setting("threads")

    def seed(self) -> int | None:
        """The seed the tagger trains with when none is given (None: it has no seed setting)."""
        return self._setting("seed")

    def _setting(self, name: str) -> int | None:
        """An integer setting of the tagger as configured, None when it has no such setting."""
        config = getattr(registry("tagger").create(self.plugin, dict(self.config)), "config", None)
        value = getattr(config, name, None)
        return value if isinstance(value, int) and not isinstance(value, bool) else None
