"""The plugin system: hookspecs, built-in and third-party plugins, registries and their errors."""

from __future__ import annotations

import inspect
import os
from importlib import metadata

import pytest

from synthdeid import Span, SynthdeidError, UnknownPluginError, api, hookimpl
from synthdeid.plugin_system.manager import (
    DEFAULT_PLUGINS,
    KINDS,
    LOAD_ENV,
    get_plugin_manager,
    registry,
)
from synthdeid.plugin_system.registry import Registry

HOOKS = (
    "register_annotators",
    "register_generators",
    "register_decoders",
    "register_taggers",
    "register_privacy_metrics",
    "register_languages",
    "register_formats",
)
EXAMPLE_DIST = "synthdeid-example-plugin"
IN_PROCESS = "(registered in-process)"


def _factory(kind):
    def factory(config):
        return (kind, config)

    return factory


class InTestPlugin:
    """Registers one object of every kind, named ``intest_<kind>``."""

    @hookimpl
    def register_annotators(self, register):
        register("intest_annotator", _factory("annotator"), config=None)

    @hookimpl
    def register_generators(self, register):
        register("intest_generator", _factory("generator"), config=None)

    @hookimpl
    def register_decoders(self, register):
        register("intest_decoder", _factory("decoder"), config=None)

    @hookimpl
    def register_taggers(self, register):
        register("intest_tagger", _factory("tagger"), config=None)

    @hookimpl
    def register_privacy_metrics(self, register):
        register("intest_privacy_metric", _factory("privacy_metric"), config=None)

    @hookimpl
    def register_languages(self, register):
        register("intest_language", _factory("language"))

    @hookimpl
    def register_formats(self, register):
        register("intest_format", _factory("format"))


@pytest.fixture
def fresh_plugin_manager(monkeypatch):
    """``load(env)`` rebuilds the cached plugin manager with ``SYNTHDEID_LOAD_PLUGINS=env``
    (``None``: unset); the cache is cleared again afterwards so later tests get a normal one."""

    def load(env: str | None):
        if env is None:
            monkeypatch.delenv(LOAD_ENV, raising=False)
        else:
            monkeypatch.setenv(LOAD_ENV, env)
        get_plugin_manager.cache_clear()
        return get_plugin_manager()

    yield load
    get_plugin_manager.cache_clear()


def _installed(dist: str) -> bool:
    try:
        metadata.distribution(dist)
    except metadata.PackageNotFoundError:
        return False
    return True


needs_example = pytest.mark.skipif(
    not _installed(EXAMPLE_DIST),
    reason=f"{EXAMPLE_DIST} is not installed "
    "(pip install -e examples/synthdeid-example-plugin --no-deps; `make test` does it)",
)


# --- the hook specification -------------------------------------------------------------------


def test_all_hooks_are_specified():
    specified = {name for name, fn in vars(api).items() if hasattr(fn, "synthdeid_spec")}
    assert specified == set(HOOKS)
    assert set(KINDS) == set(HOOKS)
    pm = get_plugin_manager()
    for hook in HOOKS:
        caller = getattr(pm.hook, hook)
        assert caller.spec is not None, hook
        assert caller.spec.argnames == ("register",), hook
        assert inspect.getdoc(getattr(api, hook)), f"{hook} has no docstring"


def test_hookimpl_is_exported_from_the_package_root():
    import synthdeid

    assert synthdeid.hookimpl is api.hookimpl
    assert "hookimpl" in synthdeid.__all__


# --- built-in plugins -------------------------------------------------------------------------


def test_builtin_plugins_are_registered():
    pm = get_plugin_manager()
    for name in DEFAULT_PLUGINS:
        assert pm.get_plugin(name) is not None, f"built-in plugin {name} is not registered"


def test_builtin_dutch_language_pack_is_available():
    languages = registry("language")
    assert "nl" in languages
    entry = languages.entry("nl")
    assert entry.kind == "language"
    assert entry.package == "synthdeid"
    assert entry.plugin in DEFAULT_PLUGINS


# --- in-test plugins --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(KINDS.values()))
def test_in_test_plugin_is_found(register_plugin, kind):
    register_plugin(InTestPlugin, "intest-plugin")
    reg = registry(kind)
    name = f"intest_{kind}"
    assert name in reg
    entry = reg.entry(name)
    assert entry.name == name
    assert entry.kind == kind
    assert entry.plugin == "intest-plugin"
    assert entry.package == IN_PROCESS
    assert entry.version == ""
    assert reg.create(name, {"seed": 1}) == (kind, {"seed": 1})
    assert reg.create(name) == (kind, {})


