"""Tagger speed and learning, every tagger on the same notes in one run: training tokens/s,
prediction tokens/s and validation entity F1 after each epoch, and each figure's ratio to the
reference measured in the same run: ``torch_0.1``, the ``torch_bilstm_crf`` plugin's code of
release 0.1 (read from git, ``--baseline REV``) at the demo's settings of then (64 windows a step,
at most 0.7M training tokens). ``torch`` is today's code at those settings (the code's own
speed-up); ``study`` is the tagger the study's params.yaml configures (``utility.tagger``); flair's
BiLSTM-CRF (``flair_chars``, ``flair_onehot``) trains ``--epochs`` epochs and keeps the best.

The notes are a prepared split (``data/prepared/{train,dev}.jsonl`` of the configured corpus:
``dvc repro prepare`` first, or ``--data DIR`` with ``train.jsonl`` and ``dev.jsonl``). The torch
taggers stop early on dev F1 (``--torch-max-epochs`` at most). Training tokens/s count the wall
time of ``train`` (validation after each epoch included). Prediction is timed on the dev notes
with the trained model loaded back from disk. Run it alone: two torch jobs on 2 cores slow each
other 7-10x. ``--rounds N`` trains every setup N times, the setups taking turns within each round,
and prints the median times and the median of each round's ratios with their range: the machine's
speed drifts by 15% within an hour, so one run's ratio may be off by that much.

    python bench/tagger.py [--data data/prepared] [--language nl] [--epochs 5] [--train-docs N]
                           [--taggers torch_0.1 torch study flair_chars flair_onehot] [--baseline REV]
                           [--add NAME=SETUP] [--set NAME.KEY=VALUE ...] [--rounds N]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from collections.abc import Callable
from typing import Any

from synthdeid.corpus.formats import read_jsonl
from synthdeid.plugin_system.manager import registry
from synthdeid.spec import load_study
from synthdeid.tagging import words as W

from setups import add_arguments, apply

REFERENCE = "torch_0.1"
BASELINE = "ecae451"
"""The commit whose ``plugins/torch_tagger`` is release 0.1's tagger code."""
RELEASE_0_1 = {"batch_size": 64, "max_train_tokens": 700_000}
"""The demo's tagger settings of release 0.1 (beside the plugin's defaults)."""
Factory = Callable[[dict[str, Any]], Any]


