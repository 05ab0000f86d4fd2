"""The settings ``generate`` runs a corpus with: ``generate`` defaults overridden per corpus, ``auto``
lengths resolved from the inline training notes, and a left-to-right model's span limits and
START-tag offsets."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from synthdeid import paths
from synthdeid.api import AutoregressiveLM, GenerationSettings
from synthdeid.errors import InputError
from synthdeid.generation.generate import count_tokens, span_labels, span_limits
from synthdeid.generation.lm_text import nonblank_lines
from synthdeid.generation.note_lengths import AUTO, resolve_lengths
from synthdeid.generation.tag_distribution import label_shares, start_bias

if TYPE_CHECKING:
    from synthdeid.spec.study import GenerateSection

TRAIN_TEXT = paths.inline_text("train")


def settings_for(
    g: GenerateSection, corpus: str, model: Any = None, train_text: str | Path = TRAIN_TEXT
) -> tuple[GenerationSettings, int]:
    """Generation settings of ``corpus`` from ``g``, its ``generate`` section with the corpus's
    overrides (``Study.generation``), ``auto`` lengths resolved; with a left-to-right
    ``model``, the span limits of ``max_span_tokens`` in its tokens, the START-tag offsets of
    ``tag_distribution`` and the labels it may open (all from the inline training text ``train_text``). A model that rewrites
    real notes (``mlm_fill``) keeps their spans: neither applies, and a tag distribution other than
    ``real`` is an error. Returns the settings and the target size in tokens."""
    limits: tuple[tuple[str, int], ...] = ()
    bias: tuple[tuple[str, float], ...] = ()
    labels: tuple[str, ...] | None = None
    left_to_right = isinstance(model, AutoregressiveLM)
    lines = nonblank_lines(train_text) if left_to_right or AUTO in (g.min_tokens, g.max_tokens) else []
    count = (lambda line: len(model.encode(line))) if left_to_right else count_tokens
    min_tokens, max_tokens = resolve_lengths(g.min_tokens, g.max_tokens, lines, count)
    if left_to_right:
        limits = span_limits(model, lines, g.max_span_tokens)
        bias = start_bias(g.tag_distribution, label_shares(lines))
        labels = span_labels(lines)
    elif model is not None and g.tag_distribution not in ("real", None):
        raise InputError(
            f"corpora.{corpus}.tag_distribution is {g.tag_distribution!r}, but its generator "
            f"({type(model).__name__}) rewrites real notes and keeps their PHI labels: it has no "
            "START tags to steer",
            path="params.yaml",
            fix=f"set corpora.{corpus}.tag_distribution: real (max_span_tokens does not apply either)",
        )
    settings = GenerationSettings(
        min_tokens=min_tokens,
        max_tokens=max_tokens,
        tag_safe=g.tag_safe,
        batch_size=g.batch_size,
        span_limits=limits,
        start_bias=bias,
        span_labels=labels,
    )
    return settings, g.target_tokens


def generation_record(
    notes: list[tuple[str, str]], settings: GenerationSettings, target: int, g: GenerateSection
) -> dict[str, Any]:
    """The metrics of a generated corpus: its size and the lengths generation used (auto resolved;
    ``g``: the corpus's generation settings as given)."""
    return {
        "notes": len(notes),
        "tokens": sum(count_tokens(text) for _, text in notes),
        "target_tokens": target,
        "min_tokens": settings.min_tokens,
        "max_tokens": settings.max_tokens,
        "min_tokens_setting": g.min_tokens,
        "max_tokens_setting": g.max_tokens,
    }
