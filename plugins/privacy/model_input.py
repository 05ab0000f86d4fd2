"""What the model-based privacy metrics share: the trained generator and the text it learned
from, as the ``audit_lm`` stage puts them in ``PrivacyInput.extra``, and a clear "skipped"
result when a metric cannot run."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

from synthdeid import SynthdeidError
from synthdeid.api import AutoregressiveLM, PrivacyInput, PrivacyResult

LM = "lm"
"""``extra[LM]``: the loaded generator (``Generator.load`` of ``model_dir``)."""
LM_TEXT = "lm_text"
"""``extra[LM_TEXT]``: ``{"train": [...], "dev": [...]}``, the inline LM lines (without canaries)."""


def skipped(reason: str) -> PrivacyResult:
    return PrivacyResult({"skipped": reason})


def language_model(name: str, data: PrivacyInput) -> AutoregressiveLM | str:
    """The generator to audit, or why there is none to score with (a "skipped" reason)."""
    if LM not in data.extra:
        raise SynthdeidError(
            f"privacy metric {name!r} needs a trained generator: run it from the audit_lm stage "
            "(privacy.model_metrics), not from privacy.metrics"
        )
    lm = data.extra[LM]
    if not isinstance(lm, AutoregressiveLM):
        return (
            f"the generator ({type(lm).__name__}) is not an autoregressive language model: "
            "it gives no per-token likelihoods to score"
        )
    return lm


def lm_lines(name: str, data: PrivacyInput, split: str) -> list[str]:
    lines = (data.extra.get(LM_TEXT) or {}).get(split)
    if lines is None:
        raise SynthdeidError(f"privacy metric {name!r} needs the generator's {split} text in extra[{LM_TEXT!r}]")
    return list(lines)


def note_ids(docs: Sequence[Any], lines: Sequence[str], split: str) -> list[str]:
    """The document id of each LM line (``split-N`` when the documents do not line up)."""
    if len(docs) == len(lines):
        return [d.id for d in docs]
    return [f"{split}-{i}" for i in range(len(lines))]


def rounded(value: SupportsFloat | None, digits: int = 4) -> float | None:
    """Rounded for the metrics JSON (byte-stable across tiny float differences)."""
    return None if value is None else round(float(value), digits)
