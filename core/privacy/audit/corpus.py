"""The notes of one audit, tokenized once over a shared vocabulary, with the n-gram matrices,
ROUGE best matches and BM25 index computed on demand and kept."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from synthdeid.api import Tokenize
from synthdeid.corpus.records import Document
from synthdeid.privacy.audit.bm25 import BM25Best, BM25Index
from synthdeid.privacy.audit.ngrams import (
    NgramOccurrences,
    concatenate,
    ngram_occurrences,
    ngram_tokens,
)
from synthdeid.privacy.audit.rouge import DEFAULT_CHUNK_CELLS, RougeBest, rouge_best
from synthdeid.privacy.audit.tokens import (
    PAR,
    TokenizedNote,
    Vocabulary,
    tokenize_documents,
)
from synthdeid.progress import counter


class AuditCorpus:
    """Synthetic and real notes as token ids. In every n-gram index the synthetic notes come
    first (rows ``0 .. n_synthetic - 1``), then the real notes."""

    def __init__(
        self,
        real: Sequence[Document],
        synthetic: Sequence[Document],
        tokenize: Tokenize,
        lowercase: bool = True,
        paragraph_token: str | None = PAR,
    ) -> None:
        self.real_docs, self.synthetic_docs = list(real), list(synthetic)
        self.lowercase, self.paragraph_token = lowercase, paragraph_token
        self.real_notes: list[TokenizedNote] = tokenize_documents(real, tokenize, lowercase, paragraph_token)
        self.synthetic_notes: list[TokenizedNote] = tokenize_documents(synthetic, tokenize, lowercase, paragraph_token)
        self.vocab = Vocabulary()
        self.synthetic_ids = self.vocab.encode_all([t.tokens for t in self.synthetic_notes])
        self.real_ids = self.vocab.encode_all([t.tokens for t in self.real_notes])
        self.tokens, self.starts = concatenate(self.synthetic_ids + self.real_ids)
        self._ngrams: dict[int, NgramOccurrences] = {}
        self._counts: dict[int, tuple[sp.csr_matrix, sp.csr_matrix]] = {}
        self._rouge: dict[int, RougeBest] = {}
        self._bm25: dict[tuple[float, float, float], tuple[BM25Index, sp.csr_matrix, BM25Best]] = {}

    @property
    def n_synthetic(self) -> int:
        return len(self.synthetic_docs)

    @property
    def n_real(self) -> int:
        return len(self.real_docs)

    def ngrams(self, n: int) -> NgramOccurrences:
        if n not in self._ngrams:
            self._ngrams[n] = ngram_occurrences(self.synthetic_ids + self.real_ids, n)
        return self._ngrams[n]

    def counts(self, n: int) -> tuple[sp.csr_matrix, sp.csr_matrix]:
        """(synthetic, real) n-gram count matrices over one n-gram vocabulary."""
        if n not in self._counts:
            occ = self.ngrams(n)
            ns = self.n_synthetic
            self._counts[n] = (occ.count_matrix(slice(0, ns)), occ.count_matrix(slice(ns, ns + self.n_real)))
        return self._counts[n]

    def rouge(self, n: int, chunk_cells: int = DEFAULT_CHUNK_CELLS) -> RougeBest:
        """Best real note by ROUGE-n recall of every synthetic note."""
        if n not in self._rouge:
            s, r = self.counts(n)
            with counter(f"ROUGE-{n}", s.shape[0]) as advance:
                self._rouge[n] = rouge_best(s, r, n, chunk_cells, on_chunk=advance)
        return self._rouge[n]

    def bm25(
        self, k1: float = 1.2, b: float = 0.75, epsilon: float = 0.25, chunk_cells: int = DEFAULT_CHUNK_CELLS
    ) -> tuple[BM25Index, sp.csr_matrix, BM25Best]:
        """The BM25 index of the real notes, the synthetic notes as queries and their top match."""
        key = (k1, b, epsilon)
        if key not in self._bm25:
            index = BM25Index(self.real_ids, len(self.vocab), k1, b, epsilon)
            queries = index.query_matrix(self.synthetic_ids)
            self._bm25[key] = (index, queries, index.best(queries, chunk_cells))
        return self._bm25[key]

    def token_flags(self, flags_by_token: np.ndarray) -> np.ndarray:
        """Per-vocabulary booleans spread over the concatenated tokens (synthetic, then real)."""
        return flags_by_token[self.tokens]

    def ngram_text(self, n: int, ngram_ids: np.ndarray) -> list[list[str]]:
        """The tokens of n-grams given by id."""
        if not len(ngram_ids):
            return []
        rows = ngram_tokens(self.ngrams(n), self.tokens, np.asarray(ngram_ids, dtype=np.int64))
        return [[self.vocab.tokens[t] for t in row] for row in rows]