def baseline_factory(rev: str, folder: Path) -> Factory:
    """The ``create`` of ``plugins/torch_tagger`` as it was at ``rev``, imported as its own package
    (``torch_tagger_baseline``) beside today's; it runs on today's core."""
    top = Path(__file__).resolve().parent.parent  # this repository, wherever the bench runs
    names = subprocess.run(["git", "ls-tree", "--name-only", rev, "plugins/torch_tagger/"], cwd=top,
                           capture_output=True, text=True, check=True).stdout.split()
    package = folder / "torch_tagger_baseline"
    package.mkdir(parents=True, exist_ok=True)
    for name in names:
        text = subprocess.run(["git", "show", f"{rev}:{name}"], cwd=top, capture_output=True, text=True, check=True)
        (package / Path(name).name).write_text(text.stdout, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(package.name, package / "__init__.py",
                                                  submodule_search_locations=[str(package)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[package.name] = module
    spec.loader.exec_module(module)
    return module.create


def setups(epochs: int, torch_max_epochs: int, threads: int) -> dict[str, tuple[str, dict[str, Any]]]:
    """Bench name -> (tagger plugin, config); ``torch_0.1``'s plugin is release 0.1's code."""
    flair = {"hidden_size": 128, "max_epochs": epochs, "batch_size": 32, "threads": threads}
    torch_base = {**RELEASE_0_1, "max_epochs": torch_max_epochs, "threads": threads}
    out = {
        "torch_0.1": ("torch_bilstm_crf@baseline", torch_base),
        "torch": ("torch_bilstm_crf", torch_base),
        "flair_chars": ("flair_bilstm_crf", {**flair, "use_characters": True}),
        "flair_onehot": ("flair_bilstm_crf", {**flair, "use_characters": False}),
    }
    try:
        study = load_study()
        tagger = study.taggers[study.utility.tagger]
        out["study"] = (tagger.plugin, {**(tagger.config or {}), "max_epochs": torch_max_epochs, "threads": threads})
    except Exception:  # noqa: BLE001 - no params.yaml here (e.g. a bench run on other notes)
        pass
    return out


def dev_history(metrics: dict[str, Any]) -> list[float]:
    if "history" in metrics:  # torch_bilstm_crf
        return [row["dev_f1"] for row in metrics["history"]]
    return list(metrics.get("dev_f1_history", []))


def run_one(plugin: str, config: dict[str, Any], train: list, dev: list, tokenize: Any, out: Path,
            factory: Factory | None = None) -> dict[str, Any]:
    tagger = factory(config) if factory is not None else registry("tagger").create(plugin, config)
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
    return {"plugin": plugin, "config": config, "epochs": epochs, "train_seconds": round(wall, 1),
            "train_tokens_per_s": round(train_tokens * epochs / wall, 1),
            "predict_tokens_per_s": round(dev_tokens / predict_seconds, 1),
            "dev_f1_per_epoch": history,
            "dev_f1": round(W.entity_f1([d.spans for d in dev], predicted)["f1"], 4)}


SPEEDS = ("train_tokens_per_s", "predict_tokens_per_s")


def combine(rounds: list[dict[str, dict[str, Any]]], reference: str) -> dict[str, dict[str, Any]]:
    """One result per setup from interleaved rounds: the first round's, with the median speeds and
    training time, the speeds of every round, and per speed the median and range of each round's
    ratio to ``reference`` (when it ran). A setup whose dev F1 differs between rounds (a training
    that is not reproducible) keeps every round's F1 in ``dev_f1_rounds``."""
    out: dict[str, dict[str, Any]] = {}
    for name in rounds[0]:
        runs = [r[name] for r in rounds]
        merged = {**runs[0], "rounds": len(runs),
                  "train_seconds": round(statistics.median(r["train_seconds"] for r in runs), 1)}
        for key in SPEEDS:
            merged[key] = round(statistics.median(r[key] for r in runs), 1)
            merged[f"{key}_rounds"] = [r[key] for r in runs]
            if reference in rounds[0]:
                # not rounded here: the table rounds once (a ratio of 0.9046 rounded to 0.905 first
                # printed as 0.91)
                ratios = [r[name][key] / r[reference][key] for r in rounds]
                merged[f"{key}_ratio"] = {"median": statistics.median(ratios), "min": min(ratios), "max": max(ratios)}
        if len({r["dev_f1"] for r in runs}) > 1:
            merged["dev_f1_rounds"] = [r["dev_f1"] for r in runs]
        out[name] = merged
    return out


def main(argv: list[str] | None = None) -> dict[str, dict[str, Any]]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("data/prepared"))
    ap.add_argument("--language", default=None, help="language pack (default: params.yaml's)")
    ap.add_argument("--epochs", type=int, default=5, help="epochs of the flair taggers")
    ap.add_argument("--torch-max-epochs", type=int, default=40)
    ap.add_argument("--train-docs", type=int, default=0, help="train on the first N notes only (0: all)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--taggers", nargs="+", default=["torch_0.1", "torch", "study", "flair_onehot"])
    ap.add_argument("--baseline", default=BASELINE, help=f"the commit of torch_0.1's code (default {BASELINE})")
    add_arguments(ap, "SETUP", "a copy of that setup", "small.hidden_size=96 with --add small=torch")
    ap.add_argument("--rounds", type=int, default=1, help="train every setup this many times, taking turns (medians)")
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
    known = dict(table)

    def copy(source: str) -> tuple[str, dict[str, Any]]:
        if source not in known:
            sys.exit(f"--add ...={source}: no setup {source!r}; setups: {', '.join(known)}")
        return known[source][0], dict(known[source][1])

    table = apply(table, args.add, args.set, copy)
    unknown = sorted(set(args.taggers) - set(table))
    if unknown:
        sys.exit(f"unknown tagger setup(s) {', '.join(unknown)}; choose from {', '.join(table)}")
    print(f"{len(train)} training notes, {len(dev)} dev notes; load average {os.getloadavg()[0]:.2f}, "
          f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '(unset)')}", flush=True)
    rounds: list[dict[str, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        baseline = None
        if any(table[name][0].endswith("@baseline") for name in args.taggers):
            baseline = baseline_factory(args.baseline, Path(tmp) / "baseline")
        for k in range(max(1, args.rounds)):
            rounds.append({})
            for name in args.taggers:
                plugin, config = table[name]
                factory = baseline if plugin.endswith("@baseline") else None
                rounds[-1][name] = r = run_one(plugin, config, train, dev, tokenize, Path(tmp) / f"{name}{k}", factory)
                print(f"{'' if args.rounds <= 1 else f'round {k + 1}: '}{name}: {r['epochs']} epochs in "
                      f"{r['train_seconds']} s; dev F1 per epoch " + " ".join(f"{x:.3f}" for x in r["dev_f1_per_epoch"]),
                      flush=True)
    results = combine(rounds, REFERENCE)
    ref = results.get(REFERENCE)
    if len(rounds) > 1:
        print(f"\nmedians of {len(rounds)} rounds; x ref: the median of each round's ratio [its range]")
    wide = 16 if len(rounds) > 1 else 6
    print(f"\n{'tagger':<18} {'epochs':>6} {'train s':>8} {'train tok/s':>12} {'x ref':>{wide}} {'predict tok/s':>14} "
          f"{'x ref':>{wide}} {'dev F1':>7}")
    for name, r in results.items():
        def ratio(key: str, r: dict[str, Any] = r) -> str:
            if ref is None:
                return "-"
            x = r[f"{key}_ratio"]
            return f"{x['median']:.2f}" + (f" [{x['min']:.2f}-{x['max']:.2f}]" if len(rounds) > 1 else "")

        print(f"{name:<18} {r['epochs']:>6} {r['train_seconds']:>8.1f} {r['train_tokens_per_s']:>12,.0f} "
              f"{ratio('train_tokens_per_s'):>{wide}} {r['predict_tokens_per_s']:>14,.0f} "
              f"{ratio('predict_tokens_per_s'):>{wide}} {r['dev_f1']:>7.3f}"
              + (f"  (differs by round: {r['dev_f1_rounds']})" if "dev_f1_rounds" in r else ""))
    if ref is None:
        print(f"(no ratios: the reference {REFERENCE} was not run)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return results


if __name__ == "__main__":
    main()
