"""Generation speed of each trained generator of the demo (``make demo`` first): batched (params'
``generate.batch_size`` notes at once) against one note at a time, measured in the same run,
interleaved and repeated (medians), and the time a 1M-token corpus would take batched.

Both ways generate from the same prompts with the same settings (``generate`` in params.yaml,
nucleus sampling top-p 0.95, tag-safe). Tokens are the corpus unit of ``generate.target_tokens``:
whitespace tokens of the generated text, tags and ``<PAR>`` excluded. Offline: only the trained
models in ``data/models`` and the prompts in ``data/inline/prompts.jsonl`` are read.

The numbers depend on how busy the machine is, and on OpenMP's waiting: torch's 2 threads spin
while they wait for each other, which on an idle machine is 1.4x faster than sleeping, but on a busy
one (load above the core count) made 2-thread generation about 10x slower. The script prints the
load average and ``OMP_WAIT_POLICY``, and warns when the machine is busy: then ``--threads 1`` (or
``OMP_WAIT_POLICY=PASSIVE`` in the environment) gives numbers that mean something.

    python bench/generation.py [--rounds 3] [--singles 8] [--generators lstm gpt2] [--threads N]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
import time
from itertools import islice
from pathlib import Path
from typing import Any

import torch

from synthdeid.api import AutoregressiveLM, GenerationSettings
from synthdeid.corpus.inline import strip_tags
from synthdeid.generation.generate import corpus_prompts, count_tokens
from synthdeid.generation.lm import uses_tags
from synthdeid.generation.settings import settings_for
from synthdeid.plugin_system.manager import registry
from synthdeid.spec import build, load_study

PROMPTS = Path("data/inline/prompts.jsonl")


def timed(model: AutoregressiveLM, decoder: Any, prompts: list[list[int]], settings: GenerationSettings,
          seed: int) -> tuple[float, int]:
    """Seconds and corpus tokens of generating one note per prompt, ``settings.batch_size`` at a time."""
    t0 = time.perf_counter()
    tokens = 0
    for start in range(0, len(prompts), settings.batch_size):
        rng = torch.Generator().manual_seed(seed * 1_000_003 + start)
        for gen in decoder.generate(model, prompts[start:start + settings.batch_size], settings, rng):
            tokens += count_tokens(model.decode(gen))
    return time.perf_counter() - t0, tokens


def measure(model: AutoregressiveLM, decoder: Any, prompts: list[str], settings: GenerationSettings,
            rounds: int, singles: int) -> dict[str, list[float]]:
    """Tokens/s per round, batched and one at a time, in alternating order. Round ``r`` generates
    a batch of fresh prompts and, one by one, the first ``singles`` of them."""
    one = GenerationSettings(settings.min_tokens, settings.max_tokens, settings.tag_safe, 1)
    stream = corpus_prompts(prompts, seed=0)
    warm = [model.encode(p) for _, p in islice(corpus_prompts(prompts, seed=1), 2)]
    timed(model, decoder, warm, GenerationSettings(2, 8, settings.tag_safe, 2), seed=0)
    rates: dict[str, list[float]] = {"batched": [], "single": []}
    for r in range(rounds):
        batch = [model.encode(p) for _, p in islice(stream, settings.batch_size)]
        runs = [("batched", batch, settings), ("single", batch[:singles], one)]
        for kind, ids, s in runs if r % 2 == 0 else runs[::-1]:
            seconds, tokens = timed(model, decoder, ids, s, seed=r)
            rates[kind].append(tokens / seconds)
    return rates


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3, help="measurements of each way (medians reported)")
    ap.add_argument("--singles", type=int, default=8, help="notes generated one at a time per round")
    ap.add_argument("--generators", nargs="*", default=None,
                    help="default: every generator in params.yaml that has a trained model")
    ap.add_argument("--threads", type=int, default=None, help="torch threads (default: the generator's config)")
    ap.add_argument("--batch", type=int, default=None, help="batch size (default: generate.batch_size)")
    args = ap.parse_args()
    study = load_study()
    if not PROMPTS.exists():
        sys.exit(f"{PROMPTS} is missing: run `make demo` (or `dvc repro inline`) first")
    settings, _ = settings_for(study.generate, "generate")  # auto lengths from the inline training notes
    settings = dataclasses.replace(settings, batch_size=args.batch or settings.batch_size)
    prompts = [json.loads(x)["prompt"] for x in PROMPTS.read_text(encoding="utf-8").splitlines() if x]
    decoder = registry("decoder").create("nucleus", {"top_p": 0.95})
    names = args.generators or list(study.generators)
    missing = [n for n in names if not (Path("data/models") / n).exists()]
    if missing and (args.generators or len(missing) == len(names)):
        sys.exit(f"no trained model for {', '.join(missing)} in data/models: run `make demo` "
                 f"(or `dvc repro train_lm@{missing[0]}`) first")
    load_before, cores = os.getloadavg()[0], os.cpu_count() or 1
    if load_before >= cores and "OMP_WAIT_POLICY" not in os.environ and args.threads != 1:
        print(f"warning: the machine is busy (load average {load_before:.1f} on {cores} cores); threads that "
              "spin-wait for each other make multi-thread numbers much lower and this run much longer: "
              "consider --threads 1 or OMP_WAIT_POLICY=PASSIVE", file=sys.stderr)
    rows = []
    for name in names:
        if name in missing:
            print(f"{name}: no trained model in data/models, skipped")
            continue
        spec = study.generators[name]
        model = build.generator(study, name).load(Path("data/models") / name)
        if not isinstance(model, AutoregressiveLM):
            print(f"{name}: not an autoregressive generator, skipped")
            continue
        if args.threads:
            torch.set_num_threads(args.threads)
        own = prompts if uses_tags(spec) else [strip_tags(p) for p in prompts]  # as the generate stage does
        rates = measure(model, decoder, own, settings, args.rounds, args.singles)
        rows.append((name, torch.get_num_threads(), statistics.median(rates["batched"]),
                     statistics.median(rates["single"])))
    safe = ", tag-safe" if settings.tag_safe else ""
    print(f"nucleus top-p 0.95, tokens {settings.min_tokens}-{settings.max_tokens} per note{safe}; "
          f"{args.rounds} rounds of {settings.batch_size} notes batched and {args.singles} one at a time "
          f"(medians); OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', 'unset')}; load average "
          f"{load_before:.1f} -> {os.getloadavg()[0]:.1f} on {cores} cores")
    print(f"{'generator':<10} {'threads':>7} {'batched tok/s':>14} {'one-at-a-time tok/s':>20} {'speed-up':>9} "
          f"{'1M tokens batched':>18}")
    for name, threads, batched, single in rows:
        print(f"{name:<10} {threads:>7} {batched:>14,.0f} {single:>20,.0f} {batched / single:>8.1f}x "
              f"{1e6 / batched / 60:>14.1f} min")


if __name__ == "__main__":
    main()
