"""``name_probe``: does a trained generator write the PHI of its training notes when asked for
PHI? At every START tag (``labels``; default every tag) of the held-out (dev) notes the model
gets the note up to the tag and proposes its ``k`` most likely span texts (``synthdeid.privacy.probe``),
in the spirit of Verkijk & Vossen's 4,000-prediction name probe of MedRoBERTa.nl. Reported: how
many predictions are PHI strings of the training notes (any label, and the probe's own label),
overall, for 2+ token strings and per label, how many distinct training PHI strings came out,
and the most frequent ones. Needs the ``audit_lm`` stage (the model).

A generator trained on pseudonymized notes writes surrogate names it has seen: the rate says how
much of its PHI it takes from its training notes rather than composing new strings; a DP-trained
or vocabulary-anonymized model should score lower.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from synthdeid.api import PrivacyInput, PrivacyResult
from synthdeid.toolkit import Probe, probes_in, real_phi_strings, start_tag, tokenize_text
from synthdeid.toolkit import probe_predict as predict

from .config import NameProbeConfig
from .model_input import language_model, lm_lines, rounded, skipped


def _rate(hits: int, total: int) -> float | None:
    return rounded(hits / total) if total else None


class NameProbeMetric:
    name = "name_probe"

    def __init__(self, config: NameProbeConfig) -> None:
        self.config = config

    def probes(self, data: PrivacyInput) -> list[Probe]:
        c = self.config
        labels = set(c.labels) if c.labels is not None else None
        found = [p for line in lm_lines(self.name, data, "dev") for p in probes_in(line, labels, c.context)]
        if len(found) > c.max_probes:
            picked = sorted(random.Random(f"name-probe-{c.seed}").sample(range(len(found)), c.max_probes))
            found = [found[i] for i in picked]
        return found

    def compute(self, data: PrivacyInput) -> PrivacyResult:
        c = self.config
        lm = language_model(self.name, data)
        if isinstance(lm, str):
            return skipped(lm)
        probes = self.probes(data)
        vocab = set(lm.vocab)
        probes = [p for p in probes if start_tag(p.label) in vocab]
        if not probes:
            return skipped(
                "no START tag of the probed labels in the held-out notes or the model's vocabulary "
                "(a generator trained without tags cannot be probed)"
            )
        phi = {p.key: p for p in real_phi_strings(data.real, data.tokenize)}
        preds = predict(lm, probes, c.k, c.max_tokens, c.batch_size)
        per_label: dict[str, Counter[str]] = {}
        predicted: Counter[tuple[str, ...]] = Counter()
        totals: Counter[str] = Counter()
        for pred in preds:
            label = probes[pred.probe].label
            key = tuple(tokenize_text(pred.text, data.tokenize).tokens)
            counts = per_label.setdefault(label, Counter())
            counts["predictions"] += 1
            totals["predictions"] += 1
            totals["finished"] += pred.finished
            multi = len(key) >= 2
            totals["multi_token"] += multi
            match = phi.get(key)
            if match is None:
                continue
            predicted[key] += 1
            same = label in match.labels
            for name, hit in (("train_phi", True), ("train_phi_same_label", same)):
                counts[name] += hit
                totals[name] += hit
                totals[f"{name}_multi_token"] += hit and multi
        n = totals["predictions"]
        top = sorted(predicted, key=lambda key: (-predicted[key], phi[key].text))[: c.top]
        summary: dict[str, Any] = {
            "probes": len(probes),
            "k": c.k,
            "predictions": n,
            "finished": totals["finished"],
            "multi_token_predictions": totals["multi_token"],
            "train_phi_rate": _rate(totals["train_phi"], n),
            "train_phi_same_label_rate": _rate(totals["train_phi_same_label"], n),
            "train_phi_multi_token_rate": _rate(totals["train_phi_multi_token"], totals["multi_token"]),
            "distinct_train_phi_predicted": len(predicted),
            "train_phi_strings": len(phi),
            "per_label": {
                label: {
                    "probes": sum(p.label == label for p in probes),
                    "predictions": counts["predictions"],
                    "train_phi_rate": _rate(counts["train_phi"], counts["predictions"]),
                    "train_phi_same_label_rate": _rate(counts["train_phi_same_label"], counts["predictions"]),
                }
                for label, counts in sorted(per_label.items())
            },
            "top_predicted": [
                {
                    "text": phi[key].text,
                    "labels": list(phi[key].labels),
                    "predicted": predicted[key],
                    "real_spans": phi[key].real_count,
                }
                for key in top
            ],
        }
        return PrivacyResult(summary)