def test_in_test_plugin_is_unregistered_after_the_test():
    # In file order this runs after test_in_test_plugin_is_found, whose fixture must have
    # removed the plugin again (in any other order it holds trivially).
    assert get_plugin_manager().get_plugin("intest-plugin") is None
    assert "intest_annotator" not in registry("annotator")


def test_a_plugin_may_register_several_names(register_plugin):
    class Two:
        @hookimpl
        def register_decoders(self, register):
            register("intest_b", _factory("b"), config=None)
            register("intest_a", _factory("a"), config=None)

    register_plugin(Two, "two")
    names = registry("decoder").names()
    assert {"intest_a", "intest_b"} <= set(names)
    assert names == sorted(names)


# --- errors -----------------------------------------------------------------------------------


def test_unknown_name_error_names_kind_lists_names_and_says_how_to_install(register_plugin):
    register_plugin(InTestPlugin, "intest-plugin")
    reg = registry("tagger")
    with pytest.raises(UnknownPluginError) as info:
        reg.create("flair_taggerr", {})
    message = str(info.value)
    assert "tagger" in message
    assert "'flair_taggerr'" in message
    assert "Available taggers:" in message
    for name in reg.names():
        assert name in message
    assert "intest_tagger" in message
    assert "pip install" in message
    assert "'synthdeid' entry-point group" in message
    assert "synthdeid plugins" in message
    assert isinstance(info.value, LookupError)
    assert isinstance(info.value, SynthdeidError)


def test_unknown_name_in_an_empty_registry_says_none_are_available():
    with pytest.raises(UnknownPluginError, match=r"Available decoders: \(none\)"):
        Registry("decoder").entry("nucleus")


def test_duplicate_name_across_two_plugins_names_both(register_plugin):
    class First:
        @hookimpl
        def register_generators(self, register):
            register("intest_dup", _factory("first"), config=None)

    class Second:
        @hookimpl
        def register_generators(self, register):
            register("intest_dup", _factory("second"), config=None)

    register_plugin(First, "first-plugin")
    register_plugin(Second, "second-plugin")
    with pytest.raises(SynthdeidError) as info:
        registry("generator")
    message = str(info.value)
    assert "'intest_dup'" in message
    assert "generator" in message
    assert "first-plugin" in message
    assert "second-plugin" in message
    assert IN_PROCESS in message


def test_non_callable_factory_raises(register_plugin):
    class Broken:
        @hookimpl
        def register_privacy_metrics(self, register):
            register("intest_broken", "not a factory", config=None)

    register_plugin(Broken, "broken-plugin")
    with pytest.raises(SynthdeidError, match="not callable") as info:
        registry("privacy_metric")
    assert "broken-plugin" in str(info.value)
    assert "'intest_broken'" in str(info.value)


def test_empty_name_raises(register_plugin):
    class Nameless:
        @hookimpl
        def register_annotators(self, register):
            register("", _factory("annotator"), config=None)

    register_plugin(Nameless, "nameless-plugin")
    with pytest.raises(SynthdeidError, match="without a name"):
        registry("annotator")


def test_unknown_kind_raises_value_error():
    with pytest.raises(ValueError) as info:
        registry("bogus")
    message = str(info.value)
    assert "'bogus'" in message
    for kind in KINDS.values():
        assert kind in message


# --- third-party plugins through entry points -------------------------------------------------


@needs_example
def test_example_plugin_is_found_through_its_entry_point(fresh_plugin_manager):
    pm = fresh_plugin_manager(None)
    assert pm.get_plugin("example") is not None
    entry = registry("annotator").entry("example_email")
    assert entry.kind == "annotator"
    assert entry.plugin == "example"
    assert entry.package == EXAMPLE_DIST
    assert entry.version == metadata.version(EXAMPLE_DIST)


@needs_example
def test_example_annotator_finds_email_addresses(fresh_plugin_manager):
    fresh_plugin_manager(None)
    annotator = registry("annotator").create("example_email", {})
    text = "Vragen? Mail j.jansen@example.org of bel. Kopie aan info@umc-utrecht.nl."
    spans = annotator.annotate(text)
    assert spans == [Span(13, 33, "Email"), Span(52, 71, "Email")]
    assert [text[s.start : s.end] for s in spans] == ["j.jansen@example.org", "info@umc-utrecht.nl"]
    assert annotator.annotate("Geen adres hier, alleen @handle.") == []


