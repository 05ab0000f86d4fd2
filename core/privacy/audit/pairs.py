"""High-risk synthetic/real pairs for human review (Libbi et al. 2021, section 3.5, Figure 4 and
Appendix D).

1. Rank the synthetic notes by their best ROUGE-n recall, for each n (3 and 5), skipping notes with
   recall 0 and notes whose text (up to whitespace) repeats an already selected one; keep the top k
   of each list. Each selected note is paired with its best ROUGE-n real note.
2. Add, for every selected synthetic note, its top BM25 real note.
3. Merge pairs found by several methods (same synthetic and real note) into one row.
4. Drop pairs with a note longer than ``max_chars`` characters (reading effort) and pairs similar
   only through structure: their clipped n-gram overlap (smallest n) is 0 once the n-grams made only
   of structure tokens (``<PAR>``-like tags, punctuation) are left out. This also drops a BM25 pair
   that shares no n-gram at all (nothing to highlight); the summary counts the two cases apart.

With ``filter_first`` the drops of step 4 are applied while ranking (so up to k pairs per list
survive) instead of after it (Appendix D's order).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from synthdeid.privacy.audit.corpus import AuditCorpus
from synthdeid.privacy.audit.leakage import _digest
from synthdeid.privacy.audit.rouge import (
    DEFAULT_CHUNK_CELLS,
    pair_overlap,
    pair_scores,
    summary,
)
from synthdeid.privacy.defaults import STRUCTURE_PATTERN


@dataclass(frozen=True)
class HighRiskPairs:
    rows: list[dict[str, Any]]
    summary: dict[str, Any]


def structure_ngrams(corpus: AuditCorpus, n: int, pattern: str | re.Pattern[str]) -> np.ndarray:
    """Per n-gram id: whether all its tokens are structure tokens."""
    rx = re.compile(pattern) if isinstance(pattern, str) else pattern
    by_token = np.array([rx.fullmatch(t) is not None for t in corpus.vocab.tokens] or [False], dtype=bool)
    occ = corpus.ngrams(n)
    flags = occ.window_all(corpus.token_flags(by_token))
    out = np.zeros(occ.n_distinct, dtype=bool)
    out[occ.ids[flags]] = True
    return out


def _merge(spans: list[tuple[int, int]]) -> list[list[int]]:
    out: list[list[int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def _highlight(
    corpus: AuditCorpus, n: int, row: int, offsets: Sequence[tuple[int, int]], shared: np.ndarray
) -> list[list[int]]:
    """Merged character spans of the occurrences of ``shared`` n-gram ids in index row ``row``."""
    occ = corpus.ngrams(n)
    lo, hi = occ.indptr[row], occ.indptr[row + 1]
    hit = np.isin(occ.ids[lo:hi], shared)
    local = occ.positions[lo:hi][hit] - occ.starts[row]
    return _merge([(offsets[p][0], offsets[p + n - 1][1]) for p in local.tolist()])


def _ranked(recall: np.ndarray, k: int, texts: Sequence[str], allowed: np.ndarray) -> list[int]:
    order = np.lexsort((np.arange(len(recall)), -recall))
    picked: list[int] = []
    seen: set[bytes] = set()
    for s in order.tolist():
        if len(picked) >= k or recall[s] <= 0:
            break
        digest = _digest(texts[s])
        if digest in seen or not allowed[s]:
            continue
        seen.add(digest)
        picked.append(s)
    return picked


def high_risk_pairs(
    corpus: AuditCorpus,
    k: int = 10,
    ns: Sequence[int] = (3, 5),
    max_chars: int = 1000,
    structure_pattern: str = STRUCTURE_PATTERN,
    filter_first: bool = False,
    k1: float = 1.2,
    b: float = 0.75,
    epsilon: float = 0.25,
    chunk_cells: int = DEFAULT_CHUNK_CELLS,
) -> HighRiskPairs:
    """The high-risk pairs and a summary (Table 8's right half: ROUGE over the kept pairs)."""
    ns = sorted(set(ns))
    n0 = ns[0]
    syn_texts = [d.text for d in corpus.synthetic_docs]
    real_len = np.array([len(d.text) for d in corpus.real_docs], dtype=np.int64)
    syn_len = np.array([len(t) for t in syn_texts], dtype=np.int64)
    best = {n: corpus.rouge(n, chunk_cells) for n in ns}
    index, queries, bm25_best = corpus.bm25(k1, b, epsilon, chunk_cells)
    s0, r0 = corpus.counts(n0)
    structural = structure_ngrams(corpus, n0, structure_pattern)

    def drops(s_idx: np.ndarray, r_idx: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(too long, no content overlap, no overlap at all) per pair."""
        long = (syn_len[s_idx] > max_chars) | (real_len[r_idx] > max_chars)
        raw = pair_overlap(s0, r0, s_idx, r_idx)
        content = pair_overlap(s0, r0, s_idx, r_idx, keep=~structural)
        return long, content == 0, raw == 0

    candidates: list[tuple[int, int, str]] = []
    for n in ns:
        allowed = np.ones(corpus.n_synthetic, dtype=bool)
        if filter_first and corpus.n_synthetic:
            all_s = np.arange(corpus.n_synthetic)
            long, struct, _ = drops(all_s, best[n].index)
            allowed = ~(long | struct)
        candidates += [(s, int(best[n].index[s]), f"rouge{n}") for s in _ranked(best[n].recall, k, syn_texts, allowed)]
    selected = list(dict.fromkeys(s for s, _, _ in candidates))
    candidates += [(s, int(bm25_best.index[s]), "bm25") for s in selected]
    methods: dict[tuple[int, int], list[str]] = {}
    for s, r, method in candidates:
        methods.setdefault((s, r), []).append(method)
    position = {s: i for i, s in enumerate(selected)}
    first = {p: i for i, p in enumerate(methods)}
    pairs = sorted(methods, key=lambda p: (position[p[0]], first[p]))  # by note, then method order
    s_idx = np.array([p[0] for p in pairs], dtype=np.int64)
    r_idx = np.array([p[1] for p in pairs], dtype=np.int64)
    long, struct, none = drops(s_idx, r_idx)
    keep = ~(long | struct)
    s_idx, r_idx = s_idx[keep], r_idx[keep]
    recall = {n: pair_scores(*corpus.counts(n), s_idx, r_idx)[0] for n in ns}
    bm25_score, bm25_rank = index.pair_score_rank(queries, s_idx, r_idx)

    rows = []
    for i, (s, r) in enumerate(zip(s_idx.tolist(), r_idx.tolist())):
        both = s0[s].minimum(r0[r]).tocoo()
        shared = np.sort(both.col[~structural[both.col]])
        row: dict[str, Any] = {
            "synthetic_id": corpus.synthetic_docs[s].id,
            "real_id": corpus.real_docs[r].id,
            "method": "+".join(methods[(s, r)]),
        }
        row.update({f"rouge{n}": float(recall[n][i]) for n in ns})
        row.update(
            {
                "bm25_score": float(bm25_score[i]),
                "bm25_rank": int(bm25_rank[i]),
                "synthetic_chars": int(syn_len[s]),
                "real_chars": int(real_len[r]),
                "shared_ngrams": corpus.ngram_text(n0, shared),
                "synthetic_spans": _highlight(corpus, n0, s, corpus.synthetic_notes[s].offsets, shared),
                "real_spans": _highlight(corpus, n0, corpus.n_synthetic + r, corpus.real_notes[r].offsets, shared),
            }
        )
        rows.append(row)
    out_summary: dict[str, Any] = {
        "k": k,
        "candidate_pairs": len(pairs),
        "pairs": len(rows),
        "synthetic_notes": len(set(s_idx.tolist())),
        "dropped_long": int(long.sum()),
        "dropped_structure_only": int((struct & ~none & ~long).sum()),
        "dropped_no_overlap": int((none & ~long).sum()),
    }
    out_summary.update({f"rouge{n}_recall": summary(recall[n]) for n in ns})
    return HighRiskPairs(rows, out_summary)
