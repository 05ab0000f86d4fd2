"""``canary_exposure``: how much of the canaries inserted into a generator's training text
(``generators.NAME.canaries``) the trained model memorised, as Carlini et al.'s exposure,
grouped by how often each canary was inserted, and as a membership attack at a low false-positive
rate: the share of each group's canaries more likely under the model than all but 1% (0.1%) of
the never-inserted candidates. Needs the ``audit_lm`` stage (the model)."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

import numpy as np

from synthdeid import SynthdeidError
from synthdeid.api import PrivacyInput, PrivacyResult
from synthdeid.toolkit import (
    CANARY_FILE,
    LOW_FPRS,
    extrapolated_exposure,
    lower_or_equal,
    read_canaries,
    sampled_exposure,
    score_sequences,
    texts_to_score,
    tpr_at_fpr,
)

from .config import CanaryExposureConfig
from .model_input import language_model, rounded, skipped


class CanaryExposureMetric:
    name = "canary_exposure"

    def __init__(self, config: CanaryExposureConfig) -> None:
        self.config = config

    def compute(self, data: PrivacyInput) -> PrivacyResult:
        c = self.config
        saved = read_canaries(data.model_dir) if data.model_dir is not None else None
        if saved is None or data.model_dir is None:  # (no model_dir: saved is None)
            return skipped("no canaries: the generator was trained without them (set generators.NAME.canaries)")
        lm = language_model(self.name, data)
        if isinstance(lm, str):
            return skipped(lm)
        space, canaries = saved
        secrets, exhaustive = space.sample(c.candidates, c.seed, [k.secret for k in canaries])
        texts = [k.text for k in canaries] + [space.text(s) for s in secrets]
        pairs = texts_to_score(lm, texts)
        unencodable = [t for t, (_, ids) in zip(texts, pairs) if lm.decode(ids) != t]
        if unencodable:
            raise SynthdeidError(
                f"canary_exposure: {len(unencodable)} of {len(texts)} candidates do not survive the model's "
                f"tokenizer (words outside its vocabulary?), e.g. {unencodable[0]!r}; see "
                f"{data.model_dir / CANARY_FILE} and retrain with canaries.min_count at least the generator's min_count"
            )
        scores = score_sequences(
            lm, [p[1] for p in pairs], [p[0] for p in pairs], c.batch_size, "canary exposure", c.threads
        )
        if any(s.masked or s.truncated for s in scores):
            raise SynthdeidError(
                "canary_exposure: the model masks or cuts tokens of some candidates, so their "
                "likelihoods are not comparable; use a shorter canaries.template"
            )
        lp = [s.log_perplexity_bits for s in scores]
        canary_lp, reference = lp[: len(canaries)], lp[len(canaries) :]
        rows: list[dict[str, Any]] = []
        for i, k in enumerate(canaries):
            # exhaustive: the reference is all of R but this canary, so the other canaries count too
            ref = reference + [x for j, x in enumerate(canary_lp) if j != i] if exhaustive else reference
            ex = extrapolated_exposure(canary_lp[i], ref, space.size) if c.extrapolate and not exhaustive else None
            rows.append(
                {
                    "id": k.id,
                    "repetitions": k.repetitions,
                    "text": k.text,
                    "log_perplexity": rounded(canary_lp[i]),
                    "candidates_at_or_below": lower_or_equal(canary_lp[i], ref),
                    "exposure": rounded(sampled_exposure(canary_lp[i], ref)),
                    "exposure_extrapolated": rounded(ex),
                }
            )
        return PrivacyResult(
            {
                "space_size": space.size,
                "log2_space_size": rounded(math.log2(space.size)),
                "candidates": len(secrets),
                "exhaustive": exhaustive,
                "max_measurable_exposure": rounded(math.log2(len(secrets) + 1 + (len(canaries) - 1) * exhaustive)),
                "candidate_log_perplexity": {
                    "mean": rounded(np.mean(reference)),
                    "std": rounded(np.std(reference)),
                    "min": rounded(min(reference)),
                }
                if reference
                else None,
                "by_repetition": by_repetition(rows, reference, dict(zip([k.id for k in canaries], canary_lp))),
                "canaries": rows,
            }
        )


def by_repetition(
    rows: list[dict[str, Any]], reference: list[float], log_perplexity: dict[str, float]
) -> dict[str, dict[str, Any]]:
    """Mean and range of the exposures of the canaries inserted the same number of times, and the
    share of them an attacker flags at 1% and 0.1% false positives among the ``reference``
    candidates' log-perplexities (``log_perplexity``: each canary's, by id; lower: more likely a member)."""
    groups: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[r["repetitions"]].append(r)
    out = {}
    for reps, group in sorted(groups.items()):
        values = [r["exposure"] for r in group]
        extra = [r["exposure_extrapolated"] for r in group if r["exposure_extrapolated"] is not None]
        out[str(reps)] = {
            "canaries": len(group),
            "exposure_mean": rounded(np.mean(values)),
            "exposure_min": min(values),
            "exposure_max": max(values),
            "exposure_extrapolated_mean": rounded(np.mean(extra)) if extra else None,
        }
        if reference:
            members = [-log_perplexity[r["id"]] for r in group]
            out[str(reps)].update(
                {key: rounded(tpr_at_fpr(members, [-x for x in reference], fpr)) for fpr, key in LOW_FPRS.items()}
            )
    return out
