"""Which text a generator learns: inline-tagged notes or plain text (the machine-annotation route).
The generator contract itself (``Generator``, ``AutoregressiveLM``, ``TrainingData``) is declared in
``synthdeid.api``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synthdeid.errors import InputError


def uses_tags(spec: Mapping[str, Any], name: str) -> bool:
    """Whether the generator ``generators.NAME`` (its params ``spec``) learns the inline PHI tags
    (``tags: true``, the default) or plain text (``tags: false``: the machine-annotation route,
    where a tagger annotates the generated notes afterwards)."""
    tags = spec.get("tags", True)
    if not isinstance(tags, bool):
        raise InputError(f"generators.{name}.tags must be true or false, not {tags!r}", path="params.yaml",
                         fix="true: the generator learns the inline PHI tags; false: untagged text "
                         "(annotate its corpus with a machine_annotated entry)")
    return tags
