"""A small, seeded training loop for causal LMs over packed token blocks.

Training runs in stages (one stage normally; several for gradual unfreezing), each with its own
parameter groups and learning rates, a fresh AdamW and a one-cycle or warmup+cosine schedule.
After every epoch a checkpoint (trainable weights, optimizer, scheduler, position, RNG) replaces
the previous one atomically; ``train_stages`` resumes from it, so an interrupted run ends with
the same weights as an uninterrupted one.

Launched under ``torchrun`` the loop is data-parallel (``synthdeid.generation.distributed``): each process
takes its share of every batch, gradients are summed across processes, every process takes the
same step one process would take on the whole batch, and only the main process writes checkpoints.
"""

from __future__ import annotations

import math
import os
import random
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F

from synthdeid import SynthdeidError
from synthdeid.generation import distributed
from synthdeid.precision import autocast, resolve
from synthdeid.progress import track

CHECKPOINT = "checkpoint.pt"


@dataclass(frozen=True)
class Stage:
    """One training stage: ``groups`` are (parameter names, learning rate); every other
    parameter is frozen for the stage."""

    epochs: int
    groups: tuple[tuple[tuple[str, ...], float], ...]


@dataclass(frozen=True)
class LoopSettings:
    batch_size: int = 8
    weight_decay: float = 0.01
    schedule: str = "one_cycle"
    """``one_cycle`` (torch OneCycleLR, cosine annealing) or ``cosine`` (linear warmup, cosine decay)."""
    warmup: float = 0.1
    """Share of a stage's steps spent warming up."""
    grad_clip: float = 1.0
    seed: int = 0
    precision: str = "fp32"
    """Training arithmetic (``synthdeid.precision``): fp32, bf16 or auto."""


def pack_blocks(stream: Sequence[int], block_size: int) -> list[list[int]]:
    """Cut a token stream into blocks of ``block_size`` (the last one may be shorter)."""
    if block_size < 2:
        raise SynthdeidError("block_size must be at least 2")
    return [
        list(stream[i : i + block_size])
        for i in range(0, len(stream), block_size)
        if len(stream[i : i + block_size]) > 1
    ]


