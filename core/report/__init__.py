"""The study report: the paper's tables from the stages' metrics, its figures as PNG, and a
datasheet per synthetic corpus. Pure functions over the metrics JSON; ``study`` reads the metrics
files and assembles ``report.md``'s text, and ``stages/report.py`` writes the outputs."""

from .attacker import attacker_section
from .construction import fresh_table, generator_table
from .datasheet import datasheet, package_versions
from .figures import learning_curve_figure, phi_distribution_figure
from .tables import corpus_table, model_privacy_table, ngram_recall_table, privacy_table, tag_table

__all__ = ["attacker_section", "corpus_table", "datasheet", "fresh_table", "generator_table", "learning_curve_figure", "model_privacy_table", "ngram_recall_table", "package_versions",
           "phi_distribution_figure", "privacy_table", "tag_table"]
