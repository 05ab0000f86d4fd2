"""(Being replaced by ``config.Settings``: the dataclass settings layer, kept while the configs move.)

Typed plugin configs from params: one parser for every plugin kind, so every plugin reports a
misspelt, renamed, badly typed or out-of-range setting the same way (naming the plugin, the
setting and what would fix it).

A config field declares its bounds, its former names and what it means with ``setting``::

    learning_rate: float = setting(20.0, gt=0, renamed_from="lr", description="the optimizer's step size")

``from_mapping`` maps a former name to the new one (with a ``DeprecationWarning``) and checks the
bounds; a config's ``__post_init__`` calls ``check_bounds`` so that constructing it directly in
Python is checked by the same declaration. Checks that relate several fields stay in
``__post_init__``."""

from __future__ import annotations

import dataclasses
import difflib
import functools
import math
import types
import typing
import warnings
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from synthdeid.errors import SynthdeidError
from synthdeid.plugin_system.config import RenamedSettingWarning, SettingError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

C = TypeVar("C", bound="DataclassInstance")
BOUNDS = "synthdeid.bounds"
RENAMED_FROM = "synthdeid.renamed_from"
DESCRIPTION = "synthdeid.description"
"""The field-metadata key of a setting's description (``setting(description=...)``): the JSON
Schema and the params reference (docs/params.md) show it."""


@dataclasses.dataclass(frozen=True)
class Bounds:
    """What values a setting accepts: numeric limits (``ge``/``gt``/``le``/``lt``) or ``choices``."""

    ge: float | None = None
    gt: float | None = None
    le: float | None = None
    lt: float | None = None
    choices: tuple[Any, ...] | None = None

    def rule(self) -> str:
        """The bound in words, e.g. ``>= 1``, ``in [0, 1)`` or ``one of line, note``."""
        if self.choices is not None:
            return "one of " + ", ".join(str(c) for c in self.choices)
        finite = self.lt == math.inf  # lt=math.inf: any finite number above the lower bound
        low = f"[{_num(self.ge)}" if self.ge is not None else f"({_num(self.gt)}" if self.gt is not None else ""
        high = (
            ""
            if finite
            else f"{_num(self.le)}]"
            if self.le is not None
            else f"{_num(self.lt)})"
            if self.lt is not None
            else ""
        )
        if low and high:
            return f"in {low}, {high}"
        if low:
            return f"{'>=' if self.ge is not None else '>'} {low[1:]}" + (" and finite" if finite else "")
        return f"{'<=' if self.le is not None else '<'} {high[:-1]}" if high else "finite" if finite else "anything"

    def fix(self) -> str:
        """How to meet the bound."""
        if self.choices is not None:
            return "use one of them"
        rule = self.rule().removesuffix(" and finite")
        if rule.startswith("in "):
            return f"set it within {rule[3:]}"
        if " " not in rule:
            return "give a number"
        op, limit = rule.split(" ", 1)
        return {
            ">=": f"set it to {limit} or more",
            ">": f"set it above {limit}",
            "<=": f"set it to {limit} or less",
            "<": f"set it below {limit}",
        }[op]

    def accepts(self, value: Any) -> bool:
        if self.choices is not None:
            return value in self.choices
        return (
            (self.ge is None or value >= self.ge)
            and (self.gt is None or value > self.gt)
            and (self.le is None or value <= self.le)
            and (self.lt is None or value < self.lt)
        )


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e15 else str(x)


def setting(
    default: Any = dataclasses.MISSING,
    *,
    ge: float | None = None,
    gt: float | None = None,
    le: float | None = None,
    lt: float | None = None,
    choices: Iterable[Any] | None = None,
    renamed_from: str | Iterable[str] = (),
    description: str | None = None,
) -> Any:
    """A dataclass field with declared bounds (checked by ``from_mapping`` and ``check_bounds``),
    former names (``renamed_from``: accepted by ``from_mapping`` with a ``DeprecationWarning``) and
    a short ``description`` (shown by the JSON Schema and the params reference, docs/params.md)."""
    metadata: dict[str, Any] = {}
    if description:
        metadata[DESCRIPTION] = description
    if choices is not None or any(b is not None for b in (ge, gt, le, lt)):
        metadata[BOUNDS] = Bounds(ge, gt, le, lt, None if choices is None else tuple(choices))
    old = (renamed_from,) if isinstance(renamed_from, str) else tuple(renamed_from)
    if old:
        metadata[RENAMED_FROM] = old
    return dataclasses.field(default=default, metadata=metadata)


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def renames(cls: type) -> dict[str, str]:
    """Former setting names of the config class ``cls`` -> their current names."""
    return {old: f.name for f in dataclasses.fields(cls) for old in f.metadata.get(RENAMED_FROM, ())}


