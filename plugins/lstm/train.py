"""Training: truncated BPTT over the concatenated token stream, plain SGD with learning-rate
back-off, a checkpoint every epoch (resumable), and the best model kept as the final one.

Files in the model directory (each written atomically, tmp + rename):
``config.json`` (resolved config), ``vocab.json`` (token strings by id), ``checkpoint.pt`` (the
last epoch: model and optimizer state, learning rate, epoch, best validation loss, history, RNG
state, vocabulary, config), ``model.pt`` (the weights with the lowest validation loss so far) and
``history.json`` (learning rate, training and validation loss per epoch).

The notes are concatenated in their given order (no shuffling), and every epoch starts from a
zero hidden state, so an epoch depends only on the weights and RNG state saved before it.
"""

from __future__ import annotations

import json
import logging
import math
import os
import pickle
import re
import sys
import time
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F

from synthdeid import InputError, SynthdeidError
from synthdeid.api import TrainingData
from synthdeid.toolkit import autocast, regular_file, renames, track
from synthdeid.toolkit import brief_error as brief
from synthdeid.toolkit import resolve_precision as resolve

from .config import LSTMConfig
from .model import LSTMLanguageModel
from .vocab import Vocab

log = logging.getLogger("synthdeid.lstm")

CONFIG, VOCAB, CHECKPOINT, MODEL, HISTORY = "config.json", "vocab.json", "checkpoint.pt", "model.pt", "history.json"
RETRAIN = "delete the model directory and train again"
RESUMABLE = ("max_epochs", "patience", "max_train_tokens", "threads")
"""Settings that may change between an interrupted training and its resumption."""


def next_lr(lr: float, val_loss: float, best_val_loss: float, backoff: float = 4.0, min_lr: float = 0.1) -> float:
    """The learning rate for the next epoch: unchanged when ``val_loss`` improved on
    ``best_val_loss``, else divided by ``backoff`` but not below ``min_lr``."""
    if val_loss < best_val_loss:
        return lr
    return max(lr / backoff, min_lr)


def _stop(config: LSTMConfig, history: list[dict[str, Any]], epoch_tokens: int) -> str | None:
    """Why training stops before the next epoch (``max_epochs``, ``max_train_tokens``, ``patience``),
    or None to go on; the history of a resumed training counts too."""
    epochs = len(history)
    if epochs >= config.max_epochs:
        return "max_epochs"
    if config.max_train_tokens and epochs * epoch_tokens >= config.max_train_tokens:
        return "max_train_tokens"
    if config.patience and history:
        best = min(range(epochs), key=lambda i: (history[i]["val_loss"], i))
        if epochs - 1 - best >= config.patience:
            return "patience"
    return None


def batchify(ids: list[int], columns: int) -> torch.Tensor:
    """The token stream as ``[rows, columns]``: column j is the j-th contiguous slice of the
    stream (the tail that does not fill a row is dropped), so chunks of rows continue each other."""
    rows = len(ids) // columns
    return torch.tensor(ids[: rows * columns], dtype=torch.long).view(columns, rows).t().contiguous()


def _stream(vocab: Vocab, lines: list[str]) -> list[int]:
    return [i for line in lines for i in vocab.encode(line)]


def _canonical(obj: Any) -> Any:
    """``obj`` with every string interned: pickle memoizes objects by identity, so equal
    checkpoints pickle to equal bytes only when equal strings are the same object."""
    if isinstance(obj, str):
        return sys.intern(obj)
    if isinstance(obj, dict):
        out: Any = type(obj)((_canonical(k), _canonical(v)) for k, v in obj.items())
        if hasattr(obj, "_metadata"):  # a module state_dict's version info
            out._metadata = _canonical(obj._metadata)
        return out
    if isinstance(obj, (list, tuple)):
        return type(obj)(_canonical(v) for v in obj)
    return obj


