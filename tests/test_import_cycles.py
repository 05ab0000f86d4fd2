"""synthdeid's own modules import each other without a circle: between folders (``core/api.py``
and ``core/corpus/`` once imported each other through the plugin manager, hidden by imports inside
functions) and between modules, counting imports inside functions (``python tests/import_closure.py
--cycles`` lists them)."""

from __future__ import annotations

from import_closure import ImportGraph, cycles


def test_no_import_circle_between_folders_or_modules() -> None:
    graph = ImportGraph()
    assert cycles(graph.group_graph()) == []
    assert cycles(graph.module_graph(("module", "function"))) == []


def test_the_check_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) != []
    assert cycles({"a": {"b"}, "b": set()}) == []


ALL_IMPORTS = ("module", "function", "typing", "lazy")
"""Every import, type-only ones (under ``if TYPE_CHECKING:``) included."""
FORMAT_REGISTRY = {
    "core/corpus/formats/__init__.py",
    "core/corpus/formats/builtin.py",
    "core/corpus/formats/registered.py",
}
"""The corpus modules that still import the plugin API: the format registry (``CorpusFormat``, the
built-in formats' ``hookimpl``); the rest of the corpus imports nothing from it."""


def test_spec_is_in_no_circle_even_counting_type_only_imports() -> None:
    circles = cycles(ImportGraph().group_graph(ALL_IMPORTS))
    assert [c for c in circles if "core/spec/" in c] == []


def test_corpus_imports_the_api_only_in_the_format_registry() -> None:
    graph = ImportGraph()
    back = {
        graph.rel(name)
        for name in graph.modules
        if graph.rel(name).startswith("core/corpus/") and "synthdeid.api" in graph.imports(name, ALL_IMPORTS)
    }
    assert back <= FORMAT_REGISTRY, sorted(back - FORMAT_REGISTRY)