def current_names(cls: type, config: Mapping[str, Any], what: str, warn: bool = True) -> dict[str, Any]:
    """A copy of ``config`` with former setting names replaced by the current ones (same order).

    ``warn``: a ``RenamedSettingWarning`` (a ``DeprecationWarning``) per former name; off for configs
    saved next to a trained model, which the user cannot edit. A former and a current name of one
    setting together are an error."""
    table = renames(cls)
    given: dict[str, str] = {}  # current name -> the key that gave it
    for key in config:
        new = table.get(key, key)
        if new in given:
            raise SynthdeidError(
                f"{what}: '{given[new]}' and '{key}' are the same setting (the former name is "
                f"deprecated); give only '{new}'"
            )
        given[new] = key
    for new, key in given.items():
        if warn and key != new:
            warnings.warn(f"{what}: setting '{key}' is deprecated, use '{new}'", RenamedSettingWarning, stacklevel=3)
    return {table.get(k, k): v for k, v in config.items()}


def _problem(name: str, value: Any, bounds: Bounds, hint: Any) -> str | None:
    whole = _accepts(hint, int) and not _accepts(hint, float)
    if bounds.choices is None:
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or (isinstance(value, float) and math.isnan(value))
        ):
            return f"setting '{name}' must be a number {bounds.rule()}, got {value!r}; give a number"
        if whole and not isinstance(value, int):
            return f"setting '{name}' must be a whole number {bounds.rule()}, got {value!r}; give a whole number"
    if bounds.accepts(value):
        return None
    return f"setting '{name}' must be {bounds.rule()}, got {value!r}; {bounds.fix()}"


def bound_problems(cls: type, values: Mapping[str, Any]) -> list[str]:
    """What is wrong with ``values`` (setting name -> value) under the bounds ``cls`` declares;
    None passes (an optional setting left unset)."""
    problems = []
    for f in dataclasses.fields(cls):
        bounds = f.metadata.get(BOUNDS)
        if bounds is not None and f.name in values and values[f.name] is not None:
            problem = _problem(f.name, values[f.name], bounds, _hints(cls).get(f.name))
            if problem:
                problems.append(problem)
    return problems


def check_bounds(config: Any, what: str) -> None:
    """Raise ``SettingError`` naming ``what`` (e.g. ``"generator 'lstm'"``) when a field of the
    dataclass instance ``config`` is outside its declared bounds; for ``__post_init__``."""
    problems = bound_problems(type(config), {f.name: getattr(config, f.name) for f in dataclasses.fields(config)})
    if problems:
        raise SettingError(f"{what}: " + "; ".join(problems) + " (in its config in params.yaml)")


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


def from_mapping(
    cls: type[C],
    config: Mapping[str, Any] | None,
    what: str,
    exclude: Iterable[str] = (),
    also: Iterable[str] = (),
    warn: bool = True,
) -> C:
    """The frozen dataclass ``cls`` built from a params mapping.

    ``what`` names the plugin in errors, e.g. ``"generator 'gpt2'"``. A former setting name
    (``setting(renamed_from=...)``) is mapped to the current one with a ``DeprecationWarning``
    (``warn=False``: silently, for configs saved by an earlier version). Unknown keys are an error
    listing the valid ones (plus ``also``: keys the caller handles itself, such as ``preset``);
    ``exclude`` names fields that params may not set. A whole number
    given for a float setting becomes a float (YAML ``1`` for ``1.0``), a whole float for an int
    setting becomes an int, a numeric string for a number setting becomes a number (PyYAML reads
    ``1e-3`` as a string), and a list for a tuple setting becomes a tuple (configs stay hashable).
    Declared bounds are checked here; the dataclass's own ``__post_init__`` checks the rest."""
    if isinstance(config, cls):
        return config  # built already (the study spec's settings)
    config = current_names(cls, dict(config or {}), what, warn)
    known = {f.name for f in dataclasses.fields(cls) if f.init} - set(exclude)
    unknown = sorted(set(config) - known)
    if unknown:
        close = [m for key in unknown for m in difflib.get_close_matches(key, sorted(known | set(also)), n=1)]
        suggestion = f" (did you mean {', '.join(close)}?)" if close else ""
        raise SynthdeidError(
            f"{what} has no setting(s) {', '.join(unknown)}{suggestion}; "
            f"its settings are: {', '.join(sorted(known | set(also))) or '(none)'}"
        )
    hints = _hints(cls)
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
    problems = bound_problems(cls, config)
    if problems:
        raise SettingError(f"{what}: " + "; ".join(problems) + " (in its config in params.yaml)")
    try:
        return cls(**config)
    except SettingError:
        raise
    except (TypeError, ValueError) as err:
        raise SynthdeidError(f"{what}: bad settings ({err})") from None
