"""A pydantic model of a ``setting()``-declared config dataclass (a plugin's config, canaries,
data canaries, ...): the same field names, former names (``renamed_from``), bounds and choices,
so that the study spec reports an unknown, badly typed or out-of-range setting of any config the
same way, with its dotted key, and describes it in the JSON Schema and the params reference.

The dataclass stays what code builds (through ``from_mapping``); the model only checks and
describes."""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, create_model

from synthdeid.plugin_system.legacy_config import BOUNDS, DESCRIPTION, RENAMED_FROM, Bounds

from .types import Number, Text, Whole

STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)


def _field_type(hint: Any, bounds: Bounds | None) -> Any:
    """The pydantic type of a dataclass field's type hint."""
    if bounds is not None and bounds.choices is not None:
        return Literal[bounds.choices]
    if hint is bool:
        return bool
    if hint is int:
        return Whole
    if hint is float:
        return Number
    if hint is str:
        return Text
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        members = [a for a in args if a is not type(None)]
        inner = _field_type(members[0], bounds) if len(members) == 1 else Any
        return inner | None if type(None) in args else inner
    if origin in (tuple, list, frozenset, set):
        item = args[0] if args else Any
        return list[_field_type(item, None)]  # type: ignore[misc]
    if origin in (dict, Mapping) or hint in (dict, Mapping):
        return dict[str, Any]
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return model_of(hint) | dict[str, Any]  # a nested config: its own from_mapping checks it
    return Any


def _field(f: dataclasses.Field[Any], hint: Any) -> tuple[Any, Any]:
    bounds: Bounds | None = f.metadata.get(BOUNDS)
    kind = _field_type(hint, bounds)
    limits: dict[str, Any] = (
        {}
        if bounds is None or bounds.choices is not None
        else {
            k: v
            for k, v in (("ge", bounds.ge), ("gt", bounds.gt), ("le", bounds.le), ("lt", bounds.lt))
            if v is not None
        }
    )
    if limits and typing.get_origin(kind) in (typing.Union, types.UnionType):
        inner = next(a for a in typing.get_args(kind) if a is not type(None))
        kind = typing.Annotated[inner, Field(**limits)] | None
        limits = {}
    old = f.metadata.get(RENAMED_FROM, ())
    alias = {"validation_alias": AliasChoices(f.name, *old)} if old else {}
    if f.default is not dataclasses.MISSING:
        default = f.default
    elif f.default_factory is not dataclasses.MISSING:
        default = f.default_factory()
    else:
        default = ...
    if isinstance(default, tuple | frozenset):
        default = list(default)
    description = _doc(f)
    return kind, Field(default, description=description, **limits, **alias)  # type: ignore[call-overload]


def _doc(f: dataclasses.Field[Any]) -> str | None:
    """The setting's description (``setting(description=...)``)."""
    return f.metadata.get(DESCRIPTION)


@functools.cache
def model_of(cls: type) -> type[BaseModel]:
    """The pydantic model of the config dataclass ``cls`` (extra keys forbidden, strict types)."""
    if issubclass(cls, BaseModel):
        return cls  # a Settings model: itself
    hints = typing.get_type_hints(cls)
    fields = {f.name: _field(f, hints.get(f.name, Any)) for f in dataclasses.fields(cls) if f.init}  # type: ignore[arg-type]
    doc = (cls.__doc__ or "").strip().split("\n\n")[0] or None
    return create_model(cls.__name__, __config__=STRICT, __doc__=doc, **fields)  # type: ignore[call-overload]
