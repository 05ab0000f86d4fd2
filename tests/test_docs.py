"""Keep docs/plugin-hooks.md in sync with the hook specifications in core/hookspecs.py."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from synthdeid import hookspecs

PLUGIN_HOOKS_DOC = Path(__file__).resolve().parent.parent / "docs" / "plugin-hooks.md"
HOOK_HEADING = re.compile(r"^## (\w+)\((.*)\)\s*$", re.MULTILINE)

HOOKSPECS = {
    name: fn
    for name, fn in vars(hookspecs).items()
    if inspect.isfunction(fn) and hasattr(fn, "synthdeid_spec")
}


def signature_heading(name: str, fn) -> str:
    """``register_annotators(register)``: the hook's name and parameter names."""
    params = inspect.signature(fn).parameters
    return f"{name}({', '.join(params)})"


@pytest.fixture(scope="module")
def headings() -> list[str]:
    text = PLUGIN_HOOKS_DOC.read_text(encoding="utf-8")
    return [line[3:].strip() for line in text.splitlines() if line.startswith("## ")]


def test_there_are_hookspecs():
    assert len(HOOKSPECS) == 6


@pytest.mark.parametrize("name", sorted(HOOKSPECS))
def test_plugin_hooks_are_documented(name, headings):
    expected = signature_heading(name, HOOKSPECS[name])
    assert expected in headings, f"docs/plugin-hooks.md needs the heading '## {expected}'"


def test_documented_hooks_exist():
    text = PLUGIN_HOOKS_DOC.read_text(encoding="utf-8")
    documented = [m.group(1) for m in HOOK_HEADING.finditer(text)]
    assert len(documented) == len(set(documented)), "a hook is documented twice"
    missing = sorted(set(documented) - set(HOOKSPECS))
    assert not missing, f"docs/plugin-hooks.md documents hooks that core/hookspecs.py lacks: {missing}"


@pytest.mark.parametrize("name", sorted(HOOKSPECS))
def test_hook_docstring_is_in_the_docs(name):
    """The hook's docstring (its first sentence at least) appears under its heading."""
    text = PLUGIN_HOOKS_DOC.read_text(encoding="utf-8")
    heading = f"## {signature_heading(name, HOOKSPECS[name])}"
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    first_sentence = inspect.getdoc(HOOKSPECS[name]).split(":")[0].split(". ")[0]
    first_sentence = " ".join(first_sentence.replace("``", "`").split())
    assert first_sentence in " ".join(section.split())
