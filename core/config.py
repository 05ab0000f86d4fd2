"""Typed plugin configs from params: one parser for every plugin kind, so every plugin reports a
misspelt or badly typed setting the same way (naming the plugin, listing its valid settings)."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from .errors import SynthdeidError

C = TypeVar("C")


def _accepts(hint: Any, kind: type) -> bool:
    """Whether the type hint ``hint`` is ``kind`` or an optional/union containing it."""
    if hint is kind:
        return True
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_accepts(arg, kind) for arg in typing.get_args(hint))
    return origin is kind


def _number(text: str, what: str) -> int | float:
    try:
        value = float(text)
    except ValueError:
        raise SynthdeidError(f"{what} must be a number, not {text!r}") from None
    return int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value


def from_mapping(cls: type[C], config: Mapping[str, Any] | None, what: str,
                 exclude: Iterable[str] = (), also: Iterable[str] = ()) -> C:
    """The frozen dataclass ``cls`` built from a params mapping.

    ``what`` names the plugin in errors, e.g. ``"generator 'gpt2'"``. Unknown keys are an error
    listing the valid ones (plus ``also``: keys the caller handles itself, such as ``preset``);
    ``exclude`` names fields that params may not set. A whole number
    given for a float setting becomes a float (YAML ``1`` for ``1.0``), a whole float for an int
    setting becomes an int, a numeric string for a number setting becomes a number (PyYAML reads
    ``1e-3`` as a string), and a list for a tuple setting becomes a tuple (configs stay hashable).
    The dataclass's own ``__post_init__`` checks ranges."""
    config = dict(config or {})
    known = {f.name for f in dataclasses.fields(cls) if f.init} - set(exclude)  # type: ignore[arg-type]
    unknown = sorted(set(config) - known)
    if unknown:
        raise SynthdeidError(f"{what} has no setting(s) {', '.join(unknown)}; "
                             f"its settings are: {', '.join(sorted(known | set(also))) or '(none)'}")
    hints = typing.get_type_hints(cls)
    for key, value in config.items():
        hint = hints.get(key)
        if isinstance(value, bool):
            continue
        if isinstance(value, str) and (_accepts(hint, float) or _accepts(hint, int)) and not _accepts(hint, str):
            value = config[key] = _number(value, f"{what}: {key}")
        if isinstance(value, int) and _accepts(hint, float) and not _accepts(hint, int):
            config[key] = float(value)
        elif isinstance(value, float) and value.is_integer() and _accepts(hint, int) and not _accepts(hint, float):
            config[key] = int(value)
        elif isinstance(value, list) and _accepts(hint, tuple):
            config[key] = tuple(value)
    try:
        return cls(**config)
    except (TypeError, ValueError) as err:
        raise SynthdeidError(f"{what}: bad settings ({err})") from None
