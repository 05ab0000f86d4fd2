"""The report's "privacy by construction" tables: each generator's differential-privacy budget and
name probe (``train_lm`` and ``audit_lm`` metrics), and each corpus's fresh surrogates with the
PHI leakage before and after (``postprocess`` metrics)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synthdeid.evaluation.utility import markdown_table

from .tables import Metrics, _num, _pct


def generator_table(train_lm: Metrics, audit: Metrics) -> str:
    """One row per generator: epsilon (delta, noise multiplier) when trained with DP, and the name
    probe's share of predictions that are training PHI strings."""
    rows = []
    for name in sorted(set(train_lm) | set(audit)):
        dp = (train_lm.get(name) or {}).get("dp") or {}
        probe: Mapping[str, Any] = (audit.get(name) or {}).get("name_probe") or {}
        budget = (
            f"{dp['epsilon']:.2f} (delta {dp['delta']:.1e}, noise {dp['noise_multiplier']:.2f})"
            if dp.get("epsilon") is not None
            else "no DP"
        )
        if "skipped" in probe or not probe:
            probe_cells = ["skipped" if probe else "not run", "", "", ""]
        else:
            probe_cells = [
                _num(probe.get("predictions")),
                _pct(probe.get("train_phi_rate")),
                _pct(probe.get("train_phi_multi_token_rate")),
                _num(probe.get("distinct_train_phi_predicted")),
            ]
        rows.append([name, budget, *probe_cells])
    return markdown_table(
        [
            "generator",
            "epsilon",
            "name probe: predictions",
            "training PHI",
            "training PHI, 2+ tokens",
            "distinct training PHI",
        ],
        rows,
    )


def fresh_table(postprocess: Metrics) -> str:
    """One row per corpus with fresh surrogates: training PHI in its spans and the PHI leakage,
    before -> after (after is the language pack's chance level)."""
    rows = []
    for corpus, m in postprocess.items():
        fresh = m.get("fresh_surrogates")
        if not fresh:
            continue
        before, after = fresh.get("phi_leakage_before") or {}, fresh.get("phi_leakage_after") or {}
        rows.append(
            [
                corpus,
                _num(fresh.get("spans_replaced")),
                f"{_pct(fresh.get('spans_with_training_phi_before'))} -> {_pct(fresh.get('spans_with_training_phi_after'))}",
                f"{_pct(before.get('rate'))} -> {_pct(after.get('rate'))}",
                f"{_pct(before.get('multi_token_rate'))} -> {_pct(after.get('multi_token_rate'))}",
                _num(fresh.get("notes_with_untagged_copies")),
            ]
        )
    if not rows:
        return "No corpus has `fresh_surrogates: true`.\n"
    return markdown_table(
        [
            "corpus",
            "spans replaced",
            "spans with training PHI",
            "PHI leakage",
            "PHI leakage, 2+ tokens",
            "notes with untagged copies",
        ],
        rows,
    )
