"""``data_membership_inference``: membership inference from the published synthetic corpus alone
(Meeus et al. 2025, "The Canary's Echo").

Threat model: the attacker has the synthetic notes and nothing else (no model, no scores), and
wants to tell whether a given record was in the generator's training notes. The audit plays the
attacker with canaries it controls (``generators.NAME.data_canaries``): members were inserted into
the training text 1, 5 or 20 times, non-members drawn the same way were not. The attacker fits an
n-gram model with add-k smoothing on the synthetic text and scores each canary by the mean
log-probability of its high-perplexity suffix given what precedes it; a higher score means
"member". Reported per repetition count and for all members: the ROC AUC and the true-positive
rate at 1% and 0.1% false positives (Carlini et al. 2022), each with a bootstrap 95% interval, and
how many suffixes appear verbatim in the corpus."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from synthdeid import SynthdeidError
from synthdeid.api import PrivacyInput, PrivacyResult
from synthdeid.toolkit import (
    LaplaceNgramLM,
    attack_summary,
    read_data_canaries,
    tokenize_documents,
    tokenize_text,
)
from synthdeid.toolkit import decode_inline as decode

from .config import DataMembershipConfig
from .model_input import rounded, skipped


def _tokens(inline: str, data: PrivacyInput, c: DataMembershipConfig) -> list[str]:
    text = decode(inline, "canary").document.text if inline else ""
    return tokenize_text(text, data.tokenize, c.lowercase, c.paragraph_token).tokens


class DataMembershipMetric:
    name = "data_membership_inference"

    def __init__(self, config: DataMembershipConfig) -> None:
        self.config = config

    def compute(self, data: PrivacyInput) -> PrivacyResult:
        c = self.config
        canaries = read_data_canaries(data.data_canaries) if data.data_canaries is not None else None
        if canaries is None:
            return skipped(
                "no data canaries: the corpus's generator was trained without them (set generators.NAME.data_canaries)"
            )
        notes = [n.tokens for n in tokenize_documents(data.synthetic, data.tokenize, c.lowercase, c.paragraph_token)]
        model = LaplaceNgramLM(notes, c.n, c.k)
        scored: dict[int, list[float]] = defaultdict(list)
        verbatim: dict[int, int] = defaultdict(int)
        runs: dict[int, set[tuple[str, ...]]] = {}
        for canary in canaries:
            prefix, suffix = _tokens(canary.prefix, data, c), _tokens(canary.suffix, data, c)
            if not suffix:
                raise SynthdeidError(
                    f"data_membership_inference: canary {canary.id!r} has no suffix tokens "
                    f"after tokenization; see {data.data_canaries}"
                )
            scored[canary.repetitions].append(model.mean_logprob(prefix + suffix, len(prefix)))
            if len(suffix) not in runs:
                runs[len(suffix)] = {
                    tuple(t[i : i + len(suffix)]) for t in notes for i in range(len(t) - len(suffix) + 1)
                }
            verbatim[canary.repetitions] += tuple(suffix) in runs[len(suffix)]
        nonmembers = scored.pop(0, [])
        if not nonmembers or not scored:
            raise SynthdeidError(
                f"data_membership_inference: {data.data_canaries} needs member and non-member canaries"
            )

        def group(members: list[float], reps: list[int]) -> dict[str, Any]:
            out = attack_summary(members, nonmembers, c.bootstrap, c.seed)
            out["suffixes_verbatim"] = sum(verbatim[r] for r in reps)
            return out

        members = [s for r in sorted(scored) for s in scored[r]]
        return PrivacyResult(
            {
                "threat_model": "the attacker sees only the synthetic corpus",
                "attack": f"{c.n}-gram model with add-{c.k:g} smoothing fitted on the synthetic text; score: mean "
                "log-probability of each canary's suffix",
                "synthetic_tokens": sum(len(t) for t in notes),
                "nonmember_suffixes_verbatim": verbatim[0],
                "nonmember_mean_score": rounded(sum(nonmembers) / len(nonmembers)),
                "all": group(members, sorted(scored)),
                "by_repetition": {str(r): group(scored[r], [r]) for r in sorted(scored)},
            }
        )
