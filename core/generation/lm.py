"""Which text a generator learns: inline-tagged notes or plain text (the machine-annotation route).
The generator contract itself (``Generator``, ``AutoregressiveLM``, ``TrainingData``) is declared in
``synthdeid.api``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from synthdeid.spec.study import GeneratorSection


def uses_tags(spec: GeneratorSection) -> bool:
    """Whether the generator ``spec`` (``generators.NAME``) learns the inline PHI tags (``tags:
    true``, the default) or plain text (``tags: false``: the machine-annotation route, where a
    tagger annotates the generated notes afterwards)."""
    return spec.tags
