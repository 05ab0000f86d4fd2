"""Privacy-audit speed: the sparse-matrix ROUGE-N and BM25 of ``synthdeid.privacy.audit`` against
``rouge_score`` and ``rank_bm25`` on the same notes and tokens, measured in the same run.

The references are far too slow for all pairs, so they run on a sample (all real notes for a few
synthetic notes, plus random pairs) and their time is extrapolated to all pairs; the indexed versions
run on all pairs. Results on the sample must be equal (ROUGE exactly, BM25 scores to 1e-9 and the
same top-1), or the script fails.

    python bench/privacy.py [--real 2000] [--synthetic 500] [--seed 0]
    python bench/privacy.py --scale paper      # 52M real x 1M synthetic tokens: bench/privacy_scale.py
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from pathlib import Path

import numpy as np

from synthdeid import Document
from synthdeid.privacy.audit import (
    AuditCorpus,
    ngram_recall,
    phi_token_mask,
    tokenize_text,
)

_WORD = re.compile(r"\S+")


def tokenize(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _WORD.finditer(text)]


class SameTokens:
    """A rouge_score tokenizer that returns exactly the audit's tokens."""

    def tokenize(self, text: str) -> list[str]:
        return tokenize_text(text, tokenize).tokens


def toy_corpus(n_real: int, n_syn: int, seed: int) -> tuple[list[Document], list[Document]]:
    """Notes of ~100 words drawn from a Zipf-like vocabulary; a third of the synthetic notes copy a
    passage of 10-60 words from a real note, a few copy a whole note; some line breaks."""
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(5000)]
    weights = [1 / (i + 1) for i in range(len(vocab))]

    def words(k: int) -> list[str]:
        out = rng.choices(vocab, weights, k=k)
        for i in range(8, k, rng.randint(15, 40)):
            out[i] = "\n"
        return out

    real_words = [words(rng.randint(60, 140)) for _ in range(n_real)]
    syn_words = []
    for i in range(n_syn):
        w = words(rng.randint(60, 140))
        if i % 50 == 0:
            w = list(rng.choice(real_words))
        elif i % 3 == 0:
            src = rng.choice(real_words)
            length = rng.randint(10, min(60, len(src)))
            a, b = rng.randrange(len(src) - length + 1), rng.randrange(len(w))
            w[b:b] = src[a : a + length]
        syn_words.append(w)

    def doc(prefix: str, i: int, w: list[str]) -> Document:
        return Document(f"{prefix}{i}", " ".join(w).replace(" \n ", "\n"))

    return [doc("r", i, w) for i, w in enumerate(real_words)], [doc("s", i, w) for i, w in enumerate(syn_words)]


