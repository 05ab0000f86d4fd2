"""Reading params.yaml sections with errors that name the missing key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import InputError

PARAMS_FILE = "params.yaml"


def load_params(path: str | Path = PARAMS_FILE) -> dict[str, Any]:
    p = Path(path)
    if not p.exists():
        raise InputError("params file not found", path=p, fix="run the stage from the repository root")
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
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
    for i, part in enumerate(dotted.split(".")):
        if not isinstance(node, dict) or part not in node:
            raise InputError(
                f"missing parameter {dotted!r}", path=PARAMS_FILE,
                fix=f"add `{dotted}` to params.yaml (see the README for its meaning)",
            )
        node = node[part]
    return node


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
    spec = get(params, f"corpora.{corpus}")
    return {**get(params, "generate"), **{k: v for k, v in spec.items() if k in GENERATION_OVERRIDES}}
