"""DEDUCE's lookup structures, built once per environment: ``load(cache_path)`` gives a ready
``deduce.Deduce``, building its lookup cache on first use (about a minute on one core) and loading
it in a few seconds afterwards.

The module imports nothing of synthdeid, so it also runs as a script before synthdeid is installed:
``python plugins/deduce_cache.py`` builds the cache ahead of use (``make setup`` runs it while pip
installs the other packages, so the demo's ``predict_rule`` and the tests find it built).
"""

from __future__ import annotations

import gc
import getpass
import hashlib
import importlib.util
import inspect
import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from filelock import FileLock

CACHE_FILE = Path("cache") / "lookup_structs.pickle"
"""Where DEDUCE keeps its lookup structures under a cache folder (``deduce.lookup_structs``'
``_CACHE_SUBDIR`` and ``_CACHE_FILE``)."""


def import_deduce() -> Any:
    """The ``deduce`` module, imported without the logging set-up it does on import (every
    library's debug messages to stdout)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        import deduce
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    return deduce


def build_lock(cache_path: str | Path | None) -> FileLock:
    """The lock every process holds while it builds or loads DEDUCE with this ``cache_path``.

    Under the lock the first process builds and the others wait, then load the finished cache in a
    few seconds; two stages, a stage and ``synthdeid deidentify``, or ``make setup`` and the tests
    may start DEDUCE at once. One lock file per user and cache folder, in the temporary folder
    (DEDUCE's own folder may be read-only)."""
    user = os.getuid() if hasattr(os, "getuid") else getpass.getuser()
    where = Path(cache_path).resolve() if cache_path else "default"
    key = hashlib.sha256(f"{user}:{where}".encode()).hexdigest()[:16]
    return FileLock(Path(tempfile.gettempdir()) / f"synthdeid-deduce-{key}.lock")


def default_cache_path(deduce: Any) -> str | None:
    """Where ``deduce.Deduce()`` keeps its cache when given none (its ``cache_path`` default)."""
    parameter = inspect.signature(deduce.Deduce).parameters.get("cache_path")
    default = None if parameter is None else parameter.default
    return None if default in (None, inspect.Parameter.empty) else str(default)


def environment_roots() -> list[Path]:
    """The folders that hold this environment's code (``sys.prefix``, the ``deduce`` package): a
    DEDUCE cache inside them is as trusted as the code that unpickles it."""
    roots = [Path(sys.prefix).resolve()]
    spec = importlib.util.find_spec("deduce")
    if spec is not None and spec.origin:
        roots.append(Path(spec.origin).resolve().parent)
    return roots


def untrusted_cache(cache_path: str | Path | None) -> Path | None:
    """The resolved ``cache_path`` (or its cache file, when that is a link elsewhere) when it lies
    outside ``environment_roots``; None for DEDUCE's default or a folder inside them."""
    if cache_path is None:
        return None
    roots = environment_roots()
    for where in (Path(cache_path), Path(cache_path) / CACHE_FILE):
        resolved = where.expanduser().resolve()
        if not any(resolved.is_relative_to(root) for root in roots):
            return resolved
    return None


def load(cache_path: str | None = None) -> Any:
    """A ``deduce.Deduce`` whose lookup structures come from ``cache_path`` (None: DEDUCE's default
    folder), built there first when that folder has none."""
    deduce = import_deduce()
    root = cache_path or default_cache_path(deduce)
    gc.disable()  # DEDUCE's lookup structures build ~4x faster without the cyclic GC
    try:
        with build_lock(root):
            if root is not None and not (Path(root) / CACHE_FILE).exists():
                return _build(deduce, Path(root))
            return deduce.Deduce(**({"cache_path": cache_path} if cache_path else {}))
    finally:
        # They are millions of objects that live as long as the process: frozen, the cyclic GC
        # no longer walks them at every collection while annotating, nor at interpreter exit
        # (which took 11 of a smoke predict_rule's 18 s).
        gc.freeze()
        gc.enable()


def _build(deduce: Any, root: Path) -> Any:
    """DEDUCE built with its cache in a temporary folder beside ``root``'s, the finished file then
    moved into place: DEDUCE writes its cache in place, so a process stopped while writing would
    leave a half-written file that every later start fails to read."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=".synthdeid-build-", dir=root))
    except OSError:  # a folder we cannot write to: DEDUCE's own behaviour (and its own error)
        return deduce.Deduce(cache_path=str(root))
    try:
        model = deduce.Deduce(cache_path=str(scratch))
        (root / CACHE_FILE).parent.mkdir(parents=True, exist_ok=True)
        os.replace(scratch / CACHE_FILE, root / CACHE_FILE)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return model


if __name__ == "__main__":
    load()
    print("DEDUCE's lookup cache is built")
