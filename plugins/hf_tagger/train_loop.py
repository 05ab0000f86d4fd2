"""The training loop of the transformers tagger: AdamW, linear warm-up and decay, seeded
shuffling, the epoch with the best dev score kept in memory."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from synthdeid.progress import counter

from .config import HFTaggerConfig
from .encoding import Piece, batches


def train_model(model: Any, pieces: Sequence[Piece], pad_id: int, cfg: HFTaggerConfig,
                evaluate: Callable[[], dict[str, Any]] | None) -> dict[str, Any]:
    """Train ``model`` in place on the labelled ``pieces``; ``evaluate()`` (dev metrics with
    ``f1`` and ``loss``) picks the epoch whose weights are kept. Returns the history."""
    import torch
    from transformers import get_linear_schedule_with_warmup

    no_decay = ("bias", "LayerNorm.weight", "layer_norm.weight", "norm.weight")
    groups = [
        {"params": [p for n, p in model.named_parameters() if not n.endswith(no_decay)],
         "weight_decay": cfg.weight_decay},
        {"params": [p for n, p in model.named_parameters() if n.endswith(no_decay)], "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(groups, lr=cfg.lr)
    steps_per_epoch = math.ceil(len(pieces) / cfg.batch_size)
    total = steps_per_epoch * cfg.epochs
    scheduler = get_linear_schedule_with_warmup(optimizer, int(cfg.warmup_ratio * total), total)
    rng = torch.Generator().manual_seed(cfg.seed)
    history: list[dict[str, Any]] = []
    best_key: tuple[float, float] | None = None
    best_state: dict[str, Any] | None = None
    best_epoch = cfg.epochs
    started = time.perf_counter()
    with counter("training tagger", total) as advance:
        for epoch in range(1, cfg.epochs + 1):
            model.train()
            order = torch.randperm(len(pieces), generator=rng).tolist()
            total_loss, n_batches = 0.0, 0
            for _, tensors in batches(pieces, cfg.batch_size, pad_id, order):
                loss = model(**tensors).loss
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.max_grad_norm)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
                total_loss += loss.detach().item()
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
    return {"history": history, "best_epoch": best_epoch,
            "train_seconds": round(time.perf_counter() - started, 2),
            "train_windows": len(pieces), "optimizer_steps": total}