def test_empty_load_env_loads_no_third_party_plugin(fresh_plugin_manager):
    pm = fresh_plugin_manager("")
    assert {name for name, _ in pm.list_name_plugin()} == set(DEFAULT_PLUGINS)
    assert pm.list_plugin_distinfo() == []
    assert "example_email" not in registry("annotator")


@needs_example
def test_load_env_selects_a_distribution(fresh_plugin_manager):
    pm = fresh_plugin_manager(EXAMPLE_DIST)
    assert pm.get_plugin("example") is not None
    assert "example_email" in registry("annotator")


@needs_example
def test_load_env_selected_plugin_reports_its_package(fresh_plugin_manager):
    fresh_plugin_manager(EXAMPLE_DIST)
    assert registry("annotator").entry("example_email").package == EXAMPLE_DIST


def test_plugin_manager_is_rebuilt_normally_after_env_tests():
    # The fixture cleared the cache: this manager loads entry points again.
    pm = get_plugin_manager()
    if _installed(EXAMPLE_DIST) and LOAD_ENV not in os.environ:
        assert pm.get_plugin("example") is not None
    for name in DEFAULT_PLUGINS:
        assert pm.get_plugin(name) is not None


# ---- config=: the settings class a plugin registers with ------------------------------------------


def test_every_built_in_plugin_with_settings_declares_its_settings_class():
    from synthdeid.plugin_system.manager import SETTINGS_KINDS

    for kind in SETTINGS_KINDS:
        for entry in registry(kind):
            if entry.package == "synthdeid":
                assert entry.declared and entry.config is not None, (kind, entry.name)


def test_a_built_in_plugin_registering_without_config_is_refused(monkeypatch):
    from synthdeid.plugin_system import manager

    sources = manager._sources
    monkeypatch.setattr(
        manager, "_sources", lambda pm: {**sources(pm), **{id(p): ("synthdeid", "0") for p in pm.get_plugins()}}
    )

    class Undeclared:
        @hookimpl
        def register_decoders(self, register):
            register("intest_undeclared", _factory("decoder"))

    pm = get_plugin_manager()
    pm.register(Undeclared(), name="intest-undeclared")
    try:
        with pytest.raises(
            SynthdeidError,
            match=r"'intest-undeclared' registers decoder 'intest_undeclared' without config=.*config=TheSettings.*config=None",
        ):
            registry("decoder")
    finally:
        pm.unregister(name="intest-undeclared")


def test_a_config_class_that_is_no_settings_model_is_refused_by_name(register_plugin):
    """A settings class declared the old way (a dataclass) cannot be validated by the spec nor
    built for the factory: registering it says how to declare it."""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class OldStyle:
        top_p: float = 0.9

    class Old:
        @hookimpl
        def register_decoders(self, register):
            register("intest_old", _factory("decoder"), config=OldStyle)

    register_plugin(Old, "intest-old")
    with pytest.raises(
        SynthdeidError, match=r"registers decoder 'intest_old' with config=.*OldStyle.*no settings model"
    ):
        registry("decoder")


def test_a_third_party_plugin_without_config_is_deprecated_and_built_to_check_its_config(register_plugin):
    calls = []

    class Legacy:
        @hookimpl
        def register_generators(self, register):
            register("intest_legacy", lambda config: calls.append(dict(config)) or ("built", config))

    register_plugin(Legacy, "intest-legacy")
    with pytest.warns(DeprecationWarning, match=r"registers generator 'intest_legacy' without config="):
        entry = registry("generator").entry("intest_legacy")
    assert (entry.declared, entry.config) == (False, None)
    from synthdeid.spec.references import _plugin

    with pytest.warns(DeprecationWarning):
        built, problem = _plugin("generators.g.plugin", "generator", "intest_legacy", {"x": 1}, "generators.g.config")
    assert problem is None and built == ("built", {"x": 1}) and calls == [{"x": 1}]


def test_languages_and_formats_register_without_config(register_plugin, recwarn):
    register_plugin(InTestPlugin, "intest-plain")
    assert registry("language").entry("intest_language").config is None
    assert registry("format").entry("intest_format").declared is False
    assert not [w for w in recwarn if issubclass(w.category, DeprecationWarning) and "config=" in str(w.message)]
