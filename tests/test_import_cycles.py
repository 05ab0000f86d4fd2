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


def test_no_circle_even_counting_type_only_imports() -> None:
    graph = ImportGraph()
    assert cycles(graph.group_graph(ALL_IMPORTS)) == []
    assert cycles(graph.module_graph(ALL_IMPORTS)) == []


def test_corpus_imports_nothing_from_the_api() -> None:
    """The api builds on the corpus (``Document``, ``Tokenize``), never the other way; the format
    registry, which needs the api and the plugin manager, is ``synthdeid.corpus_io``, above both."""
    graph = ImportGraph()
    back = {
        graph.rel(name)
        for name in graph.modules
        if graph.rel(name).startswith("core/corpus/") and "synthdeid.api" in graph.imports(name, ALL_IMPORTS)
    }
    assert back == set(), sorted(back)
