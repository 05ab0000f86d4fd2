"""The report's "What an attacker can learn" section: the data-only membership inference on each
published corpus, then the model attacks (loss-based membership inference and canaries) at low
false-positive rates, each next to whether its generator was trained with differential privacy,
and a sentence on what the figures mean for publishing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synthdeid.evaluation.utility import markdown_table

from .tables import Metrics, _num

THREAT_MODELS = (
    "Two attackers. The first holds only the published synthetic corpus. To measure what it can learn, "
    "the audit plants its own records: data canaries (the start of a real training note followed by a "
    "made-up phrase) inserted 1, 5 or 20 times into the generator's training text, and 1,000 more drawn "
    "the same way and never inserted. The attacker fits a 2-gram model on the corpus and scores each canary "
    "by how likely its made-up phrase is; if members score higher than non-members, the corpus reveals who "
    "was in the training data (Meeus et al. 2025). The second attacker also holds the model and its "
    "per-note loss (a hospital that publishes the generator, not only its text). Every attack is reported as "
    "the share of members found when at most 1% or 0.1% of non-members are falsely accused (Carlini et al. "
    "2022): an attack that is certain about a few records matters even when its AUC is near 0.5. A rate "
    "shown as n/a needs more non-members than the audit has (100 for 1%, 1,000 for 0.1%).\n\n"
)


def _with_ci(summary: Mapping[str, Any], key: str) -> str:
    value, ci = summary.get(key), summary.get(f"{key}_ci95")
    if value is None:
        return "n/a"
    return f"{_num(value)} [{_num(ci[0])}, {_num(ci[1])}]" if ci else _num(value)


def by_insertions(groups: Mapping[str, Any] | None) -> list[tuple[str, Any]]:
    """The per-repetition groups in numeric order (the metrics JSON sorts "20" before "5")."""
    return sorted((groups or {}).items(), key=lambda kv: int(kv[0]))


def signal(summary: Mapping[str, Any]) -> bool:
    """Whether an attack did measurably better than chance: the AUC interval above 0.5, or a
    true-positive rate at 1% false positives whose interval is above 1%."""
    auc_ci, tpr_ci = summary.get("auc_ci95"), summary.get("tpr_at_fpr_1pct_ci95")
    return bool((auc_ci and auc_ci[0] > 0.5) or (tpr_ci and tpr_ci[0] > 0.01))


def data_attack_table(privacy: Metrics, generators: Mapping[str, str | None], dp: Mapping[str, bool]) -> str:
    """Per audited corpus: the data-only attack over all member canaries and by insertions."""
    rows = []
    for corpus, m in privacy.items():
        d = m.get("data_membership_inference") or {}
        gen = generators.get(corpus)
        trained = f"{gen} ({'DP' if dp.get(gen or '') else 'non-DP'})" if gen else "n/a"
        if "all" not in d:
            rows.append([corpus, trained, d.get("skipped", "not run"), "", "", "", "", ""])
            continue
        a = d["all"]
        by = "; ".join(f"{r}x: {_num(g.get('auc'))}" for r, g in by_insertions(d.get("by_repetition")))
        reading = (
            "members are told apart from non-members: this corpus carries membership information"
            if signal(a)
            else "no membership signal above chance at this number of canaries"
        )
        rows.append(
            [
                corpus,
                trained,
                _with_ci(a, "auc"),
                _with_ci(a, "tpr_at_fpr_1pct"),
                _with_ci(a, "tpr_at_fpr_0_1pct"),
                by,
                f"{a.get('suffixes_verbatim')} / {d.get('nonmember_suffixes_verbatim')}",
                reading,
            ]
        )
    return markdown_table(
        [
            "corpus",
            "generator",
            "AUC [95% CI]",
            "TPR at 1% FPR",
            "TPR at 0.1% FPR",
            "AUC by insertions",
            "phrases copied: members / non-members",
            "what it means",
        ],
        rows,
    )


def model_attack_table(audits: Metrics, dp: Mapping[str, bool]) -> str:
    """Per generator: the loss attack (raw and zlib-calibrated) and the canaries at low FPR."""
    rows = []
    for name, m in sorted(audits.items()):
        mia, canary = m.get("membership_inference") or {}, m.get("canary_exposure") or {}
        zlib = mia.get("zlib_calibrated") or {}
        canaries = (
            "; ".join(
                f"{r}x: {_num(g.get('tpr_at_fpr_1pct'))} / {_num(g.get('tpr_at_fpr_0_1pct'))}"
                for r, g in by_insertions(canary.get("by_repetition"))
            )
            or "no canaries"
        )
        if "auc" not in mia:
            rows.append(
                [name, "DP" if dp.get(name) else "non-DP", mia.get("skipped", "not run"), "", "", "", canaries, ""]
            )
            continue
        found = signal(mia) or signal(zlib)
        reading = (
            "the model tells its training notes from held-out ones: publish the model only under DP or not at all"
            if found
            else "no membership signal above chance from the model's loss"
        )
        rows.append(
            [
                name,
                "DP" if dp.get(name) else "non-DP",
                _with_ci(mia, "auc"),
                _with_ci(mia, "tpr_at_fpr_1pct"),
                _with_ci(zlib, "auc"),
                _with_ci(zlib, "tpr_at_fpr_1pct"),
                canaries,
                reading,
            ]
        )
    return markdown_table(
        [
            "generator",
            "training",
            "loss attack AUC",
            "TPR at 1% FPR",
            "zlib-calibrated AUC",
            "TPR at 1% FPR (zlib)",
            "canaries found at 1% / 0.1% FPR, by insertions",
            "what it means",
        ],
        rows,
    )


def attacker_section(
    privacy: Metrics, audits: Metrics, generators: Mapping[str, str | None], dp: Mapping[str, bool]
) -> str:
    """The whole section (Markdown, from its level-2 heading)."""
    return (
        "\n## What an attacker can learn\n\n"
        + THREAT_MODELS
        + "### From the synthetic corpus alone\n\n"
        + data_attack_table(privacy, generators, dp)
        + "\n### From the model\n\n"
        + model_attack_table(audits, dp)
    )
