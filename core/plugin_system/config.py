"""Typed settings, declared once: a plugin's (or a core feature's) config is a pydantic model that
subclasses ``Settings`` and declares each setting with ``setting``::

    class LSTMConfig(Settings):
        learning_rate: float = setting(20.0, gt=0, renamed_from="lr", description="the optimizer's step size")

The declaration is all there is: the study spec validates a config with the model itself
(``model_validate``) and hands the built object to the plugin's factory; the JSON Schema and the
params reference (docs/params.md) describe it from the same fields. What every ``Settings`` does
the same way:

- a former name (``renamed_from``) is read as the current one with a ``RenamedSettingWarning``
  (a ``DeprecationWarning``); silently for a config saved next to a trained model
  (``load_settings(..., saved=True)``); a former and a current name together are refused;
- YAML's scalars are read as the field means them: ``1e-3`` (a string to PyYAML) is a number, a
  whole float ``3.0`` is an int for an int setting, a list is a tuple for a tuple setting, and an
  unquoted ``no`` for a text setting is refused with the fix (quote it);
- bounds (``ge``/``gt``/``le``/``lt``) and ``choices``; unknown keys are refused.

Checks that relate several settings are a ``model_validator(mode="after")`` of the class."""

from __future__ import annotations

import difflib
import types
import typing
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from synthdeid.errors import SynthdeidError

S = TypeVar("S", bound="Settings")


class SettingError(SynthdeidError, ValueError):
    """A config that its settings class refuses (a ``ValueError`` too, as pydantic's own is)."""


class RenamedSettingWarning(DeprecationWarning):
    """A setting given under its former name."""


# Python hides a DeprecationWarning raised outside __main__; params are the user's, so show these
# (once per message and place, not once per config built)
warnings.filterwarnings("default", category=RenamedSettingWarning)


@dataclass(frozen=True)
class FormerNames:
    """Field metadata: the names a setting was given before (``setting(renamed_from=...)``)."""

    names: tuple[str, ...]


def _expected(choices: tuple[Any, ...]) -> str:
    shown = [repr(c) for c in choices]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _one_of(choices: tuple[Any, ...]) -> AfterValidator:
    def check(value: Any) -> Any:
        if value is not None and value not in choices:
            raise PydanticCustomError("literal_error", "Input should be {expected}", {"expected": _expected(choices)})
        return value

    return AfterValidator(check)


def setting(
    default: Any = ...,
    *,
    ge: float | None = None,
    gt: float | None = None,
    le: float | None = None,
    lt: float | None = None,
    choices: Iterable[Any] | None = None,
    renamed_from: str | Iterable[str] = (),
    description: str | None = None,
) -> Any:
    """A field of a ``Settings`` class: its default (none: required), its bounds or ``choices``,
    its former names (``renamed_from``, read with a ``DeprecationWarning``) and a short
    ``description`` (shown by the JSON Schema and the params reference, docs/params.md)."""
    limits = {k: v for k, v in (("ge", ge), ("gt", gt), ("le", le), ("lt", lt)) if v is not None}
    allowed = None if choices is None else tuple(choices)
    extra = None if allowed is None else {"enum": list(allowed)}
    field: Any = Field(default, description=description, json_schema_extra=extra, **limits)  # type: ignore[call-overload]
    if allowed is not None:
        field.metadata.append(_one_of(allowed))
    old = (renamed_from,) if isinstance(renamed_from, str) else tuple(renamed_from)
    if old:
        field.metadata.append(FormerNames(old))
    return field


def renames(cls: type[BaseModel]) -> dict[str, str]:
    """Former setting names of the settings class ``cls`` -> their current names."""
    return {
        old: name
        for name, f in cls.model_fields.items()
        for m in f.metadata
        if isinstance(m, FormerNames)
        for old in m.names
    }


def _accepts(hint: Any, kind: type) -> bool:
    """Whether the type hint ``hint`` is ``kind`` or an optional/union containing it."""
    if hint is kind:
        return True
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_accepts(arg, kind) for arg in typing.get_args(hint))
    return origin is kind


def _number(text: str) -> int | float | str:
    try:
        value = float(text)
    except ValueError:
        return text  # left for the type check, which names the setting
    return int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value


