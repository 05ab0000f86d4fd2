"""Static (``ast``) import graph of synthdeid's own modules: which files a module imports, its
in-repo import closure, and the import structure between folders.

Import names map to files through ``[tool.setuptools] package-dir`` in pyproject.toml
(``synthdeid`` -> ``core/`` ...). An import counts whether it is at module level or inside a
function; imports only under ``if TYPE_CHECKING:`` never run and are left out of closures. Beyond
``import`` statements, ``importlib.import_module("literal")`` and ``lazy_exports(__name__, {...})``
(``synthdeid.plugin_system.lazy``) count; a dynamic one relative to the module (``import_module(name, __name__)``,
a computed ``lazy_exports`` table) counts every module of that package. A module's literal
``lazy_exports`` table is followed per name: ``from m import a`` runs the module ``a`` comes from,
not the whole table (``synthdeid.toolkit`` re-exports from most of core), while importing ``m``
itself (``import m``, ``from pkg import m``, ``import_module``, a closure's root) counts every
module of its table. Third-party imports are ignored.

``python tests/import_closure.py`` prints each group (a top-level module or a subpackage folder of
a mapped folder, e.g. ``core/corpus/records.py``, ``core/privacy/audit/``) with the groups it imports;
``--cycles`` lists the import cycles between groups, and between modules at import time.
"""

from __future__ import annotations

import argparse
import ast
import sys
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Literal

REPO = Path(__file__).resolve().parent.parent

When = Literal["module", "function", "typing", "lazy"]
"""When an import runs: at import time, inside a function (deferred), never (TYPE_CHECKING), or when
a name of the module's literal ``lazy_exports`` table is asked for (followed from its importers)."""


@dataclass(frozen=True)
class Edge:
    """One import of a repo module by another."""

    target: str  # the imported module's name
    when: When


