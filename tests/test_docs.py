"""Keep docs/plugin-hooks.md in sync with the hook specifications in core/api.py."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from synthdeid import api as hookspecs

PLUGIN_HOOKS_DOC = Path(__file__).resolve().parent.parent / "docs" / "plugin-hooks.md"
HOOK_HEADING = re.compile(r"^## (\w+)\((.*)\)\s*$", re.MULTILINE)

HOOKSPECS = {
    name: fn for name, fn in vars(hookspecs).items() if inspect.isfunction(fn) and hasattr(fn, "synthdeid_spec")
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
    assert len(HOOKSPECS) == 7


@pytest.mark.parametrize("name", sorted(HOOKSPECS))
def test_plugin_hooks_are_documented(name, headings):
    expected = signature_heading(name, HOOKSPECS[name])
    assert expected in headings, f"docs/plugin-hooks.md needs the heading '## {expected}'"


def test_documented_hooks_exist():
    text = PLUGIN_HOOKS_DOC.read_text(encoding="utf-8")
    documented = [m.group(1) for m in HOOK_HEADING.finditer(text)]
    assert len(documented) == len(set(documented)), "a hook is documented twice"
    missing = sorted(set(documented) - set(HOOKSPECS))
    assert not missing, f"docs/plugin-hooks.md documents hooks that core/api.py lacks: {missing}"


@pytest.mark.parametrize("name", sorted(HOOKSPECS))
def test_hook_docstring_is_in_the_docs(name):
    """The hook's docstring (its first sentence at least) appears under its heading."""
    text = PLUGIN_HOOKS_DOC.read_text(encoding="utf-8")
    heading = f"## {signature_heading(name, HOOKSPECS[name])}"
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    first_sentence = inspect.getdoc(HOOKSPECS[name]).split(":")[0].split(". ")[0]
    first_sentence = " ".join(first_sentence.replace("``", "`").split())
    assert first_sentence in " ".join(section.split())


def test_every_declared_api_name_is_documented() -> None:
    """Every protocol, data class and hook type of ``synthdeid.api`` appears on the hooks page."""
    from synthdeid import api

    text = PLUGIN_HOOKS_DOC.read_text(encoding="utf-8")
    declared = [
        name
        for name, obj in vars(api).items()
        if not name.startswith("_") and getattr(obj, "__module__", None) == api.__name__ and inspect.isclass(obj)
    ]
    declared += [name for name in vars(api) if name.endswith(("Factory", "Register")) or name.startswith("Register")]
    declared += ["Config", "Tokenize", "Offsets"]
    missing = sorted(name for name in set(declared) if f"`{name}`" not in text)
    assert len(declared) > 20
    assert not missing, f"docs/plugin-hooks.md does not mention these names of synthdeid.api: {missing}"


def test_capabilities_are_checked_by_type() -> None:
    """The optional capabilities are runtime-checkable protocols (``isinstance``), not names."""
    from synthdeid import api

    for name in (
        "BatchAnnotator",
        "AutoregressiveLM",
        "CorpusGenerator",
        "ContextLimited",
        "VocabAnonymizer",
        "TokenChooser",
        "DescribedDecoder",
        "RecallTunable",
    ):
        assert getattr(getattr(api, name), "_is_runtime_protocol", False), name


def test_no_capability_is_looked_up_by_name() -> None:
    """No code finds an optional capability with ``getattr``/``hasattr``: it checks the protocol."""
    root = Path(__file__).resolve().parent.parent
    methods = (
        "annotate_many",
        "generate_corpus",
        "max_length",
        "anonymize_vocab",
        "choose",
        "spec",
        "predict_min_confidence",
        "temperature",
        "top_p",
        "top_k",
        "num_beams",
    )
    lookup = re.compile(r"\b(?:getattr|hasattr)\([^)]*[\"'](" + "|".join(methods) + r")[\"']")
    found = [
        f"{path.relative_to(root)}:{n}"
        for folder in ("core", "plugins", "stages")
        for path in sorted((root / folder).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if lookup.search(line)
    ]
    assert not found, f"capabilities looked up by name (check the synthdeid.api protocol instead): {found}"


def test_readme_and_docs_name_no_commit() -> None:
    """The README and docs describe the project as it is; history (which commit measured what) is
    the CHANGELOG's."""
    import re

    commit = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")
    root = PLUGIN_HOOKS_DOC.parent.parent
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    assert len(pages) > 10
    found = [f"{p.name}: {m.group()}" for p in pages for m in commit.finditer(p.read_text(encoding="utf-8"))]
    assert not found, f"commit hashes in README/docs (move them to CHANGELOG.md): {found}"
    assert commit.search("measured at 702fd90 on") and not commit.search("4000000 cells")
