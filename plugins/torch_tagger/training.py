"""Training with early stopping: length-bucketed seeded batches, Adam with gradient clipping,
unknown-word replacement of training singletons (and, calibrated, of ordinary words), validation entity F1 after every epoch and the
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


def ordinary_unknown_rate(
    items: Sequence[Encoded], tags: Sequence[Sequence[int]], singletons: set[int], rate: float, phi_share: float
) -> float:
    """The rate at which ordinary (``O``) words seen more than once are read as unknown, so that
    ``phi_share`` of the occurrences read as unknown in training are PHI.

    Singletons are read as unknown at ``rate``; in a synthetic corpus nearly all of them are
    surrogates, so the unknown-word vector would learn "unseen word = PHI". Solving
    ``rate * phi_singletons = phi_share * (rate * phi_singletons + rate * o_singletons + r * o_other)``
    for ``r`` gives the rate; it is capped at ``rate`` (an ordinary word is never dropped more often
    than a singleton) and is 0 when the singletons already hold no more PHI than ``phi_share``."""
    phi_single = o_single = o_other = 0
    for (words, _, _), row in zip(items, tags):
        for w, t in zip(words, row):
            if w in singletons:
                if t:
                    phi_single += 1
                else:
                    o_single += 1
            elif not t:
                o_other += 1
    if not o_other or not phi_single:
        return 0.0
    r = rate * (phi_single * (1 - phi_share) / phi_share - o_single) / o_other
    return round(min(rate, max(0.0, r)), 6)


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
    ordinary = (
        ordinary_unknown_rate(items, tags, singletons, cfg.word_unk_rate, cfg.unknown_phi_share)
        if cfg.unknown_phi_share is not None and singletons
        else 0.0
    )
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
                    draws = torch.rand(words.shape, generator=generator)
                    drop = is_singleton[words] & (draws < cfg.word_unk_rate)
                    if ordinary:  # O words seen more than once (padding is word 0, O is tag 0)
                        assert batch.tags is not None
                        drop |= ~is_singleton[words] & (words > 1) & (batch.tags == 0) & (draws < ordinary)
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
        "unknown_ordinary_rate": ordinary,
        "precision": resolve(cfg.precision),
        "train_seconds": round(train_seconds, 2),
        "train_tokens_per_s": round(tokens * epochs / train_seconds, 1) if train_seconds else None,
    }
