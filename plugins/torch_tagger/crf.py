"""A linear-chain CRF over BIO tags in plain torch: negative log-likelihood (forward algorithm),
batched Viterbi decoding and per-token posterior marginals (forward-backward), with the transitions
BIO forbids (``O`` -> ``I-X``, ``B-X`` -> ``I-Y``, a sequence starting with ``I-X``) fixed at a
large negative score, so every decoded sequence is well-formed. The constraint and the Viterbi are
``synthdeid.plugins.bio_crf``'s (shared with ``hf_tagger``).

The forward recursion is written twice on purpose: ``nll`` (training) sums over the previous tag
as a matrix product in exp space (fast, with a clamp for tags no path reaches), ``marginals`` as a
log-sum-exp in log space (exact for the forbidden transitions). They differ in the last bits (and
by far for unreachable tags), and trained weights and predictions must not change, so neither may
take the other's step.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

from synthdeid.plugins.bio_crf import bio_scores, viterbi

FORBIDDEN = -10000.0


class CRF(nn.Module):
    """Transition scores ``transitions[i, j]`` (tag i followed by tag j), start and end scores."""

    transition_mask: torch.Tensor  # buffers (register_buffer)
    start_mask: torch.Tensor

    def __init__(self, tags: Sequence[str]) -> None:
        super().__init__()
        n = len(tags)
        self.transitions = nn.Parameter(torch.zeros(n, n))
        self.start = nn.Parameter(torch.zeros(n))
        self.end = nn.Parameter(torch.zeros(n))
        transition_mask, start_mask = bio_scores(tags, FORBIDDEN)
        self.register_buffer("transition_mask", transition_mask, persistent=False)
        self.register_buffer("start_mask", start_mask, persistent=False)

    def _scores(self) -> tuple[torch.Tensor, torch.Tensor]:
        return self.transitions + self.transition_mask, self.start + self.start_mask

    def nll(self, emissions: torch.Tensor, tags: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """Summed negative log-likelihood of the gold ``tags`` (batch x time) given ``emissions``
        (batch x time x tags); positions at or past ``lengths`` are padding."""
        trans, start = self._scores()
        _batch, steps, _ = emissions.shape
        mask = torch.arange(steps, device=emissions.device).unsqueeze(0) < lengths.unsqueeze(1)
        fmask = mask.to(emissions.dtype)
        gold_emit = emissions.gather(2, tags.unsqueeze(2)).squeeze(2)
        gold = start[tags[:, 0]] + (gold_emit * fmask).sum(1)
        if steps > 1:
            gold = gold + (trans[tags[:, :-1], tags[:, 1:]] * fmask[:, 1:]).sum(1)
        last = tags.gather(1, (lengths - 1).unsqueeze(1)).squeeze(1)
        gold = gold + self.end[last]
        per_step = emissions.unbind(1)  # one backward op for all steps, not one slice each
        alpha = start.unsqueeze(0) + per_step[0]
        # log-sum-exp over the previous tag as a matrix product in exp space: exp(alpha - max) @
        # exp(trans - max), a batch x tags product a step instead of batch x tags x tags exps
        top = trans.max()
        exp_trans = torch.exp(trans - top)
        for t in range(1, steps):
            peak = alpha.max(dim=1, keepdim=True).values
            # a tag no kept path reaches (exp underflows to 0) gets log(1e-30), not -inf and a NaN gradient
            new = torch.log((torch.exp(alpha - peak) @ exp_trans).clamp_min(1e-30)) + peak + top + per_step[t]
            alpha = torch.where(mask[:, t : t + 1], new, alpha)
        log_z = torch.logsumexp(alpha + self.end.unsqueeze(0), dim=1)
        return (log_z - gold).sum()

    @torch.no_grad()
    def decode(self, emissions: torch.Tensor, lengths: torch.Tensor) -> list[list[int]]:
        """The best tag sequence of each item (its own length)."""
        trans, start = self._scores()
        return viterbi(emissions, lengths, trans, start, self.end)

    @torch.no_grad()
    def marginals(self, emissions: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """``p[b, t, j]``: the probability that token ``t`` of item ``b`` has tag ``j`` under the
        CRF (forward-backward); rows past an item's length are zero."""
        trans, start = self._scores()
        batch, steps, n = emissions.shape
        mask = torch.arange(steps, device=emissions.device).unsqueeze(0) < lengths.unsqueeze(1)
        per_step = emissions.unbind(1)
        alphas = [start.unsqueeze(0) + per_step[0]]
        for t in range(1, steps):
            new = torch.logsumexp(alphas[-1].unsqueeze(2) + trans.unsqueeze(0), dim=1) + per_step[t]
            alphas.append(torch.where(mask[:, t : t + 1], new, alphas[-1]))
        # beta at an item's last token is the end score; past the end it stays there
        last = (lengths - 1).unsqueeze(1)
        betas = [self.end.unsqueeze(0).expand(batch, n)]
        for t in range(steps - 2, -1, -1):
            new = torch.logsumexp(trans.unsqueeze(0) + (per_step[t + 1] + betas[0]).unsqueeze(1), dim=2)
            at_or_past_end = torch.arange(steps, device=emissions.device)[t] >= last
            betas.insert(0, torch.where(at_or_past_end, self.end.unsqueeze(0).expand(batch, n), new))
        alpha = torch.stack(alphas, dim=1)
        beta = torch.stack(betas, dim=1)
        log_z = torch.logsumexp(alphas[-1] + self.end.unsqueeze(0), dim=1)
        probs = torch.exp(alpha + beta - log_z.view(batch, 1, 1))
        return probs * mask.unsqueeze(2).to(probs.dtype)
