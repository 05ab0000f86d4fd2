"""dvc.yaml's code deps cover the code each stage runs.

For every stage DVC resolves from dvc.yaml (foreach/matrix expanded), the in-repo import closure
(``import_closure``) of the stage module in its ``cmd`` and of the modules registering the plugins
its params may select (found through the real plugin manager) must be covered by the stage's
``deps``: a dep covers a file when it is the file or a folder above it. Otherwise a change to that
file would not re-run the stage. ``python -m pytest tests/test_dvc_deps.py -q`` lists what is missing.

Plugins: a stage that looks up a kind (``registry("generator")``) and declares the param naming it
runs that plugin. When one of its deps follows the param (``plugins/${item.plugin}``) only the named
plugin counts; otherwise a preset or ``-S`` can switch to any plugin of the kind without changing a
dep, so every plugin of that kind counts.

Not seen: code imported under a name computed at run time outside a package (the plugin manager's
``DEFAULT_PLUGINS``), and data files (``core/corpus/tag_mappings``, templates): list those by hand.
"""

from __future__ import annotations

import ast
import dataclasses
import shlex
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from dvc_roots import PRESETS, roots
from import_closure import REPO, ImportGraph

from synthdeid.spec.study import PLUGIN_SELECTORS

PluginKey = tuple[str, str]
"""(kind, registered name), e.g. ("generator", "lstm")."""


@dataclass(frozen=True)
class Stage:
    """What the check needs of one resolved DVC stage."""

    name: str
    module: str  # the module ``python -m`` runs
    args: tuple[str, ...]
    deps: tuple[str, ...]  # repo-relative paths
    params: tuple[str, ...]  # the params.yaml keys it declares
    templated: tuple[str, ...] = ()  # the deps dvc.yaml writes with ${...}, resolved (follow params)


def stage_from_cmd(
    name: str, cmd: str, deps: Iterable[str], params: Iterable[str], templated: Iterable[str] = ()
) -> Stage:
    """A stage whose cmd is ``python -m MODULE [ARGS]``."""
    words = shlex.split(cmd)
    assert words[:2] == ["python", "-m"] and len(words) > 2, f"stage {name}: cmd {cmd!r} is not `python -m MODULE ...`"
    return Stage(
        name,
        words[2],
        tuple(words[3:]),
        tuple(d.rstrip("/") for d in deps),
        tuple(params),
        tuple(d.rstrip("/") for d in templated),
    )


@cache
def dvc_stages(root: Path = REPO) -> tuple[Stage, ...]:
    """Every stage of dvc.yaml as DVC resolves it (foreach and matrix expanded)."""
    from dvc.repo import Repo

    raw = yaml.safe_load((root / "dvc.yaml").read_text(encoding="utf-8"))["stages"]
    with Repo(str(root)) as repo:
        found = []
        for s in repo.index.stages:
            if not s.cmd:
                continue
            files = [
                Path(s.wdir, d.def_path).resolve().relative_to(root).as_posix()
                for d in s.deps
                if not hasattr(d, "params")
            ]
            params = [
                p
                for d in s.deps
                if hasattr(d, "params") and Path(d.def_path).name == "params.yaml"
                for p in (d.params or [])
            ]
            definition = raw[s.name.split("@")[0]]
            written = (definition.get("do") or definition).get("deps") or []
            assert len(written) == len(files), f"stage {s.name}: cannot match its deps to dvc.yaml's"
            templated = [f for w, f in zip(written, files) if "${" in str(w)]
            found.append(
                stage_from_cmd(s.name, s.cmd if isinstance(s.cmd, str) else " ".join(s.cmd), files, params, templated)
            )
        return tuple(found)


# ---- which plugins a stage's params select -------------------------------------------------


def _name_of(how: str | None) -> Callable[[dict[str, Any], str, Any], Any]:
    if how == "key":
        return lambda p, k, v: k
    if how == "taggers":
        return lambda p, k, v: ((p.get("taggers") or {}).get(v) or {}).get("plugin")
    return lambda p, k, v: None if v == "gold" else v


