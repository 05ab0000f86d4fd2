"""Measuring a synthetic corpus with the configured privacy metrics: each metric's summary, its
per-note rows merged into one row per synthetic note, and the pairs for reviewers (the rows of a
metric whose result declares ``rows_are_pairs``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from synthdeid.api import PrivacyInput, PrivacyMetric
from synthdeid.corpus.records import Document


@dataclass
class Measured:
    """What the metrics found: summary per metric (in ``privacy.metrics`` order), one row per
    synthetic note, and the high-risk pairs."""

    summary: dict[str, Any]
    notes: dict[str, dict[str, Any]]
    pairs: list[dict[str, Any]]


def refill_sources(raw_path: str | Path, real: Sequence[Document]) -> dict[str, str]:
    """Synthetic id -> source note id, for the raw notes whose prompt is a real training note's id
    (none when the corpus has no raw notes: a machine-annotated corpus)."""
    ids = {d.id for d in real}
    out: dict[str, str] = {}
    if not Path(raw_path).exists():
        return out
    for line in Path(raw_path).read_text(encoding="utf-8").split("\n"):  # not splitlines(): U+2028 is no break
        record = json.loads(line) if line.strip() else {}
        if record.get("prompt") in ids:
            out[record["id"]] = record["prompt"]
    return out


def measure(metrics: Mapping[str, PrivacyMetric], data: PrivacyInput) -> Measured:
    """Every metric of ``metrics`` (name -> the built metric plugin) computed on ``data``."""
    found = Measured({}, {d.id: {"synthetic_id": d.id} for d in data.synthetic}, [])
    for name, metric in metrics.items():
        result = metric.compute(data)
        found.summary[name] = result.summary
        if result.rows_are_pairs:
            found.pairs = result.rows
        else:
            for row in result.rows:
                found.notes[row["synthetic_id"]].update(row)
    return found


def label_pairs(
    pairs: list[dict[str, Any]], corpus: str, real: Sequence[Document], synthetic: Sequence[Document]
) -> None:
    """Give each pair its id (``CORPUS-001``, ...) and both notes' texts, in place."""
    texts = {d.id: d.text for d in real} | {d.id: d.text for d in synthetic}
    for i, p in enumerate(pairs):
        p.update(
            pair_id=f"{corpus}-{i + 1:03d}", synthetic_text=texts[p["synthetic_id"]], real_text=texts[p["real_id"]]
        )


def write_rows(rows: Iterable[dict[str, Any]], path: str | Path) -> None:
    """One JSON object per line (UTF-8, ``\\n`` line ends), mode 600: the rows quote real notes."""
    from synthdeid.corpus.formats.textfile import atomic_write

    with atomic_write(path) as f:
        f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
