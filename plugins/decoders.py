"""The sampling decoders: ``greedy``, ``temperature``, ``top_k`` and ``nucleus`` (top-p, Holtzman
et al. 2020). Each samples with a seeded ``torch.Generator`` (the seed paper's code passed top_p
without sampling and so decoded greedily: here ``nucleus`` always samples)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from synthdeid import SynthdeidError, hookimpl
from synthdeid.config import from_mapping
from synthdeid.generate import GenerationSettings, sample_loop
from synthdeid.lm import AutoregressiveLM


def _sample(logits: torch.Tensor, temperature: float, rng: torch.Generator) -> torch.Tensor:
    probs = torch.softmax(logits / temperature, dim=-1)
    return torch.multinomial(probs, 1, generator=rng).squeeze(1)


class _Sampling:
    name = "sampling"

    def check(self, model: Any) -> None:
        if not (isinstance(model, AutoregressiveLM) or hasattr(model, "generate_corpus")):
            raise SynthdeidError(f"decoder {self.name!r} cannot drive {type(model).__name__}: it needs an "
                                 "autoregressive generator (lstm, gpt2, causal_lm) or mlm_fill")

    def choose(self, logits: torch.Tensor, rng: torch.Generator) -> torch.Tensor:
        raise NotImplementedError

    def generate(self, model: AutoregressiveLM, prompts: list[list[int]], settings: GenerationSettings,
                 rng: torch.Generator) -> list[list[int]]:
        return sample_loop(model, prompts, settings, self.choose, rng)


@dataclass(frozen=True)
class Greedy(_Sampling):
    name = "greedy"

    def choose(self, logits: torch.Tensor, rng: torch.Generator) -> torch.Tensor:
        return logits.argmax(dim=-1)


@dataclass(frozen=True)
class Temperature(_Sampling):
    temperature: float = 1.0
    name = "temperature"

    def __post_init__(self) -> None:
        if self.temperature <= 0:
            raise SynthdeidError("temperature must be > 0 (use the greedy decoder for argmax)")

    def choose(self, logits: torch.Tensor, rng: torch.Generator) -> torch.Tensor:
        return _sample(logits, self.temperature, rng)


@dataclass(frozen=True)
class TopK(_Sampling):
    top_k: int = 40
    temperature: float = 1.0
    name = "top_k"

    def __post_init__(self) -> None:
        if self.top_k < 1 or self.temperature <= 0:
            raise SynthdeidError("top_k needs top_k >= 1 and temperature > 0")

    def choose(self, logits: torch.Tensor, rng: torch.Generator) -> torch.Tensor:
        k = min(self.top_k, logits.shape[-1])
        kth = logits.topk(k, dim=-1).values[:, -1:]
        return _sample(logits.masked_fill(logits < kth, float("-inf")), self.temperature, rng)


@dataclass(frozen=True)
class Nucleus(_Sampling):
    top_p: float = 0.95
    temperature: float = 1.0
    name = "nucleus"

    def __post_init__(self) -> None:
        if not 0 < self.top_p <= 1 or self.temperature <= 0:
            raise SynthdeidError("nucleus needs 0 < top_p <= 1 and temperature > 0")

    def choose(self, logits: torch.Tensor, rng: torch.Generator) -> torch.Tensor:
        logits = logits / self.temperature
        probs = torch.softmax(logits, dim=-1)
        # exact nucleus without sorting the whole vocabulary: grow k until the top k tokens of
        # every row hold top_p of the mass (usually a few dozen tokens)
        k = min(64, probs.shape[-1])
        while True:
            top, order = probs.topk(k, dim=-1)
            if k == probs.shape[-1] or bool((top.sum(dim=-1) >= self.top_p).all()):
                break
            k = min(k * 4, probs.shape[-1])
        # drop a token when the tokens ranked above it already hold top_p of the mass
        drop = top.cumsum(dim=-1) - top >= self.top_p
        picked = torch.multinomial(top.masked_fill(drop, 0.0), 1, generator=rng)
        return order.gather(1, picked).squeeze(1)


@hookimpl
def register_decoders(register: Any) -> None:
    for cls in (Greedy, Temperature, TopK, Nucleus):
        register(cls.name, lambda config, cls=cls: from_mapping(cls, config, f"decoder {cls.name!r}"))
