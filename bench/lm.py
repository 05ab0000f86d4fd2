"""Language-model training speed, every setup on the same text in one run: wall seconds, training
tokens/s, validation loss per epoch, and the time each setup needs to reach the validation loss its
reference ends with (``lstm_0.1`` for LSTMs, ``gpt2_0.1`` for GPT-2: the demo's settings of release
0.1, measured in the same run), with the ratio.

The text is the ``inline`` stage's output (``data/inline/{train,dev}.txt``: ``dvc repro inline``
first, or ``--data DIR``), without canaries. Time to a loss is read per epoch: the wall time of
the epochs up to the first whose validation loss is at or below the target, every epoch counted
as ``wall / epochs`` (epochs of one setup train on the same tokens). Run it alone: two torch jobs
on 2 cores slow each other 7-10x.

    python bench/lm.py [--data data/inline] [--setups lstm_0.1 study_lstm gpt2_0.1 study_gpt2]
                       [--add NAME=PLUGIN] [--set NAME.KEY=VALUE ...]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from synthdeid.api import TrainingData
from synthdeid.corpus.inline import special_tokens
from synthdeid.corpus.tags import tag_labels
from synthdeid.plugin_system.manager import registry
from synthdeid.spec import load_study
from synthdeid.tools.presets import apply_preset

from setups import add_arguments, apply

RELEASE_0_1 = {
    "lstm_0.1": ("lstm", {"max_epochs": 100, "max_train_tokens": 900_000, "precision": "fp32"}),
    "gpt2_0.1": ("gpt2", {"max_epochs": 30, "max_train_tokens": 250_000, "batch_size": 1, "precision": "fp32"}),
}
"""The demo's generator settings of release 0.1 (beside each plugin's defaults), in float32 as
release 0.1 trained. They run on today's code: for the LSTM that includes a cheaper dropout mask
(``synthdeid.dropout``), so the ratios against it understate the speed-up over release 0.1."""
REFERENCE = {"lstm": "lstm_0.1", "gpt2": "gpt2_0.1"}


def study_generators() -> dict[str, Any]:
    """The study's generators with the ``full`` preset applied (to a copy of params.yaml): the
    demo's LSTMs and the GPT-2 that only ``full`` trains."""
    with tempfile.TemporaryDirectory() as tmp:
        params = Path(tmp) / "params.yaml"
        shutil.copyfile("params.yaml", params)
        apply_preset("full", params)
        return dict(load_study(params).generators)


def setups() -> dict[str, tuple[str, dict[str, Any]]]:
    """Bench name -> (generator plugin, config): release 0.1's and the study's (``study_NAME``)."""
    out = dict(RELEASE_0_1)
    try:
        for name, gen in study_generators().items():
            if gen.plugin in REFERENCE and gen.tags and not (gen.config or {}).get("dp"):
                out[f"study_{name}"] = (gen.plugin, dict(gen.config or {}))
    except Exception:  # noqa: BLE001 - no params.yaml here: release 0.1's setups only
        pass
    return out


def val_losses(plugin: str, metrics: dict[str, Any], out: Path) -> list[float]:
    if plugin == "lstm":
        return [row["val_loss"] for row in json.loads((out / "history.json").read_text())]
    return [row["val_loss"] for row in metrics["history"]]


def seconds_to(losses: list[float], wall: float, target: float) -> float | None:
    """Wall seconds until the first epoch at or below ``target`` (epochs taken as equally long)."""
    for i, loss in enumerate(losses):
        if loss <= target + 1e-9:
            return wall * (i + 1) / len(losses)
    return None


def main(argv: list[str] | None = None) -> dict[str, dict[str, Any]]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("data/inline"))
    ap.add_argument("--setups", nargs="+", default=["lstm_0.1", "study_lstm", "gpt2_0.1", "study_gpt2"])
    add_arguments(ap, "PLUGIN", "the plugin's defaults", "study_lstm.batch_size=40")
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args(argv)
    if not (args.data / "train.txt").exists():
        sys.exit(f"{args.data}/train.txt not found: run `dvc repro inline` first or give --data DIR")
    table = apply(setups(), args.add, args.set, lambda plugin: (plugin, {}))
    unknown = sorted(set(args.setups) - set(table))
    if unknown:
        sys.exit(f"unknown setup(s) {', '.join(unknown)}; choose from {', '.join(table)}")
    read = lambda f: (args.data / f).read_text(encoding="utf-8").splitlines()  # noqa: E731
    try:
        labels = tag_labels(load_study().tags.mapping)
    except Exception:  # noqa: BLE001
        labels = sorted({t[1:-6] for line in read("train.txt") for t in line.split() if t.endswith("START>")})
    data = TrainingData(train=read("train.txt"), dev=read("dev.txt"), special_tokens=special_tokens(labels))
    print(f"{len(data.train)} training notes, {len(data.dev)} dev notes; load average {os.getloadavg()[0]:.2f}",
          flush=True)
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.setups:
            plugin, config = table[name]
            out = Path(tmp) / name
            started = time.perf_counter()
            metrics = registry("generator").create(plugin, config).train(data, out)
            wall = time.perf_counter() - started
            losses = val_losses(plugin, metrics, out)
            tokens = metrics.get("train_tokens") or metrics.get("train_tokens_per_epoch") or 0
            results[name] = {"plugin": plugin, "config": config, "epochs": len(losses), "wall_s": round(wall, 1),
                             "train_tokens_per_s": round(tokens * len(losses) / wall, 1),
                             "val_loss_per_epoch": [round(x, 4) for x in losses], "best_val_loss": round(min(losses), 4)}
            print(f"{name}: {len(losses)} epochs in {wall:.1f} s; validation loss per epoch "
                  + " ".join(f"{x:.3f}" for x in losses), flush=True)
    print(f"\n{'setup':<14} {'epochs':>6} {'wall s':>8} {'tok/s':>9} {'best val':>9} {'s to ref loss':>14} {'x ref':>6}")
    for name, r in results.items():
        ref = results.get(REFERENCE[r["plugin"]])
        to = seconds_to(r["val_loss_per_epoch"], r["wall_s"], ref["best_val_loss"]) if ref else None
        ref_to = ref["wall_s"] * (ref["val_loss_per_epoch"].index(ref["best_val_loss"]) + 1) / ref["epochs"] if ref else None
        r["seconds_to_reference_loss"] = round(to, 1) if to is not None else None
        ratio = f"{ref_to / to:.2f}" if to and ref_to else "-"
        shown = f"{to:.1f}" if to is not None else "not reached"
        print(f"{name:<14} {r['epochs']:>6} {r['wall_s']:>8.1f} {r['train_tokens_per_s']:>9,.0f} "
              f"{r['best_val_loss']:>9.3f} {shown:>14} {ratio:>6}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return results


if __name__ == "__main__":
    main()
