"""Training with early stopping: length-bucketed seeded batches, Adam with gradient clipping,
unknown-word replacement of training singletons, validation entity F1 after every epoch and the
best epoch's weights kept."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Sequence
from typing import Any

import torch

from synthdeid.toolkit import autocast, counter
from synthdeid.toolkit import resolve_precision as resolve

from .config import TorchTaggerConfig
from .network import Batch, BiLSTMCRF, Encoded, make_batch

POOL = 50  # batches sorted by length together, so a batch holds windows of similar length


def bucketed_batches(lengths: Sequence[int], size: int, generator: torch.Generator) -> list[list[int]]:
    """Index batches of similar lengths, in a seeded random order."""
    order = torch.randperm(len(lengths), generator=generator).tolist()
    batches: list[list[int]] = []
    for i in range(0, len(order), size * POOL):
        chunk = sorted(order[i : i + size * POOL], key=lambda k: (lengths[k], k))
        batches.extend(chunk[j : j + size] for j in range(0, len(chunk), size))
    return [batches[b] for b in torch.randperm(len(batches), generator=generator).tolist()]


def fit(
    net: BiLSTMCRF,
    items: Sequence[Encoded],
    tags: Sequence[Sequence[int]],
    singletons: set[int],
    cfg: TorchTaggerConfig,
    evaluate: Callable[[], dict[str, float]] | None,
) -> dict[str, Any]:
    """Train ``net`` in place; returns the per-epoch history and the selected epoch."""
    generator = torch.Generator().manual_seed(cfg.seed)
    batches: list[Batch] = [
        make_batch([items[i] for i in b], [tags[i] for i in b])
        for b in bucketed_batches([len(w) for w, _, _ in items], cfg.batch_size, generator)
    ]
    is_singleton = torch.zeros(len(net.word.weight), dtype=torch.bool)
    if singletons:
        is_singleton[torch.tensor(sorted(singletons))] = True
    optimizer = torch.optim.Adam(net.parameters(), lr=cfg.learning_rate, fused=True)  # one kernel, not one per tensor
    tokens = sum(len(w) for w, _, _ in items)
    history: list[dict[str, float]] = []
    best_f1, best_epoch, best_state = -1.0, 0, None
    train_seconds = 0.0
    stopped = "max_epochs"
    with counter("tagger epochs", cfg.max_epochs) as advance:
        for epoch in range(1, cfg.max_epochs + 1):
            net.train()
            started, total = time.perf_counter(), 0.0
            for b in torch.randperm(len(batches), generator=generator).tolist():
                batch = batches[b]
                words = batch.words
                if cfg.word_unk_rate > 0 and singletons:
                    drop = is_singleton[words] & (torch.rand(words.shape, generator=generator) < cfg.word_unk_rate)
                    words = words.masked_fill(drop, 1)
                with autocast(cfg.precision):
                    scores = net.emissions(batch, words)
                loss = net.crf.nll(scores.float(), batch.tags, batch.lengths) / len(batch.lengths)
                optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), cfg.grad_clip)
                optimizer.step()
                total += float(loss.detach()) * len(batch.lengths)
            train_seconds += time.perf_counter() - started
            row = {"epoch": epoch, "train_loss": round(total / max(1, len(items)), 4)}
            if evaluate is not None:
                net.eval()
                row.update({f"dev_{k}": round(v, 4) for k, v in evaluate().items()})
                if row["dev_f1"] > best_f1:
                    best_f1, best_epoch, best_state = row["dev_f1"], epoch, copy.deepcopy(net.state_dict())
            history.append(row)
            advance(1)
            if evaluate is not None and epoch - best_epoch >= cfg.patience:
                stopped = "patience"
                break
            if cfg.max_train_tokens and tokens * epoch >= cfg.max_train_tokens:
                stopped = "max_train_tokens"
                break
    if best_state is not None:
        net.load_state_dict(best_state)
    net.eval()
    epochs = len(history)
    return {
        "history": history,
        "epochs_run": epochs,
        "best_epoch": best_epoch or epochs,
        "stopped_by": stopped,
        "precision": resolve(cfg.precision),
        "train_seconds": round(train_seconds, 2),
        "train_tokens_per_s": round(tokens * epochs / train_seconds, 1) if train_seconds else None,
    }
