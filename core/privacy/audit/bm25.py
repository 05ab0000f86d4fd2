"""BM25 retrieval of the most similar real note for every synthetic note, as one sparse product.

The scoring is ``rank_bm25.BM25Okapi``'s (a query term counts once per occurrence in the query):

    idf(t)    = log(N - df + 0.5) - log(df + 0.5); a negative idf is replaced by
                epsilon * (mean idf over the real vocabulary, negatives included)
    score(q, d) = sum over query tokens t of idf(t) * tf(t, d) * (k1 + 1)
                  / (tf(t, d) + k1 * (1 - b + b * |d| / avgdl))

with Libbi et al.'s k1 = 1.2, b = 0.75 (rank_bm25's own default k1 is 1.5). A query token absent
from the real notes scores 0. The per-(note, term) factor is precomputed as a weight matrix W
(real notes x vocabulary), the queries are a count matrix Q, and Q @ W.T gives every score.
(Libbi et al. used Elasticsearch, whose Lucene BM25 has idf = log(1 + (N - df + 0.5)/(df + 0.5)).)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from synthdeid.privacy.audit.rouge import DEFAULT_CHUNK_CELLS, chunk_rows


def term_matrix(docs: Sequence[np.ndarray], vocab_size: int) -> sp.csr_matrix:
    """Documents x vocabulary token count matrix (float64) of token-id arrays."""
    indptr = np.concatenate([[0], np.cumsum([len(d) for d in docs])]).astype(np.int64)
    ids = np.concatenate([np.asarray(d, dtype=np.int64) for d in docs]) if docs else np.zeros(0, np.int64)
    m = sp.csr_matrix((np.ones(len(ids)), ids, indptr), shape=(len(docs), vocab_size))
    m.sum_duplicates()
    return m


@dataclass(frozen=True)
class BM25Best:
    """The top real note of every synthetic note (ties: lowest index) and its score."""

    index: np.ndarray
    score: np.ndarray


class BM25Index:
    """BM25Okapi over the real notes (token-id arrays of one shared vocabulary)."""

    def __init__(
        self, real: Sequence[np.ndarray], vocab_size: int, k1: float = 1.2, b: float = 0.75, epsilon: float = 0.25
    ) -> None:
        if not len(real):
            raise ValueError("BM25 needs at least one real note")
        self.k1, self.b, self.epsilon = k1, b, epsilon
        self.vocab_size = vocab_size
        tf = term_matrix(real, vocab_size)
        n_docs = len(real)
        doc_len = np.array([len(d) for d in real], dtype=np.int64)
        self.avgdl = int(doc_len.sum()) / n_docs
        df = np.bincount(tf.indices, minlength=vocab_size)
        self.idf = self._idf(df, n_docs)
        # the same expression, in the same order, as BM25Okapi.get_scores, one term at a time
        dl = np.repeat(doc_len, np.diff(tf.indptr))
        q = tf.data
        norm = q * (k1 + 1) / (q + k1 * (1 - b + b * dl / self.avgdl))
        weights = self.idf[tf.indices] * norm
        self.weights = sp.csr_matrix((weights, tf.indices.copy(), tf.indptr.copy()), shape=tf.shape)
        self.weights_t = self.weights.T.tocsr()

    def _idf(self, df: np.ndarray, n_docs: int) -> np.ndarray:
        present = df > 0
        idf = np.zeros(len(df), dtype=np.float64)
        if not present.any():
            return idf
        # math.log on the few distinct document frequencies: bit-identical to rank_bm25
        values, inverse = np.unique(df[present], return_inverse=True)
        table = np.array([math.log(n_docs - int(v) + 0.5) - math.log(int(v) + 0.5) for v in values])
        raw = table[inverse]
        eps = self.epsilon * (float(raw.sum()) / len(raw))
        idf[present] = np.where(raw < 0, eps, raw)
        return idf

    def query_matrix(self, queries: Sequence[np.ndarray]) -> sp.csr_matrix:
        """Queries x vocabulary count matrix; ids beyond the index's vocabulary are dropped."""
        clipped = [np.asarray(q, dtype=np.int64)[np.asarray(q) < self.vocab_size] for q in queries]
        return term_matrix(clipped, self.vocab_size)

    def scores(self, queries: sp.csr_matrix) -> np.ndarray:
        """Dense queries x real notes scores."""
        return (queries @ self.weights_t).toarray()

    def best(self, queries: sp.csr_matrix, chunk_cells: int = DEFAULT_CHUNK_CELLS) -> BM25Best:
        """The top-scoring real note of every query."""
        m = queries.shape[0]
        index = np.zeros(m, dtype=np.int64)
        score = np.zeros(m, dtype=np.float64)
        for rows in chunk_rows(m, self.weights.shape[0], chunk_cells):
            s = self.scores(queries[rows])
            idx = s.argmax(axis=1)
            index[rows] = idx
            score[rows] = s[np.arange(len(idx)), idx]
        return BM25Best(index, score)

    def pair_score_rank(
        self, queries: sp.csr_matrix, q_idx: np.ndarray, r_idx: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Score of each pair (query q_idx[k], real note r_idx[k]) and the real note's rank among
        all real notes for that query (1 = top; notes with an equal score share the better rank)."""
        q_idx = np.asarray(q_idx, dtype=np.int64)
        r_idx = np.asarray(r_idx, dtype=np.int64)
        s = self.scores(queries[q_idx]) if len(q_idx) else np.zeros((0, self.weights.shape[0]))
        score = s[np.arange(len(q_idx)), r_idx]
        rank = (s > score[:, None]).sum(axis=1) + 1
        return score, rank
