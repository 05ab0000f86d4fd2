"""Training the masked LM on the note texts (plain text, no tags), seeded and resumable.

Each step masks ``mlm_probability`` of the tokens (BERT's 80% [MASK] / 10% random / 10% kept) and,
as in Belkadi et al. (appendix B), masks ``phi_mask`` of the PHI spans whole, so the model learns to
fill the spans generation will mask. Validation masks are drawn once with a fixed seed, so the
validation loss is comparable across epochs. A checkpoint (weights, optimizer, history) is written
atomically after every epoch; epoch ``e`` draws its order, masks and dropout from ``seed`` and ``e``
alone, so a resumed run ends with the same weights as an uninterrupted one.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import torch

from synthdeid import Document, InputError, SynthdeidError
from synthdeid.api import TrainingData
from synthdeid.toolkit import split_timing, track, write_jsonl

from .config import MLMFillConfig
from .model import (
    Vocab,
    build_model,
    build_tokenizer,
    load_model,
    load_tokenizer,
    window_length,
)
from .notes import source_notes, split_pieces

CHECKPOINT = "checkpoint.pt"
CONFIG = "mlm_fill.json"
NOTES = "source_notes.jsonl"
METRICS = "metrics.json"

Chunk = tuple[torch.Tensor, torch.Tensor]
"""Content token ids and, per token, a corpus-wide PHI span number (-1 outside PHI)."""


def warmup_lr(cfg: MLMFillConfig, step: int) -> float:
    """The learning rate of global step ``step`` (from 1): linear warm-up over ``warmup_steps``,
    then ``learning_rate``. Without it a transformer trained from scratch on a few hundred notes stays at
    predicting frequent tokens."""
    assert cfg.learning_rate is not None
    return cfg.learning_rate * min(1.0, step / cfg.warmup_steps) if cfg.warmup_steps else cfg.learning_rate


def encode_notes(vocab: Vocab, docs: Sequence[Document], size: int) -> tuple[list[Chunk], int]:
    """Every note as token chunks of at most ``size`` tokens (long notes are split, not cut);
    returns the chunks and the number of PHI spans."""
    chunks: list[Chunk] = []
    n_spans = 0
    for doc in docs:
        pieces = split_pieces(doc)
        ids: list[int] = []
        spans: list[int] = []
        for p, toks in zip(pieces, vocab.encode_pieces(doc, pieces)):
            ids += toks
            spans += [n_spans + p.span if p.span >= 0 else -1] * len(toks)
        n_spans += len(doc.spans)
        for a in range(0, len(ids), size):
            chunks.append(
                (torch.tensor(ids[a : a + size], dtype=torch.long), torch.tensor(spans[a : a + size], dtype=torch.long))
            )
    return chunks, n_spans


def _batch(vocab: Vocab, chunks: Sequence[Chunk]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Padded ids with [CLS]/[SEP], attention mask, content mask and span numbers."""
    lead = torch.tensor([vocab.cls_id] if vocab.cls_id is not None else [], dtype=torch.long)
    tail = torch.tensor([vocab.sep_id] if vocab.sep_id is not None else [], dtype=torch.long)
    width = max(len(c[0]) for c in chunks) + len(lead) + len(tail)
    ids = torch.full((len(chunks), width), vocab.pad_id, dtype=torch.long)
    attention = torch.zeros_like(ids)
    content = torch.zeros_like(ids, dtype=torch.bool)
    spans = torch.full_like(ids, -1)
    for r, (c, s) in enumerate(chunks):
        n = len(c)
        ids[r, : n + len(lead) + len(tail)] = torch.cat([lead, c, tail])
        attention[r, : n + len(lead) + len(tail)] = 1
        content[r, len(lead) : len(lead) + n] = True
        spans[r, len(lead) : len(lead) + n] = s
    return ids, attention, content, spans