@dataclass
class ImportGraph:
    """The repo's own modules and their imports, from pyproject's package-dir mapping."""

    root: Path = REPO
    _edges: dict[str, frozenset[Edge]] = field(default_factory=dict, repr=False)
    _closures: dict[frozenset[str], frozenset[str]] = field(default_factory=dict, repr=False)
    _lazy: dict[str, dict[str, str]] = field(default_factory=dict, repr=False)

    @cached_property
    def package_dirs(self) -> dict[str, Path]:
        """Import prefix -> folder, e.g. ``{"synthdeid": root/"core", ...}``."""
        with open(self.root / "pyproject.toml", "rb") as f:
            mapping = tomllib.load(f)["tool"]["setuptools"]["package-dir"]
        return {name: self.root / folder for name, folder in mapping.items()}

    @cached_property
    def modules(self) -> dict[str, Path]:
        """Every in-repo module name -> its file."""
        found: dict[str, Path] = {}
        for prefix, folder in self.package_dirs.items():
            for path in sorted(folder.rglob("*.py")):
                name = self.module_name(path)
                if name is not None and name.startswith(prefix):
                    found[name] = path
        return found

    def module_name(self, path: Path) -> str | None:
        """The import name of a file, by the longest (most specific) mapped folder holding it."""
        path = path.resolve()
        for prefix, folder in sorted(self.package_dirs.items(), key=lambda kv: -len(kv[1].parts)):
            if path.is_relative_to(folder.resolve()):
                parts = list(path.relative_to(folder.resolve()).with_suffix("").parts)
                if parts and parts[-1] == "__init__":
                    parts.pop()
                if not all(p.isidentifier() for p in parts):
                    return None
                return ".".join([prefix, *parts])
        return None

    def module_file(self, name: str) -> Path | None:
        """The file of module ``name`` (a package's ``__init__.py``), None if not in the repo."""
        return self.modules.get(name)

    def is_package(self, name: str) -> bool:
        path = self.module_file(name)
        return path is not None and path.name == "__init__.py"

    def submodules(self, package: str) -> list[str]:
        """Every module under ``package`` (itself included)."""
        return sorted(m for m in self.modules if m == package or m.startswith(package + "."))

    def rel(self, name: str) -> str:
        """A module's file relative to the repo root, e.g. ``core/corpus/records.py``."""
        path = self.module_file(name)
        assert path is not None, name
        return path.relative_to(self.root).as_posix()

    # ---- imports of one module -------------------------------------------------------------

    def edges(self, name: str) -> frozenset[Edge]:
        """The in-repo imports of module ``name`` (each imported module once per kind)."""
        if name not in self._edges:
            path = self.module_file(name)
            found = set() if path is None else set(_ImportVisitor(self, name).scan(path))
            self._edges[name] = frozenset(e for e in found if e.target in self.modules and e.target != name)
        return self._edges[name]

    def lazy_table(self, name: str) -> dict[str, str]:
        """Module ``name``'s literal ``lazy_exports(__name__, {...})`` table: exported name ->
        the module it is imported from (empty when it has none)."""
        if name not in self._lazy:
            path = self.module_file(name)
            self._lazy[name] = {} if path is None else _lazy_table(name, path)
        return self._lazy[name]

    def _next(self, name: str, root: bool) -> list[str]:
        """What importing ``name`` runs: its imports, and (a root: every name may be asked for)
        its whole lazy table."""
        found = sorted(self.imports(name))
        return found + sorted(set(self.lazy_table(name).values())) if root else found

    def imports(self, name: str, kinds: Iterable[When] = ("module", "function")) -> set[str]:
        """The modules ``name`` imports directly (by default: every import that can run)."""
        wanted = set(kinds)
        return {e.target for e in self.edges(name) if e.when in wanted}

    def closure(self, names: Iterable[str], stop: Iterable[str] = ()) -> set[str]:
        """Every repo module importing ``names`` can run, with the packages each import executes
        (``stop``: modules neither followed nor counted)."""
        key = (frozenset(names), frozenset(stop))
        if key not in self._closures:
            self._closures[key] = frozenset(self._closure(*key))
        return set(self._closures[key])

    def _closure(self, names: Iterable[str], stop: frozenset[str] = frozenset()) -> set[str]:
        roots = {n for n in names if n in self.modules}
        todo = list(roots)
        seen: set[str] = set()
        while todo:
            name = todo.pop()
            if name in seen or name in stop:
                continue
            seen.add(name)
            todo += [p for p in _parents(name) if p in self.modules]  # `import a.b.c` runs a and a.b
            todo += self._next(name, name in roots)
        return seen

    def import_chains(self, roots: Iterable[str], targets: Iterable[str]) -> list[list[str]]:
        """For each target, a shortest chain of imports from one of ``roots`` to it (the modules in
        order; empty if ``closure(roots)`` does not hold it)."""
        came_from: dict[str, str | None] = {r: None for r in roots if r in self.modules}
        queue = list(came_from)
        for name in queue:  # breadth first
            nexts = self._next(name, came_from[name] is None) + [p for p in _parents(name) if p in self.modules]
            for nxt in nexts:
                if nxt not in came_from:
                    came_from[nxt] = name
                    queue.append(nxt)
        chains = []
        for target in targets:
            chain = [target] if target in came_from else []
            while chain and (prev := came_from[chain[-1]]) is not None:
                chain.append(prev)
            chains.append(chain[::-1])
        return chains

    def closure_files(self, names: Iterable[str]) -> set[str]:
        """``closure`` as repo-relative file paths."""
        return {self.rel(m) for m in self.closure(names)}

    # ---- folder-level structure ------------------------------------------------------------

    def group(self, name: str) -> str:
        """A module's group: its top-level module file, or the first subpackage folder under a
        mapped folder (``core/privacy/audit/``), as a repo-relative path."""
        rel = Path(self.rel(name))
        for folder in self.package_dirs.values():
            top = folder.relative_to(self.root)
            if rel.is_relative_to(top):
                inner = rel.relative_to(top).parts
                return (top / inner[0]).as_posix() + ("/" if len(inner) > 1 else "")
        return rel.as_posix()

    def group_graph(self, kinds: Iterable[When] = ("module", "function")) -> dict[str, set[str]]:
        """Group -> the other groups its modules import."""
        kinds = tuple(kinds)
        graph: dict[str, set[str]] = {}
        for name in self.modules:
            src = self.group(name)
            graph.setdefault(src, set()).update(self.group(t) for t in self.imports(name, kinds))
            graph[src].discard(src)
        return graph

    def module_graph(self, kinds: Iterable[When] = ("module",)) -> dict[str, set[str]]:
        """Module file -> the module files it imports (by default: at import time)."""
        kinds = tuple(kinds)
        return {self.rel(n): {self.rel(t) for t in self.imports(n, kinds)} for n in self.modules}


