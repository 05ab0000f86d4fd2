"""Built-in privacy metrics: ``rouge``, ``bm25``, ``ngram_recall``, ``leakage``, ``high_risk_pairs``,
``phi_reinjection``, ``data_membership_inference`` and ``surrogate_realism`` on synthetic corpora (stage
``privacy``), and
``canary_exposure``, ``membership_inference`` and ``name_probe`` on trained generators (stage ``audit_lm``). The math is in
``synthdeid.privacy.audit``.

A metric's module (numpy, scipy, torch) is imported when the metric is created, not when the plugin
registers; its config and metric classes stay importable from here."""

from __future__ import annotations

import importlib
from typing import Any

from synthdeid import hookimpl
from synthdeid.api import RegisterPrivacyMetric
from synthdeid.toolkit import Settings, lazy_exports

from . import config as configs

METRICS: dict[str, tuple[str, str, str]] = {
    "rouge": ("rouge", "RougeConfig", "RougeMetric"),
    "bm25": ("bm25", "BM25Config", "BM25Metric"),
    "ngram_recall": ("ngram_recall", "NgramRecallConfig", "NgramRecallMetric"),
    "leakage": ("leakage", "LeakageConfig", "LeakageMetric"),
    "high_risk_pairs": ("high_risk_pairs", "HighRiskPairsConfig", "HighRiskPairsMetric"),
    "phi_reinjection": ("reinjection", "ReinjectionConfig", "ReinjectionMetric"),
    "data_membership_inference": ("data_membership", "DataMembershipConfig", "DataMembershipMetric"),
    "surrogate_realism": ("realism", "SurrogateRealismConfig", "SurrogateRealismMetric"),
    "canary_exposure": ("canary_exposure", "CanaryExposureConfig", "CanaryExposureMetric"),
    "membership_inference": ("membership_inference", "MembershipInferenceConfig", "MembershipInferenceMetric"),
    "name_probe": ("name_probe", "NameProbeConfig", "NameProbeMetric"),
}
"""Metric name -> (module in this package, config class, metric class)."""

__getattr__ = lazy_exports(
    __name__,
    {
        **{metric: f".{module}" for module, _, metric in METRICS.values()},
        **{config: ".config" for _, config, _ in METRICS.values()},
    },
)


def _factory(name: str) -> Any:
    module, _, metric_name = METRICS[name]

    def create(settings: Settings) -> Any:
        """The metric of ``settings`` (its config class, built by the registry or the study spec)."""
        return getattr(importlib.import_module(f".{module}", __name__), metric_name)(settings)

    return create


@hookimpl
def register_privacy_metrics(register: RegisterPrivacyMetric) -> None:
    for name, (_, config_name, _) in METRICS.items():
        register(name, _factory(name), config=getattr(configs, config_name))
