"""N-gram ids and sparse n-gram count matrices over a shared vocabulary, built with numpy.

Documents are int64 arrays of token ids (``tokens.Vocabulary``). ``ngram_occurrences`` gives every
n-gram occurrence of every document an id that is the same for equal n-grams in any document
(real or synthetic), built n times over with ``np.unique`` on (id of the (k-1)-gram, next token)
keys, so no Python loop touches a single n-gram.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sp


@dataclass(frozen=True)
class NgramOccurrences:
    """The n-gram occurrences of a list of documents.

    ``ids[indptr[d]:indptr[d + 1]]`` are the n-gram ids of document ``d`` in text order;
    ``positions`` the index of each occurrence's first token in the concatenation of all documents'
    tokens (``starts[d]`` is where document ``d`` begins there). Ids run from 0 to ``n_distinct - 1``.
    """

    n: int
    ids: np.ndarray
    indptr: np.ndarray
    positions: np.ndarray
    starts: np.ndarray
    n_distinct: int

    @cached_property
    def first_position(self) -> np.ndarray:
        """Per n-gram id, the token position of its first occurrence."""
        _, first = np.unique(self.ids, return_index=True)  # every id 0 .. n_distinct - 1 occurs
        return self.positions[first]

    def doc_of(self) -> np.ndarray:
        """The document index of every occurrence."""
        return np.repeat(np.arange(len(self.indptr) - 1), np.diff(self.indptr))

    def window_any(self, flags: np.ndarray) -> np.ndarray:
        """For per-token booleans over the concatenated tokens, whether any token of each
        occurrence's window is set."""
        c = np.concatenate([[0], np.cumsum(flags, dtype=np.int64)])
        return c[self.positions + self.n] - c[self.positions] > 0

    def window_all(self, flags: np.ndarray) -> np.ndarray:
        """Whether every token of each occurrence's window is set."""
        c = np.concatenate([[0], np.cumsum(flags, dtype=np.int64)])
        return c[self.positions + self.n] - c[self.positions] == self.n

    def count_matrix(self, rows: slice | None = None) -> sp.csr_matrix:
        """Documents x n-grams count matrix (CSR, int32, sorted indices), optionally of a slice
        of the documents."""
        indptr, ids = self.indptr, self.ids
        if rows is not None:
            lo, hi, _ = rows.indices(len(indptr) - 1)
            ids = ids[indptr[lo] : indptr[hi]]
            indptr = indptr[lo : hi + 1] - indptr[lo]
        m = sp.csr_matrix(
            (np.ones(len(ids), dtype=np.int32), ids.copy(), indptr.copy()),
            shape=(len(indptr) - 1, self.n_distinct),
        )
        m.sum_duplicates()  # in place (hence the copies): sorts the columns, adds up repeats
        return m


def concatenate(docs: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """All documents' token ids in one array, and where each document starts (plus the total)."""
    lengths = np.fromiter((len(d) for d in docs), dtype=np.int64, count=len(docs))
    starts = np.concatenate([[0], np.cumsum(lengths)])
    tokens = np.concatenate([np.asarray(d, dtype=np.int64) for d in docs]) if docs else np.zeros(0, np.int64)
    return tokens, starts


def ngram_occurrences(docs: Sequence[np.ndarray], n: int) -> NgramOccurrences:
    """Every n-gram occurrence of ``docs`` (token-id arrays) with a shared n-gram id."""
    if n < 1:
        raise ValueError(f"n must be >= 1, not {n}")
    tokens, starts = concatenate(docs)
    total = len(tokens)
    lengths = np.diff(starts)
    doc_end = np.repeat(starts[1:], lengths)  # end of the document each position belongs to
    valid = np.arange(total, dtype=np.int64)
    if total:
        uniq, rank = np.unique(tokens, return_inverse=True)
        rank = rank.astype(np.int64).reshape(-1)
    else:
        uniq, rank = np.zeros(0, np.int64), np.zeros(0, np.int64)
    n_tok = len(uniq)
    gid, n_distinct = rank, n_tok
    for k in range(2, n + 1):
        keep = valid + k <= doc_end[valid]
        valid = valid[keep]
        # (id of the (k-1)-gram at p, token at p+k-1) -> id of the k-gram at p; both ids are
        # below the total token count, so the key fits in int64 for any corpus in memory
        keys = gid[keep] * n_tok + rank[valid + k - 1]
        uniq_keys, gid = np.unique(keys, return_inverse=True)
        gid = gid.astype(np.int64).reshape(-1)
        n_distinct = len(uniq_keys)
    counts = np.maximum(lengths - n + 1, 0)
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    return NgramOccurrences(n, gid, indptr, valid, starts, n_distinct)


def ngram_tokens(occ: NgramOccurrences, tokens: np.ndarray, ngram_ids: np.ndarray) -> np.ndarray:
    """The token ids (rows of n) of the given n-gram ids, read at their first occurrence."""
    return tokens[occ.first_position[ngram_ids][:, None] + np.arange(occ.n)]