# (params path with * for any key, kind, the registered name from (params, key at *, value)): from
# the study spec's table of the keys that name plugins
SELECTORS: tuple[tuple[str, str, Callable[[dict[str, Any], str, Any], Any]], ...] = tuple(
    (pattern, kind, _name_of(how)) for pattern, kind, how in PLUGIN_SELECTORS
)
"""How params.yaml names a plugin. A stage selects the plugins at the paths it declares (a
declared key covers the paths below it), of the kinds its code looks up in a registry."""


def _expand(node: Any, parts: list[str], path: str = "", key: str = "") -> Iterator[tuple[str, str, Any]]:
    """(concrete path, key matched by the last *, value) for a dotted pattern."""
    if not parts:
        yield path, key, node
        return
    if not isinstance(node, dict):
        return
    head, rest = parts[0], parts[1:]
    for k in list(node) if head == "*" else [head] if head in node else []:
        yield from _expand(node[k], rest, f"{path}.{k}" if path else str(k), str(k) if head == "*" else key)


def selected_plugins(params: dict[str, Any], declared: Iterable[str], kinds: set[str]) -> set[PluginKey]:
    """The (kind, name) of every plugin of ``kinds`` named at a params path the stage declares."""
    declared = tuple(declared)
    found: set[PluginKey] = set()
    for pattern, kind, name_of in SELECTORS:
        if kind not in kinds:
            continue
        for path, key, value in _expand(params, pattern.split(".")):
            if any(path == d or path.startswith(d + ".") for d in declared):
                name = name_of(params, key, value)
                if name:
                    found.add((kind, str(name)))
    return found


