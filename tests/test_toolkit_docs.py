"""Keep docs/language-toolkit.md in sync with the language-pack toolkit (core/language_kit/, ``synthdeid.language_kit``).

Every public class and function of the toolkit has a ``### `Name` `` section (the shapes helpers a
row of the helpers table instead); a class section's ``| field |`` (or ``| parameter |``) tables
list exactly its fields (dataclass fields; else ``__init__`` parameters and public class
attributes), a function section's ``| parameter |`` table exactly its parameters, each row with its type as annotated in the code. A
field that is added, renamed or removed without the docs fails here, and so does a documented one
that no longer exists.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import synthdeid.language_kit as common

TOOLKIT_DOC = Path(__file__).resolve().parent.parent / "docs" / "language-toolkit.md"
ITEM_HEADING = re.compile(r"^### `(\w+)`\s*$", re.MULTILINE)
CELL_SPLIT = re.compile(r"(?<!\\)\|")


def toolkit_modules() -> list[ModuleType]:
    return [importlib.import_module(f"{common.__name__}.{m.name}") for m in pkgutil.iter_modules(common.__path__)]


def public_items() -> dict[str, Any]:
    """Name -> class or function, for everything public that the toolkit's modules define."""
    items: dict[str, Any] = {}
    for module in toolkit_modules():
        for name, obj in vars(module).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
                continue
            if inspect.isclass(obj) or inspect.isfunction(obj):
                items[name] = obj
    return items


ITEMS = public_items()
CLASSES = {name: obj for name, obj in ITEMS.items() if inspect.isclass(obj)}
FUNCTIONS = {name: obj for name, obj in ITEMS.items() if inspect.isfunction(obj)}


def class_fields(cls: type) -> dict[str, str | None]:
    """A class's documented settings -> their annotation: a dataclass's fields; otherwise the
    ``__init__`` parameters and the public class attributes a subclass sets."""
    if dataclasses.is_dataclass(cls):
        return {f.name: str(f.type) for f in dataclasses.fields(cls)}
    out: dict[str, str | None] = {}
    for p in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            out[p.name] = _annotation(p.annotation)
    annotations = vars(cls).get("__annotations__", {})
    for name, value in vars(cls).items():
        if (
            name.startswith("_")
            or inspect.isfunction(value)
            or isinstance(value, (property, classmethod, staticmethod))
        ):
            continue
        out[name] = _annotation(annotations.get(name, inspect.Parameter.empty))
    return out


def function_parameters(fn: Any) -> dict[str, str | None]:
    return {p.name: _annotation(p.annotation) for p in inspect.signature(fn).parameters.values()}


def _annotation(annotation: Any) -> str | None:
    if annotation is inspect.Parameter.empty:
        return None
    return annotation if isinstance(annotation, str) else inspect.formatannotation(annotation)


@pytest.fixture(scope="module")
def doc() -> str:
    return TOOLKIT_DOC.read_text(encoding="utf-8")


def sections(text: str) -> dict[str, str]:
    """``### `Name` `` heading -> its text, up to the next heading of level 3 or higher."""
    out: dict[str, str] = {}
    matches = list(ITEM_HEADING.finditer(text))
    for m in matches:
        rest = text[m.end() :]
        end = re.search(r"^#{1,3} ", rest, re.MULTILINE)
        out[m.group(1)] = rest[: end.start()] if end else rest
    return out


def table_rows(text: str, *kinds: str) -> list[list[str]]:
    """The rows (cells, ``\\|`` unescaped) of the tables in ``text`` whose first header cell is one of ``kinds``."""
    rows: list[list[str]] = []
    current: str | None = None
    for line in text.splitlines():
        if not line.startswith("|"):
            current = None
            continue
        cells = [c.strip().replace("\\|", "|") for c in CELL_SPLIT.split(line.strip())[1:-1]]
        if current is None:
            current = cells[0]
            continue
        if set("".join(cells)) <= set("-: "):
            continue
        if current in kinds:
            rows.append(cells)
    return rows


def _code(cell: str) -> str:
    m = re.fullmatch(r"`([^`]+)`", cell)
    assert m, f"expected one `code` span, got {cell!r}"
    return m.group(1)


def test_the_toolkit_has_public_classes_and_functions() -> None:
    assert {
        "NameLocale",
        "DateLocale",
        "PhoneRules",
        "PlaceSurrogates",
        "BaseSurrogates",
        "SurrogateData",
        "SurrogateFactory",
        "PackConfig",
        "Tokenizer",
        "SentenceSplitter",
    } <= set(CLASSES)
    assert {"make_pack", "clean_names", "name_input", "shape_replace"} <= set(FUNCTIONS)


def test_every_documented_item_exists_and_is_documented_once(doc: str) -> None:
    headings = ITEM_HEADING.findall(doc)
    assert len(headings) == len(set(headings)), "an item is documented twice"
    gone = sorted(set(headings) - set(ITEMS))
    assert not gone, f"docs/language-toolkit.md documents toolkit items that no longer exist: {gone}"


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_every_class_has_a_section_with_exactly_its_fields(name: str, doc: str) -> None:
    section = sections(doc).get(name)
    assert section is not None, f"docs/language-toolkit.md needs a section '### `{name}`'"
    _check_table(section, ("field", "parameter"), class_fields(CLASSES[name]), name)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_every_function_is_documented_with_its_parameters(name: str, doc: str) -> None:
    section = sections(doc).get(name)
    fn = FUNCTIONS[name]
    if section is not None:
        _check_table(section, ("parameter",), function_parameters(fn), name)
        return
    helpers = [_code(row[0]) for row in table_rows(doc, "helper")]
    signature = f"{name}({', '.join(inspect.signature(fn).parameters)})"
    assert signature in helpers, (
        f"docs/language-toolkit.md needs a section '### `{name}`' or the helpers-table row `{signature}`"
    )


def test_every_helper_row_names_a_function_with_that_signature(doc: str) -> None:
    for row in table_rows(doc, "helper"):
        m = re.fullmatch(r"(\w+)\((.*)\)", _code(row[0]))
        assert m and m.group(1) in FUNCTIONS, f"the helpers table names no toolkit function: {row[0]}"
        params = [p.strip() for p in m.group(2).split(",") if p.strip()]
        assert params == list(inspect.signature(FUNCTIONS[m.group(1)]).parameters), row[0]


def _check_table(section: str, kinds: tuple[str, ...], expected: dict[str, str | None], item: str) -> None:
    rows = table_rows(section, *kinds)
    kind = kinds[0]
    documented = [_code(row[0]) for row in rows]
    assert len(documented) == len(set(documented)), f"{item}: a {kind} is documented twice"
    missing = [f for f in expected if f not in documented]
    gone = [f for f in documented if f not in expected]
    assert not missing, f"docs/language-toolkit.md, {item}: document the {kind}(s) {missing}"
    assert not gone, f"docs/language-toolkit.md, {item}: the {kind}(s) {gone} no longer exist in the code"
    for row in rows:
        name = _code(row[0])
        assert len(row) == 5 and all(row[:4]), f"{item}.{name}: a row needs {kind}, type, default, meaning, example"
        annotation = expected[name]
        if annotation is not None:
            assert " ".join(_code(row[1]).split()) == " ".join(annotation.split()), (
                f"{item}.{name}: the docs say type {row[1]}, the code {annotation!r}"
            )
