"""A problem of the study spec (the dotted key, what is wrong, the fix, the line): made from a
pydantic error (``problem_of``), placed on its line in params.yaml, and raised with every other
problem found as one ``InputError``."""

from __future__ import annotations

import difflib
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel

from synthdeid.errors import InputError

from .study import Study


class Problem(typing.NamedTuple):
    key: str
    message: str
    fix: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.key}: {self.message}\n    fix: {self.fix}"


def yaml_nodes(text: str) -> Any:
    try:
        return yaml.compose(text)
    except yaml.YAMLError:
        return None


def line_of(root: Any, loc: Sequence[str | int]) -> int | None:
    """The 1-based line of the key at ``loc`` in the composed YAML ``root`` (its parent's when it is missing)."""
    node, line = root, None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if k.value == str(part):
                    node, line = v, k.start_mark.line + 1
                    break
            else:
                return line
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def spec_error(problems: Sequence[Problem], path: str | Path) -> InputError:
    """One error listing every problem (a single one keeps its line and fix)."""
    if len(problems) == 1:
        p = problems[0]
        return InputError(f"{p.key}: {p.message}", path=path, line=p.line, fix=p.fix)
    listed = "\n  ".join(str(p) for p in problems)
    return InputError(
        f"{len(problems)} problems:\n  {listed}",
        path=path,
        fix="correct each key as its line says (`synthdeid schema` describes every key)",
    )


EXPECTED = {
    "bool_type": "true or false (unquoted)",
    "int_type": "a whole number",
    "float_type": "a number",
    "string_type": "text",
    "list_type": "a list, e.g. [a, b]",
    "dict_type": "a mapping (`key: value` pairs)",
    "model_type": "a mapping (`key: value` pairs)",
    "model_attributes_type": "a mapping (`key: value` pairs)",
}


def dotted(loc: Sequence[str | int]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _model_at(loc: Sequence[str | int]) -> type[BaseModel] | None:
    """The spec model that holds the keys at ``loc`` (dict keys and list indices followed)."""
    kind: Any = Study
    for part in loc:
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            field = kind.model_fields.get(str(part))
            if field is None:
                return None
            kind = field.annotation
        elif isinstance(part, int | str):
            args = [a for a in typing.get_args(kind) if a is not type(None)]
            kind = args[-1] if args else None
        kind = _unwrap(kind)
    return kind if isinstance(kind, type) and issubclass(kind, BaseModel) else None


def _unwrap(kind: Any) -> Any:
    """``X | None`` -> ``X``; a dict/list type stays (its items are followed by the next loc part)."""
    args = typing.get_args(kind)
    if type(None) in args:
        members = [a for a in args if a is not type(None)]
        return members[0] if len(members) == 1 else kind
    return kind


def keys_of(model: type[BaseModel]) -> list[str]:
    return sorted(model.model_fields)


def problem_of(error: Mapping[str, Any], plugin_config: type | None = None) -> tuple[str, str, str]:
    """(dotted key, what is wrong, the fix) of one pydantic error (``plugin_config``: the error is
    about a plugin's config of that dataclass, whose model holds an unknown key)."""
    loc = [p for p in error["loc"] if not (isinstance(p, str) and ("[" in p or p.startswith("function-")))]
    key, kind, value = dotted(loc), error["type"], error.get("input")
    if kind == "extra_forbidden":
        parent = plugin_config if plugin_config is not None else _model_at(loc[:-1])
        valid = keys_of(parent) if parent else []
        close = difflib.get_close_matches(str(loc[-1]), valid, n=1, cutoff=0.6)
        where = dotted(loc[:-1]) or "the top level"
        hint = f" (did you mean `{close[0]}`?)" if close else ""
        return (
            key,
            f"unknown key{hint}; {where} takes: {', '.join(valid)}",
            (f"rename it to `{close[0]}`" if close else f"remove it, or use one of the keys {where} takes"),
        )
    if kind == "missing":
        return key, "missing", f"add `{key}` (`synthdeid schema` describes it)"
    if kind == "yaml_boolean":
        text = {True: "yes", False: "no"}.get(value, str(value)) if isinstance(value, bool) else str(value)
        return key, error["msg"], f'write it in quotes: {loc[-1]}: "{text}"'
    if kind in EXPECTED:
        extra = " (a quoted value is text, not a boolean)" if kind == "bool_type" and isinstance(value, str) else ""
        return key, f"must be {EXPECTED[kind]}, not {value!r}{extra}", f"set `{key}` to {EXPECTED[kind]}"
    if kind == "literal_error":
        expected = error.get("ctx", {}).get("expected", "")
        return key, f"must be {expected}, not {value!r}", "use one of those values"
    msg = error["msg"].removeprefix("Value error, ").replace("Input should be", "must be")
    if kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        return key, f"{msg.replace('Input should be', 'must be')}, not {value!r}", f"set `{key}` within its bounds"
    if kind in ("too_short", "too_long"):
        return (
            key,
            msg.replace("List should have", "must have").replace("Value should have", "must have"),
            "change the list",
        )
    got = "" if value is None or isinstance(value, Mapping) else f" (got {value!r})"
    fix = f"set `{key}` to what it takes (`synthdeid schema` describes every key)"
    if kind == "renamed":
        fix = "rename the key"
    return key, (msg if msg.startswith(("must", "is ", "sets ")) else msg[0].lower() + msg[1:]) + got, fix
