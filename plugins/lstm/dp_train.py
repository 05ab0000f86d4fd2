"""Differentially private LSTM training (``LSTMConfig.dp``): DP-SGD with one training note per
sample (``synthdeid.generation.dp``).

Truncated BPTT over the concatenated stream (the plain training) carries the hidden state from one
note into the next, so a "sample" there is a window that mixes notes: no per-note guarantee. Here
every note is a sample of its own, ``<EOD>`` + its tokens (truncated to ``dp.max_tokens``), run from
a zero state as the sampler does at generation time, and its loss is its mean token cross-entropy.
The per-sample gradients come from ``per_sample``; Opacus' ``DPOptimizer`` clips, sums and noises
them. A Poisson batch is run in chunks of ``PHYSICAL_BATCH`` notes (sorted by length: less
padding); the optimizer collects the per-sample gradients of all chunks before its one step.
"""

from __future__ import annotations

from typing import Any

import torch

from synthdeid.toolkit import DPTraining, track

from .config import LSTMConfig
from .model import LSTMLanguageModel
from .per_sample import make_unrolled, per_sample_grads
from .vocab import Vocab

PHYSICAL_BATCH = 16
"""Notes per forward/backward pass (bounds memory; does not change the result)."""


def note_samples(vocab: Vocab, lines: list[str], max_tokens: int) -> tuple[list[list[int]], int]:
    """One id sequence per note: ``<EOD>`` then the note's tokens, at most ``max_tokens`` + 1 ids;
    and how many notes were truncated."""
    samples, truncated = [], 0
    for line in lines:
        ids = [vocab.eod_id, *vocab.encode(line)]
        if len(ids) > max_tokens + 1:
            truncated += 1
            ids = ids[: max_tokens + 1]
        samples.append(ids)
    return samples, truncated


def pad(samples: list[list[int]]) -> tuple[torch.Tensor, torch.Tensor]:
    """``[time, batch]`` ids (padded with 0) and the mask of real positions."""
    width = max(len(s) for s in samples)
    ids = torch.zeros((width, len(samples)), dtype=torch.long)
    mask = torch.zeros((width, len(samples)), dtype=torch.bool)
    for j, s in enumerate(samples):
        ids[: len(s), j] = torch.tensor(s, dtype=torch.long)
        mask[: len(s), j] = True
    return ids, mask


def collect(grads: dict[torch.Tensor, torch.Tensor]) -> None:
    """Hand per-sample gradients to Opacus (``p.grad_sample``; a list across chunks)."""
    p: Any  # a parameter with the attribute Opacus adds
    for p, g in grads.items():
        if getattr(p, "grad_sample", None) is None:
            p.grad_sample = g
        elif isinstance(p.grad_sample, list):
            p.grad_sample.append(g)
        else:
            p.grad_sample = [p.grad_sample, g]


class DPEpochs:
    """DP-SGD epochs for ``synthdeid.plugins.lstm.train`` (same interface as ``StreamEpochs``)."""

    def __init__(self, model: LSTMLanguageModel, vocab: Vocab, lines: list[str], config: LSTMConfig) -> None:
        dp = config.dp
        assert dp is not None
        self.samples, self.truncated = note_samples(vocab, lines, dp.max_tokens)
        self.model = model
        self.dp = DPTraining(dp, len(self.samples), config.max_epochs, config.seed)
        make_unrolled(model)
        self.opt = self.dp.make_optimizer(torch.optim.SGD(model.parameters(), lr=config.learning_rate))

    def run(self, epoch: int, lr: float, description: str) -> tuple[float, int]:
        """One epoch of Poisson batches at ``lr``: mean training loss per note, tokens seen."""
        for group in self.opt.param_groups:
            group["lr"] = lr
        self.model.train()
        total, notes, tokens = 0.0, 0, 0
        batches = list(self.dp.batches(epoch))
        for batch in track(batches, description=description, total=len(batches)):
            self.opt.zero_grad(set_to_none=True)
            if not batch:
                self.dp.empty_step()
                continue
            batch = sorted(batch, key=lambda i: (len(self.samples[i]), i))
            for k in range(0, len(batch), PHYSICAL_BATCH):
                ids, mask = pad([self.samples[i] for i in batch[k : k + PHYSICAL_BATCH]])
                losses, grads = per_sample_grads(self.model, ids, mask)
                collect(grads)
                total += float(losses.sum())
                tokens += int(mask.sum()) - ids.size(1)
            notes += len(batch)
            self.dp.step()
        return total / max(notes, 1), tokens

    def state_dict(self) -> dict[str, Any]:
        return {"optimizer": self.opt.original_optimizer.state_dict(), "dp": self.dp.state_dict()}

    def load_state_dict(self, ckpt: dict[str, Any]) -> None:
        self.opt.original_optimizer.load_state_dict(ckpt["optimizer"])
        self.dp.load_state_dict(ckpt["dp"])

    def metrics(self) -> dict[str, Any]:
        return {"dp": self.dp.metrics(self.truncated), "precision": "fp32"}
