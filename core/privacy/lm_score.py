"""Log-likelihood of given token sequences under any ``AutoregressiveLM``, by teacher forcing
through its ``start`` / ``step`` interface in batches (for canary exposure and membership
inference).

Each sequence is scored after a prefix: the prefix is fed as the prompt of ``start`` (an empty
prefix is the model's own start-of-note context: the LSTM primes with ``<EOD>``, a transformers
model with its start id), then every target token is predicted from what came before it and
fed with ``step``. ``texts_to_score`` splits inline text into that form: the ids the model's
``encode`` puts in front of every text (``encode("")``) are the prefix.

Scores are under the distribution the model gives the decoders, its adapter's masks included
(the LSTM never generates ``<unk>``; the transformers adapter bans its tokenizer's own specials
and blank subwords right after a START tag). A target whose logit is ``-inf`` is not scored but
counted (``masked``): an ``<unk>`` in a note says nothing about what the model memorised. Models
with a fixed context (an integer ``max_length``, as ``HFCausalLM`` has) wind notes down in their
last two positions, so their sequences are cut to ``max_length - 2`` tokens, prefix included
(counted in ``truncated``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from synthdeid.api import AutoregressiveLM, ContextLimited
from synthdeid.progress import counter

END_MARGIN = 2
"""Positions at the end of a fixed context where ``HFCausalLM`` changes the logits."""


@dataclass(frozen=True)
class SequenceScore:
    """The negative log-likelihood of one sequence's targets (natural log)."""

    nll: float
    """Sum over the scored targets."""
    tokens: int
    """Targets scored."""
    masked: int = 0
    """Targets not scored because the model's adapter masks them (logit ``-inf``)."""
    truncated: bool = False
    """The sequence was cut to the model's context."""

    @property
    def mean_nll(self) -> float:
        """Per-token NLL (``nan`` when nothing was scored)."""
        return self.nll / self.tokens if self.tokens else math.nan

    @property
    def log_perplexity_bits(self) -> float:
        """``-log2 P(targets | prefix)``: Carlini et al.'s log-perplexity."""
        return self.nll / math.log(2)


def context_limit(lm: AutoregressiveLM) -> int | None:
    """Most tokens (prefix + targets) scored unchanged by ``lm``, or None for no limit."""
    if not isinstance(lm, ContextLimited):
        return None
    limit = lm.max_length
    return limit - END_MARGIN if isinstance(limit, int) and limit > END_MARGIN else None


def texts_to_score(lm: AutoregressiveLM, texts: Sequence[str]) -> list[tuple[list[int], list[int]]]:
    """``(prefix, targets)`` ids per inline text: the ids ``lm.encode`` puts in front of every
    text (its start-of-note ids, often none) are the prefix, the rest are scored."""
    lead = lm.encode("")
    out = []
    for text in texts:
        ids = lm.encode(text)
        k = len(lead) if ids[: len(lead)] == lead else 0
        out.append((ids[:k], ids[k:]))
    return out


@contextmanager
def torch_threads(threads: int | None) -> Iterator[None]:
    """``torch.set_num_threads(threads)`` for the block (None: unchanged)."""
    import torch  # here, not at the top: the study spec imports the metrics that use this module

    before = torch.get_num_threads()
    if threads is not None:
        torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def score_sequences(
    lm: AutoregressiveLM,
    targets: Sequence[Sequence[int]],
    prefixes: Sequence[Sequence[int]] | None = None,
    batch_size: int = 32,
    description: str = "scoring",
    threads: int | None = 1,
) -> list[SequenceScore]:
    """The NLL of each ``targets[i]`` after ``prefixes[i]`` (default: empty), in input order.

    Sequences are batched by length (longest first) and finished rows leave the batch through
    ``select``, so the cost is about the total number of tokens. ``threads``: torch threads while
    scoring; one step is many small operations, which one thread runs fastest (on a busy 2-core
    machine ten times faster than two)."""
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    prefixes = prefixes if prefixes is not None else [[] for _ in targets]
    if len(prefixes) != len(targets):
        raise ValueError(f"{len(prefixes)} prefixes for {len(targets)} sequences")
    limit = context_limit(lm)
    jobs: list[tuple[list[int], list[int], bool]] = []
    for prefix, target in zip(prefixes, targets):
        prefix, target = list(prefix), list(target)
        cut = limit is not None and len(prefix) + len(target) > limit
        if cut and limit is not None:  # (cut implies a limit)
            if len(prefix) >= limit:
                raise ValueError(f"a prefix of {len(prefix)} tokens leaves no room in the model's context")
            target = target[: limit - len(prefix)]
        jobs.append((prefix, target, cut))
    order = sorted(range(len(jobs)), key=lambda i: -len(jobs[i][1]))
    results: dict[int, SequenceScore] = {}
    with torch_threads(threads), counter(description, sum(len(j[1]) for j in jobs)) as advance:
        for b in range(0, len(order), batch_size):
            rows = order[b : b + batch_size]
            for i, score in zip(rows, _score_batch(lm, [jobs[i][0] for i in rows], [jobs[i][1] for i in rows])):
                results[i] = SequenceScore(score[0], score[1], score[2], jobs[i][2])
            advance(sum(len(jobs[i][1]) for i in rows))
    return [results[i] for i in range(len(jobs))]


def _score_batch(
    lm: AutoregressiveLM, prefixes: list[list[int]], targets: list[list[int]]
) -> list[tuple[float, int, int]]:
    """(nll, scored, masked) per row; ``targets`` sorted longest first."""
    import torch

    n = len(targets)
    nll = [0.0] * n
    scored = [0] * n
    masked = [0] * n
    lengths = [len(t) for t in targets]
    if not n or not lengths[0]:
        return [(0.0, 0, 0)] * n
    width = lengths[0]
    ids = torch.zeros((n, width), dtype=torch.long)
    for r, t in enumerate(targets):
        ids[r, : len(t)] = torch.tensor(t, dtype=torch.long)
    active = sum(1 for length in lengths if length > 0)
    state, logits = lm.start(prefixes[:active])
    for pos in range(width):
        rows = logits[:active]
        picked = (rows.gather(1, ids[:active, pos : pos + 1]).squeeze(1) - rows.logsumexp(-1)).tolist()
        for r, lp in enumerate(picked):
            if lp == -math.inf or math.isnan(lp):
                masked[r] += 1
            else:
                nll[r] -= lp
                scored[r] += 1
        still = sum(1 for length in lengths[:active] if length > pos + 1)
        if still == 0:
            break
        if still < active:  # rows are sorted longest first: the finished ones are at the end
            state = lm.select(state, torch.arange(still))
            active = still
        state, logits = lm.step(state, ids[:active, pos])
    return list(zip(nll, scored, masked))
