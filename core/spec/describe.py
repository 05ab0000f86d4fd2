"""The study spec described: as JSON Schema (``synthdeid schema``; an editor with a YAML language
server completes and checks params.yaml with it) and as the params reference page
(docs/params.md), both generated from ``Study`` so they cannot drift from what the stages accept.

A plugin's ``config`` is described by the settings class the plugin registered with (its
``setting()`` bounds), for every built-in plugin that has settings (``references.config_classes``)."""

from __future__ import annotations

import json
import typing
from typing import Any

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from .study import Study

SCHEMA_FILE = "docs/params.schema.json"
SCHEMA_ID = "https://synthdeid.example/params.schema.json"
PLUGIN_SECTIONS = {  # dotted place of a plugin config -> (the plugin's kind, the key naming it)
    "generators": ("generator", "plugin"),
    "corpora": ("decoder", "decoder"),
    "taggers": ("tagger", "plugin"),
}


def json_schema() -> dict[str, Any]:
    """The JSON Schema of params.yaml; each plugin config is checked by the schema of the plugin
    its entry names (``if plugin == NAME then config: <its settings>``)."""
    from .references import config_classes

    schema = Study.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = SCHEMA_ID
    defs = schema.setdefault("$defs", {})
    for section, (kind, key) in PLUGIN_SECTIONS.items():
        model = Study.model_fields[section].annotation
        entry = typing.get_args(model)[1].__name__
        rules = []
        for name, cls in config_classes(kind).items():
            sub = cls.model_json_schema()
            defs.update(sub.pop("$defs", {}))
            rules.append(
                {
                    "if": {"properties": {key: {"const": name}}, "required": [key]},
                    "then": {"properties": {"config": sub}},
                }
            )
        if rules:
            defs[entry]["allOf"] = rules
    metrics = config_classes("privacy_metric")
    privacy = defs["PrivacySection"]["properties"]
    for field in ("metrics", "model_metrics"):
        props = {}
        for name, cls in metrics.items():
            assert issubclass(cls, BaseModel)  # the built-in privacy metrics' configs are Settings
            sub = cls.model_json_schema()
            defs.update(sub.pop("$defs", {}))
            props[name] = {"anyOf": [sub, {"type": "null"}]}
        privacy[field] = {**privacy[field], "properties": props, "additionalProperties": False}
    return schema


def write_schema(path: str = SCHEMA_FILE) -> str:
    text = json.dumps(json_schema(), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return text


# ---- the params reference page ------------------------------------------------------------------------


def _type(field: Any) -> str:
    extra = field.json_schema_extra
    if isinstance(extra, dict) and isinstance(extra.get("enum"), list):  # a Settings field's choices
        optional = type(None) in typing.get_args(field.annotation)
        return "one of " + ", ".join(str(c) for c in extra["enum"]) + (" or null" if optional else "")
    return _words(field.annotation, field.metadata)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _words(kind: Any, metadata: list[Any]) -> str:
    for m in metadata:
        if hasattr(m, "json_schema"):  # WithJsonSchema: the type described by hand
            return _schema_words(m.json_schema)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is typing.Annotated:
        return _words(args[0], list(args[1:]) + metadata)
    if origin in (typing.Union, __import__("types").UnionType):
        return " or ".join(_words(a, []) for a in args if a is not type(None)) + (
            " or null" if type(None) in args else ""
        )
    if origin is typing.Literal:
        return "one of " + ", ".join(str(a) for a in args)
    if origin in (list, tuple):  # a Settings class's list setting is a tuple
        return f"list of {_words(args[0], [])}"
    if origin is dict:
        return "mapping"
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return "mapping (below)"
    return {bool: "true/false", int: "whole number", float: "number", str: "text"}.get(kind, str(kind))


def _schema_words(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        return " or ".join(_schema_words(s) for s in schema["anyOf"])
    if "enum" in schema:
        return "one of " + ", ".join(str(v) for v in schema["enum"])
    kind = schema.get("type", "value")
    words = {
        "integer": "whole number",
        "number": "number",
        "object": "mapping",
        "array": "list",
        "boolean": "true/false",
        "string": "text",
        "null": "null",
    }.get(kind, kind)
    if "minimum" in schema:
        words += f" >= {schema['minimum']}"
    return words


def _bounds(field: Any) -> str:
    parts = []
    for m in field.metadata:
        for op, sign in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")):
            value = getattr(m, op, None)
            if value is not None:
                parts.append(f"{sign} {value}")
    return ", ".join(parts)


def _default(field: Any) -> str:
    if field.is_required():
        return "required"
    value = field.get_default(call_default_factory=True)
    if isinstance(value, BaseModel):
        return ""
    return json.dumps(to_jsonable_python(value), ensure_ascii=False) if not isinstance(value, str) else value


def _rows(model: type[BaseModel], prefix: str) -> list[str]:
    rows, nested = [], []
    for name, field in model.model_fields.items():
        key = f"{prefix}.{name}" if prefix else name
        kind = field.annotation
        args = [a for a in typing.get_args(kind) if a is not type(None)]
        inner = args[-1] if typing.get_origin(kind) is dict and args else kind
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            place = f"{key}.NAME" if typing.get_origin(kind) is dict else key
            nested.append((inner, place))
            if typing.get_origin(kind) is not dict:
                continue
        described = field.description or ""
        bounds = _bounds(field)
        rows.append(
            f"| `{key}` | {_cell(_type(field))}{' (' + bounds + ')' if bounds else ''} | "
            f"{_cell(_default(field))} | {_cell(described)} |"
        )
    out = rows
    for inner, place in nested:
        out += [
            "",
            f"### `{place}`",
            "",
            (inner.__doc__ or "").strip().split("\n\n")[0],
            "",
            "| key | type | default | meaning |",
            "|---|---|---|---|",
            *_rows(inner, place),
        ]
    return out


def reference() -> str:
    """docs/params.md: every key of params.yaml with its type, bounds, default and meaning."""
    from .references import config_classes

    lines = [
        "# params.yaml reference",
        "",
        "Generated from the study spec (`synthdeid.spec.study`) by `synthdeid schema --markdown`; "
        "a test fails when this page differs from it. `synthdeid check` refuses any key not listed here, "
        "names the closest one, and checks each value's type and bounds. Plugin configs (`config:`) "
        "are listed under [plugin configs](#plugin-configs).",
        "",
        "| key | type | default | meaning |",
        "|---|---|---|---|",
        *_rows(Study, ""),
    ]
    lines += [
        "",
        "## Plugin configs",
        "",
        "Each plugin declares its own settings; these are the built-in ones.",
    ]
    for kind in ("generator", "decoder", "tagger", "privacy_metric", "annotator"):
        for name, cls in config_classes(kind).items():
            model = cls
            lines += [
                "",
                f"### {kind} `{name}`",
                "",
                "| setting | type | default | meaning |",
                "|---|---|---|---|",
            ]
            for field_name, field in model.model_fields.items():
                bounds = _bounds(field)
                lines.append(
                    f"| `{field_name}` | {_cell(_type(field))}{' (' + bounds + ')' if bounds else ''} | "
                    f"{_cell(_default(field))} | {_cell(field.description or '')} |"
                )
    return "\n".join(lines) + "\n"
