"""Lazy re-exports: a plugin package registers without importing its heavy implementation.

Registering the built-in plugins runs in every stage and CLI call, so a plugin's registered module
keeps torch, transformers, numpy and scipy out of its module-level imports; names it re-exports from
its implementation modules are imported on first access (PEP 562 module ``__getattr__``).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: attribute ``name`` is imported from the module
    ``exports[name]`` (relative to ``package``, e.g. ``".sampler"``) on first access and then kept
    as an ordinary attribute of ``package``. ``"module:attr"`` exports the module's ``attr`` under
    ``name`` (a re-export under another name).

    An exported name must not be the name of a submodule of ``package``: importing the submodule
    binds its name in ``package`` to the module, and ``__getattr__`` is then never asked."""

    def __getattr__(name: str) -> Any:
        try:
            source = exports[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        module, _, attr = source.partition(":")
        value = getattr(importlib.import_module(module, package), attr or name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
