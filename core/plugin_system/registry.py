"""Named registries of plugin factories, one per kind, with helpful lookup errors."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from synthdeid.errors import SynthdeidError, UnknownPluginError

from .config import load_settings


@dataclass(frozen=True)
class Entry:
    name: str
    kind: str
    factory: Callable[..., Any]
    plugin: str
    package: str
    version: str
    config: type[BaseModel] | None = None
    """The settings class the factory takes (a ``Settings`` model): the study spec validates a
    params config with it, without calling the factory (which may import torch, transformers,
    scipy), and the factory receives the built settings. None: the plugin takes no settings (when
    ``declared``; its factory receives an empty mapping) or did not say (a third-party plugin
    registered without ``config=``, deprecated: its factory receives the params mapping)."""
    declared: bool = True
    """Whether the plugin registered with ``config=`` (None included)."""


class Registry:
    """The factories of one kind of plugin (annotator, generator, ...), by name."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, Entry] = {}

    def add(self, entry: Entry) -> None:
        if not entry.name or not isinstance(entry.name, str):
            raise SynthdeidError(f"plugin {entry.plugin!r} registered a {self.kind} without a name")
        if not callable(entry.factory):
            raise SynthdeidError(
                f"plugin {entry.plugin!r} registered {self.kind} {entry.name!r} with a factory "
                f"that is not callable ({entry.factory!r})"
            )
        old = self._entries.get(entry.name)
        if old is not None:
            raise SynthdeidError(
                f"two plugins register a {self.kind} named {entry.name!r}: {old.plugin} "
                f"(package {old.package}) and {entry.plugin} (package {entry.package}); "
                "uninstall one of them or rename one"
            )
        self._entries[entry.name] = entry

    def names(self) -> list[str]:
        return sorted(self._entries)

    def in_order(self) -> list[Entry]:
        """The entries in the order they were registered: the built-in plugins' first."""
        return list(self._entries.values())

    def entry(self, name: str) -> Entry:
        try:
            return self._entries[name]
        except KeyError:
            available = ", ".join(self.names()) or "(none)"
            raise UnknownPluginError(
                f"Can't find {self.kind} {name!r} in the {self.kind} registry. "
                f"Available {self.kind}s: {available}. Check the spelling in params.yaml, or "
                f"install a plugin package that provides it (pip install <package>; it registers "
                "through the 'synthdeid' entry-point group). `synthdeid plugins` lists what is installed."
            ) from None

    def what(self, name: str) -> str:
        """How errors name plugin ``name``: ``"decoder 'nucleus'"``."""
        return f"{self.kind.replace('_', ' ')} {name!r}"

    def settings(self, name: str, config: Mapping[str, Any] | Any | None = None) -> Any:
        """The settings of plugin ``name`` built from a params ``config`` (already built settings
        are returned as they are); None for a plugin with no settings class (the study spec refuses
        a config given to one that declared ``config=None``)."""
        entry = self.entry(name)
        if entry.config is None:
            if config and not isinstance(config, Mapping):
                raise SynthdeidError(
                    f"the config of {self.what(name)} must be a mapping (`key: value` pairs) or null, "
                    f"not {config!r}; fix it in params.yaml"
                )
            return None
        return load_settings(entry.config, config, self.what(name))

    def create(self, name: str, config: Mapping[str, Any] | Any | None = None) -> Any:
        """The plugin object ``name``: its factory called with its settings, built from ``config``
        (a params mapping) unless ``config`` is built settings already (the study spec's)."""
        entry = self.entry(name)
        settings = self.settings(name, config)
        if settings is None:
            return entry.factory(dict(config or {}))
        return entry.factory(settings)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._entries[n] for n in self.names())
