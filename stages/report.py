"""Stage ``report``: the study's report, ``data/reports/report.md``, with the equivalents of Libbi
et al. (2021) Tables 4-8, Figure 5 and the learning curve as PNG, the privacy summary with links
to the review pages, and a datasheet per synthetic corpus in ``data/reports/datasheets/``. The text
is ``synthdeid.report.study``'s."""

from __future__ import annotations

from pathlib import Path

from synthdeid import paths
from synthdeid.report import (
    learning_curve_figure,
    package_versions,
    phi_distribution_figure,
)
from synthdeid.report.study import (
    corpus_datasheet,
    load_study,
    read_csv,
    report_markdown,
    untagged,
)
from synthdeid.stages.common import stage_main, study


@stage_main
def main() -> None:
    spec = study()
    found = load_study(spec)
    figures = Path(paths.FIGURES)
    figures.mkdir(parents=True, exist_ok=True)
    raw = untagged(spec)
    phi_distribution_figure(
        {c: read_csv(paths.phi_distribution_plot(c)) for c in found.corpora + found.machine if c not in raw},
        figures / "phi_distribution.png",
    )
    if found.curves:
        learning_curve_figure(
            {c: read_csv(paths.learning_curve_plot(c)) for c in found.curves}, figures / "learning_curve.png"
        )
    utility_md = Path(paths.UTILITY_REPORT).read_text(encoding="utf-8")
    Path(paths.REPORT).write_text(report_markdown(spec, found, utility_md), encoding="utf-8")
    versions = package_versions()
    for c in found.corpora + found.machine:
        Path(paths.datasheet(c)).parent.mkdir(parents=True, exist_ok=True)
        Path(paths.datasheet(c)).write_text(corpus_datasheet(spec, found, c, versions), encoding="utf-8")
    print(f"report: {paths.REPORT} ({len(found.corpora)} corpora, {len(found.audited)} audited)")


if __name__ == "__main__":
    main()
