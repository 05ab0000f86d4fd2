"""The corpus formats plugins register (``register_formats``; the built-in ones in
``synthdeid.corpus_io.builtin``): by name, in the order they were registered, and by the file-name
endings they claim. Built once per set of loaded plugins."""

from __future__ import annotations

from dataclasses import dataclass

from synthdeid.api import CorpusFormat
from synthdeid.errors import InputError, SynthdeidError


@dataclass(frozen=True)
class Formats:
    """Every registered format, by name (registration order: the built-ins first) and by ending."""

    by_name: dict[str, CorpusFormat]
    endings: dict[str, str]
    """File-name ending (``.jsonl``, ``.inline.txt``) -> format name."""
    third_party: frozenset[str] = frozenset()
    """The names of the formats that packages other than synthdeid register."""

    def get(self, name: str) -> CorpusFormat:
        """The format ``name``; an unknown one is an ``InputError`` naming every registered format."""
        try:
            return self.by_name[name]
        except KeyError:
            raise InputError(
                f"unknown format {name!r}",
                fix="use one of " + ", ".join(self.by_name) + " (`synthdeid plugins` lists the formats installed)",
            ) from None

    def writable(self) -> list[str]:
        """The names of the formats with a writer."""
        return [name for name, f in self.by_name.items() if f.writer is not None]

    def by_ending(self, name: str, suffix: str) -> str | None:
        """The format a file name (lower case) and its last suffix (lower case) name: the longest
        compound ending the name has (``.inline.txt``), else the last suffix's format."""
        compound = (e for e in sorted(self.endings, key=len, reverse=True) if e.count(".") > 1)
        found = next((e for e in compound if name.endswith(e)), None)
        return self.endings.get(found or suffix)


_cache: dict[tuple[object, ...], Formats] = {}


def formats() -> Formats:
    """The registered formats of the loaded plugins (rebuilt when a plugin is added or removed)."""
    from synthdeid.plugin_system.manager import get_plugin_manager

    pm = get_plugin_manager()
    key = (pm, *(i.function for i in pm.hook.register_formats.get_hookimpls()))
    if key not in _cache:
        _cache.clear()
        _cache[key] = _build()
    return _cache[key]


def _build() -> Formats:
    from synthdeid.plugin_system.manager import registry

    reg = registry("format")
    by_name: dict[str, CorpusFormat] = {}
    endings: dict[str, str] = {}
    third_party = frozenset(e.name for e in reg.in_order() if e.package != "synthdeid")
    for entry in reg.in_order():
        fmt = reg.create(entry.name, {})
        if not isinstance(fmt, CorpusFormat):
            raise SynthdeidError(
                f"plugin {entry.plugin!r} (package {entry.package}) registered format {entry.name!r} with a "
                f"factory that returns {type(fmt).__name__}, not a synthdeid.api.CorpusFormat"
            )
        for ending in fmt.suffixes:
            if ending in endings:
                other = reg.entry(endings[ending])
                raise SynthdeidError(
                    f"two formats claim the file-name ending {ending}: {other.name} (plugin {other.plugin}, "
                    f"package {other.package}) and {entry.name} (plugin {entry.plugin}, package {entry.package}); "
                    "uninstall one of them"
                )
            endings[ending] = entry.name
        by_name[entry.name] = fmt
    return Formats(by_name, endings, third_party)
