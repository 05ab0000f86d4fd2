"""A check shared by the generator tests: batching never changes what a row generates."""

from __future__ import annotations

import torch

from synthdeid.generate import GenerationSettings
from synthdeid.lm import AutoregressiveLM
from synthdeid.plugins import registry


def assert_batch_equals_each_alone(lm: AutoregressiveLM, prompts: list[list[int]]) -> None:
    """Greedy notes generated as one batch equal the notes of each prompt generated alone, and
    end at different steps (so rows finished while others went on)."""
    settings = GenerationSettings(min_tokens=2, max_tokens=40)
    greedy = registry("decoder").create("greedy")
    batched = greedy.generate(lm, prompts, settings, torch.Generator())
    assert len({len(g) for g in batched}) > 2
    for p, g in zip(prompts, batched):
        assert greedy.generate(lm, [p], settings, torch.Generator()) == [g]
