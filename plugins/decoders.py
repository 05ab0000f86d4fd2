"""The sampling decoders: ``greedy``, ``temperature``, ``top_k`` and ``nucleus`` (top-p, Holtzman
et al. 2020). Each samples with a seeded ``torch.Generator`` (the seed paper's code passed top_p
without sampling and so decoded greedily: here ``nucleus`` always samples).

Sampling draws one uniform number per row and inverts the cumulative distribution
(``sample_rows``): ``torch.multinomial`` draws an exponential number for every vocabulary entry,
which cost more than the LSTM step itself at batch 64. The nucleus threshold comes from a
value-only sort (numpy's, several times faster than ``torch.topk`` on this CPU).

torch and numpy are imported where the tensors are handled, not at module level: registering the
decoders must not load them (every stage and CLI call registers the built-in plugins).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from synthdeid import SynthdeidError, hookimpl
from synthdeid.api import (
    AutoregressiveLM,
    CorpusGenerator,
    RegisterDecoder,
    SamplingSpec,
)
from synthdeid.toolkit import Settings, setting

if TYPE_CHECKING:
    import torch

    from synthdeid.api import GenerationSettings


_BLOCK = 64


def sample_rows(weights: torch.Tensor, rng: torch.Generator) -> torch.Tensor:
    """One column per row of ``weights`` ``[rows, n]`` (>= 0, some > 0 in each row), drawn with
    probability proportional to its weight, from one uniform number per row.

    The cumulative sums are float64 in two levels (blocks of 64 entries, then within the block):
    a float32 cumulative sum over a 20k vocabulary would round rare tokens' shares away. A column
    of weight 0 is never drawn."""
    import torch

    rows, n = weights.shape
    u = torch.rand(rows, dtype=torch.float64, generator=rng)
    w = torch.nn.functional.pad(weights, (0, -n % _BLOCK)).view(rows, -1, _BLOCK)
    mass = w.sum(-1).double()
    cum = mass.cumsum(-1)
    target = u * cum[:, -1]
    block = _search(cum, target)
    before = cum.gather(1, block[:, None]).squeeze(1) - mass.gather(1, block[:, None]).squeeze(1)
    inner = w[torch.arange(rows), block].double().cumsum(-1)
    return block * _BLOCK + _search(inner, (target - before).clamp(min=0.0))


def _search(cum: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Per row, the first index whose cumulative weight exceeds ``target``; never past the last
    positive weight (float rounding can put ``target`` at the total)."""
    import torch

    idx = torch.searchsorted(cum, target[:, None], right=True).squeeze(1)
    return torch.minimum(idx, (cum < cum[:, -1:]).sum(-1))


def _sample(logits: torch.Tensor, temperature: float, rng: torch.Generator) -> torch.Tensor:
    import torch

    return sample_rows(torch.softmax(logits / temperature, dim=-1), rng)


def nucleus_threshold(probs: torch.Tensor, top_p: float) -> torch.Tensor:
    """Per row, the probability of the least likely token of the nucleus: the most probable tokens
    whose mass first reaches ``top_p`` (of the row's total). Tokens tied with it belong to the
    nucleus too."""
    import numpy as np
    import torch

    asc = torch.from_numpy(np.sort(probs.numpy(), axis=-1))
    cum = asc.cumsum(-1)
    # a token is in the nucleus when the tokens ranked above it hold less than top_p
    first = torch.searchsorted(cum, cum[:, -1:] * (1.0 - top_p), right=True)
    return asc.gather(1, first.clamp(max=asc.shape[-1] - 1)).squeeze(1)


class _Sampling(Settings):
    """A sampling decoder: its settings and the decoder are one object (the factory returns the
    settings the study spec built)."""

    name: ClassVar[str] = "sampling"

    def check(self, model: Any) -> None:
        if not isinstance(model, (AutoregressiveLM, CorpusGenerator)):
            raise SynthdeidError(
                f"decoder {self.name!r} cannot drive {type(model).__name__}: it needs an "
                "autoregressive generator (lstm, gpt2, causal_lm) or mlm_fill"
            )

    def choose(self, logits: torch.Tensor, rng: torch.Generator) -> torch.Tensor:
        raise NotImplementedError

    def generate(
        self, model: AutoregressiveLM, prompts: list[list[int]], settings: GenerationSettings, rng: torch.Generator
    ) -> list[list[int]]:
        from synthdeid.toolkit import sample_loop

        return sample_loop(model, prompts, settings, self.choose, rng)


class Greedy(_Sampling):
    name: ClassVar[str] = "greedy"

    def spec(self) -> SamplingSpec:
        return SamplingSpec("greedy", temperature=0.0)

    def choose(self, logits: torch.Tensor, rng: torch.Generator) -> torch.Tensor:
        return logits.argmax(dim=-1)


class Temperature(_Sampling):
    temperature: float = setting(
        1.0, gt=0, description="divides the logits before sampling (below 1: sharper, above 1: flatter)"
    )
    """Above 0 (the greedy decoder is the argmax)."""
    name: ClassVar[str] = "temperature"

    def spec(self) -> SamplingSpec:
        return SamplingSpec("temperature", temperature=self.temperature)

    def choose(self, logits: torch.Tensor, rng: torch.Generator) -> torch.Tensor:
        return _sample(logits, self.temperature, rng)


class TopK(_Sampling):
    top_k: int = setting(40, ge=1, description="sample among the k most probable tokens")
    temperature: float = setting(
        1.0, gt=0, description="divides the logits before sampling (below 1: sharper, above 1: flatter)"
    )
    name: ClassVar[str] = "top_k"

    def spec(self) -> SamplingSpec:
        return SamplingSpec("top_k", temperature=self.temperature, top_k=self.top_k)

    def choose(self, logits: torch.Tensor, rng: torch.Generator) -> torch.Tensor:
        k = min(self.top_k, logits.shape[-1])
        kth = logits.topk(k, dim=-1).values[:, -1:]
        return _sample(logits.masked_fill(logits < kth, float("-inf")), self.temperature, rng)


class Nucleus(_Sampling):
    top_p: float = setting(
        0.95,
        gt=0,
        le=1,
        description="sample from the smallest set of tokens whose probabilities sum to top_p (nucleus)",
    )
    temperature: float = setting(
        1.0, gt=0, description="divides the logits before sampling (below 1: sharper, above 1: flatter)"
    )
    name: ClassVar[str] = "nucleus"

    def spec(self) -> SamplingSpec:
        return SamplingSpec("nucleus", temperature=self.temperature, top_p=self.top_p)

    def choose(self, logits: torch.Tensor, rng: torch.Generator) -> torch.Tensor:
        import torch

        probs = torch.softmax(logits / self.temperature, dim=-1)
        probs.masked_fill_(probs < nucleus_threshold(probs, self.top_p)[:, None], 0.0)
        return sample_rows(probs, rng)


@hookimpl
def register_decoders(register: RegisterDecoder) -> None:
    for cls in (Greedy, Temperature, TopK, Nucleus):
        register(cls.name, _itself, config=cls)


def _itself(settings: _Sampling) -> _Sampling:
    """A sampling decoder's factory: its settings are the decoder."""
    return settings
