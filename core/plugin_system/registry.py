"""Named registries of plugin factories, one per kind, with helpful lookup errors."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from synthdeid.errors import SynthdeidError, UnknownPluginError


@dataclass(frozen=True)
class Entry:
    name: str
    kind: str
    factory: Callable[..., Any]
    plugin: str
    package: str
    version: str
    config: type | None = None
    """The settings dataclass the factory builds its config with (``from_mapping(config, ...)``, or
    ``config.from_dict(...)``): the study spec checks a config against it without calling the
    factory, which may import heavy libraries (torch, transformers, scipy). None: the plugin takes
    no settings (when ``declared``) or did not say (a third-party plugin registered without
    ``config=``, deprecated: its factory checks its config)."""
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

    def create(self, name: str, config: dict[str, Any] | None = None) -> Any:
        """Build the plugin object ``name`` from its config."""
        entry = self.entry(name)
        if config and not isinstance(config, Mapping):
            raise SynthdeidError(
                f"the config of {self.kind} {name!r} must be a mapping (`key: value` pairs) or null, "
                f"not {config!r}; fix it in params.yaml"
            )
        return entry.factory(dict(config or {}))

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._entries[n] for n in self.names())
