"""The data paths of the stages come from one place, ``synthdeid.paths``, and agree with dvc.yaml.

For every stage DVC resolves from dvc.yaml (foreach/matrix expanded), each path the stage module
(and the synthdeid modules it imports directly) names through ``synthdeid.paths`` must be one of the
stage's deps, outs, metrics or plots, or lie under a declared folder. A call's literal arguments are
used as written; an argument the code computes is tried with the stage's command-line arguments, the
split names and every string in params.yaml, and the path passes when one of those is declared."""

from __future__ import annotations

import ast
import itertools
import shlex
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from dvc_roots import roots

from synthdeid import paths
from synthdeid.evaluation.utility import KINDS

ROOT = Path(__file__).resolve().parents[1]
SPLITS = ("train", "dev", "test")
UNDECLARED = {  # (stage name prefix, paths name, its literal arguments): why dvc.yaml leaves it out
    ("privacy@", "raw_corpus", (None,)): "read when present: a generated corpus's raw notes give mlm_fill's "
    "refilled notes their source; a machine-annotated corpus has none, and documents.jsonl (a dep) is written from it",
    ("train_tagger_real", "synthetic_corpus", (None,)): "read only with a corpus argument (synthetic, augmented)",
    ("train_tagger_real", "corpus_origin", (None,)): "read only for redraws of a synthetic corpus (synthetic)",
    ("train_tagger_augmented@", "corpus_origin", (None,)): "read only for redraws of a synthetic corpus (synthetic)",
    ("train_tagger_synthetic@", "prepared", ("train",)): "the real gold splits are read for real and augmented only",
    ("train_tagger_synthetic@", "prepared", ("dev",)): "the real gold splits are read for real and augmented only",
    ("machine_annotate@", "stage_metrics", ("train_tagger", None)): "named in an error message, never read",
}


@cache
def dvc_stages() -> tuple[tuple[str, str, tuple[str, ...], frozenset[str], Path], ...]:
    """(stage name, stage module, its arguments, declared deps/outs/metrics/plots, the project it
    was resolved in) of each stage of the demo and of the ``full`` preset (``dvc_roots``)."""
    from dvc.dependency.param import ParamsDependency
    from dvc.repo import Repo

    found: dict[str, tuple[str, str, tuple[str, ...], frozenset[str], Path]] = {}
    for root in roots():
        with Repo(str(root)) as repo:
            for s in repo.index.stages:
                words = shlex.split(s.cmd or "")
                if words[:2] != ["python", "-m"] or not words[2].startswith("synthdeid.stages."):
                    continue
                declared = {d.def_path.rstrip("/") for d in s.deps if not isinstance(d, ParamsDependency)}
                declared |= {o.def_path.rstrip("/") for o in s.outs}
                name = s.name
                found.setdefault(name, (name, words[2].rsplit(".", 1)[1], tuple(words[3:]), frozenset(declared), root))
    return tuple(found.values())


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


@cache
def param_strings(root: Path = ROOT) -> tuple[str, ...]:
    return tuple(sorted(set(_strings(yaml.safe_load((root / "params.yaml").read_text(encoding="utf-8"))))))


def module_file(module: str) -> Path | None:
    """The file of a ``synthdeid[.stages].X`` module, or None for another package's."""
    parts = module.split(".")
    if parts[0] != "synthdeid" or len(parts) < 2:
        return None
    base, rest = (ROOT / "stages", parts[2:]) if parts[1] == "stages" else (ROOT / "core", parts[1:])
    for candidate in (base.joinpath(*rest).with_suffix(".py"), base.joinpath(*rest, "__init__.py")):
        if rest and candidate.exists():
            return candidate
    return None


def path_uses(tree: ast.AST) -> list[tuple[str, tuple[str | None, ...]]]:
    """(name, arguments) of each ``paths.NAME`` in the tree: literal arguments as written, None for a
    computed one; a function passed without a call counts as called with one computed argument."""
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    uses = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _is_paths(node.func):
            uses.append((node.func.attr, tuple(_literal(a) for a in node.args)))
        elif _is_paths(node) and id(node) not in called:
            value = getattr(paths, node.attr)
            uses.append((node.attr, (None,) if callable(value) else ()))
    return uses