def _save(obj: Any, path: Path) -> None:
    """Write ``path`` atomically: JSON for ``*.json``, else ``torch.save`` with byte-stable output."""
    tmp = path.with_name(path.name + ".tmp")
    if path.suffix == ".json":
        tmp.write_text(json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    else:
        torch.save(_canonical(obj), tmp)
    os.replace(tmp, path)


def load_checkpoint(path: Path) -> dict[str, Any] | None:
    """A checkpoint or model file written by training, or None when there is none."""
    if not path.exists():
        return None
    regular_file(path, RETRAIN)
    try:
        ckpt = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as e:  # objects other than tensors: torch's tensors-only reader refused them
        names = sorted(set(re.findall(r"GLOBAL ([\w.]+)", str(e))))
        raise InputError(
            f"is a pickle that holds more than tensors ({', '.join(names) or 'objects'}), which could run "
            "code when loaded: synthdeid reads only tensors from a checkpoint, and refuses it",
            path=path,
            fix=RETRAIN + " (synthdeid writes checkpoints of tensors only)",
        ) from None
    except Exception as e:  # noqa: BLE001 - a truncated or foreign file: say which and what to do
        raise InputError(f"cannot read the LSTM checkpoint ({brief(e)})", path=path, fix=RETRAIN) from None
    if not isinstance(ckpt, dict):
        raise InputError(f"holds a {type(ckpt).__name__}, not an LSTM checkpoint", path=path, fix=RETRAIN)
    return ckpt


def _check_resumable(ckpt: dict[str, Any], config: LSTMConfig, vocab: Vocab, path: Path) -> None:
    former = renames(LSTMConfig)
    saved = {former.get(k, k): v for k, v in ckpt["config"].items()}  # maybe under former names
    saved = {k: v for k, v in saved.items() if k not in RESUMABLE}
    now = {k: v for k, v in config.model_dump().items() if k not in RESUMABLE}
    changed = sorted(k for k in set(saved) | set(now) if saved.get(k) != now.get(k))
    if changed:
        raise InputError(
            f"the checkpoint was trained with other settings ({', '.join(changed)})",
            path=path,
            fix="restore those settings to resume, or delete the model directory to start over",
        )
    if ckpt["vocab"] != vocab.tokens:
        raise InputError(
            "the checkpoint was trained on other data (its vocabulary differs)",
            path=path,
            fix="delete the model directory to train on the new data",
        )


def evaluate(model: LSTMLanguageModel, data: torch.Tensor, seq_len: int) -> float:
    """Mean cross-entropy per token over a batchified stream (hidden state carried across chunks)."""
    model.eval()
    total, count = 0.0, 0
    with torch.inference_mode():
        hidden = model.init_hidden(data.size(1))
        for i in range(0, data.size(0) - 1, seq_len):
            x, y = data[i : i + seq_len], data[i + 1 : i + 1 + seq_len]
            x = x[: y.size(0)]
            logits, hidden = model(x, hidden)
            total += F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1), reduction="sum").item()
            count += y.numel()
    return total / max(count, 1)


class StreamEpochs:
    """Plain training: truncated BPTT over the token stream, SGD with global gradient clipping."""

    def __init__(self, model: LSTMLanguageModel, data: torch.Tensor, config: LSTMConfig) -> None:
        self.model, self.data, self.config = model, data, config
        self.opt = torch.optim.SGD(model.parameters(), lr=config.learning_rate)

    def run(self, epoch: int, lr: float, description: str) -> tuple[float, int]:
        """One epoch at ``lr``: the mean training loss per token and the tokens trained on."""
        model, data, config, opt = self.model, self.data, self.config, self.opt
        for group in opt.param_groups:
            group["lr"] = lr
        model.train()
        hidden = model.init_hidden(data.size(1))
        starts = range(0, data.size(0) - 1, config.seq_len)
        total, count = 0.0, 0
        for i in track(starts, description=description, total=len(starts)):
            x, y = data[i : i + config.seq_len], data[i + 1 : i + 1 + config.seq_len]
            x = x[: y.size(0)]
            hidden = (hidden[0].detach(), hidden[1].detach())
            opt.zero_grad(set_to_none=True)
            with autocast(config.precision):
                logits, hidden = model(x, hidden)
            loss = F.cross_entropy(logits.float().reshape(-1, logits.size(-1)), y.reshape(-1))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), config.grad_clip)
            opt.step()
            total += loss.item() * y.numel()
            count += y.numel()
        return total / max(count, 1), (data.size(0) - 1) * data.size(1)

    def state_dict(self) -> dict[str, Any]:
        return {"optimizer": self.opt.state_dict()}

    def load_state_dict(self, ckpt: dict[str, Any]) -> None:
        self.opt.load_state_dict(ckpt["optimizer"])

    def metrics(self) -> dict[str, Any]:
        return {"precision": resolve(self.config.precision)}


