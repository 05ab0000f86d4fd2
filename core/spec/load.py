"""Reading params.yaml into the study spec once: every mistake, in any section or plugin config,
becomes one ``InputError`` that names the dotted key, its line, what the key takes and the fix
(for an unknown key: the valid names and the closest one)."""

from __future__ import annotations

import difflib
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from synthdeid.params import PARAMS_FILE, load_params

from .problems import Problem, line_of, spec_error, yaml_nodes
from .study import Study

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
        from .from_dataclass import model_of

        parent = model_of(plugin_config) if plugin_config is not None else _model_at(loc[:-1])
        valid = keys_of(parent) if parent else []
        close = difflib.get_close_matches(str(loc[-1]), valid, n=1, cutoff=0.6)
        where = dotted(loc[:-1]) or "the top level"
        hint = f" (did you mean `{close[0]}`?)" if close else ""
        return key, f"unknown key{hint}; {where} takes: {', '.join(valid)}", (
            f"rename it to `{close[0]}`" if close else f"remove it, or use one of the keys {where} takes")
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
    msg = error["msg"].removeprefix("Value error, ")
    if kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        return key, f"{msg.replace('Input should be', 'must be')}, not {value!r}", f"set `{key}` within its bounds"
    if kind in ("too_short", "too_long"):
        return key, msg.replace("List should have", "must have").replace("Value should have", "must have"), \
            "change the list"
    got = "" if value is None or isinstance(value, Mapping) else f" (got {value!r})"
    fix = f"set `{key}` to what it takes (`synthdeid schema` describes every key)"
    if kind == "renamed":
        fix = "rename the key"
    return key, (msg if msg.startswith(("must", "is ", "sets ")) else msg[0].lower() + msg[1:]) + got, fix


def validate(data: Any, path: str | Path = PARAMS_FILE, text: str | None = None) -> Study:
    """The study spec of the loaded params ``data`` (``text``: the file, for line numbers)."""
    try:
        return Study.model_validate(data)
    except ValidationError as e:
        root = yaml_nodes(text) if text is not None else None
        problems = []
        for err in e.errors():
            key, message, fix = problem_of(err)
            problems.append(Problem(key, message, fix, line_of(root, err["loc"]) if root else None))
        raise spec_error(problems, path) from None


def load_study(path: str | Path = PARAMS_FILE, *, check_plugins: bool = True) -> Study:
    """params.yaml read and checked once: its structure and types (``Study``), then what refers to
    what and each plugin's config against the installed plugin (``references.check``)."""
    data = load_params(path)
    text = Path(path).read_text(encoding="utf-8")
    study = validate(data, path, text)
    if check_plugins:
        from .references import check

        problems = check(study)
        if problems:
            root = yaml_nodes(text)
            raise spec_error([p._replace(line=line_of(root, p.key.split("."))) for p in problems], path)
    return study