def _is_paths(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "paths"


def _literal(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if _is_paths(node) and isinstance(getattr(paths, node.attr), str):
        return getattr(paths, node.attr)
    return None


def code_of(stage_module: str) -> list[tuple[str, ast.AST]]:
    """(where, code) of the stage module and of each top-level definition it imports from another
    synthdeid module (a function's defaults and body, a constant's value)."""
    file = ROOT / "stages" / f"{stage_module}.py"
    tree = ast.parse(file.read_text(encoding="utf-8"))
    out: list[tuple[str, ast.AST]] = [(file.relative_to(ROOT).as_posix(), tree)]
    for node in ast.walk(tree):
        if not (isinstance(node, ast.ImportFrom) and node.module and (f := module_file(node.module))):
            continue
        names = {a.name for a in node.names}
        for top in ast.parse(f.read_text(encoding="utf-8")).body:
            targets = (
                [top.name]
                if isinstance(top, (ast.FunctionDef, ast.ClassDef))
                else [t.id for t in getattr(top, "targets", [getattr(top, "target", None)]) if isinstance(t, ast.Name)]
            )
            if names & set(targets):
                out.append((f"{f.relative_to(ROOT).as_posix()}:{targets[0]}", top))
    return out


def covered(path: str, declared: frozenset[str]) -> bool:
    return any(path == d or path.startswith(d + "/") for d in declared)


def resolutions(name: str, args: tuple[str | None, ...], candidates: tuple[str, ...]) -> Iterator[str]:
    value = getattr(paths, name)
    if not callable(value):
        yield value
        return
    for filled in itertools.product(*[(a,) if a is not None else candidates for a in args]):
        yield value(*filled)


@pytest.mark.parametrize("stage, module, args, declared, root", dvc_stages(), ids=[s[0] for s in dvc_stages()])
def test_every_path_a_stage_uses_is_declared_for_it(
    stage: str, module: str, args: tuple[str, ...], declared: frozenset[str], root: Path
) -> None:
    settings = (*args, "-".join(args), *(f"{kind}-{a}" for kind in KINDS for a in args))  # a utility setting
    candidates = (*settings, *SPLITS, paths.RULE_SETTING, *param_strings(root))
    missing = []
    for where, code in code_of(module):
        for name, call_args in path_uses(code):
            value = getattr(paths, name)
            if any(stage.startswith(s) and (n, a) == (name, call_args) for s, n, a in UNDECLARED) or (
                isinstance(value, str) and not value.startswith(paths.DATA + "/")
            ):
                continue
            if not any(covered(p, declared) for p in resolutions(name, call_args, candidates)):
                missing.append(f"{where}: paths.{name}{call_args if callable(value) else ''}")
    assert not missing, f"stage {stage}: paths not among its deps/outs in dvc.yaml: {missing}"


def test_stage_modules_name_no_data_path_themselves() -> None:
    """A ``data/...`` string in a stage module (docstrings aside) would repeat synthdeid.paths."""
    found = []
    for file in sorted((ROOT / "stages").glob("*.py")):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        docstrings = {
            id(n.body[0].value)
            for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef))
            and n.body
            and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)
        }
        found += [
            f"{file.name}:{n.lineno}"
            for n in ast.walk(tree)
            if isinstance(n, ast.Constant)
            and isinstance(n.value, str)
            and "data/" in n.value
            and id(n) not in docstrings
        ]
    assert not found, found


def test_no_stage_imports_another_stage() -> None:
    """Stages share code through core (``synthdeid.*``); only ``stages/common.py`` is shared."""
    found = []
    for file in sorted((ROOT / "stages").glob("*.py")):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            found += [
                f"{file.name}: {n}"
                for n in names
                if n.startswith("synthdeid.stages") and n not in ("synthdeid.stages.common",)
            ]
    assert not found, found


STAGE_STATEMENTS = 30
"""At most this many statements in a stage module (imports and docstrings aside): a stage reads
the spec, calls core and writes. (Counted in statements, not lines: ruff format spreads one call
over several lines. Before the format, the 60-line limit held the largest stages at 27.)"""


def _statements(source: str) -> int:
    return sum(
        1
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.stmt)
        and not isinstance(n, ast.Import | ast.ImportFrom)
        and not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))
    )


def test_stage_modules_are_thin() -> None:
    long = {
        f.name: n
        for f in (ROOT / "stages").glob("*.py")
        if (n := _statements(f.read_text(encoding="utf-8"))) > STAGE_STATEMENTS
    }
    assert not long, f"stage modules over {STAGE_STATEMENTS} statements (move the logic into core): {long}"
    assert _statements('import os\n"""doc"""\nx = 1\nif x:\n    y = 2\n') == 3
