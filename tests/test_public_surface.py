"""Plugins use only the public surface: ``synthdeid`` (its ``__all__``), ``synthdeid.api`` and
``synthdeid.toolkit``. The examples in examples/ and the ``synthdeid new-plugin`` templates are
what plugin authors copy, so every import of theirs (tests included) is held to it; any other
synthdeid module is internal and may change between releases. The built-in plugins (plugins/,
``synthdeid.plugins``) are held to the same rule, so they run on what a third party can use; they may
also import each other (``synthdeid.plugins.*``, absolute or relative)."""

from __future__ import annotations

import ast
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

import synthdeid

REPO = Path(__file__).resolve().parent.parent
TEMPLATES = REPO / "core" / "tools" / "templates"
BUILTIN = REPO / "plugins"
BUILTIN_PACKAGE = "synthdeid.plugins"  # what plugins/ is installed as (pyproject's package-dir)
PUBLIC_MODULES = {"synthdeid", "synthdeid.api", "synthdeid.toolkit"}
PUBLIC_NAMES = set(synthdeid.__all__) | {"api", "toolkit"}  # what `from synthdeid import ...` may name
FIX = "import it from synthdeid.toolkit (add it to its __all__ if a plugin legitimately needs it)"
BUILTIN_FIX = (
    "import it from synthdeid.toolkit instead (re-export it in core/toolkit.py: __all__ and a line in "
    "its docstring, lazily through lazy_exports if its module imports torch, numpy or Faker), or move "
    "the code into the plugin when only that plugin uses it"
)


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


def builtin_sources() -> Iterator[tuple[str, str]]:
    """(path relative to the repo, Python source) of every built-in plugin module."""
    for path in sorted(BUILTIN.rglob("*.py")):
        if "__pycache__" not in path.parts:
            yield path.relative_to(REPO).as_posix(), path.read_text(encoding="utf-8")


def _builtin(name: str) -> bool:
    return name == BUILTIN_PACKAGE or name.startswith(BUILTIN_PACKAGE + ".")


def private_imports(source: str, filename: str, builtin: bool = False) -> list[str]:
    """Each import of a synthdeid module outside the public surface, as ``line N: statement``
    (``builtin``: a built-in plugin's, which may also import ``synthdeid.plugins.*``). Beyond import
    statements, ``import_module("...")`` and a ``lazy_exports`` table's module names count."""
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
        elif (
            isinstance(node, ast.Call)
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Dict)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) == "lazy_exports"
        ):
            names = [
                v.value.partition(":")[0]
                for v in node.args[1].values
                if isinstance(v, ast.Constant) and isinstance(v.value, str)
            ]
        bad = [
            n
            for n in names
            if (n == "synthdeid" or n.startswith("synthdeid."))
            and n not in PUBLIC_MODULES
            and not (builtin and _builtin(n))
        ]
        if bad:
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


SOURCES = dict(python_sources())
BUILTIN_SOURCES = dict(builtin_sources())


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


def test_the_builtin_plugins_are_found() -> None:
    assert len(BUILTIN_SOURCES) > 60
    assert {"plugins/__init__.py", "plugins/lstm/train.py", "plugins/languages/nl/data.py"} <= set(BUILTIN_SOURCES)


def check_builtin(path: str, source: str) -> None:
    """Fail naming the file, each line and the fix when a built-in plugin imports internals."""
    bad = private_imports(source, path, builtin=True)
    assert not bad, (
        f"{path} imports synthdeid internals (a built-in plugin may import only synthdeid, "
        f"synthdeid.api, synthdeid.toolkit and synthdeid.plugins.*):\n  "
        + "\n  ".join(f"{path}, {b}" for b in bad)
        + f"\n{BUILTIN_FIX}"
    )


@pytest.mark.parametrize("path", sorted(BUILTIN_SOURCES))
def test_builtin_plugins_import_only_the_public_surface(path: str) -> None:
    check_builtin(path, BUILTIN_SOURCES[path])


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


@pytest.mark.parametrize(
    "source, bad",
    [
        ("from synthdeid.toolkit import track\nfrom synthdeid import Span, api\nimport synthdeid.api", False),
        ("from synthdeid.plugins.languages.nl import factory\nfrom .config import X\nfrom ..common import Y", False),
        ("from synthdeid.plugins import registry\nimport synthdeid.plugins.lstm", False),
        ("__getattr__ = lazy_exports(__name__, {'LSTM': '.model', 'X': 'synthdeid.plugins.gpt2:Y'})", False),
        ("from synthdeid.model_files import read_json", True),
        ("if TYPE_CHECKING:\n    from synthdeid.generation.hf_lm.adapter import HFCausalLM", True),
        ("def f():\n    from synthdeid.progress import track", True),
        ("from synthdeid import model_files", True),
        ("__getattr__ = lazy_exports(__name__, {'T': 'synthdeid.generation.tagmask'})", True),
    ],
)
def test_the_check_holds_builtin_plugins_to_the_surface(source: str, bad: bool) -> None:
    assert bool(private_imports(source, "plugins/x.py", builtin=True)) is bad


def test_the_message_names_file_line_and_fix() -> None:
    source = BUILTIN_SOURCES["plugins/lstm/vocab.py"] + "\nfrom synthdeid.model_files import read_json\n"
    line = source.count("\n")
    with pytest.raises(AssertionError) as failed:
        check_builtin("plugins/lstm/vocab.py", source)
    message = str(failed.value)
    assert f"plugins/lstm/vocab.py, line {line}: from synthdeid.model_files import read_json" in message
    assert "import it from synthdeid.toolkit" in message