def _batches(lengths: Sequence[int], size: int, g: torch.Generator) -> list[list[int]]:
    """Seeded batches of chunk indices: shuffled, sorted by length within pools of 50 batches (less
    padding), and the batches shuffled again."""
    order = torch.randperm(len(lengths), generator=g).tolist()
    pool = size * 50
    batches = []
    for a in range(0, len(order), pool):
        group = sorted(order[a : a + pool], key=lambda i: lengths[i])
        batches += [group[b : b + size] for b in range(0, len(group), size)]
    return [batches[i] for i in torch.randperm(len(batches), generator=g).tolist()]


def mask_batch(
    vocab: Vocab,
    ids: torch.Tensor,
    content: torch.Tensor,
    spans: torch.Tensor,
    span_masked: torch.Tensor,
    cfg: MLMFillConfig,
    g: torch.Generator,
) -> tuple[torch.Tensor, torch.Tensor]:
    """(inputs, labels) for one batch: whole PHI spans (``span_masked``) plus random tokens."""
    phi = (spans >= 0) & span_masked[spans.clamp(min=0)] if len(span_masked) else torch.zeros_like(content)
    rand = (torch.rand(ids.shape, generator=g) < cfg.mlm_probability) & content & ~phi
    how = torch.rand(ids.shape, generator=g)
    random_ids = torch.randint(vocab.size, ids.shape, generator=g)
    labels = torch.where(phi | rand, ids, torch.full_like(ids, -100))
    inputs = ids.clone()
    inputs[phi | (rand & (how < 0.8))] = vocab.mask_id
    swap = rand & (how >= 0.8) & (how < 0.9)
    inputs[swap] = random_ids[swap]
    return inputs, labels


def evaluate(model: Any, vocab: Vocab, chunks: Sequence[Chunk], n_spans: int, cfg: MLMFillConfig) -> float | None:
    """Token-weighted MLM loss on ``chunks`` with masks fixed by the seed (None without chunks)."""
    if not chunks:
        return None
    g = torch.Generator().manual_seed(cfg.seed + 99_991)
    span_masked = torch.rand(n_spans, generator=g) < cfg.phi_mask
    total, count = 0.0, 0
    model.eval()
    with torch.inference_mode():
        for a in range(0, len(chunks), cfg.batch_size):
            ids, attention, content, spans = _batch(vocab, chunks[a : a + cfg.batch_size])
            inputs, labels = mask_batch(vocab, ids, content, spans, span_masked, cfg, g)
            n = int((labels != -100).sum())
            if n:
                total += float(model(input_ids=inputs, attention_mask=attention, labels=labels).loss) * n
                count += n
    return total / count if count else None


def _atomic_save(obj: Any, path: Path) -> None:
    tmp = path.with_name(path.name + ".tmp")
    torch.save(obj, tmp)
    os.replace(tmp, path)


