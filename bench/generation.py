"""Generation speed: tokens/s of each trained generator of the demo (``make demo`` first), batched
against one note at a time, measured in the same run; and the time a 1M-token corpus would take.

    python bench/generation.py [--tokens 3000] [--generators lstm gpt2]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import torch

from synthdeid.generate import GenerationSettings, generate_corpus
from synthdeid.params import load_params
from synthdeid.plugin_manager import registry


def measure(model, decoder, prompts, settings, tokens) -> float:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    notes = generate_corpus(model, decoder, prompts, settings, tokens, seed=0)
    made = sum(len(text.split()) - len(prompt.split()) for prompt, text in notes)
    return made / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tokens", type=int, default=3000, help="tokens to generate per measurement")
    ap.add_argument("--generators", nargs="*", default=None)
    ap.add_argument("--batch", type=int, default=64)
    args = ap.parse_args()
    torch.set_num_threads(2)
    params = load_params()
    prompts = [json.loads(x)["prompt"] for x in Path("data/inline/prompts.jsonl").read_text().splitlines()]
    decoder = registry("decoder").create("nucleus", {"top_p": 0.95})
    rows = []
    for name in args.generators or list(params["generators"]):
        spec = params["generators"][name]
        model_dir = Path("data/models") / name
        if not model_dir.exists():
            sys.exit(f"{model_dir} is missing: run `make demo` (or `dvc repro train_lm@{name}`) first")
        model = registry("generator").create(spec["plugin"], spec.get("config") or {}).load(model_dir)
        batched = measure(model, decoder, prompts, GenerationSettings(50, 400, True, args.batch), args.tokens)
        single = measure(model, decoder, prompts, GenerationSettings(50, 400, True, 1), max(args.tokens // 4, 500))
        rows.append((name, batched, single))
    print(f"{'generator':<10} {'batched tok/s':>14} {'one-at-a-time tok/s':>20} {'speed-up':>9} {'1M tokens':>10}")
    for name, batched, single in rows:
        print(f"{name:<10} {batched:>14.0f} {single:>20.0f} {batched / single:>8.1f}x {1e6 / batched / 60:>8.1f} min")


if __name__ == "__main__":
    main()
