"""The training loop of the transformers tagger: AdamW, linear warm-up and decay, seeded
shuffling, the epoch with the best dev score kept in memory. Data-parallel under ``torchrun``
(the toolkit's ``shard``, ``all_sum``, ``sum_gradients``): each process trains on its share of every batch, gradients are summed,
and every process takes the step one process would take on the whole batch."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from synthdeid.toolkit import all_sum, counter, shard, sum_gradients, world_size

from .config import HFTaggerConfig
from .encoding import IGNORE, Piece, batches


def _batch_loss(model: Any, pieces: Sequence[Piece], batch: Sequence[int], pad_id: int) -> Any:
    """The loss to back-propagate for this process's share of ``batch`` (None for an empty share):
    the model's mean loss in one process; under torchrun the share's summed loss over the whole
    batch's labelled words, so that the shares' gradients add up to the batch's."""
    import torch.nn.functional as F

    device = next(model.parameters()).device
    if world_size() <= 1:
        [(_, tensors)] = batches(pieces, len(batch), pad_id, batch, device)
        return model(**tensors).loss
    part = shard(batch)
    labelled = all_sum(sum(sum(label != IGNORE for label in pieces[j].labels or ()) for j in part))
    if not part:
        return None
    [(_, tensors)] = batches(pieces, len(part), pad_id, part, device)
    labels = tensors.pop("labels")
    logits = model(**tensors).logits
    return F.cross_entropy(
        logits.reshape(-1, logits.shape[-1]).float(), labels.reshape(-1), ignore_index=IGNORE, reduction="sum"
    ) / max(labelled, 1.0)


def train_model(
    model: Any, pieces: Sequence[Piece], pad_id: int, cfg: HFTaggerConfig, evaluate: Callable[[], dict[str, Any]] | None
) -> dict[str, Any]:
    """Train ``model`` in place on the labelled ``pieces``; ``evaluate()`` (dev metrics with
    ``f1`` and ``loss``) picks the epoch whose weights are kept. Returns the history."""
    import torch
    from transformers import get_linear_schedule_with_warmup

    no_decay = ("bias", "LayerNorm.weight", "layer_norm.weight", "norm.weight")
    groups = [
        {
            "params": [p for n, p in model.named_parameters() if not n.endswith(no_decay)],
            "weight_decay": cfg.weight_decay,
        },
        {"params": [p for n, p in model.named_parameters() if n.endswith(no_decay)], "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(groups, lr=cfg.resolved_learning_rate)
    steps_per_epoch = math.ceil(len(pieces) / cfg.batch_size)
    total = steps_per_epoch * cfg.max_epochs
    scheduler = get_linear_schedule_with_warmup(optimizer, int(cfg.warmup * total), total)
    rng = torch.Generator().manual_seed(cfg.seed)
    history: list[dict[str, Any]] = []
    best_key: tuple[float, float] | None = None
    best_state: dict[str, Any] | None = None
    best_epoch = cfg.max_epochs
    started = time.perf_counter()
    with counter("training tagger", total) as advance:
        for epoch in range(1, cfg.max_epochs + 1):
            model.train()
            order = torch.randperm(len(pieces), generator=rng).tolist()
            total_loss, n_batches = 0.0, 0
            for i in range(0, len(order), cfg.batch_size):
                loss = _batch_loss(model, pieces, order[i : i + cfg.batch_size], pad_id)
                if loss is not None:
                    loss.backward()
                sum_gradients(model.parameters())
                torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
                total_loss += all_sum(loss.detach().item() if loss is not None else 0.0)
                n_batches += 1
                advance(1)
            record: dict[str, Any] = {"epoch": epoch, "train_loss": round(total_loss / max(n_batches, 1), 4)}
            if evaluate is not None:
                dev = evaluate()
                record.update({f"dev_{k}": round(v, 4) for k, v in dev.items() if v is not None})
                loss_key = -dev["loss"] if dev.get("loss") is not None else 0.0
                key = (dev["f1"], loss_key) if cfg.select_on == "f1" else (loss_key, dev["f1"])
                if best_key is None or key > best_key:
                    best_key, best_epoch = key, epoch
                    best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
            history.append(record)
    if best_state is not None:
        model.load_state_dict(best_state)
    model.eval()
    return {
        "history": history,
        "best_epoch": best_epoch,
        "train_seconds": round(time.perf_counter() - started, 2),
        "train_windows": len(pieces),
        "optimizer_steps": total,
    }
