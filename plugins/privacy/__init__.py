"""Built-in privacy metrics: ``rouge``, ``bm25``, ``ngram_recall``, ``leakage`` and
``high_risk_pairs`` on synthetic corpora (stage ``privacy``), and ``canary_exposure`` and
``membership_inference`` and ``name_probe`` on trained generators (stage ``audit_lm``). The math is in
``synthdeid.audit``."""

from __future__ import annotations

from typing import Any

from synthdeid import hookimpl

from .bm25 import BM25Config, BM25Metric
from .canary_exposure import CanaryExposureConfig, CanaryExposureMetric
from synthdeid.config import from_mapping
from .high_risk_pairs import HighRiskPairsConfig, HighRiskPairsMetric
from .leakage import LeakageConfig, LeakageMetric
from .membership_inference import MembershipInferenceConfig, MembershipInferenceMetric
from .name_probe import NameProbeConfig, NameProbeMetric
from .ngram_recall import NgramRecallConfig, NgramRecallMetric
from .rouge import RougeConfig, RougeMetric

METRICS: dict[str, tuple[type, type]] = {
    "rouge": (RougeConfig, RougeMetric),
    "bm25": (BM25Config, BM25Metric),
    "ngram_recall": (NgramRecallConfig, NgramRecallMetric),
    "leakage": (LeakageConfig, LeakageMetric),
    "high_risk_pairs": (HighRiskPairsConfig, HighRiskPairsMetric),
    "canary_exposure": (CanaryExposureConfig, CanaryExposureMetric),
    "membership_inference": (MembershipInferenceConfig, MembershipInferenceMetric),
    "name_probe": (NameProbeConfig, NameProbeMetric),
}


def _factory(name: str) -> Any:
    config_cls, metric_cls = METRICS[name]
    return lambda config: metric_cls(from_mapping(config_cls, config, f"privacy metric {name!r}"))


@hookimpl
def register_privacy_metrics(register: Any) -> None:
    for name in METRICS:
        register(name, _factory(name))
