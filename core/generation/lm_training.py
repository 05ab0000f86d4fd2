"""What ``train_lm`` adds to a generator's training lines before it learns them: the fake-PHI
canaries of ``generators.NAME.canaries`` (for canary exposure) and the data-only membership canaries
of ``generators.NAME.data_canaries``. Only the in-memory lines get them, never ``data/inline``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from synthdeid.api import LanguagePack
from synthdeid.corpus.inline import strip_tags
from synthdeid.privacy.canaries import (
    DEFAULT_TEMPLATE,
    CanaryConfig,
    add_canaries,
    write_canaries,
)
from synthdeid.privacy.data_canaries import DataCanaryConfig, add_data_canaries


def min_count_floor(generator: Any) -> int:
    """A built word-level LM's ``<unk>`` threshold (its config's ``min_count``), else 1."""
    floor = getattr(getattr(generator, "config", None), "min_count", 1)
    return floor if isinstance(floor, int) else 1


def add_training_canaries(
    canaries: CanaryConfig | None,
    data_canaries: DataCanaryConfig | None,
    pack: LanguagePack,
    text: dict[str, list[str]],
    ids: dict[str, list[str]],
    labels: list[str],
    tagged: bool,
    floor: int,
    out: Path,
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Insert the generator's ``canaries`` and ``data_canaries`` (None: none) into ``text["train"]``
    and ``ids["train_ids"]`` (replaced in place); write the canary record into the model folder
    ``out``. Canaries without a template use the language ``pack``'s sentence. Returns the counts for
    the metrics and the data-canary record (``None`` without data canaries)."""
    counts: dict[str, Any] = {"canaries": 0, "canary_lines": 0, "data_canary_lines": 0}
    real_lines = list(text["train"])
    if canaries is not None:
        if canaries.template is None:  # the language pack's sentence
            canaries = canaries.replace(template=pack.canary_template or DEFAULT_TEMPLATE)
        if not tagged:
            canaries = canaries.replace(template=strip_tags(cast(str, canaries.template)))  # set above
        text["train"], ids["train_ids"], record = add_canaries(canaries, text["train"], ids["train_ids"], labels, floor)
        write_canaries(record, out)
        counts.update(
            canaries=len(record["canaries"]),
            canary_lines=record["lines_inserted"],
            canary_space_size=record["space_size"],
        )
    data_record = None
    if data_canaries is not None:  # members for the data-only membership inference (Meeus et al.)
        text["train"], ids["train_ids"], data_record = add_data_canaries(
            data_canaries, real_lines, text["train"], ids["train_ids"], floor
        )
        counts["data_canary_lines"] = data_record["lines_inserted"]
    return counts, data_record
