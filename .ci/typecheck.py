"""Type-check synthdeid with mypy, as the package is installed.

pyproject.toml maps folders onto the package (``[tool.setuptools] package-dir``: ``synthdeid`` is
core/, ``synthdeid.plugins`` plugins/, ``synthdeid.stages`` stages/). mypy finds a package by its
folder's name and cannot follow the editable install's import hook, so this script lays the package
out under build/typecheck/ as a tree of symlinks (build/typecheck/synthdeid/api.py -> core/api.py,
build/typecheck/synthdeid/plugins -> plugins/, ...), runs mypy with the ``[tool.mypy]`` settings
(which name that tree in ``mypy_path`` and check ``packages = ["synthdeid"]``), and prints mypy's
messages with the repository's paths (core/api.py, not build/typecheck/synthdeid/api.py).

    python .ci/typecheck.py [extra mypy options]
    python .ci/typecheck.py --tree-only   # only lay the tree out (mkdocstrings reads the API from it)

The tree is rebuilt on every run, so new modules are checked without a step of their own.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = ROOT / "build" / "typecheck"
SKIP = {"__pycache__"}
# a message's location at the start of a line: "build/typecheck/synthdeid/api.py:12: error: ..."
LOCATION = re.compile(r"^(?P<path>[^:\s]+\.pyi?)(?=:)")


def package_dirs(root: Path = ROOT) -> dict[str, Path]:
    """Package name -> its folder, from pyproject.toml."""
    with open(root / "pyproject.toml", "rb") as f:
        mapping = tomllib.load(f)["tool"]["setuptools"]["package-dir"]
    return {name: root / folder for name, folder in mapping.items()}


def _link(target: Path, link: Path) -> None:
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(os.path.relpath(target, link.parent), target_is_directory=target.is_dir())


def build_tree(tree: Path = TREE, root: Path = ROOT) -> None:
    """Lay the mapped folders out as their packages under ``tree``."""
    if tree.exists():
        shutil.rmtree(tree)
    dirs = package_dirs(root)
    for name, folder in sorted(dirs.items(), key=lambda kv: kv[0].count(".")):
        where = tree.joinpath(*name.split("."))
        nested = {n.split(".")[name.count(".") + 1] for n in dirs if n.startswith(name + ".")}
        if not nested:  # the folder is the package, subpackages included
            if not where.exists():
                _link(folder, where)
            continue
        # a package with subpackages mapped elsewhere: a real folder, linking each entry but those
        where.mkdir(parents=True, exist_ok=True)
        for child in sorted(folder.iterdir()):
            if child.name not in SKIP and child.name not in nested:
                _link(child, where / child.name)


def _real_path(match: re.Match[str]) -> str:
    path = Path(match["path"])
    full = path if path.is_absolute() else ROOT / path
    if not full.resolve().is_relative_to(ROOT) or not full.absolute().is_relative_to(TREE):
        return match["path"]
    return full.resolve().relative_to(ROOT).as_posix()


def main(argv: list[str]) -> int:
    build_tree()
    if argv == ["--tree-only"]:
        return 0
    run = subprocess.run([sys.executable, "-m", "mypy", *argv], cwd=ROOT, capture_output=True, text=True)
    for stream, text in ((sys.stdout, run.stdout), (sys.stderr, run.stderr)):
        for line in text.splitlines(keepends=True):
            stream.write(LOCATION.sub(_real_path, line))
    return run.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
