"""The report's figures as PNG (matplotlib, Agg backend): Figure 5 of Libbi et al. (2021), the
PHI distribution of each synthetic corpus against the real one, and the learning curve of
Appendix E. Files are byte-stable for the same data (no timestamps or version in the PNG)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

Rows = Sequence[Mapping[str, Any]]


def _save(fig: Any, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return path


def phi_distribution_figure(corpora: Mapping[str, Rows], path: str | Path) -> Path:
    """Grouped horizontal bars: per tag, the difference in percentage points between the tag's
    share of the synthetic corpus's PHI and of the real corpus's PHI (rows from
    ``synthdeid.corpus.stats.phi_distribution``: ``tag``, ``difference_pct``)."""
    names = list(corpora)
    tags = [r["tag"] for r in next(iter(corpora.values()), [])]
    fig, ax = plt.subplots(figsize=(7, 0.32 * max(len(tags), 4) * max(1, len(names) / 2) + 1.2))
    height = 0.8 / max(len(names), 1)
    for i, name in enumerate(names):
        diff = {r["tag"]: float(r["difference_pct"]) for r in corpora[name]}
        ys = [t + (i - (len(names) - 1) / 2) * height for t in range(len(tags))]
        ax.barh(ys, [diff.get(tag, 0.0) for tag in tags], height=height, label=name)
    ax.set_yticks(range(len(tags)), tags)
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("difference to the real PHI distribution (percentage points)")
    ax.set_title("PHI distribution: synthetic minus real")
    ax.grid(axis="x", alpha=0.3)
    if names:
        ax.legend(loc="best", fontsize="small")
    return _save(fig, path)


def learning_curve_figure(curves: Mapping[str, Rows], path: str | Path, metric: str = "entity F1") -> Path:
    """Mean score per training-set fraction with the 95% confidence band (rows from
    ``synthdeid.evaluation.metrics.curve_rows``: ``fraction``, ``mean``, ``ci_low``, ``ci_high``)."""
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, rows in curves.items():
        xs = [float(r["fraction"]) for r in rows]
        (line,) = ax.plot(xs, [float(r["mean"]) for r in rows], marker="o", label=name)
        band = [(x, r) for x, r in zip(xs, rows) if r.get("ci_low") not in (None, "")]
        if len(band) == 1:  # one fraction (the demo's whole corpus): its interval as an error bar
            (x, r), mean = band[0], float(band[0][1]["mean"])
            low, high = mean - float(r["ci_low"]), float(r["ci_high"]) - mean
            ax.errorbar([x], [mean], yerr=[[low], [high]], capsize=4, color=line.get_color())
        elif band:
            ax.fill_between(
                [x for x, _ in band],
                [float(r["ci_low"]) for _, r in band],
                [float(r["ci_high"]) for _, r in band],
                alpha=0.2,
            )
    ax.set_xlabel("fraction of the synthetic corpus used for training")
    ax.set_ylabel(metric)
    ax.set_title("Learning curve (mean and 95% confidence interval)")
    ax.grid(alpha=0.3)
    if curves:
        ax.legend(loc="best", fontsize="small")
    return _save(fig, path)
