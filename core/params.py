"""Reading params.yaml sections with errors that name the missing key, or the key, value and
expected type of a badly typed one (``get_int``, ``get_mapping``, ``as_int``, ``as_mapping``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import InputError

PARAMS_FILE = "params.yaml"


def load_params(path: str | Path = PARAMS_FILE) -> dict[str, Any]:
    p = Path(path)
    if not p.exists():
        raise InputError("params file not found", path=p,
                         fix="run from the project folder (the one holding params.yaml) or give the file's path")
    if p.is_dir():
        raise InputError("is a folder, not a params file", path=p,
                         fix=f"give the YAML file itself, e.g. {p / PARAMS_FILE}")
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        line = p.read_bytes()[:e.start].count(b"\n") + 1
        raise InputError(f"not UTF-8 text (byte {e.object[e.start]:#04x} at offset {e.start})", path=p, line=line,
                         fix="save the file as UTF-8") from None
    except OSError as e:
        raise InputError(f"cannot be read ({e.strerror or e})", path=p, fix="check the file's permissions") from None
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise InputError(f"invalid YAML: {e}", path=p, line=None if mark is None else mark.line + 1,
                         fix="fix the YAML syntax") from None
    if not isinstance(data, dict):
        raise InputError("params must be a mapping", path=p, fix="write `key: value` pairs at the top level")
    return data


def get(params: dict[str, Any], dotted: str) -> Any:
    """``get(params, "prepare.seed")``; a missing key raises an error naming it."""
    node: Any = params
    parts = dotted.split(".")
    for i, part in enumerate(parts):
        if i and not isinstance(node, dict):
            parent = ".".join(parts[:i])
            raise InputError(
                f"{parent} must be a mapping (holding {part!r}), not {node!r}", path=PARAMS_FILE,
                fix=f"write `{parent}` as `key: value` pairs (see the README for its keys)",
            )
        if not isinstance(node, dict) or part not in node:
            raise InputError(
                f"missing parameter {dotted!r}", path=PARAMS_FILE,
                fix=f"add `{dotted}` to params.yaml (see the README for its meaning)",
            )
        node = node[part]
    return node


def _wrong(dotted: str, value: Any, expected: str, example: str) -> InputError:
    return InputError(f"{dotted} must be {expected}, not {value!r}", path=PARAMS_FILE,
                      fix=f"set `{dotted}` to {example} in params.yaml")


def as_int(value: Any, dotted: str, *, minimum: int | None = None) -> int:
    """``value``, read from params at ``dotted``, as a whole number (YAML ``3``, ``3.0`` or ``"3"``);
    anything else, or one below ``minimum``, is an error naming the key, the value and the type."""
    expected = "a whole number" + ("" if minimum is None else f" >= {minimum}")
    example = f"a whole number such as {minimum if minimum is not None and minimum > 0 else 0}"
    number: Any = value
    if isinstance(value, str):
        try:
            number = int(value.strip())
        except ValueError:
            raise _wrong(dotted, value, expected, example) from None
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    if isinstance(number, bool) or not isinstance(number, int) or (minimum is not None and number < minimum):
        raise _wrong(dotted, value, expected, example)
    return number


def as_mapping(value: Any, dotted: str, *, optional: bool = True) -> dict[str, Any]:
    """``value``, read from params at ``dotted``, as a mapping (``optional``: null or absent is ``{}``)."""
    if value is None and optional:
        return {}
    if not isinstance(value, dict):
        raise _wrong(dotted, value, "a mapping (`key: value` pairs)" + (" or null" if optional else ""),
                     "`key: value` pairs (see the README for its keys)")
    return value


def get_int(params: dict[str, Any], dotted: str, *, minimum: int | None = None) -> int:
    """``get`` of a whole-number setting (``as_int``)."""
    return as_int(get(params, dotted), dotted, minimum=minimum)


def get_mapping(params: dict[str, Any], dotted: str) -> dict[str, Any]:
    """``get`` of a section that must be a mapping (null reads as an empty one)."""
    return as_mapping(get(params, dotted), dotted)


def corpus_generator(params: dict[str, Any], corpus: str) -> str | None:
    """The generator whose notes ``corpus`` holds: ``corpora.CORPUS.generator``, or that of the raw
    corpus a ``machine_annotated`` entry tags; None for a corpus in neither."""
    seen: set[str] = set()
    while corpus not in seen:
        seen.add(corpus)
        spec = (params.get("corpora") or {}).get(corpus)
        if isinstance(spec, dict):
            return spec.get("generator")
        machine = (params.get("machine_annotated") or {}).get(corpus)
        if not isinstance(machine, dict):
            return None
        corpus = machine.get("corpus")
    return None


GENERATION_OVERRIDES = ("min_tokens", "max_tokens", "tag_safe", "batch_size", "target_tokens", "max_span_tokens",
                        "tag_distribution")
"""The ``generate`` keys a corpus may override in its own section."""


def generation_params(params: dict[str, Any], corpus: str) -> dict[str, Any]:
    """The ``generate`` section with the corpus's own overrides of its keys."""
    spec = get_mapping(params, f"corpora.{corpus}")
    return {**get_mapping(params, "generate"), **{k: v for k, v in spec.items() if k in GENERATION_OVERRIDES}}
