"""The study report: the paper's tables from the stages' metrics, its figures as PNG, and a
datasheet per synthetic corpus. Pure functions over the metrics JSON; ``study`` reads the metrics
files and assembles ``report.md``'s text, and ``stages/report.py`` writes the outputs."""

from synthdeid.plugin_system.lazy import lazy_exports

from .datasheet import datasheet, package_versions  # light; and a lazy name may not be a submodule's

# the rest is imported on first use (numpy, matplotlib): the review page and the CLI need none of it
__getattr__ = lazy_exports(
    __name__,
    {
        "attacker_section": ".attacker",
        "fresh_table": ".construction",
        "generator_table": ".construction",
        "learning_curve_figure": ".figures",
        "phi_distribution_figure": ".figures",
        "corpus_table": ".tables",
        "model_privacy_table": ".tables",
        "ngram_recall_table": ".tables",
        "privacy_table": ".tables",
        "tag_table": ".tables",
    },
)

__all__ = [
    "attacker_section",
    "corpus_table",
    "datasheet",
    "fresh_table",
    "generator_table",
    "learning_curve_figure",
    "model_privacy_table",
    "ngram_recall_table",
    "package_versions",
    "phi_distribution_figure",
    "privacy_table",
    "tag_table",
]
