"""Plugins built from the study spec, for the CLI, benchmarks and tests (a stage builds the plugins it
runs itself, with ``registry``, so that its DVC deps follow the kinds it uses)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from synthdeid.plugin_system.config import Settings
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
    thread count); picklable (settings models pickle), so worker processes can build their own."""

    plugin: str
    settings: Any = None
    """The tagger's settings as the study spec built them (``spec.taggers[NAME].settings``); a
    params mapping (None: the defaults) is built by the plugin's settings class."""

    def __call__(self, seed: int, threads: int | None = None) -> Any:
        extra: dict[str, Any] = {"seed": seed} if threads is None else {"seed": seed, "threads": threads}
        if isinstance(self.settings, Settings):
            return registry("tagger").create(self.plugin, self.settings.replace(**extra))
        return registry("tagger").create(self.plugin, {**(self.settings or {}), **extra})

    def threads(self) -> int | None:
        """The tagger's thread setting (None: it has none, so it cannot be split across workers)."""
        return self._setting("threads")

    def seed(self) -> int | None:
        """The seed the tagger trains with when none is given (None: it has no seed setting)."""
        return self._setting("seed")

    def _built(self) -> Any:
        """The settings (built from a params mapping by the plugin's settings class); None for a
        plugin without one."""
        if isinstance(self.settings, Settings):
            return self.settings
        return registry("tagger").settings(self.plugin, self.settings)

    def _setting(self, name: str) -> int | None:
        """An integer setting of the tagger as configured, None when it has no such setting."""
        settings = self._built()
        value = getattr(settings, name, None) if settings is not None else dict(self.settings or {}).get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) else None
