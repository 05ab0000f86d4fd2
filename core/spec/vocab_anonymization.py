"""``generators.NAME.anonymize_vocab``: which vocabulary entries count as PHI, for the vocabulary
anonymization that ``synthdeid.generation.vocab_anonymize`` runs. Declared with the spec (which
types the params section with it) so that the spec imports nothing from generation."""

from __future__ import annotations

from pydantic import field_validator
from pydantic_core import PydanticCustomError

from synthdeid.plugin_system.config import Settings, setting


class VocabAnonymization(Settings):
    """Which vocabulary entries count as PHI (``generators.NAME.anonymize_vocab`` in params)."""

    labels: tuple[str, ...] | None = setting(
        ("Name",), description="PHI labels whose tokens are removed (null: every label)"
    )
    """PHI labels whose tokens are removed (None: every label)."""
    min_share: float = setting(
        0.5,
        gt=0,
        le=1,
        description="a token is removed when at least this share of its occurrences is inside such spans",
    )
    """A token is removed when at least this share of its occurrences is inside such spans."""
    seed: int = setting(0, ge=0, description="seed of the random <unk_N> strings that replace the removed tokens")

    @field_validator("labels")
    @classmethod
    def _some_labels(cls, labels: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if labels is not None and not labels:
            raise PydanticCustomError("labels", "must name at least one tag, or be null for all", {})
        return labels
