"""Third-party plugins use only the public surface: ``synthdeid`` (its ``__all__``), ``synthdeid.api``
and ``synthdeid.toolkit``. The examples in examples/ and the ``synthdeid new-plugin`` templates are
what plugin authors copy, so every import of theirs (tests included) is held to it; any other
synthdeid module is internal and may change between releases."""

from __future__ import annotations

import ast
import json
import string
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import synthdeid
import synthdeid.toolkit as toolkit

REPO = Path(__file__).resolve().parent.parent
TEMPLATES = REPO / "core" / "tools" / "templates"
PUBLIC_MODULES = {"synthdeid", "synthdeid.api", "synthdeid.toolkit"}
PUBLIC_NAMES = set(synthdeid.__all__) | {"api", "toolkit"}  # what `from synthdeid import ...` may name
FIX = "import it from synthdeid.toolkit (add it to its __all__ if a plugin legitimately needs it)"


class _Placeholder(dict):
    """A template's ``$name`` / ``${name}`` become identifiers, so the template parses as Python."""

    def __missing__(self, key: str) -> str:
        return f"x_{key}"


def python_sources() -> Iterator[tuple[str, str]]:
    """(path relative to the repo, Python source) of every example module and every template."""
    for path in sorted((REPO / "examples").rglob("*.py")):
        if not any(part.endswith(".egg-info") or part in {"build", "__pycache__"} for part in path.parts):
            yield path.relative_to(REPO).as_posix(), path.read_text(encoding="utf-8")
    for path in sorted(TEMPLATES.rglob("*.py.tmpl")):
        text = string.Template(path.read_text(encoding="utf-8")).substitute(_Placeholder())
        yield path.relative_to(REPO).as_posix(), text


def private_imports(source: str, filename: str) -> list[str]:
    """Each import of a synthdeid module outside the public surface, as ``line N: statement``."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "synthdeid":
                names = [f"synthdeid.{a.name}" for a in node.names if a.name not in PUBLIC_NAMES]
            else:
                names = [node.module]
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
        ):
            names = [node.args[0].value]
        bad = [n for n in names if (n == "synthdeid" or n.startswith("synthdeid.")) and n not in PUBLIC_MODULES]
        if bad:
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


SOURCES = dict(python_sources())


def test_the_examples_and_templates_are_found() -> None:
    assert any(p.startswith("examples/synthdeid-lang-de/") for p in SOURCES)
    assert any(p.startswith("examples/synthdeid-example-plugin/") for p in SOURCES)
    assert {Path(p).name for p in SOURCES} >= {
        "__init__.py.tmpl",
        "data.py.tmpl",
        "surrogates.py.tmpl",
        "text.py.tmpl",
        "test_pack.py.tmpl",
    }


@pytest.mark.parametrize("path", sorted(SOURCES))
def test_plugin_code_imports_only_the_public_surface(path: str) -> None:
    bad = private_imports(SOURCES[path], path)
    assert not bad, (
        f"{path} imports synthdeid internals (a plugin may import only synthdeid, synthdeid.api "
        f"and synthdeid.toolkit):\n  " + "\n  ".join(bad) + f"\n{FIX}"
    )


@pytest.mark.parametrize(
    "source, bad",
    [
        ("from synthdeid.toolkit import Tokenizer\nfrom synthdeid import Span, api\nimport synthdeid.api", False),
        ("from synthdeid_lang_de import factory\nfrom .data import X", False),
        ("from synthdeid.language_kit.tokenizer import Tokenizer", True),
        ("import synthdeid.phi.pseudonymize", True),
        ("from synthdeid import paths", True),
        ("def f():\n    from synthdeid.plugins import registry", True),
        ("import importlib\nimportlib.import_module('synthdeid.corpus.inline')", True),
    ],
)
def test_the_check_finds_every_kind_of_private_import(source: str, bad: bool) -> None:
    assert bool(private_imports(source, "x.py")) is bad


def test_every_toolkit_name_resolves() -> None:
    assert len(set(toolkit.__all__)) == len(toolkit.__all__)
    missing = [name for name in toolkit.__all__ if getattr(toolkit, name, None) is None]
    assert not missing
    assert set(toolkit.__all__) <= set(dir(toolkit))


def test_importing_the_toolkit_loads_no_heavy_module() -> None:
    """A pack imports the toolkit while registering (every stage and CLI call): Faker, torch and
    friends load only when a surrogate source or a model is built."""
    heavy = ("torch", "numpy", "transformers", "flair", "scipy", "faker")
    code = (
        f"import json, sys\nimport synthdeid.toolkit\n"
        f"print(json.dumps(sorted(m for m in {heavy!r} if m in sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.splitlines()[-1]) == []
