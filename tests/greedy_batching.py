"""A check shared by the generator tests: batching never changes what a row generates."""

from __future__ import annotations

import torch

from synthdeid.api import AutoregressiveLM, GenerationSettings
from synthdeid.generation.generate import sample_loop


def assert_batch_equals_each_alone(lm: AutoregressiveLM, prompts: list[list[int]], eod_bias: float) -> None:
    """Greedy notes generated as one batch equal the notes of each prompt generated alone.

    ``eod_bias`` is added to the ``<EOD>`` logit so that the notes end (tiny models loop) at
    different steps: rows finish while others go on, which is what could disturb them."""
    settings = GenerationSettings(min_tokens=2, max_tokens=60)

    def choose(logits: torch.Tensor, rng: torch.Generator) -> torch.Tensor:
        logits[:, lm.eod_id] += eod_bias
        return logits.argmax(dim=-1)

    batched = sample_loop(lm, prompts, settings, choose, torch.Generator())
    assert len({len(g) for g in batched}) > 2
    for p, g in zip(prompts, batched):
        assert sample_loop(lm, [p], settings, choose, torch.Generator()) == [g]
