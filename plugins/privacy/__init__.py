"""Built-in privacy metrics: ``rouge``, ``bm25``, ``ngram_recall``, ``leakage`` and
``high_risk_pairs``. The math is in ``synthdeid.audit``."""

from __future__ import annotations

from typing import Any

from synthdeid import hookimpl

from .bm25 import BM25Config, BM25Metric
from synthdeid.config import from_mapping
from .high_risk_pairs import HighRiskPairsConfig, HighRiskPairsMetric
from .leakage import LeakageConfig, LeakageMetric
from .ngram_recall import NgramRecallConfig, NgramRecallMetric
from .rouge import RougeConfig, RougeMetric

METRICS: dict[str, tuple[type, type]] = {
    "rouge": (RougeConfig, RougeMetric),
    "bm25": (BM25Config, BM25Metric),
    "ngram_recall": (NgramRecallConfig, NgramRecallMetric),
    "leakage": (LeakageConfig, LeakageMetric),
    "high_risk_pairs": (HighRiskPairsConfig, HighRiskPairsMetric),
}


def _factory(name: str) -> Any:
    config_cls, metric_cls = METRICS[name]
    return lambda config: metric_cls(from_mapping(config_cls, config, f"privacy metric {name!r}"))


@hookimpl
def register_privacy_metrics(register: Any) -> None:
    for name in METRICS:
        register(name, _factory(name))
