"""``generators.NAME.anonymize_vocab``: which vocabulary entries count as PHI, for the vocabulary
anonymization that ``synthdeid.generation.vocab_anonymize`` runs. Declared with the spec (which
types the params section with it) so that the spec imports nothing from generation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from synthdeid.errors import SynthdeidError
from synthdeid.plugin_system.legacy_config import check_bounds, setting


@dataclass(frozen=True)
class VocabAnonymization:
    """Which vocabulary entries count as PHI (``generators.NAME.anonymize_vocab`` in params)."""

    labels: tuple[str, ...] | None = ("Name",)
    """PHI labels whose tokens are removed (None: every label)."""
    min_share: float = setting(0.5, gt=0, le=1)
    """A token is removed when at least this share of its occurrences is inside such spans."""
    seed: int = setting(0, ge=0)

    def __post_init__(self) -> None:
        check_bounds(self, "anonymize_vocab")
        if self.labels is not None and not self.labels:
            raise SynthdeidError("anonymize_vocab: labels must name at least one tag, or be null for all")

    @classmethod
    def parse(cls, value: Any, what: str = "anonymize_vocab") -> VocabAnonymization | None:
        """``true`` (the defaults), a mapping of settings, or ``null`` / ``false`` (off)."""
        if value is None or value is False:
            return None
        if value is True:
            return cls()
        from synthdeid.plugin_system.legacy_config import from_mapping

        if not isinstance(value, dict):
            raise SynthdeidError(f"{what} must be true, false or a mapping such as {{labels: [Name]}}, not {value!r}")
        return from_mapping(cls, value, what)
