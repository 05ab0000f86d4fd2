"""The privacy audit at paper scale: a real side of 52M tokens (the size of Libbi et al.'s training
corpus) and a synthetic side of 1M tokens, built offline from the embedded demo-corpus generator,
through the audit's own ROUGE-3/5, BM25 top-1, corpus n-gram recall (3/5/10) and PHI leakage.

The real notes are demo notes (seeded batches); the synthetic notes are demo notes of other seeds in
which every third gets a 10-60 token passage of a real note and every 50th is a whole real note, so
the copy detectors have something to find. Both sides are tokenized once, as the audit does
(lowercased, ``<PAR>`` per line break), and saved as token ids; each metric then runs in a fresh
process that reports its wall time and peak resident memory (its own and its workers'). ROUGE and
BM25 shard the *synthetic* notes over ``--workers`` processes forked after the real side's
matrices are built (copy-on-write: the real side is in memory once); each shard is an independent
best-match search, so the merge is a concatenation.

    python bench/privacy.py --scale paper [--real-tokens 52000000] [--synthetic-tokens 1000000] [--workers 2]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing as mp
import pickle
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

BATCH = 20_000
"""Demo notes generated per seed (the generator's client pool grows with the batch)."""


def peak_mb() -> float:
    """Peak resident memory of this process and of its largest finished child, in MB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, kids) / 1024


def build(out: Path, real_tokens: int, synthetic_tokens: int, seed: int) -> dict[str, Any]:
    """Generate, tokenize and save both sides; returns their sizes."""
    from synthdeid.plugins import registry
    from synthdeid.privacy.audit import (
        Vocabulary,
        phi_token_mask,
        real_phi_strings,
        tokenize_text,
    )
    from synthdeid.sources.demo import generate_demo_corpus

    tokenize = registry("language").create("nl").tokenize
    vocab = Vocabulary()
    real_ids: list[np.ndarray] = []
    real_phi: list[np.ndarray] = []
    real_texts: list[str] = []
    phi: dict[tuple[str, ...], list[Any]] = {}
    total, batch = 0, 0
    while total < real_tokens:
        used = []
        for doc in generate_demo_corpus(min(BATCH, (real_tokens - total) // 100 + 100), seed + batch):
            note = tokenize_text(doc.text, tokenize)
            real_ids.append(vocab.encode(note.tokens).astype(np.int32))
            real_phi.append(phi_token_mask(note.offsets, doc))
            real_texts.append(doc.text)
            used.append(doc)
            total += len(note.tokens)
            if total >= real_tokens:
                break
        for p in real_phi_strings(used, tokenize):  # distinct PHI strings, counted over the batches
            entry = phi.setdefault(p.key, [p.text, set(), 0])
            entry[1].update(p.labels)
            entry[2] += p.real_count
        batch += 1
    rng = random.Random(seed)
    syn_ids: list[np.ndarray] = []
    syn_texts: list[str] = []
    total, b = 0, 0
    while total < synthetic_tokens:
        for i, doc in enumerate(generate_demo_corpus(min(BATCH, (synthetic_tokens - total) // 100 + 100),
                                                     seed + 10_000 + b)):
            text = doc.text
            if i % 50 == 0:
                text = real_texts[rng.randrange(len(real_texts))]
            elif i % 3 == 0:
                src = real_texts[rng.randrange(len(real_texts))].split(" ")
                length = rng.randint(min(10, len(src)), min(60, len(src)))
                a = rng.randrange(len(src) - length + 1)
                words = text.split(" ")
                at = rng.randrange(len(words) + 1)
                text = " ".join(words[:at] + src[a : a + length] + words[at:])
            note = tokenize_text(text, tokenize)
            syn_ids.append(vocab.encode(note.tokens).astype(np.int32))
            syn_texts.append(text)
            total += len(note.tokens)
            if total >= synthetic_tokens:
                break
        b += 1
    np.savez(out / "ids.npz",
             real=np.concatenate(real_ids), real_starts=np.cumsum([0] + [len(x) for x in real_ids]),
             real_phi=np.concatenate(real_phi),
             synthetic=np.concatenate(syn_ids), synthetic_starts=np.cumsum([0] + [len(x) for x in syn_ids]))
    with open(out / "side.pkl", "wb") as f:
        pickle.dump({"vocab": vocab.tokens, "real_texts": real_texts, "synthetic_texts": syn_texts,
                     "phi": [(k, v[0], tuple(sorted(v[1])), v[2]) for k, v in phi.items()]}, f)
    return {"real_notes": len(real_ids), "real_tokens": int(sum(len(x) for x in real_ids)),
            "synthetic_notes": len(syn_ids), "synthetic_tokens": int(sum(len(x) for x in syn_ids)),
            "vocabulary": len(vocab), "phi_strings": len(phi)}


# --- the metrics, each run in its own process ---------------------------------------------------

def load(data: Path) -> tuple[list[np.ndarray], list[np.ndarray], np.lib.npyio.NpzFile]:
    z = np.load(data / "ids.npz")
    split = lambda ids, starts: [ids[a:b].astype(np.int64) for a, b in zip(starts[:-1], starts[1:])]  # noqa: E731
    return split(z["real"], z["real_starts"]), split(z["synthetic"], z["synthetic_starts"]), z


_SHARED: dict[str, Any] = {}


def _rouge_shard(rows: slice) -> tuple[np.ndarray, np.ndarray]:
    from synthdeid.privacy.audit.rouge import rouge_best

    best = rouge_best(_SHARED["synthetic"][rows], _SHARED["real"], _SHARED["n"])
    return best.index, best.recall


def _bm25_shard(rows: slice) -> tuple[np.ndarray, np.ndarray]:
    best = _SHARED["index"].best(_SHARED["queries"][rows])
    return best.index, best.score


def digest(index: np.ndarray) -> str:
    """A short hash of a best-match index (equal across worker counts)."""
    return hashlib.blake2b(np.asarray(index, dtype=np.int64).tobytes(), digest_size=8).hexdigest()


def sharded(fn: Any, n_rows: int, workers: int) -> list[Any]:
    """``fn`` over ``workers`` contiguous row slices in forked processes (``_SHARED`` is inherited)."""
    bounds = np.linspace(0, n_rows, workers + 1).astype(int)
    slices = [slice(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:])]
    if workers == 1:
        return [fn(s) for s in slices]
    with mp.get_context("fork").Pool(workers) as pool:
        return pool.map(fn, slices)


def run_step(step: str, data: Path, workers: int) -> dict[str, Any]:
    from synthdeid.privacy.audit import ngram_occurrences, ngram_recall

    real, synthetic, z = load(data)
    out: dict[str, Any] = {}
    if step in ("rouge3", "rouge5"):
        n = int(step[-1])
        occ = ngram_occurrences(synthetic + real, n)
        _SHARED.update(n=n, synthetic=occ.count_matrix(slice(0, len(synthetic))),
                       real=occ.count_matrix(slice(len(synthetic), len(synthetic) + len(real))))
        del occ
        parts = sharded(_rouge_shard, len(synthetic), workers)
        index, recall = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
        np.save(data / f"{step}_index.npy", index)
        out.update(recall_mean=float(recall.mean()), recall_max=float(recall.max()),
                   copies_found=int((recall == 1.0).sum()), best=digest(index))
    elif step == "bm25":
        from synthdeid.privacy.audit import BM25Index

        vocab_size = int(max(z["real"].max(), z["synthetic"].max())) + 1
        index = BM25Index(real, vocab_size, 1.2, 0.75, 0.25)
        _SHARED.update(index=index, queries=index.query_matrix(synthetic))
        parts = sharded(_bm25_shard, len(synthetic), workers)
        out.update(score_mean=float(np.concatenate([p[1] for p in parts]).mean()),
                   best=digest(np.concatenate([p[0] for p in parts])))
    elif step == "ngram_recall":
        phi = np.split(z["real_phi"], z["real_starts"][1:-1])
        for n in (3, 5, 10):
            out[f"n{n}"] = ngram_recall(real, synthetic, phi, n).summary()
    elif step == "leakage":
        from synthdeid.privacy.audit import exact_duplicates, longest_common_run
        from synthdeid.privacy.audit.leakage import PhiString, phi_leakage

        with open(data / "side.pkl", "rb") as f:
            side = pickle.load(f)
        tokens = side["vocab"]
        phi = [PhiString(tuple(k), text, labels, count) for k, text, labels, count in side["phi"]]
        leak = phi_leakage(phi, [[tokens[t] for t in s] for s in synthetic])
        dupes = exact_duplicates(side["synthetic_texts"], side["real_texts"])
        best = np.load(data / "rouge3_index.npy")
        runs = [longest_common_run(s, real[int(j)])[0] for s, j in zip(synthetic, best)]
        out.update(**leak.rates(), exact_duplicates=sum(d is not None for d in dupes),
                   longest_run_max=int(max(runs)))
    else:
        raise SystemExit(f"unknown step {step!r}")
    return out


STEPS = ("rouge3", "rouge5", "bm25", "ngram_recall", "leakage")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", choices=["paper"], default="paper")
    ap.add_argument("--real-tokens", type=int, default=52_000_000)
    ap.add_argument("--synthetic-tokens", type=int, default=1_000_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, help="also write every step's time, memory and result here")
    ap.add_argument("--step", choices=STEPS, help=argparse.SUPPRESS)  # internal: one metric in this process
    ap.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.step:
        t0 = time.perf_counter()
        result = run_step(args.step, args.data, args.workers)
        print(json.dumps({"seconds": time.perf_counter() - t0, "peak_mb": peak_mb(), "result": result}))
        return
    with tempfile.TemporaryDirectory(prefix="synthdeid-privacy-scale-") as tmp:
        data = Path(tmp)
        t0 = time.perf_counter()
        sizes = build(data, args.real_tokens, args.synthetic_tokens, args.seed)
        t_build, m_build = time.perf_counter() - t0, peak_mb()
        print(f"real side {sizes['real_tokens']:,} tokens in {sizes['real_notes']:,} notes; synthetic side "
              f"{sizes['synthetic_tokens']:,} tokens in {sizes['synthetic_notes']:,} notes; vocabulary "
              f"{sizes['vocabulary']:,}; {sizes['phi_strings']:,} distinct real PHI strings", flush=True)
        print(f"\n{'step':14}{'time (s)':>10}{'peak RSS (MB)':>15}  result", flush=True)
        print(f"{'build':14}{t_build:10.1f}{m_build:15.0f}  generate + tokenize both sides (one process)", flush=True)
        total, reports = 0.0, {"sizes": sizes, "build": {"seconds": t_build, "peak_mb": m_build}}
        for step in STEPS:
            r = subprocess.run([sys.executable, __file__, "--step", step, "--data", str(data),
                                "--workers", str(args.workers)], capture_output=True, text=True)
            if r.returncode:
                print(r.stderr, file=sys.stderr)
                raise SystemExit(f"step {step} failed")
            report = reports[step] = json.loads(r.stdout.strip().splitlines()[-1])
            total += report["seconds"]
            summary = json.dumps({k: (round(v, 4) if isinstance(v, float) else v)
                                  for k, v in report["result"].items() if not isinstance(v, dict) and k != "best"})
            if step == "ngram_recall":
                summary = "; ".join(f"{k}: recall {v['recall']:.4f}, PHI {v['phi_recall']:.4f}"
                                    for k, v in report["result"].items())
            print(f"{step:14}{report['seconds']:10.1f}{report['peak_mb']:15.0f}  {summary}", flush=True)
        if args.json:
            args.json.write_text(json.dumps(reports, indent=2))
        print(f"\nmetrics: {total / 60:.1f} min on {args.workers} worker(s) (goal: 15 min, 16 GB); "
              f"with the build {(total + t_build) / 60:.1f} min")


if __name__ == "__main__":
    main()