def _streams(vocab: Vocab, data: TrainingData, config: LSTMConfig) -> tuple[torch.Tensor, torch.Tensor]:
    train_ids, dev_ids = _stream(vocab, data.train), _stream(vocab, data.dev)
    if len(train_ids) < 2 * config.batch_size:
        raise InputError(
            f"too little training text for the LSTM: {len(train_ids)} tokens for batch_size {config.batch_size}",
            path="data/inline/train.txt",
            fix="use more notes or a smaller batch_size",
        )
    if len(dev_ids) < 2:
        raise InputError(
            "the LSTM needs validation text, and the dev split is empty",
            path="data/inline/dev.txt",
            fix="give prepare.split a non-zero dev share",
        )
    dev_columns = min(config.eval_batch_size, len(dev_ids) // 2)
    return batchify(train_ids, config.batch_size), batchify(dev_ids, dev_columns)


def train_lstm(config: LSTMConfig, data: TrainingData, out_dir: Path) -> dict[str, Any]:
    """Train (or resume) an LSTM LM in ``out_dir`` with ``config.threads`` threads; returns the metrics."""
    threads = torch.get_num_threads()
    torch.set_num_threads(config.threads)
    try:
        return _train(config, data, Path(out_dir))
    finally:
        torch.set_num_threads(threads)


def _train(config: LSTMConfig, data: TrainingData, out_dir: Path) -> dict[str, Any]:
    out_dir.mkdir(parents=True, exist_ok=True)
    if not data.pretokenized:
        log.warning(
            "the LSTM splits its text on spaces, but this text is not tokenized "
            "(set inline.tokenize: true): punctuation stays attached to words"
        )
    vocab = Vocab.build(data.train, data.special_tokens, config.min_count)
    train_data, dev_data = _streams(vocab, data, config)
    ckpt = load_checkpoint(out_dir / CHECKPOINT)
    if ckpt is not None:
        _check_resumable(ckpt, config, vocab, out_dir / CHECKPOINT)
        if not (out_dir / MODEL).exists():
            raise InputError(
                "the model directory has a checkpoint but no model.pt",
                path=out_dir,
                fix="delete the model directory and train again",
            )

    torch.manual_seed(config.seed)
    model = LSTMLanguageModel(len(vocab), config)
    if config.dp is None:
        runner: Any = StreamEpochs(model, train_data, config)
    else:  # differentially private: one note per sample (see dp_train)
        from .dp_train import DPEpochs

        runner = DPEpochs(model, vocab, data.train, config)
    epoch, lr, best, history = 0, config.learning_rate, math.inf, []
    if ckpt is not None:
        model.load_state_dict(ckpt["model"])
        runner.load_state_dict(ckpt)
        epoch, lr, best, history = ckpt["epoch"], ckpt["lr"], ckpt["best_val_loss"], ckpt["history"]
        torch.set_rng_state(ckpt["rng"])
        log.info("resuming LSTM training after epoch %d in %s", epoch, out_dir)
    resumed_from = epoch
    vocab.save(out_dir / VOCAB)
    _save(config.model_dump(), out_dir / CONFIG)

    train_time, trained_tokens = 0.0, 0
    while (stopped_by := _stop(config, history, int(train_data.numel()))) is None:
        epoch += 1
        t0 = time.perf_counter()
        train_loss, tokens = runner.run(epoch, lr, f"lstm epoch {epoch}/{config.max_epochs}")
        train_time += time.perf_counter() - t0
        trained_tokens += tokens
        val_loss = evaluate(model, dev_data, config.seq_len)
        if not math.isfinite(val_loss):
            raise SynthdeidError(
                f"LSTM training diverged in epoch {epoch} (validation loss {val_loss}); "
                "lower learning_rate or grad_clip in the lstm settings"
            )
        if val_loss < best:
            _save({"model": model.state_dict(), "epoch": epoch, "val_loss": val_loss}, out_dir / MODEL)
        history.append({"epoch": epoch, "lr": lr, "train_loss": train_loss, "val_loss": val_loss})
        lr = next_lr(lr, val_loss, best, config.lr_backoff, config.min_lr)
        best = min(best, val_loss)
        _save(
            {
                "model": model.state_dict(),
                **runner.state_dict(),
                "epoch": epoch,
                "lr": lr,
                "best_val_loss": best,
                "history": history,
                "rng": torch.get_rng_state(),
                "vocab": vocab.tokens,
                "config": config.model_dump(),
            },
            out_dir / CHECKPOINT,
        )
        _save(history, out_dir / HISTORY)
        log.info(
            "lstm epoch %d: lr %g, train loss %.3f, validation loss %.3f (ppl %.1f)",
            epoch,
            history[-1]["lr"],
            train_loss,
            val_loss,
            math.exp(val_loss),
        )

    best_entry = min(history, key=lambda h: h["val_loss"])
    return {
        "epochs": epoch,
        "stopped_by": stopped_by,
        "resumed_from_epoch": resumed_from,
        "val_loss": history[-1]["val_loss"],
        "best_val_loss": best,
        "best_epoch": best_entry["epoch"],
        "val_perplexity": math.exp(best),
        "lr": lr,
        "train_tokens": int(train_data.numel()),
        "vocab_size": len(vocab),
        "parameters": model.n_parameters(),
        "tokens_per_s": round(trained_tokens / train_time, 1) if train_time else None,
        **runner.metrics(),
    }