class Settings(BaseModel):
    """The base of every settings class (see the module's docstring): frozen, strict about types
    (after reading YAML's scalars as the field means them), unknown keys refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, validate_default=False)

    @model_validator(mode="before")
    @classmethod
    def _current_names(cls, data: Any, info: ValidationInfo) -> Any:
        if not isinstance(data, Mapping):
            return data
        table = renames(cls)
        if not table:
            return data
        given: dict[str, str] = {}  # current name -> the key that gave it
        for key in map(str, data):
            new = table.get(key, key)
            if new in given:
                raise PydanticCustomError(
                    "renamed",
                    "'{old}' and '{key}' are the same setting (the former name is deprecated); give only '{new}'",
                    {"old": given[new], "key": key, "new": new},
                )
            given[new] = key
        context = info.context or {}
        for new, key in given.items():
            if key != new and not context.get("saved"):
                what = context.get("what") or cls.__name__
                warnings.warn(
                    f"{what}: setting '{key}' is deprecated, use '{new}'", RenamedSettingWarning, stacklevel=2
                )
        return {table.get(k, k): v for k, v in data.items()}

    @field_validator("*", mode="before")
    @classmethod
    def _yaml_scalar(cls, value: Any, info: ValidationInfo) -> Any:
        hint = cls.model_fields[info.field_name].annotation if info.field_name else None
        if isinstance(value, bool):
            if _accepts(hint, str) and not _accepts(hint, bool):
                raise PydanticCustomError(
                    "yaml_boolean",
                    "YAML reads an unquoted {word} as the boolean {value}, not text; quote it",
                    {"word": "yes/no/on/off/true/false", "value": str(value).lower()},
                )
            return value
        number = _accepts(hint, float) or _accepts(hint, int)
        if isinstance(value, str) and number and not _accepts(hint, str):
            value = _number(value.strip())
        if isinstance(value, float) and value.is_integer() and _accepts(hint, int) and not _accepts(hint, float):
            return int(value)
        if isinstance(value, list) and _accepts(hint, tuple):
            return tuple(value)
        return value

    def replace(self: S, **changes: Any) -> S:
        """A copy with ``changes``, validated as the original was."""
        return type(self).model_validate({**self.model_dump(), **changes}, context={"saved": True})

    def to_dict(self) -> dict[str, Any]:
        """The settings as plain values (tuples stay tuples), for a saved config."""
        return self.model_dump()


def _limits(field: Any) -> dict[str, float]:
    """The numeric bounds a field declares (``ge``/``gt``/``le``/``lt``)."""
    out: dict[str, float] = {}
    for m in field.metadata:
        for key in ("ge", "gt", "le", "lt"):
            if getattr(m, key, None) is not None:
                out[key] = getattr(m, key)
    return out


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e15 else str(x)


def rule(limits: Mapping[str, float]) -> tuple[str, str]:
    """A field's bounds in words and how to meet them: ``("in (0, 1]", "set it within (0, 1]")``."""
    ge, gt, le, lt = (limits.get(k) for k in ("ge", "gt", "le", "lt"))
    finite = lt == float("inf")  # lt=inf: any finite number above the lower bound
    low = f"[{_num(ge)}" if ge is not None else f"({_num(gt)}" if gt is not None else ""
    high = "" if finite else f"{_num(le)}]" if le is not None else f"{_num(lt)})" if lt is not None else ""
    if low and high:
        return f"in {low}, {high}", f"set it within {low}, {high}"
    if low:
        op, limit = (">=" if ge is not None else ">"), low[1:]
        fix = f"set it to {limit} or more" if ge is not None else f"set it above {limit}"
        return f"{op} {limit}" + (" and finite" if finite else ""), fix
    if high:
        op, limit = ("<=" if le is not None else "<"), high[:-1]
        return f"{op} {limit}", f"set it to {limit} or less" if le is not None else f"set it below {limit}"
    return ("finite", "give a finite number") if finite else ("anything", "")


