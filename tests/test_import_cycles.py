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