def main() -> None:
    if "--scale" in sys.argv:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import privacy_scale

        privacy_scale.main(sys.argv[1:])
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--real", type=int, default=2000)
    ap.add_argument("--synthetic", type=int, default=500)
    ap.add_argument("--full-queries", type=int, default=4, help="synthetic notes scored against all real notes by the references")
    ap.add_argument("--random-pairs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    from rank_bm25 import BM25Okapi
    from rouge_score import rouge_scorer

    real, syn = toy_corpus(args.real, args.synthetic, args.seed)
    n_pairs = len(real) * len(syn)
    rng = np.random.default_rng(args.seed)
    print(f"{len(real)} real x {len(syn)} synthetic notes = {n_pairs:,} pairs, "
          f"{sum(len(tokenize(d.text)) for d in real + syn) / len(real + syn):.0f} tokens per note")

    t0 = time.perf_counter()
    corpus = AuditCorpus(real, syn, tokenize)
    t_prep = time.perf_counter() - t0
    t0 = time.perf_counter()
    best3 = corpus.rouge(3)
    t_rouge3 = time.perf_counter() - t0
    t0 = time.perf_counter()
    best5 = corpus.rouge(5)
    t_rouge5 = time.perf_counter() - t0
    t0 = time.perf_counter()
    index, queries, bm25_best = corpus.bm25(1.2, 0.75, 0.25)
    t_bm25 = time.perf_counter() - t0
    t0 = time.perf_counter()
    phi = [phi_token_mask(n.offsets, d) for n, d in zip(corpus.real_notes, real)]
    for n in (3, 5, 10):
        ngram_recall(corpus.real_ids, corpus.synthetic_ids, phi, n)
    t_recall = time.perf_counter() - t0
    from synthdeid.privacy.audit import high_risk_pairs, longest_common_run

    t0 = time.perf_counter()
    for i in range(len(syn)):
        longest_common_run(corpus.synthetic_ids[i], corpus.real_ids[int(best3.index[i])])
    t_runs = time.perf_counter() - t0
    t0 = time.perf_counter()
    high = high_risk_pairs(corpus, k=10)
    t_pairs = time.perf_counter() - t0

    # --- rouge_score on a sample: a few synthetic notes against every real note, plus random pairs
    scorer = rouge_scorer.RougeScorer(["rouge3"], tokenizer=SameTokens())
    full = rng.choice(len(syn), size=min(args.full_queries, len(syn)), replace=False)
    pairs = [(int(s), r) for s in full for r in range(len(real))]
    pairs += [(int(s), int(r)) for s, r in zip(rng.integers(len(syn), size=args.random_pairs),
                                               rng.integers(len(real), size=args.random_pairs))]
    t0 = time.perf_counter()
    ref = [scorer.score(syn[s].text, real[r].text)["rouge3"] for s, r in pairs]
    t_ref_rouge = (time.perf_counter() - t0) / len(pairs) * n_pairs
    from synthdeid.privacy.audit import pair_scores

    s_idx = np.array([p[0] for p in pairs])
    r_idx = np.array([p[1] for p in pairs])
    rec, prec, f = pair_scores(*corpus.counts(3), s_idx, r_idx)
    assert np.array_equal(rec, [x.recall for x in ref]), "ROUGE-3 recall differs from rouge_score"
    assert np.array_equal(prec, [x.precision for x in ref]), "ROUGE-3 precision differs from rouge_score"
    assert np.array_equal(f, [x.fmeasure for x in ref]), "ROUGE-3 F differs from rouge_score"
    for k, s in enumerate(full):
        recalls = [x.recall for x in ref[k * len(real) : (k + 1) * len(real)]]
        assert best3.index[s] == int(np.argmax(recalls)) and best3.recall[s] == max(recalls), "best match differs"

    # --- rank_bm25 on a sample of queries
    t0 = time.perf_counter()
    bm = BM25Okapi([n.tokens for n in corpus.real_notes], k1=1.2, b=0.75, epsilon=0.25)
    t_ref_index = time.perf_counter() - t0
    q_sample = rng.choice(len(syn), size=min(20, len(syn)), replace=False)
    t0 = time.perf_counter()
    ref_scores = [bm.get_scores(corpus.synthetic_notes[q].tokens) for q in q_sample]
    t_ref_bm25 = t_ref_index + (time.perf_counter() - t0) / len(q_sample) * len(syn)
    ours = index.scores(queries[q_sample])
    diff = float(np.abs(ours - np.array(ref_scores)).max())
    assert diff < 1e-9, f"BM25 scores differ by {diff}"
    assert all(bm25_best.index[q] == int(np.argmax(r)) for q, r in zip(q_sample, ref_scores)), "BM25 top-1 differs"

    print(f"\nchecked on the sample: ROUGE-3 P/R/F equal on {len(pairs):,} pairs and best match equal for "
          f"{len(full)} notes x all real notes; BM25 top-1 equal on {len(q_sample)} queries, max |score diff| {diff:.1e}")
    print(f"\n{'':34}{'time (s)':>10}  note")
    print(f"{'tokenize + shared vocabulary':34}{t_prep:10.2f}  once per audit")
    print(f"{'rouge_score ROUGE-3, all pairs':34}{t_ref_rouge:10.1f}  extrapolated from {len(pairs):,} pairs")
    print(f"{'sparse ROUGE-3, all pairs':34}{t_rouge3:10.2f}  best match per synthetic note")
    print(f"{'sparse ROUGE-5, all pairs':34}{t_rouge5:10.2f}")
    print(f"{'rank_bm25 BM25Okapi, all queries':34}{t_ref_bm25:10.1f}  index + {len(q_sample)} queries, extrapolated")
    print(f"{'sparse BM25, all queries':34}{t_bm25:10.2f}  index + all queries + top-1")
    print(f"{'corpus n-gram recall n=3,5,10':34}{t_recall:10.2f}  all and PHI-only")
    print(f"{'longest common run, best pairs':34}{t_runs:10.2f}  {len(syn)} pairs")
    print(f"{'high-risk pairs (k=10)':34}{t_pairs:10.2f}  {high.summary['pairs']} pairs kept (ROUGE/BM25 cached)")
    print(f"\nspeed-up ROUGE-3: {t_ref_rouge / t_rouge3:,.0f}x (target >= 100x); "
          f"{t_ref_rouge / (t_rouge3 + t_prep):,.0f}x counting the tokenization   "
          f"BM25: {t_ref_bm25 / t_bm25:,.0f}x")
    print(f"ROUGE-3 best-match recall (Table 8): mean {best3.recall.mean():.3f} median {np.median(best3.recall):.3f} "
          f"min {best3.recall.min():.3f} max {best3.recall.max():.3f}; ROUGE-5 mean {best5.recall.mean():.3f}")
    if t_ref_rouge / t_rouge3 < 100:
        print("ROUGE speed-up below the 100x target", file=sys.stderr)


if __name__ == "__main__":
    main()