@cache
def registry_uses(path: Path) -> tuple[frozenset[str], frozenset[str]]:
    """The plugin kinds a file looks up with ``registry("kind")``: (those it takes one named
    plugin of with ``.create``/``.entry``, those it reads whole, e.g. ``.names()``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    named: set[str] = set()
    whole: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) == "registry"
        ):
            parent = parents.get(node)
            one = isinstance(parent, ast.Attribute) and parent.attr in ("create", "entry")
            (named if one else whole).add(node.args[0].value)
    return frozenset(named), frozenset(whole)


@cache
def plugin_modules() -> dict[PluginKey, str]:
    """(kind, name) -> the module registering it, from the real plugin manager."""
    from synthdeid.plugin_system.manager import KINDS, get_plugin_manager

    found: dict[PluginKey, str] = {}
    for hook, kind in KINDS.items():
        for impl in getattr(get_plugin_manager().hook, hook).get_hookimpls():

            def register(
                name: str,
                factory: Any,
                config: type | None = None,
                _kind: str = kind,
                _module: str = impl.plugin.__name__,
            ) -> None:
                found[(_kind, name)] = _module

            impl.function(register=register)
    return found


# ---- the check -----------------------------------------------------------------------------


VALIDATION_ONLY = frozenset({"synthdeid.spec.references"})
"""Modules a stage runs that can refuse params but produce nothing the stage writes: every stage
checks the whole study spec first (``stages/common.stage_main``), and the cross-reference check
builds every plugin the study names to check its config. A change there cannot make a stage's
outputs stale, so their closure is not a dep (the values a stage uses come from
``synthdeid.spec.study``, which is)."""


@dataclass(frozen=True)
class Closure:
    """The files a stage runs and why."""

    roots: dict[str, str]  # module -> why it is a root ("cmd", "generator 'lstm'", ...)
    files: set[str]


def stage_closure(
    graph: ImportGraph, stage: Stage, params: dict[str, Any], registered: dict[PluginKey, str]
) -> Closure:
    """The stage module's closure plus that of the plugins it may run, until no new plugin kind is
    looked up (a plugin may look up others, e.g. the tagger annotator a tagger).

    A plugin kind counts when the closure looks it up (``registry("kind")``) and the stage declares
    a param naming one. The named plugin alone counts when a ``${...}`` dep of the stage follows that
    param (covers its registering module, e.g. ``plugins/${item.plugin}``); otherwise params (a
    preset, ``-S``) may switch to any plugin of that kind without changing a dep, so all count. A
    kind read whole (``registry("kind").names()``) counts all its plugins too."""
    roots = {stage.module: "cmd"}
    while True:
        modules = graph.closure(roots, stop=VALIDATION_ONLY)
        named: set[str] = set()
        whole: set[str] = set()
        for m in modules:
            n, w = registry_uses(graph.module_file(m))  # type: ignore[arg-type]
            named |= n
            whole |= w
        new: dict[str, str] = {}
        for kind, name in sorted(selected_plugins(params, stage.params, named)):
            module = registered.get((kind, name))
            assert module, f"stage {stage.name}: params.yaml selects {kind} {name!r}, which no plugin registers"
            if covered(graph.rel(module), stage.templated):
                new.setdefault(module, f"{kind} {name!r}")
            else:
                whole.add(kind)
        for (kind, name), module in sorted(registered.items()):
            if kind in whole:
                new.setdefault(module, f"{kind} {name!r}, as params may select any {kind}")
        new = {m: why for m, why in new.items() if m not in roots and m in graph.modules}
        if not new:
            return Closure(roots, {graph.rel(m) for m in modules})
        roots.update(new)


def covered(path: str, deps: Iterable[str]) -> bool:
    """A dep covers a file when it is the file or a folder above it."""
    return any(path == d or path.startswith(d + "/") for d in deps)


def missing_deps(
    graph: ImportGraph, stage: Stage, params: dict[str, Any], registered: dict[PluginKey, str]
) -> dict[str, str]:
    """The files the stage runs that none of its deps cover -> how it reaches them."""
    closure = stage_closure(graph, stage, params, registered)
    uncovered = sorted(p for p in closure.files if not covered(p, stage.deps))
    chains = graph.import_chains(closure.roots, [graph.module_name(graph.root / p) or "" for p in uncovered])
    return {
        path: f"{closure.roots[chain[0]]}: " + " -> ".join(graph.rel(m) for m in chain)
        for path, chain in zip(uncovered, chains)
    }


def report(problems: dict[Stage, dict[str, str]], graph: ImportGraph | None = None) -> str:
    """The failure message: a summary per dvc.yaml stage (by folder group), then per resolved
    stage each uncovered file with the import chain that reaches it, and the fix."""
    lines = [
        f"{sum(map(len, problems.values()))} code files are run by DVC stages whose deps in dvc.yaml do not "
        "cover them, so a change there does not re-run the stage. Fix: add each file, or its folder "
        "(preferred when the stage uses most of it), to the stage's `deps:` in dvc.yaml (for a foreach/"
        "matrix stage, to its `do:` deps).",
        "",
    ]
    if graph is not None:
        lines.append("Summary: per dvc.yaml stage, the groups (module or folder) holding uncovered files:")
        by_definition: dict[str, set[str]] = {}
        for stage, files in problems.items():
            by_definition.setdefault(stage.name.split("@")[0], set()).update(files)
        for name, files in by_definition.items():
            groups: dict[str, int] = {}
            for path in files:
                group = graph.group(graph.module_name(graph.root / path) or "")
                groups[group] = groups.get(group, 0) + 1
            lines.append(
                f"  {name}: "
                + ", ".join(g + (f" ({n} files)" if g.endswith("/") else "") for g, n in sorted(groups.items()))
            )
        lines += ["", "Per stage, each uncovered file [why the stage runs it: import chain]:"]
    for stage, files in problems.items():
        lines.append(f"{stage.name}  ({shlex.join(['python', '-m', stage.module, *stage.args])}):")
        lines += [f"    {path}    [{why}]" for path, why in files.items()]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def graph() -> ImportGraph:
    return ImportGraph(REPO)


@pytest.mark.parametrize("root", roots(), ids=["demo", *PRESETS])
def test_dvc_code_deps_cover_each_stage_closure(graph: ImportGraph, root: Path) -> None:
    """The demo's stages, then those of the presets that add routes (``dvc_roots``)."""
    params = yaml.safe_load((root / "params.yaml").read_text(encoding="utf-8"))
    stages = dvc_stages(root)
    assert stages, "DVC resolved no stages from dvc.yaml"
    problems = {}
    for stage in stages:
        assert graph.module_file(stage.module), f"stage {stage.name}: {stage.module} is no module of this repo"
        missing = missing_deps(graph, stage, params, plugin_modules())
        if missing:
            problems[stage] = missing
    if problems:
        pytest.fail(report(problems, graph), pytrace=False)