def _save_dir(thing: Any, path: Path) -> None:
    """``save_pretrained`` into a fresh folder, swapped in place of the old one."""
    tmp = path.with_name(path.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    thing.save_pretrained(str(tmp))
    shutil.rmtree(path, ignore_errors=True)
    os.replace(tmp, path)


def train_mlm(cfg: MLMFillConfig, data: TrainingData, out_dir: Path) -> dict[str, Any]:
    """Train (or resume) the masked LM on ``data``; write model, tokenizer, config, source notes."""
    cfg = cfg.resolved()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(cfg.threads)
    extra = data.extra or {}
    train_docs, stats = source_notes(data.train, "train", extra.get("train_ids"))
    dev_docs, dev_stats = source_notes(data.dev, "dev", extra.get("dev_ids"))
    if not train_docs:
        raise InputError("there are no non-empty training notes", fix="check the inline stage's train split")

    ckpt_path = out_dir / CHECKPOINT
    state = torch.load(ckpt_path, weights_only=True) if ckpt_path.exists() else None
    if state is not None:
        changed = cfg.training_changes(state["config"])
        if changed:
            raise SynthdeidError(
                f"{ckpt_path} was trained with other settings ({', '.join(changed)}); "
                "delete the folder to start again, or restore those settings to resume"
            )
        tokenizer = load_tokenizer(out_dir / "tokenizer")
    elif cfg.pretrained:
        tokenizer = load_tokenizer(cfg.pretrained)
    else:
        tokenizer = build_tokenizer([d.text for d in train_docs], cfg)
    model = load_model(cfg.pretrained) if cfg.pretrained else build_model(cfg, tokenizer)
    if len(tokenizer) > model.get_input_embeddings().num_embeddings:
        raise InputError(
            f"the tokenizer has {len(tokenizer)} tokens, the model's embeddings fewer",
            path=cfg.pretrained,
            fix="point pretrained at a folder holding a model and its own tokenizer",
        )
    if state is not None:
        model.load_state_dict(state["model"])
    _save_dir(tokenizer, out_dir / "tokenizer")
    vocab = Vocab(tokenizer)
    window = window_length(model, cfg)
    size = window - sum(i is not None for i in (vocab.cls_id, vocab.sep_id))
    chunks, n_spans = encode_notes(vocab, train_docs, size)
    dev_chunks, dev_spans = encode_notes(vocab, dev_docs, size)

    optim = torch.optim.AdamW(model.parameters(), lr=cast(float, cfg.learning_rate), weight_decay=cfg.weight_decay)
    if state is not None:
        optim.load_state_dict(state["optim"])
    history: list[dict[str, Any]] = list(state["history"]) if state else []
    tokens, seconds = 0, 0.0
    for epoch in range(len(history), cfg.max_epochs):
        torch.manual_seed(cfg.seed * 7_919 + epoch)  # dropout
        g = torch.Generator().manual_seed(cfg.seed * 1_000_003 + epoch)
        batches = _batches([len(c[0]) for c in chunks], cfg.batch_size, g)
        span_masked = torch.rand(n_spans, generator=g) < cfg.phi_mask
        model.train()
        loss_sum, loss_n = 0.0, 0
        started = time.perf_counter()
        for step, batch in enumerate(
            track(batches, f"mlm_fill epoch {epoch + 1}/{cfg.max_epochs}", total=len(batches)),
            start=epoch * len(batches) + 1,
        ):
            for group in optim.param_groups:  # a function of the global step: resuming keeps the schedule
                group["lr"] = warmup_lr(cfg, step)
            ids, attention, content, spans = _batch(vocab, [chunks[i] for i in batch])
            inputs, labels = mask_batch(vocab, ids, content, spans, span_masked, cfg, g)
            n = int((labels != -100).sum())
            tokens += int(attention.sum())
            if not n:
                continue
            loss = model(input_ids=inputs, attention_mask=attention, labels=labels).loss
            optim.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optim.step()
            loss_sum += loss.item() * n
            loss_n += n
        seconds += time.perf_counter() - started
        history.append(
            {
                "epoch": epoch + 1,
                "train_loss": loss_sum / loss_n if loss_n else None,
                "val_loss": evaluate(model, vocab, dev_chunks, dev_spans, cfg),
            }
        )
        _atomic_save(
            {"config": cfg.model_dump(), "model": model.state_dict(), "optim": optim.state_dict(), "history": history},
            ckpt_path,
        )

    _save_dir(model, out_dir / "model")
    write_jsonl(train_docs, out_dir / NOTES)
    resolved = {**cfg.model_dump(), "window": window, "model_type": model.config.model_type}
    (out_dir / CONFIG).write_text(json.dumps(resolved, indent=2) + "\n", encoding="utf-8")
    last = (
        history[-1] if history else {"train_loss": None, "val_loss": evaluate(model, vocab, dev_chunks, dev_spans, cfg)}
    )
    val = last["val_loss"]
    metrics = {
        "val_loss": val,
        "val_perplexity": math.exp(val) if val is not None and val < 50 else None,
        "train_loss": last["train_loss"],
        "epochs": len(history),
        "epochs_this_run": len(history) - (len(state["history"]) if state else 0),
        "tokens_per_s": tokens / seconds if tokens and seconds > 0 else None,
        "train_chunks": len(chunks),
        "window": window,
        "parameters": sum(p.numel() for p in model.parameters()),
        "vocab_size": len(tokenizer),
        "train_notes": stats,
        "dev_notes": dev_stats,
        "history": history,
    }
    (out_dir / METRICS).write_text(json.dumps(split_timing(metrics)[0], indent=2) + "\n", encoding="utf-8")
    return metrics
