"""BIO-constrained decoding for a softmax token classifier: the most probable tag sequence in
which every ``I-X`` follows ``B-X`` or ``I-X``.

Without it each word takes its own argmax, and a small model that wavers between labels inside
one entity (``B-Name I-Initials I-Name``) yields fragments that the repair in ``words.decode``
can only turn into three spans. (flair's CRF learns the same constraint from data.)
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

NEG = -1e9


def constraints(tag_labels: Sequence[str]) -> tuple[torch.Tensor, torch.Tensor]:
    """Additive transition scores (0 or -1e9) ``[previous, current]`` and start scores."""
    n = len(tag_labels)
    trans = torch.zeros(n, n)
    start = torch.zeros(n)
    for j, cur in enumerate(tag_labels):
        if cur.startswith("I-"):
            start[j] = NEG
            for i, prev in enumerate(tag_labels):
                if prev[2:] != cur[2:] or prev[:2] not in ("B-", "I-"):
                    trans[i, j] = NEG
    return trans, start


def viterbi(scores: torch.Tensor, lengths: Sequence[int], trans: torch.Tensor, start: torch.Tensor) -> list[list[int]]:
    """Best tag ids per sequence for log-probabilities ``scores`` (batch x words x tags);
    ties go to the lower tag id."""
    batch, steps, _ = scores.shape
    if steps == 0:
        return [[] for _ in range(batch)]
    length = torch.as_tensor(list(lengths))
    delta = scores[:, 0] + start
    back: list[torch.Tensor] = []
    for t in range(1, steps):
        best, arg = (delta.unsqueeze(2) + trans.unsqueeze(0)).max(dim=1)
        delta = torch.where((length > t).unsqueeze(1), best + scores[:, t], delta)
        back.append(arg)
    pointers = torch.stack(back, dim=1).tolist() if back else [[] for _ in range(batch)]
    last = delta.argmax(dim=1).tolist()
    paths = []
    for b in range(batch):
        n = int(length[b])
        tag = last[b]
        path = [tag]
        for t in range(n - 1, 0, -1):
            tag = pointers[b][t - 1][tag]
            path.append(tag)
        paths.append(path[::-1] if n else [])
    return paths
