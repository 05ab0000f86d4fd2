"""``membership_inference``: a loss-based membership-inference attack on a generator. The
per-token NLL of a seeded sample of its training notes (members) is compared with that of the
held-out dev notes (non-members): the ROC AUC of "lower loss means member" with a bootstrap 95%
interval, the best threshold's advantage TPR - FPR, and the true-positive rate at 1% and 0.1%
false positives (Carlini et al. 2022: an attack that finds a few members with certainty matters more
than its average). AUC 0.5 and advantage 0 mean the model does not treat its training notes
differently. The same figures are given for a reference-free calibrated score, the loss in bits over
the note's zlib-compressed size (Carlini et al. 2021): a note that is easy for every model (a short
template) no longer looks like a member just for being easy. Needs the ``audit_lm`` stage (the model).

The dev notes chose the generator's best epoch (validation loss), so they are not entirely
unseen: a small bias towards members looking like non-members, i.e. towards a lower AUC."""

from __future__ import annotations

import random
import zlib
from typing import Any

import numpy as np

from synthdeid.api import AutoregressiveLM, PrivacyInput, PrivacyResult
from synthdeid.toolkit import (
    SequenceScore,
    attack_summary,
    auc,
    best_advantage,
    bootstrap_auc,
    score_sequences,
    texts_to_score,
)

from .config import MembershipInferenceConfig
from .model_input import (
    language_model,
    lm_lines,
    note_ids,
    rounded,
    skipped,
)


class MembershipInferenceMetric:
    name = "membership_inference"

    def __init__(self, config: MembershipInferenceConfig) -> None:
        self.config = config

    def _side(
        self, lm: AutoregressiveLM, data: PrivacyInput, split: str
    ) -> tuple[list[str], list[SequenceScore], list[float]]:
        """The ids, scores and zlib-calibrated scores (higher: member) of one side's notes."""
        lines = lm_lines(self.name, data, split)
        ids = note_ids(data.real if split == "train" else data.heldout, lines, split)
        rng = random.Random(f"membership-{split}-{self.config.seed}")
        picked = sorted(rng.sample(range(len(lines)), min(len(lines), self.config.max_notes)))
        pairs = texts_to_score(lm, [lines[i] for i in picked])
        scores = score_sequences(
            lm,
            [p[1] for p in pairs],
            [p[0] for p in pairs],
            self.config.batch_size,
            f"membership inference ({split})",
            self.config.threads,
        )
        kept = [(ids[i], s, zlib_calibrated(s, lines[i])) for i, s in zip(picked, scores) if s.tokens]
        return [k[0] for k in kept], [k[1] for k in kept], [k[2] for k in kept]

    def compute(self, data: PrivacyInput) -> PrivacyResult:
        c = self.config
        lm = language_model(self.name, data)
        if isinstance(lm, str):
            return skipped(lm)
        member_ids, members, zlib_a = self._side(lm, data, "train")
        _, nonmembers, zlib_b = self._side(lm, data, "dev")
        if not members or not nonmembers:
            return skipped("no training or no held-out notes to compare")
        # the attack's score: higher means "member", so the negated per-token loss
        a = [-s.mean_nll for s in members]
        b = [-s.mean_nll for s in nonmembers]
        best = best_advantage(a, b)
        ci = bootstrap_auc(a, b, c.bootstrap, c.seed) if c.bootstrap else None
        low_fpr = attack_summary(a, b, c.bootstrap, c.seed)
        lowest = sorted(zip(member_ids, members), key=lambda x: (x[1].mean_nll, x[0]))[: c.top]
        summary: dict[str, Any] = {
            "members": len(members),
            "nonmembers": len(nonmembers),
            "auc": rounded(auc(a, b)),
            "auc_ci95": None if ci is None else [rounded(x) for x in ci],
            "advantage": rounded(best.advantage),
            "tpr": rounded(best.tpr),
            "fpr": rounded(best.fpr),
            "threshold_mean_nll": None if best.threshold is None else rounded(-best.threshold),
            **{k: v for k, v in low_fpr.items() if k.startswith("tpr_at_fpr")},
            "zlib_calibrated": attack_summary(zlib_a, zlib_b, c.bootstrap, c.seed),
            "mean_nll": {
                "members": rounded(np.mean([s.mean_nll for s in members])),
                "nonmembers": rounded(np.mean([s.mean_nll for s in nonmembers])),
            },
            "tokens_scored": sum(s.tokens for s in members + nonmembers),
            "tokens_masked": sum(s.masked for s in members + nonmembers),
            "notes_truncated": sum(s.truncated for s in members + nonmembers),
            "lowest_loss_members": [{"id": i, "mean_nll": rounded(s.mean_nll)} for i, s in lowest],
        }
        return PrivacyResult(summary)


def zlib_calibrated(score: SequenceScore, text: str) -> float:
    """Minus the note's loss in bits over its zlib-compressed size in bits (higher: member)."""
    return -score.log_perplexity_bits / (8 * len(zlib.compress(text.encode("utf-8"))))
