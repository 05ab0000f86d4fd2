"""The PHI probe of a trained generator (after Verkijk & Vossen's name probe of MedRoBERTa.nl):
feed the model a held-out note up to a PHI START tag and collect what it would write inside.

For each probe the ``k`` most likely first tokens are taken (special tokens excluded), and each is
continued greedily until the model closes the span with the matching END tag or ``max_tokens``
are written; inside the span only ordinary tokens and that END tag are allowed. So each probe gives
``k`` candidate PHI strings, in order of their first token's probability.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from synthdeid.api import AutoregressiveLM
from synthdeid.corpus.inline import end_tag
from synthdeid.privacy.lm_score import END_MARGIN, context_limit

if TYPE_CHECKING:
    import torch

_SPECIAL = re.compile(r"<PAR>|<EOD>|<unk>|<[A-Za-z][A-Za-z0-9_]*?(?:START|END)>")


@dataclass(frozen=True)
class Probe:
    """A held-out note's text up to and including a START tag, and the tag's label."""

    prefix: str
    label: str


@dataclass(frozen=True)
class Prediction:
    probe: int
    rank: int
    """0 for the continuation of the most likely first token."""
    text: str
    finished: bool
    """The model closed the span within ``max_tokens``."""


def probes_in(line: str, labels: set[str] | None, context: int) -> list[Probe]:
    """Every START tag of an inline line (space-separated tokens) whose label is in ``labels``
    (None: all), with at most ``context`` tokens before it."""
    tokens = line.split()
    out = []
    for i, tok in enumerate(tokens):
        m = re.fullmatch(r"<([A-Za-z][A-Za-z0-9_]*?)START>", tok)
        if m and (labels is None or m.group(1) in labels):
            out.append(Probe(" ".join(tokens[max(0, i - context) : i + 1]), m.group(1)))
    return out


def special_ids(lm: AutoregressiveLM) -> torch.Tensor:
    """The ids of tags, ``<PAR>``, ``<EOD>`` and ``<unk>`` in the model's vocabulary."""
    import torch  # here, not at the top: the study spec imports the metric that uses this module

    return torch.tensor([i for i, t in enumerate(lm.vocab) if _SPECIAL.fullmatch(t)], dtype=torch.long)


def predict(
    lm: AutoregressiveLM, probes: Sequence[Probe], k: int = 10, max_tokens: int = 8, batch_size: int = 16
) -> list[Prediction]:
    """``k`` continuations of every probe (see the module docstring), ``batch_size`` probes at once."""
    import torch

    index = {t: i for i, t in enumerate(lm.vocab)}
    specials = special_ids(lm)
    limit = context_limit(lm)
    out: list[Prediction] = []
    with torch.inference_mode():
        for b in range(0, len(probes), batch_size):
            chunk = probes[b : b + batch_size]
            ends = torch.tensor([index.get(end_tag(p.label), -1) for p in chunk], dtype=torch.long)
            prompts = [lm.encode(p.prefix) for p in chunk]
            if limit is not None:
                prompts = [ids[-(limit - END_MARGIN - max_tokens - 1) :] for ids in prompts]
            state, logits = lm.start(prompts)
            logits = logits.float().clone()
            logits[:, specials] = float("-inf")
            top = logits.topk(k, dim=-1)
            rows = torch.arange(len(chunk)).repeat_interleave(k)
            state = lm.select(state, rows)
            tokens = top.indices.reshape(-1)
            alive = torch.isfinite(top.values.reshape(-1))  # a vocabulary smaller than k
            written = [[int(t)] for t in tokens]
            finished = torch.zeros(len(rows), dtype=torch.bool)
            row_end = ends[rows]
            for _ in range(max_tokens):
                if bool((finished | ~alive).all()):
                    break
                state, logits = lm.step(state, tokens)
                logits = logits.float().clone()
                keep = logits.gather(1, row_end.clamp(min=0).unsqueeze(1))
                logits[:, specials] = float("-inf")
                logits.scatter_(
                    1, row_end.clamp(min=0).unsqueeze(1), torch.where(row_end.unsqueeze(1) >= 0, keep, float("-inf"))
                )
                tokens = logits.argmax(-1)
                for r in range(len(rows)):
                    if finished[r] or not alive[r]:
                        continue
                    if int(tokens[r]) == int(row_end[r]):
                        finished[r] = True
                    elif len(written[r]) < max_tokens:
                        written[r].append(int(tokens[r]))
            for r in range(len(rows)):
                if alive[r]:
                    out.append(Prediction(b + int(rows[r]), r % k, lm.decode(written[r]).strip(), bool(finished[r])))
    return out
