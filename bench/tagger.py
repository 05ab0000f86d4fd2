"""Tagger speed and learning, every tagger on the same notes in one run: training tokens/s,
prediction tokens/s and validation entity F1 after each epoch, and each figure's ratio to the
reference tagger (flair's BiLSTM-CRF with character embeddings, measured in the same run).

The notes are a prepared split (``data/prepared/{train,dev}.jsonl`` of the configured corpus:
``dvc repro prepare`` first, or ``--data DIR`` with ``train.jsonl`` and ``dev.jsonl``). Flair's
taggers train ``--epochs`` epochs (flair keeps the best epoch by dev F1); ``torch_bilstm_crf``
runs its own schedule (early stopping on dev F1, ``--torch-max-epochs`` at most). Prediction is
timed on the dev notes with the trained model loaded back from disk. Run it alone: two torch jobs
on 2 cores slow each other 7-10x.

    python bench/tagger.py [--data data/prepared] [--language nl] [--epochs 5] [--train-docs N]
                           [--taggers flair_chars flair_onehot torch_bilstm_crf]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from synthdeid.corpus.formats import read_jsonl
from synthdeid.plugin_system.manager import registry
from synthdeid.spec import load_study
from synthdeid.tagging import words as W

REFERENCE = "flair_chars"


def setups(epochs: int, torch_max_epochs: int, threads: int) -> dict[str, tuple[str, dict[str, Any]]]:
    """Bench name -> (tagger plugin, config)."""
    flair = {"hidden_size": 128, "max_epochs": epochs, "batch_size": 32, "threads": threads}
    return {
        "flair_chars": ("flair_bilstm_crf", {**flair, "use_characters": True}),
        "flair_onehot": ("flair_bilstm_crf", {**flair, "use_characters": False}),
        "torch_bilstm_crf": ("torch_bilstm_crf", {"max_epochs": torch_max_epochs, "threads": threads}),
    }


def dev_history(metrics: dict[str, Any]) -> list[float]:
    if "history" in metrics:  # torch_bilstm_crf
        return [row["dev_f1"] for row in metrics["history"]]
    return list(metrics.get("dev_f1_history", []))


def run_one(plugin: str, config: dict[str, Any], train: list, dev: list, tokenize: Any, out: Path) -> dict[str, Any]:
    tagger = registry("tagger").create(plugin, config)
    started = time.perf_counter()
    metrics = tagger.train(train, dev, out, tokenize)
    wall = time.perf_counter() - started
    history = dev_history(metrics)
    train_tokens = sum(len(w) for d in train for w in W.line_words(d.text, tokenize))
    loaded = tagger.load(out, tokenize)
    started = time.perf_counter()
    predicted = loaded.predict(dev)
    predict_seconds = time.perf_counter() - started
    dev_tokens = sum(len(w) for d in dev for w in W.line_words(d.text, tokenize))
    epochs = len(history) or int(metrics.get("epochs", 0))
    return {"plugin": plugin, "epochs": epochs, "train_seconds": round(wall, 1),
            "train_tokens_per_s": round(train_tokens * epochs / wall, 1),
            "predict_tokens_per_s": round(dev_tokens / predict_seconds, 1),
            "dev_f1_per_epoch": history,
            "dev_f1": round(W.entity_f1([d.spans for d in dev], predicted)["f1"], 4)}


def main(argv: list[str] | None = None) -> dict[str, dict[str, Any]]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("data/prepared"))
    ap.add_argument("--language", default=None, help="language pack (default: params.yaml's)")
    ap.add_argument("--epochs", type=int, default=5, help="epochs of the flair taggers")
    ap.add_argument("--torch-max-epochs", type=int, default=40)
    ap.add_argument("--train-docs", type=int, default=0, help="train on the first N notes only (0: all)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--taggers", nargs="+", default=list(setups(1, 1, 1)))
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args(argv)
    if not (args.data / "train.jsonl").exists():
        sys.exit(f"{args.data}/train.jsonl not found: run `dvc repro prepare` first or give --data DIR")
    language = args.language or load_study().language
    tokenize = registry("language").create(language).tokenize
    train = list(read_jsonl(args.data / "train.jsonl"))
    train = train[:args.train_docs] if args.train_docs else train
    dev = list(read_jsonl(args.data / "dev.jsonl"))
    table = setups(args.epochs, args.torch_max_epochs, args.threads)
    unknown = sorted(set(args.taggers) - set(table))
    if unknown:
        sys.exit(f"unknown tagger setup(s) {', '.join(unknown)}; choose from {', '.join(table)}")
    print(f"{len(train)} training notes, {len(dev)} dev notes; load average {os.getloadavg()[0]:.2f}, "
          f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '(unset)')}", flush=True)
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.taggers:
            plugin, config = table[name]
            results[name] = run_one(plugin, config, train, dev, tokenize, Path(tmp) / name)
            r = results[name]
            print(f"{name}: {r['epochs']} epochs in {r['train_seconds']} s; dev F1 per epoch "
                  + " ".join(f"{x:.3f}" for x in r["dev_f1_per_epoch"]), flush=True)
    ref = results.get(REFERENCE)
    print(f"\n{'tagger':<18} {'epochs':>6} {'train tok/s':>12} {'x ref':>6} {'predict tok/s':>14} {'x ref':>6} {'dev F1':>7}")
    for name, r in results.items():
        ratio = (lambda k: f"{r[k] / ref[k]:.1f}" if ref else "-")  # noqa: E731
        print(f"{name:<18} {r['epochs']:>6} {r['train_tokens_per_s']:>12,.0f} {ratio('train_tokens_per_s'):>6} "
              f"{r['predict_tokens_per_s']:>14,.0f} {ratio('predict_tokens_per_s'):>6} {r['dev_f1']:>7.3f}")
    if ref is None:
        print(f"(no ratios: the reference {REFERENCE} was not run)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return results


if __name__ == "__main__":
    main()
