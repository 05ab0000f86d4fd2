"""BIO constraints and constrained Viterbi decoding, shared by the taggers (``torch_bilstm_crf``'s
CRF, and the BIO-constrained decoding of the ``hf`` token classifier's log-probabilities).

BIO forbids ``O`` -> ``I-X``, ``B-X`` -> ``I-Y`` and a sequence starting with ``I-X``: each tagger
adds a large negative score (its own: ``torch_tagger.crf.FORBIDDEN``, ``hf_tagger``'s ``NEG``) to
those transitions, so every decoded sequence is well-formed.

torch is imported inside the functions: registering the built-in plugins must not load it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch


def bio_allowed(tags: Sequence[str]) -> tuple[torch.Tensor, torch.Tensor]:
    """``(allowed[i, j], may_start[j])`` for BIO tags: ``I-X`` only after ``B-X`` or ``I-X``."""
    import torch

    n = len(tags)
    allowed = torch.ones(n, n, dtype=torch.bool)
    may_start = torch.ones(n, dtype=torch.bool)
    for j, tag in enumerate(tags):
        if tag.startswith("I-"):
            label = tag[2:]
            may_start[j] = False
            for i, prev in enumerate(tags):
                allowed[i, j] = prev in (f"B-{label}", f"I-{label}")
    return allowed, may_start


def bio_scores(tags: Sequence[str], forbidden: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Additive scores for BIO: transitions ``[previous, current]`` and starts, 0 where allowed
    and ``forbidden`` where not (float32)."""
    import torch

    allowed, may_start = bio_allowed(tags)
    zero = torch.zeros((), dtype=torch.float32)
    penalty = torch.tensor(forbidden, dtype=torch.float32)
    return torch.where(allowed, zero, penalty), torch.where(may_start, zero, penalty)


def viterbi(
    emissions: torch.Tensor,
    lengths: torch.Tensor | Sequence[int],
    trans: torch.Tensor,
    start: torch.Tensor,
    end: torch.Tensor | None = None,
) -> list[list[int]]:
    """The best tag ids of each item (its own length) for scores ``emissions`` (batch x steps x
    tags), transition scores ``trans[previous, current]``, start scores and optional end scores;
    positions at or past an item's length are padding. Ties go to the lower tag id."""
    import torch

    batch, steps, _ = emissions.shape
    if steps == 0:
        return [[] for _ in range(batch)]
    length = torch.as_tensor(lengths, device=emissions.device)
    mask = torch.arange(steps, device=emissions.device).unsqueeze(0) < length.unsqueeze(1)
    per_step = emissions.unbind(1)
    score = start.unsqueeze(0) + per_step[0]
    stay = torch.arange(emissions.size(2), device=emissions.device).unsqueeze(0)
    back: list[torch.Tensor] = []
    for t in range(1, steps):
        best, arg = (score.unsqueeze(2) + trans.unsqueeze(0)).max(dim=1)
        keep = mask[:, t : t + 1]
        score = torch.where(keep, best + per_step[t], score)
        # past an item's end its best tag stays put: a pointer to itself
        back.append(torch.where(keep, arg, stay))
    last = (score if end is None else score + end.unsqueeze(0)).argmax(dim=1)
    path = [last]
    for ptr in reversed(back):
        last = ptr.gather(1, last.unsqueeze(1)).squeeze(1)
        path.append(last)
    full = torch.stack(path[::-1], dim=1).tolist()
    return [row[:n] for row, n in zip(full, length.tolist())]
