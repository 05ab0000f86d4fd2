"""The README's headline results table and docs/utility.md's Table 6 are what the committed
metrics say (``python -m synthdeid.tools.headline --write`` renders both)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from synthdeid.tools.headline import TARGETS, render, replace, rows

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: f"{t.path}:{t.start}")
def test_the_results_tables_are_rendered_from_the_committed_metrics(target) -> None:
    text = (REPO / target.path).read_text(encoding="utf-8")
    table = target.make(REPO)
    assert text.count(target.start) == 1 and text.count(target.end) == 1
    assert text.split(target.start, 1)[1].split(target.end, 1)[0] == table.removeprefix(target.start).removesuffix(
        target.end
    ), f"{target.path}'s results table differs from the metrics: run `python -m synthdeid.tools.headline --write`"


def test_the_table_follows_the_metrics(tmp_path: Path) -> None:
    """A changed figure in the metrics changes the table (the check above can fail)."""
    (tmp_path / "data/metrics/learning_curve").mkdir(parents=True)
    summary = json.loads((REPO / "data/metrics/utility_summary.json").read_text(encoding="utf-8"))
    summary["scores"]["real"]["entity"]["micro"]["f1"] = 0.5
    (tmp_path / "data/metrics/utility_summary.json").write_text(json.dumps(summary), encoding="utf-8")
    shutil.copy(REPO / "data/metrics/learning_curve/lstm_p.json", tmp_path / "data/metrics/learning_curve")
    assert rows(tmp_path)[0] == ("real", "0.500", "1.00x", "trained on the real training notes")
    assert render(tmp_path) != render(REPO)
    with pytest.raises(ValueError):
        replace("no markers here", render(REPO))


def test_meddocans_rows_come_from_its_metrics_snapshot(tmp_path: Path) -> None:
    """The MEDDOCAN block is rendered from results/meddocan's metrics when they are there."""
    from synthdeid.tools.headline import MEDDOCAN, SUMMARY

    for root in (tmp_path, tmp_path / MEDDOCAN):
        (root / "data/metrics/learning_curve").mkdir(parents=True)
        shutil.copy(REPO / SUMMARY, root / SUMMARY)
        shutil.copy(REPO / "data/metrics/learning_curve/lstm_p.json", root / "data/metrics/learning_curve")
    summary = json.loads((tmp_path / MEDDOCAN / SUMMARY).read_text(encoding="utf-8"))
    summary["scores"]["real"]["entity"]["micro"]["f1"] = 0.5
    (tmp_path / MEDDOCAN / SUMMARY).write_text(json.dumps(summary), encoding="utf-8")
    table = render(tmp_path)
    assert "| MEDDOCAN | real | 0.500 | 1.00x |" in table
    assert "| demo | real | 0.500 |" not in table and "MEDDOCAN train -> dev" in table


def test_the_membership_table_follows_the_privacy_metrics(tmp_path: Path) -> None:
    from synthdeid.tools.headline import PRIVACY, membership_table

    (tmp_path / PRIVACY).mkdir(parents=True)
    shutil.copy(REPO / "params.yaml", tmp_path / "params.yaml")
    metrics = json.loads((REPO / PRIVACY / "lstm_p.json").read_text(encoding="utf-8"))
    metrics["data_membership_inference"]["all"]["auc"] = 0.123
    (tmp_path / PRIVACY / "lstm_p.json").write_text(json.dumps(metrics), encoding="utf-8")
    table = membership_table(tmp_path)
    assert "| lstm_p (lstm) | 0.12 [" in table and table.count("\n| ") == 2  # header and the one corpus