def _parents(name: str) -> Iterator[str]:
    parts = name.split(".")
    for i in range(1, len(parts)):
        yield ".".join(parts[:i])


class _ImportVisitor(ast.NodeVisitor):
    """Collects the imports of one module with when they run."""

    def __init__(self, graph: ImportGraph, name: str) -> None:
        self.graph = graph
        self.name = name
        self.package = name if graph.is_package(name) else name.rpartition(".")[0]
        self.when: When = "module"
        self.found: list[Edge] = []

    def scan(self, path: Path) -> list[Edge]:
        self.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        return self.found

    def add(self, target: str) -> None:
        self.found.append(Edge(target, self.when))

    def add_package(self, package: str) -> None:
        """A dynamic import inside ``package``: any of its modules."""
        for module in self.graph.submodules(package):
            self.add(module)

    def _nested(self, node: ast.AST, when: When) -> None:
        outer, self.when = self.when, (self.when if self.when == "typing" else when)
        self.generic_visit(node)
        self.when = outer

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._nested(node, "function")

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]
    visit_Lambda = visit_FunctionDef  # type: ignore[assignment]

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking(node.test):
            outer, self.when = self.when, "typing"
            for child in node.body:
                self.visit(child)
            self.when = outer
            for child in node.orelse:
                self.visit(child)
        else:
            self.generic_visit(node)

    def add_lazy(self, module: str, names: Iterable[str] | None = None) -> None:
        """The modules ``module``'s lazy table imports ``names`` from (None: every name)."""
        if module == self.name or module not in self.graph.modules:
            return
        table = self.graph.lazy_table(module)
        for exported, source in table.items():
            if names is None or exported in names:
                self.add(source)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.add(alias.name)
            self.add_lazy(alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = self.resolve(node.module or "", node.level)
        if base is None:
            return
        submodules = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in self.graph.modules]
        if len(submodules) < len(node.names):  # a name defined in `base` itself needs its __init__ run
            self.add(base)
            names = {a.name for a in node.names}
            self.add_lazy(base, None if "*" in names else names)
        for module in submodules:  # `from pkg import name`, name a submodule: imports it (and pkg as parent)
            self.add(module)
            self.add_lazy(module)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if called == "import_module" and node.args:
            self._import_module(node)
        elif called == "lazy_exports" and len(node.args) >= 2:
            self._lazy_exports(node.args[0], node.args[1])
        self.generic_visit(node)

    def _anchor(self, node: ast.expr | None) -> str | None:
        """The package a relative name is resolved against (``__name__``, ``__package__``, a literal)."""
        if node is None:
            return None
        if isinstance(node, ast.Name) and node.id == "__name__":
            return self.name
        if isinstance(node, ast.Name) and node.id == "__package__":
            return self.package
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        return None

    def _import_module(self, node: ast.Call) -> None:
        anchor_node = (
            node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "package"), None)
        )
        before = len(self.found)
        self._dynamic(node.args[0], self._anchor(anchor_node))
        for edge in self.found[before:]:
            self.add_lazy(edge.target)

    def _lazy_exports(self, package: ast.expr, table: ast.expr) -> None:
        anchor = self._anchor(package)
        if isinstance(table, ast.Dict) and anchor == self.name and self.when == "module":
            outer, self.when = self.when, "lazy"  # followed per name from the importers (lazy_table)
            for value in table.values:
                self._dynamic(value, anchor)
            self.when = outer
        elif isinstance(table, ast.Dict):
            for value in table.values:
                self._dynamic(value, anchor)
        elif anchor is not None:  # a computed table: any module of the package
            self.add_package(anchor)

    def _dynamic(self, target: ast.expr, anchor: str | None) -> None:
        """A module named at run time: a literal is resolved; otherwise, relative to a known
        package, every module of that package counts."""
        if isinstance(target, ast.Constant) and isinstance(target.value, str):
            name = target.value.partition(":")[0]  # a lazy_exports "module:attr"
            if name.startswith("."):
                level = len(name) - len(name.lstrip("."))
                resolved = _resolve_relative(anchor, name[level:], level) if anchor else None
                if resolved is not None:
                    self.add(resolved)
            else:
                self.add(name)
        elif anchor is not None:
            self.add_package(anchor)

    def resolve(self, module: str, level: int) -> str | None:
        """The absolute name of ``from <level dots><module> import ...`` in this module."""
        return module if level == 0 else _resolve_relative(self.package, module, level)


