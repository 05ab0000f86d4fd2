"""The README's headline results table, rendered from the committed metrics of the demo study
(``data/metrics/utility_summary.json`` and the learning curve's three seeds) and of the MEDDOCAN
study (the same two files of its run, kept under ``results/meddocan/``: MEDDOCAN may not be
copied into the repository, its metrics may), beside the papers' ratios, and docs/utility.md's
Table 6 of every setting. ``python -m synthdeid.tools.headline
--write`` replaces both between their markers; a test fails when either differs from what the
metrics say."""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

START, END = "<!-- headline:start -->", "<!-- headline:end -->"
TABLE6_START, TABLE6_END = "<!-- table6:start -->", "<!-- table6:end -->"
SUMMARY = Path("data/metrics/utility_summary.json")
CURVES = Path("data/metrics/learning_curve")
MEDDOCAN = Path("results/meddocan")
"""The MEDDOCAN study's metrics (``synthdeid preset meddocan``: train -> dev), as its run wrote them."""
FULL = Path("results/full")
"""The ``full`` preset's metrics and params (the demo plus the GPT-2 and DP-SGD routes), as its run
wrote them."""
FULL6_START, FULL6_END = "<!-- table6-full:start -->", "<!-- table6-full:end -->"
FULL_MEMBERSHIP_START, FULL_MEMBERSHIP_END = "<!-- membership-full:start -->", "<!-- membership-full:end -->"
PAPERS = (
    "Libbi et al. (2021), Table 6: LSTM-temp synthetic-only 0.813 against real 0.895, entity level: 0.91x. "
    "Vakili et al. (2025), Table 1: MEDDOCAN synthetic 0.973 against gold 0.978, token level: 0.995x."
)


def _f1(scores: dict[str, Any], setting: str) -> float:
    return float(scores[setting]["entity"]["micro"]["f1"])


def _summary(root: Path) -> dict[str, Any]:
    """A study's utility summary (``root / SUMMARY``)."""
    summary: dict[str, Any] = json.loads((root / SUMMARY).read_text(encoding="utf-8"))
    return summary


def rows(root: Path = Path("."), summary: dict[str, Any] | None = None) -> list[tuple[str, str, str, str]]:
    """(setting, entity F1, against real, what it is) for real, the rule baseline, the best
    synthetic-only corpus (its three learning-curve seeds when it has them) and augmented;
    ``summary``: the study's utility summary, when already read."""
    scores = (summary or _summary(root))["scores"]
    real = _f1(scores, "real")
    out = [("real", f"{real:.3f}", "1.00x", "trained on the real training notes")]
    if "rule" in scores:
        rule = _f1(scores, "rule")
        out.append(("rule baseline (DEDUCE)", f"{rule:.3f}", f"{rule / real:.2f}x", "no training"))
    synthetic = {s.removeprefix("synthetic-"): _f1(scores, s) for s in scores if s.startswith("synthetic-")}
    if synthetic:
        best = max(synthetic, key=lambda c: synthetic[c])
        f1, what = synthetic[best], f"trained on the synthetic corpus `{best}` alone, seed 0"
        out.append((f"synthetic only: {best}", f"{f1:.3f}", f"{f1 / real:.2f}x", what))
        curves = sorted((root / CURVES).glob("*.json"), key=lambda c: (c.stem != best, c.stem))
        for curve in curves:  # the best corpus's first, then any other with a learning curve
            runs = [r["f1"] for r in json.loads(curve.read_text(encoding="utf-8"))["runs"] if r["fraction"] == 1.0]
            if len(runs) > 1:
                mean, sd = statistics.mean(runs), statistics.stdev(runs)
                out.append(
                    (
                        f"synthetic only: {curve.stem}, {len(runs)} seeds",
                        f"{mean:.3f} (sd {sd:.3f})",
                        f"{mean / real:.2f}x",
                        "the learning curve's seeds on the whole corpus",
                    )
                )
    for setting in scores:
        if setting.startswith("augmented-"):
            f1 = _f1(scores, setting)
            out.append(
                (
                    f"real + {setting.removeprefix('augmented-')}",
                    f"{f1:.3f}",
                    f"{f1 / real:.2f}x",
                    "real and synthetic training notes together",
                )
            )
    return out


def render(root: Path = Path(".")) -> str:
    """The table, with its sources and the papers' figures: the demo's rows, then MEDDOCAN's when
    ``root / MEDDOCAN`` holds its metrics."""
    studies = [("demo", root, "the demo corpus (nl)")]
    if (root / MEDDOCAN / SUMMARY).exists():
        studies.append(("MEDDOCAN", root / MEDDOCAN, "MEDDOCAN train -> dev (es)"))
    summaries = {name: _summary(study_root) for name, study_root, _ in studies}
    lines = [START, "Entity-level micro F1 on real test notes the taggers never saw, from the committed metrics:", ""]
    for name, _, what in studies:
        summary = summaries[name]
        lines.append(f"- {what}: {summary['test_documents']} test notes, {summary['gold_entities']} PHI entities")
    lines += ["", "| study | setting | entity F1 | against real | what it is |", "|---|---|---:|---:|---|"]
    for name, study_root, _ in studies:
        lines += [f"| {name} | {a} | {b} | {c} | {d} |" for a, b, c, d in rows(study_root, summaries[name])]
    lines += [
        "",
        "The demo's figures are `data/metrics`; MEDDOCAN's are `results/meddocan/` (`synthdeid preset meddocan`, "
        "the run is on the benchmarks page).",
        "",
        f"The papers' ratios, theirs: {PAPERS}",
        END,
    ]
    return "\n".join(lines)