def _collate(blocks: Sequence[Sequence[int]], device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    width = max(len(b) for b in blocks)
    ids = torch.zeros((len(blocks), width), dtype=torch.long)
    mask = torch.zeros((len(blocks), width), dtype=torch.long)
    for r, b in enumerate(blocks):
        ids[r, : len(b)] = torch.tensor(b, dtype=torch.long)
        mask[r, : len(b)] = 1
    return ids.to(device), mask.to(device)


def lm_loss(model: Any, ids: torch.Tensor, mask: torch.Tensor, reduction: str = "mean") -> torch.Tensor:
    """Next-token cross-entropy over the unpadded positions."""
    logits = model(input_ids=ids, attention_mask=mask).logits[:, :-1].float()
    labels = ids[:, 1:].masked_fill(mask[:, 1:] == 0, -100)
    return F.cross_entropy(
        logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=-100, reduction=reduction
    )


def batch_loss(model: Any, blocks: Sequence[Sequence[int]], device: torch.device) -> tuple[torch.Tensor | None, int]:
    """The loss to back-propagate for this process's share of a batch (None for an empty share)
    and the tokens of the whole batch. Under torchrun the share's summed loss is divided by the
    whole batch's predicted tokens, so the shares' gradients add up to the batch's mean-loss
    gradient."""
    if distributed.world_size() <= 1:
        ids, mask = _collate(blocks, device)
        return lm_loss(model, ids, mask), int(mask.sum())
    part = distributed.shard(blocks)
    predicted = distributed.all_sum(sum(len(b) - 1 for b in part))
    tokens = int(distributed.all_sum(sum(len(b) for b in part)))
    if not part:
        return None, tokens
    ids, mask = _collate(part, device)
    return lm_loss(model, ids, mask, reduction="sum") / predicted, tokens


def evaluate(model: Any, blocks: Sequence[Sequence[int]], batch_size: int) -> float | None:
    """Mean next-token loss on ``blocks`` (None when there are none)."""
    if not blocks:
        return None
    device = next(model.parameters()).device
    model.eval()
    total, count = 0.0, 0
    with torch.inference_mode():
        for i in range(0, len(blocks), batch_size):
            ids, mask = _collate(blocks[i : i + batch_size], device)
            total += float(lm_loss(model, ids, mask, reduction="sum"))
            count += int(mask[:, 1:].sum())
    return total / max(count, 1)


def apply_stage(model: Any, stage: Stage) -> None:
    """Make exactly the stage's parameters trainable."""
    names = {n for group, _ in stage.groups for n in group}
    for name, param in model.named_parameters():
        param.requires_grad_(name in names)


def _optimizer(model: Any, stage: Stage, settings: LoopSettings) -> torch.optim.Optimizer:
    params = dict(model.named_parameters())
    groups = []
    for names, lr in stage.groups:
        decay = [params[n] for n in names if params[n].ndim >= 2]
        no_decay = [params[n] for n in names if params[n].ndim < 2]
        groups += [
            {"params": decay, "lr": lr, "weight_decay": settings.weight_decay},
            {"params": no_decay, "lr": lr, "weight_decay": 0.0},
        ]
    return torch.optim.AdamW([g for g in groups if g["params"]])


def _scheduler(opt: torch.optim.Optimizer, steps: int, settings: LoopSettings) -> Any:
    warm = max(1, int(steps * settings.warmup))
    if settings.schedule == "one_cycle":
        total = max(steps, 2)  # warm-up of at least 2 steps: OneCycleLR divides by (its steps - 1)
        return torch.optim.lr_scheduler.OneCycleLR(
            opt,
            max_lr=[g["lr"] for g in opt.param_groups],
            total_steps=total,
            pct_start=min(max(settings.warmup, 0.01, 2 / total), 0.99),
            anneal_strategy="cos",
        )
    if settings.schedule == "cosine":

        def factor(step: int) -> float:
            if step < warm:
                return (step + 1) / warm
            return 0.5 * (1 + math.cos(math.pi * min(1.0, (step - warm) / max(1, steps - warm))))

        return torch.optim.lr_scheduler.LambdaLR(opt, factor)
    raise SynthdeidError(f"unknown schedule {settings.schedule!r}; use one_cycle or cosine")


def trainable_names(stages: Sequence[Stage]) -> set[str]:
    return {n for s in stages for group, _ in s.groups for n in group}


def _save(path: Path, payload: dict[str, Any]) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    os.close(fd)
    torch.save(payload, tmp)
    os.replace(tmp, path)


def _after_epoch(out_dir: Path, stage: int, epoch: int) -> None:
    """Called after each checkpoint is written (tests patch it to simulate an interruption)."""


def train_stages(
    model: Any,
    train_blocks: Sequence[Sequence[int]],
    dev_blocks: Sequence[Sequence[int]],
    stages: Sequence[Stage],
    settings: LoopSettings,
    out_dir: Path,
    fingerprint: str,
) -> dict[str, Any]:
    """Train ``model`` through ``stages``, resuming from ``out_dir/checkpoint.pt``; returns metrics."""
    if not train_blocks:
        raise SynthdeidError("there is no training text to train on")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / CHECKPOINT
    device = next(model.parameters()).device
    keep = trainable_names(stages)
    distributed.init()
    # loaded on the CPU: the rng state must stay there; load_state_dict copies weights and optimizer
    # state onto the model's device
    ckpt = torch.load(path, map_location="cpu", weights_only=True) if distributed.is_main() and path.exists() else None
    ckpt = distributed.broadcast(ckpt)  # every process resumes from the main process's checkpoint
    if ckpt is not None and ckpt["fingerprint"] != fingerprint:
        raise SynthdeidError(
            f"{path} was written for other data or settings; delete it (or use a new output "
            "folder) to train from scratch"
        )
    history: list[dict[str, Any]] = []
    pos = (0, 0)
    if ckpt is None:
        torch.manual_seed(settings.seed)
        random.seed(settings.seed)
    else:
        unexpected = model.load_state_dict(ckpt["model"], strict=False).unexpected_keys
        if unexpected:
            raise SynthdeidError(f"{path} does not fit the model (unexpected weights {unexpected[:3]})")
        torch.set_rng_state(ckpt["rng"]["torch"])
        random.setstate(ckpt["rng"]["python"])
        history, pos = ckpt["history"], tuple(ckpt["position"])
    steps_per_epoch = math.ceil(len(train_blocks) / settings.batch_size)
    n_tokens, seconds, epochs_run = 0, 0.0, 0
    for s, stage in enumerate(stages):
        if s < pos[0] or (s == pos[0] and pos[1] >= stage.epochs):
            continue
        apply_stage(model, stage)
        opt = _optimizer(model, stage, settings)
        sched = _scheduler(opt, steps_per_epoch * stage.epochs, settings)
        first = 0
        if ckpt is not None and s == pos[0]:
            opt.load_state_dict(ckpt["optimizer"])
            sched.load_state_dict(ckpt["scheduler"])
            first = pos[1]
        for epoch in range(first, stage.epochs):
            model.train()
            order = torch.randperm(
                len(train_blocks),
                generator=torch.Generator().manual_seed(settings.seed * 1_000_003 + s * 1_009 + epoch),
            ).tolist()
            batches = [order[i : i + settings.batch_size] for i in range(0, len(order), settings.batch_size)]
            losses, t0 = [], time.perf_counter()
            label = (
                f"stage {s + 1}/{len(stages)} epoch {epoch + 1}/{stage.epochs}"
                if len(stages) > 1
                else f"epoch {epoch + 1}/{stage.epochs}"
            )
            for batch in track(batches, f"training {label}", total=len(batches)):
                with autocast(settings.precision):
                    loss, tokens = batch_loss(model, [train_blocks[i] for i in batch], device)
                if loss is not None:
                    loss.backward()
                trained = [p for g in opt.param_groups for p in g["params"]]
                distributed.sum_gradients(trained)
                if settings.grad_clip > 0:
                    torch.nn.utils.clip_grad_norm_(trained, settings.grad_clip)
                opt.step()
                sched.step()
                opt.zero_grad(set_to_none=True)
                losses.append(distributed.all_sum(loss.item() if loss is not None else 0.0))
                n_tokens += tokens
            seconds += time.perf_counter() - t0
            val = evaluate(model, dev_blocks, settings.batch_size)
            history.append({"stage": s, "epoch": epoch, "train_loss": sum(losses) / len(losses), "val_loss": val})
            if distributed.is_main():
                state = {k: v for k, v in model.state_dict().items() if k in keep}
                _save(
                    path,
                    {
                        "fingerprint": fingerprint,
                        "position": (s, epoch + 1),
                        "model": state,
                        "optimizer": opt.state_dict(),
                        "scheduler": sched.state_dict(),
                        "history": history,
                        "rng": {"torch": torch.get_rng_state(), "python": random.getstate()},
                    },
                )
            epochs_run += 1
            _after_epoch(out_dir, s, epoch)
    model.eval()
    last = history[-1] if history else {}
    val = last.get("val_loss")
    return {
        "train_loss": last.get("train_loss"),
        "val_loss": val,
        "perplexity": math.exp(val) if val is not None and val < 50 else None,
        "epochs": sum(s.epochs for s in stages),
        "epochs_run": epochs_run,
        "train_tokens_per_epoch": sum(len(b) for b in train_blocks),
        "tokens_per_second": n_tokens / seconds if seconds else None,
        "parameters": sum(p.numel() for p in model.parameters()),
        "trainable_parameters": sum(p.numel() for n, p in model.named_parameters() if n in keep),
        "precision": resolve(settings.precision),
        "history": history,
    }
