"""What privacy-metric plugins provide: a comparison of synthetic notes with the real notes the
generator learned from.

A privacy-metric plugin's factory (``register_privacy_metrics``) takes its config mapping and
returns a ``PrivacyMetric``. ``compute`` returns a JSON-able summary (for ``dvc metrics``) and,
optionally, per-synthetic-note rows (written as a table for the review and report stages).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .records import Document

Tokenize = Callable[[str], list[tuple[int, int]]]


@dataclass(frozen=True)
class PrivacyInput:
    """What a privacy metric may look at."""

    real: Sequence[Document]
    """The (pseudonymized) real training notes of the generator, with their PHI spans."""
    synthetic: Sequence[Document]
    """The synthetic corpus, with its PHI spans."""
    tokenize: Tokenize
    """The language pack's tokenizer."""
    model_dir: Path | None = None
    """The trained generator (for model-based metrics such as canary exposure)."""
    heldout: Sequence[Document] = ()
    """Real notes the generator never saw (membership inference)."""
    sources: Mapping[str, str] = field(default_factory=dict)
    """Synthetic note id -> id of the real training note it was rewritten from, for generators that
    refill real notes (``mlm_fill``: its ``generate_corpus`` returns the source note's id as the
    prompt); empty for generators that write notes from a prompt."""
    data_canaries: Path | None = None
    """The record of the generator's data-only membership canaries (``data/canaries/NAME.json``,
    ``synthdeid.data_canaries``), or None when the corpus has no generator of its own."""
    extra: dict[str, Any] = field(default_factory=dict)
    """In the ``audit_lm`` stage: ``lm``, the loaded generator, and ``lm_text``, its inline
    training and dev lines (``{"train": [...], "dev": [...]}``)."""


@dataclass
class PrivacyResult:
    summary: dict[str, Any]
    rows: list[dict[str, Any]] = field(default_factory=list)
    """One row per synthetic note (``synthetic_id`` first), or empty."""


class PrivacyMetric(Protocol):
    name: str

    def compute(self, data: PrivacyInput) -> PrivacyResult: ...