def table6(root: Path = Path("."), start: str = TABLE6_START, end: str = TABLE6_END) -> str:
    """Every utility setting of the study's committed metrics under ``root``: entity F1, precision /
    recall, token F1 and the ratio to real (docs/utility.md's Table 6)."""
    settings = _summary(root)["settings"]
    real = settings["real"]["f1"]
    order = [
        "real",
        "rule",
        *sorted(s for s in settings if s.startswith("synthetic-")),
        *sorted(s for s in settings if s.startswith("augmented-")),
    ]
    lines = [start, "| setting | entity F1 | P / R | token F1 | ratio to real |", "|---|---:|---|---:|---:|"]
    for name in (s for s in order if s in settings):
        r = settings[name]
        lines.append(
            f"| {name} | {r['f1']:.3f} | {r['precision']:.3f} / {r['recall']:.3f} | {r['token_f1']:.3f} | "
            f"{r['f1'] / real:.2f} |"
        )
    return "\n".join([*lines, end])


MEMBERSHIP_START, MEMBERSHIP_END = "<!-- membership:start -->", "<!-- membership:end -->"
PRIVACY = Path("data/metrics/privacy")


def membership_table(root: Path = Path("."), start: str = MEMBERSHIP_START, end: str = MEMBERSHIP_END) -> str:
    """The data-only membership attack on every audited corpus that has data canaries
    (docs/privacy.md): AUC and TPR at 1% FPR with their 95% intervals, TPR at 0.1% FPR, AUC per
    repetition count and the suffixes copied verbatim."""
    from synthdeid.spec import load_study

    corpora = load_study(root / "params.yaml", check_plugins=False).corpora
    lines = [
        start,
        "| corpus (generator) | AUC | TPR at 1% FPR | TPR at 0.1% FPR | AUC 1x / 5x / 20x | suffixes copied verbatim |",
        "|---|---|---|---|---|---|",
    ]
    for path in sorted((root / PRIVACY).glob("*.json")):
        attack = json.loads(path.read_text(encoding="utf-8")).get("data_membership_inference")
        if not attack or "all" not in attack:
            continue
        a, by = attack["all"], attack.get("by_repetition", {})
        ci = lambda lo_hi: f"[{lo_hi[0]:.2f}, {lo_hi[1]:.2f}]"  # noqa: E731
        tpr = f"{a['tpr_at_fpr_1pct']:.2f}" + (f" {ci(a['tpr_at_fpr_1pct_ci95'])}" if a["tpr_at_fpr_1pct"] else "")
        per = " / ".join(f"{by[k]['auc']:.2f}" for k in sorted(by, key=int))
        verbatim = f"{a['suffixes_verbatim']} of {a['members']}" if a["suffixes_verbatim"] else "0"
        generator = corpora[path.stem].generator if path.stem in corpora else "?"
        lines.append(
            f"| {path.stem} ({generator}) | {a['auc']:.2f} {ci(a['auc_ci95'])} | {tpr} | "
            f"{a['tpr_at_fpr_0_1pct']:.2f} | {per} | {verbatim} |"
        )
    return "\n".join([*lines, end])


def replace(text: str, table: str, start: str = START, end: str = END) -> str:
    """``text`` with the part between the markers ``start`` and ``end`` replaced by ``table``."""
    if start not in text or end not in text:
        raise ValueError(f"no {start} ... {end} block to replace")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return head + table + tail


class Target(NamedTuple):
    """A results table in a file: its renderer (given the repository's root) and its markers."""

    path: str
    make: Callable[[Path], str]
    start: str
    end: str


TARGETS = (
    Target("README.md", render, START, END),
    Target("docs/utility.md", table6, TABLE6_START, TABLE6_END),
    Target("docs/utility.md", lambda root: table6(root / FULL, FULL6_START, FULL6_END), FULL6_START, FULL6_END),
    Target("docs/privacy.md", membership_table, MEMBERSHIP_START, MEMBERSHIP_END),
    Target(
        "docs/privacy.md",
        lambda root: membership_table(root / FULL, FULL_MEMBERSHIP_START, FULL_MEMBERSHIP_END),
        FULL_MEMBERSHIP_START,
        FULL_MEMBERSHIP_END,
    ),
)
"""The tables that come from the metrics: the demo's, the full preset's and MEDDOCAN's."""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    files = ", ".join(dict.fromkeys(t.path for t in TARGETS))
    ap.add_argument("--write", action="store_true", help=f"replace the tables in {files}")
    args = ap.parse_args()
    for target in TARGETS:
        table = target.make(Path("."))
        if args.write:
            path = Path(target.path)
            text = path.read_text(encoding="utf-8")
            path.write_text(replace(text, table, target.start, target.end), encoding="utf-8")
        else:
            print(f"{target.path}:\n{table}\n")


if __name__ == "__main__":
    main()