def _lazy_table(name: str, path: Path) -> dict[str, str]:
    """The literal ``lazy_exports(__name__, {...})`` table at the top level of module ``name``."""
    table: dict[str, str] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if not (
            isinstance(node, ast.Call)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", ""))
            == "lazy_exports"
            and len(node.args) >= 2
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == "__name__"
            and isinstance(node.args[1], ast.Dict)
        ):
            continue
        for key, value in zip(node.args[1].keys, node.args[1].values):
            if isinstance(key, ast.Constant) and isinstance(value, ast.Constant) and isinstance(value.value, str):
                source = value.value.partition(":")[0]
                level = len(source) - len(source.lstrip("."))
                resolved = _resolve_relative(name, source[level:], level) if level else source
                if resolved is not None:
                    table[str(key.value)] = resolved
    return table


def _resolve_relative(package: str, module: str, level: int) -> str | None:
    parts = package.split(".")
    if level - 1 > len(parts) - 1:
        return None
    base = parts[: len(parts) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (import cycles), each sorted,
    in sorted order (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph) + 100))
    for node in sorted(graph):
        if node not in index:
            connect(node)
    return sorted(found)


def format_graph(graph: dict[str, set[str]]) -> str:
    """One line per group, then its imports indented, all sorted."""
    lines: list[str] = []
    for src in sorted(graph):
        lines.append(src)
        lines += [f"    {dst}" for dst in sorted(graph[src])]
    return "\n".join(lines)


def format_cycles(graph: ImportGraph) -> str:
    """Import cycles: between groups, between modules, and between modules at import time only.
    Each line is one set of groups (modules) that import each other, directly or through each other."""
    sections = [
        ("cycles between groups (module-level and function-level imports)", graph.group_graph()),
        (
            "cycles between modules (module-level and function-level imports)",
            graph.module_graph(("module", "function")),
        ),
        ("cycles between modules at import time (module-level imports only)", graph.module_graph(("module",))),
    ]
    blocks = [[f"# {title}", *([" <-> ".join(c) for c in cycles(g)] or ["(none)"])] for title, g in sections]
    return "\n\n".join("\n".join(block) for block in blocks)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", action="store_true", help="list import cycles instead of the structure")
    parser.add_argument("--root", type=Path, default=REPO, help="the repository (holds pyproject.toml)")
    args = parser.parse_args(argv)
    graph = ImportGraph(args.root.resolve())
    print(format_cycles(graph) if args.cycles else format_graph(graph.group_graph()))


if __name__ == "__main__":
    main()