def model_at(cls: type[BaseModel], loc: Iterable[Any]) -> type[BaseModel] | None:
    """The settings class that holds the keys at ``loc`` (nested settings followed), or None."""
    model: Any = cls
    for part in loc:
        field = model.model_fields.get(str(part)) if isinstance(model, type) and issubclass(model, BaseModel) else None
        if field is None:
            return None
        kinds = typing.get_args(field.annotation) or (field.annotation,)
        model = next((k for k in kinds if isinstance(k, type) and issubclass(k, BaseModel)), None)
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def _problem(cls: type[BaseModel], e: Mapping[str, Any]) -> str:
    """One refused setting in words: what it must be, what it got, the fix."""
    loc = ".".join(str(p) for p in e["loc"])
    value = e.get("input")
    holder = model_at(cls, e["loc"][:-1]) if e["loc"] else None
    field = holder.model_fields.get(str(e["loc"][-1])) if holder is not None else None
    if field is not None and e["type"] == "literal_error":
        choices = (field.json_schema_extra or {}).get("enum", []) if isinstance(field.json_schema_extra, dict) else []
        shown = ", ".join(str(c) for c in choices)  # type: ignore[union-attr]
        return f"setting '{loc}' must be one of {shown}, got {value!r}; use one of them"
    if field is not None and e["type"] == "bool_type":
        return f"setting '{loc}' must be true or false (unquoted), got {value!r}; write true or false"
    if field is not None:
        hint = field.annotation
        if isinstance(value, int) and not isinstance(value, bool) and _accepts(hint, float) and not _accepts(hint, int):
            value = float(value)  # as it was read
        limits = _limits(field)
        if e["type"] in ("greater_than", "greater_than_equal", "less_than", "less_than_equal", "finite_number"):
            words, fix = rule(limits)
            return f"setting '{loc}' must be {words}, got {value!r}; {fix}"
        if e["type"] in ("int_type", "int_from_float", "float_type", "float_parsing", "int_parsing"):
            whole = _accepts(hint, int) and not _accepts(hint, float)
            kind = "a whole number" if whole else "a number"
            bound = f" {rule(limits)[0]}" if limits else ""
            return f"setting '{loc}' must be {kind}{bound}, got {value!r}; give {kind}"
    msg = e["msg"].removeprefix("Value error, ").replace("Input should be", "must be")
    got = "" if isinstance(value, Mapping) or e["type"] == "yaml_boolean" else f", got {value!r}"
    if msg[:2].istitle():
        msg = msg[0].lower() + msg[1:]  # "Must be" -> "must be", but "YAML reads" stays
    return f"setting '{loc}' {msg}{got}" if loc else msg + got


def problems_of(error: ValidationError, cls: type[BaseModel]) -> list[str]:
    """Each problem of a ``ValidationError`` of ``cls`` in words, naming the setting."""
    unknown, out = [], []
    for e in error.errors():
        holder = model_at(cls, e["loc"][:-1]) if e["type"] == "extra_forbidden" else None
        if holder is cls:
            unknown.append(str(e["loc"][-1]))
        elif holder is not None:  # in a nested section, e.g. dp
            where = ".".join(str(p) for p in e["loc"][:-1])
            known = sorted(holder.model_fields)
            close = difflib.get_close_matches(str(e["loc"][-1]), known, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            out.append(f"'{where}' has no setting {e['loc'][-1]}{hint}; its settings are: {', '.join(known)}")
        else:
            out.append(_problem(cls, e))
    if unknown:
        known = sorted(cls.model_fields)
        close = [m for key in unknown for m in difflib.get_close_matches(key, known, n=1)]
        suggestion = f" (did you mean {', '.join(close)}?)" if close else ""
        out.insert(
            0, f"no setting(s) {', '.join(unknown)}{suggestion}; its settings are: {', '.join(known) or '(none)'}"
        )
    return out


def load_settings(cls: type[S], config: Mapping[str, Any] | S | None, what: str, *, saved: bool = False) -> S:
    """``cls`` built from a params mapping (an instance of ``cls`` is returned as it is); ``what``
    names the owner in errors (``"decoder 'nucleus'"``). ``saved``: a config saved by an earlier
    run (next to a trained model), whose former names are read without a warning.

    A refused config is a ``SettingError`` naming ``what``, each setting and what it takes; a
    check that relates settings raises its own ``SynthdeidError``, as it is."""
    if isinstance(config, cls):
        return config
    if config is not None and not isinstance(config, Mapping):
        raise SettingError(f"{what}: its config must be a mapping (`key: value` pairs) or null, not {config!r}")
    try:
        return cls.model_validate(dict(config or {}), context={"what": what, "saved": saved})
    except ValidationError as e:
        raise SettingError(_sentence(what, problems_of(e, cls)) + " (in its config in params.yaml)") from None


def _sentence(what: str, found: list[str]) -> str:
    first = found[0]
    head = f"{what} has {first}" if first.startswith("no setting(s)") else f"{what}: {first}"
    return head + "".join(f"; {p}" for p in found[1:])
