"""The plugin manager: built-in plugins, then third-party ones from the ``synthdeid`` entry points."""

from __future__ import annotations

import importlib
import os
import warnings
from functools import lru_cache
from typing import Any

import pluggy
from pydantic import BaseModel

from synthdeid import api
from synthdeid.errors import SynthdeidError
from synthdeid.plugin_system.registry import Entry, Registry

DEFAULT_PLUGINS: tuple[str, ...] = (
    "synthdeid.plugins.languages.nl",
    "synthdeid.plugins.languages.sv",
    "synthdeid.plugins.languages.es",
    "synthdeid.plugins.languages.en",
    "synthdeid.plugins.deduce_annotator",
    "synthdeid.plugins.tagger_annotator",
    "synthdeid.plugins.decoders",
    "synthdeid.plugins.beam",
    "synthdeid.plugins.lstm",
    "synthdeid.plugins.gpt2",
    "synthdeid.plugins.causal_lm",
    "synthdeid.plugins.mlm_fill",
    "synthdeid.plugins.flair_tagger",
    "synthdeid.plugins.hf_tagger",
    "synthdeid.plugins.torch_tagger",
    "synthdeid.plugins.privacy",
    "synthdeid.corpus_io.builtin",
)

KINDS: dict[str, str] = api.HOOK_KINDS
"""Hook name -> registry kind."""

SETTINGS_KINDS: frozenset[str] = frozenset({"annotator", "generator", "decoder", "tagger", "privacy_metric"})
"""The kinds whose plugins take a params section (``config:``): each registers its settings class
(``register(name, factory, config=Settings)``, None: no settings)."""

_UNDECLARED: Any = object()


def _undeclared(kind: str, name: str, plugin: str, package: str) -> None:
    """A plugin of a kind with settings registered without ``config=``: an error for a built-in one,
    a ``DeprecationWarning`` for a third party's (its factory then checks its config, as before)."""
    message = (
        f"plugin {plugin!r} registers {kind} {name!r} without config=: pass its settings class (a "
        f"synthdeid.toolkit.Settings model), register({name!r}, factory, config=TheSettings), or config=None "
        "when it takes no settings; the study spec validates params with it without building the plugin"
    )
    if package == "synthdeid":
        raise SynthdeidError(message)
    warnings.warn(
        message + " (without it, deprecated, the spec builds the plugin to check them)",
        DeprecationWarning,
        stacklevel=3,
    )


LOAD_ENV = "SYNTHDEID_LOAD_PLUGINS"

# plugins loaded one distribution at a time (LOAD_ENV): id(plugin) -> (distribution, version)
_selected_sources: dict[int, tuple[str, str]] = {}


@lru_cache(maxsize=1)
def get_plugin_manager() -> pluggy.PluginManager:
    """The process-wide plugin manager, loaded once.

    ``SYNTHDEID_LOAD_PLUGINS`` (comma-separated distribution names, empty for none) limits
    which third-party packages are loaded; built-ins are always loaded.
    """
    pm = pluggy.PluginManager("synthdeid")
    pm.add_hookspecs(api)
    for name in DEFAULT_PLUGINS:
        pm.register(importlib.import_module(name), name=name)
    only = os.environ.get(LOAD_ENV)
    if only is None:
        pm.load_setuptools_entrypoints("synthdeid")
    else:
        for dist in filter(None, (d.strip() for d in only.split(","))):
            _load_distribution(pm, dist)
    pm.check_pending()
    return pm


def _load_distribution(pm: pluggy.PluginManager, dist_name: str) -> None:
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        dist = distribution(dist_name)
    except PackageNotFoundError:
        raise SynthdeidError(
            f"{LOAD_ENV} names {dist_name!r}, which is not installed; install it "
            f"(pip install {dist_name}) or remove it from {LOAD_ENV}"
        ) from None
    for ep in dist.entry_points:
        if ep.group == "synthdeid" and pm.get_plugin(ep.name) is None:
            plugin = ep.load()
            pm.register(plugin, name=ep.name)
            _selected_sources[id(plugin)] = (dist.metadata["Name"], dist.version)


def _sources(pm: pluggy.PluginManager) -> dict[int, tuple[str, str]]:
    from synthdeid import __version__

    found = {id(p): (d.project_name, d.version) for p, d in pm.list_plugin_distinfo()}
    found.update(_selected_sources)
    for name in DEFAULT_PLUGINS:
        plugin = pm.get_plugin(name)
        if plugin is not None:
            found.setdefault(id(plugin), ("synthdeid", __version__))
    return found


def registry(kind: str) -> Registry:
    """The registry of one kind ("annotator", "generator", "decoder", "tagger",
    "privacy_metric", "language", "format"), built from every loaded plugin."""
    hook_name = next((h for h, k in KINDS.items() if k == kind), None)
    if hook_name is None:
        raise ValueError(f"unknown plugin kind {kind!r}; kinds: {', '.join(KINDS.values())}")
    pm = get_plugin_manager()
    sources = _sources(pm)
    reg = Registry(kind)
    for impl in getattr(pm.hook, hook_name).get_hookimpls():
        package, version = sources.get(id(impl.plugin), ("(registered in-process)", ""))

        def register(
            name: str,
            factory: Any,
            config: type | None = _UNDECLARED,
            _impl: Any = impl,
            _p: str = package,
            _v: str = version,
        ) -> None:
            declared = config is not _UNDECLARED
            if not declared and kind in SETTINGS_KINDS:
                _undeclared(kind, name, _impl.plugin_name, _p)
            if declared and config is not None and not (isinstance(config, type) and issubclass(config, BaseModel)):
                raise SynthdeidError(
                    f"plugin {_impl.plugin_name!r} registers {kind} {name!r} with config={config!r}, which is no "
                    "settings model: declare its settings as `class TheSettings(synthdeid.toolkit.Settings)` with "
                    "`setting(...)` fields (docs/plugin-hooks.md), and let the factory take the built settings"
                )
            reg.add(Entry(name, kind, factory, _impl.plugin_name, _p, _v, config if declared else None, declared))

        impl.function(register=register)
    return reg


def all_entries() -> list[Entry]:
    """Every registered plugin object of every kind, sorted by kind and name."""
    return [e for kind in KINDS.values() for e in registry(kind)]