def test_dvc_code_deps_exist() -> None:
    """A code dep that was moved or deleted (e.g. by regrouping core/) fails `dvc repro`: name it here."""
    folders = tuple(f"{folder.relative_to(REPO).as_posix()}/" for folder in ImportGraph(REPO).package_dirs.values())
    stale = sorted(
        {
            f"{s.name.split('@')[0]}: {d}"
            for root in roots()
            for s in dvc_stages(root)
            for d in s.deps
            if d.startswith(folders) and not (REPO / d).exists()
        }
    )
    assert not stale, "dvc.yaml deps that do not exist (remove them or name their new place):\n  " + "\n  ".join(stale)


# ---- the checker itself --------------------------------------------------------------------


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


@pytest.fixture
def toy_repo(tmp_path: Path) -> ImportGraph:
    """A tiny repo with the same package-dir mapping style and each kind of import."""
    _write(
        tmp_path,
        {
            "pyproject.toml": '[tool.setuptools]\npackage-dir = { "pkg" = "lib", "pkg.stages" = "run" }\n',
            "lib/__init__.py": "",
            "lib/util.py": "from . import helpers\n",
            "lib/helpers.py": "import json\n",
            "lib/deferred.py": "",
            "lib/dynamic.py": "",
            "lib/lazy_pkg/__init__.py": "from pkg.lazy import lazy_exports\n"
            "__getattr__ = lazy_exports(__name__, {'Thing': '.impl'})\n",
            "lib/lazy_pkg/impl.py": "",
            "lib/lazy.py": "",
            "lib/unused.py": "",
            "run/__init__.py": "",
            "run/job.py": "from pkg.util import x\nimport importlib\nfrom typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from pkg import unused\n"
            "def main():\n    from ..deferred import y\n    importlib.import_module('pkg.dynamic')\n"
            "    import pkg.lazy_pkg\n",
        },
    )
    return ImportGraph(tmp_path)


def test_closure_follows_every_kind_of_import(toy_repo: ImportGraph) -> None:
    files = toy_repo.closure_files(["pkg.stages.job"])
    assert files == {
        "run/__init__.py",
        "run/job.py",
        "lib/__init__.py",
        "lib/util.py",
        "lib/helpers.py",
        "lib/deferred.py",
        "lib/dynamic.py",
        "lib/lazy_pkg/__init__.py",
        "lib/lazy_pkg/impl.py",
        "lib/lazy.py",
    }


def test_checker_reports_a_file_missing_from_deps(toy_repo: ImportGraph) -> None:
    stage = stage_from_cmd(
        "job",
        "python -m pkg.stages.job",
        ["run", "lib/__init__.py", "lib/util.py", "lib/lazy.py", "lib/lazy_pkg", "lib/dynamic.py", "lib/deferred.py"],
        [],
    )
    missing = missing_deps(toy_repo, stage, {}, {})
    assert list(missing) == ["lib/helpers.py"]
    assert "run/job.py -> lib/util.py -> lib/helpers.py" in missing["lib/helpers.py"]
    assert "add each file, or its folder" in report({stage: missing})


def test_checker_catches_an_omitted_import_of_a_real_stage(graph: ImportGraph) -> None:
    """A real stage with one file its module imports left out of its deps: that file is reported."""
    stage = next(s for s in dvc_stages(REPO) if graph.imports(s.module))
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    closure = stage_closure(graph, stage, params, plugin_modules())
    omitted = graph.rel(sorted(graph.imports(stage.module))[0])
    deps = sorted(closure.files - {omitted})  # every other file of its closure, one by one
    missing = missing_deps(graph, dataclasses.replace(stage, deps=tuple(deps)), params, plugin_modules())
    assert list(missing) == [omitted]
