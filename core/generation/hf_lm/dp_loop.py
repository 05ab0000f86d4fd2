"""Differentially private training of a transformers causal LM (DP-SGD through Opacus,
``synthdeid.generation.dp``): one note per sample, Poisson batches, per-sample gradients from Opacus'
``GradSampleModule`` (functorch for layers it has no grad sampler for, such as GPT-2's ``Conv1D``),
AdamW with the loop's schedule, a checkpoint after every epoch with the accountant in it.

Guarded failure modes: GPT-2 broadcasts its position ids over the batch (one row for all notes),
which gives the position embedding a per-sample gradient of batch size 1; explicit ``[batch, time]``
position ids are passed instead. Packed blocks that mix notes are not used: a note is the unit.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F

from synthdeid import SynthdeidError
from synthdeid.generation import distributed
from synthdeid.generation.dp import DPConfig, DPTraining, backward
from synthdeid.generation.hf_lm.train_loop import (
    CHECKPOINT,
    LoopSettings,
    Stage,
    _collate,
    _optimizer,
    _save,
    _scheduler,
    evaluate,
)
from synthdeid.progress import track

PHYSICAL_BATCH = 8
"""Notes per forward/backward pass (bounds memory; does not change the result)."""


def note_samples(notes: Sequence[Sequence[int]], max_tokens: int) -> tuple[list[list[int]], int]:
    """Each note's ids cut to ``max_tokens``, and how many were cut."""
    out = [list(n[:max_tokens]) for n in notes if len(n) > 1]
    return out, sum(len(n) > max_tokens for n in notes)


def per_note_loss(model: Any, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Each note's mean next-token cross-entropy ``[batch]``, with per-row position ids."""
    positions = torch.arange(ids.size(1), device=ids.device).unsqueeze(0).repeat(ids.size(0), 1)
    logits = model(input_ids=ids, attention_mask=mask, position_ids=positions).logits[:, :-1].float()
    labels = ids[:, 1:].masked_fill(mask[:, 1:] == 0, -100)
    ce = F.cross_entropy(
        logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=-100, reduction="none"
    ).view_as(labels)
    return ce.sum(1) / (labels != -100).sum(1).clamp(min=1)


def train_dp(
    model: Any,
    samples: Sequence[Sequence[int]],
    dev_blocks: Sequence[Sequence[int]],
    epochs: int,
    lr: float,
    settings: LoopSettings,
    dp: DPConfig,
    out_dir: Path,
    fingerprint: str,
    truncated: int = 0,
) -> dict[str, Any]:
    """Train every parameter of ``model`` with DP-SGD (AdamW) for ``epochs``, resuming from
    ``out_dir/checkpoint.pt``; returns the metrics with the accountant's ``dp`` figures."""
    if distributed.world_size() > 1:
        raise SynthdeidError(
            "DP-SGD training runs in one process: its privacy accounting assumes one Poisson-"
            "sampled batch per step; run this stage without torchrun (or drop `dp`)"
        )
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / CHECKPOINT
    device = next(model.parameters()).device
    torch.manual_seed(settings.seed)
    random.seed(settings.seed)
    training = DPTraining(dp, len(samples), epochs, settings.seed)
    names = tuple(n for n, p in model.named_parameters() if p.requires_grad)
    opt = _optimizer(model, Stage(epochs, ((names, lr),)), settings)
    sched = _scheduler(opt, training.steps_per_epoch * epochs, settings)
    history: list[dict[str, Any]] = []
    first = 0
    if path.exists():
        ckpt = torch.load(path, map_location="cpu", weights_only=True)  # its rng state must stay on the CPU
        if ckpt["fingerprint"] != fingerprint:
            raise SynthdeidError(
                f"{path} was written for other data or settings; delete it (or use a new output "
                "folder) to train from scratch"
            )
        model.load_state_dict(ckpt["model"])
        opt.load_state_dict(ckpt["optimizer"])
        sched.load_state_dict(ckpt["scheduler"])
        training.load_state_dict(ckpt["dp"])
        torch.set_rng_state(ckpt["rng"])
        history, first = ckpt["history"], ckpt["epoch"]
    gsm = training.wrap_model(model, batch_first=True)
    dp_opt = training.make_optimizer(opt)
    try:
        for epoch in range(first, epochs):
            model.train()
            losses: list[float] = []
            batches = list(training.batches(epoch))
            for batch in track(batches, f"training (dp) epoch {epoch + 1}/{epochs}", total=len(batches)):
                dp_opt.zero_grad(set_to_none=True)
                if batch:
                    batch = sorted(batch, key=lambda i: (len(samples[i]), i))
                    for k in range(0, len(batch), PHYSICAL_BATCH):
                        ids, mask = _collate([samples[i] for i in batch[k : k + PHYSICAL_BATCH]], device)
                        loss = per_note_loss(gsm, ids, mask)
                        backward(loss.mean())
                        losses += loss.detach().tolist()
                    training.step()
                else:
                    training.empty_step()
                sched.step()
            val = evaluate(model, dev_blocks, settings.batch_size)
            history.append(
                {"stage": 0, "epoch": epoch, "train_loss": sum(losses) / max(len(losses), 1), "val_loss": val}
            )
            _save(
                path,
                {
                    "fingerprint": fingerprint,
                    "epoch": epoch + 1,
                    "model": model.state_dict(),
                    "optimizer": opt.state_dict(),
                    "scheduler": sched.state_dict(),
                    "dp": training.state_dict(),
                    "history": history,
                    "rng": torch.get_rng_state(),
                },
            )
    finally:
        gsm.remove_hooks()
    model.eval()
    val = history[-1]["val_loss"] if history else None
    return {
        "train_loss": history[-1]["train_loss"] if history else None,
        "val_loss": val,
        "perplexity": math.exp(val) if val is not None and val < 50 else None,
        "epochs": epochs,
        "epochs_run": epochs - first,
        "parameters": sum(p.numel() for p in model.parameters()),
        "history": history,
        "dp": training.metrics(truncated),
    }
