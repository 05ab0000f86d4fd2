"""Verbatim reuse of real notes in synthetic ones: longest common token run, exact duplicates and
PHI leakage (the share of the real notes' PHI strings that reappear in the synthetic notes;
Belkadi et al. 2025, section 5.4, report it for PHI of two tokens or more as re-identification rate).
``PhiLeakage.identifying_rates`` gives the same figures over the identifying strings only (the rule:
``synthdeid.privacy.audit.identifying``).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from synthdeid.api import Tokenize
from synthdeid.corpus.records import Document
from synthdeid.privacy.audit.ngrams import ngram_occurrences
from synthdeid.privacy.audit.tokens import PAR, Vocabulary, tokenize_text

_MAX_CELLS = 20_000_000


def _longest_true_runs(x: np.ndarray) -> tuple[int, np.ndarray]:
    """Length of the longest runs of True in a 1-D boolean array, and where each of them starts."""
    d = np.diff(np.concatenate([[0], x.astype(np.int8), [0]]))
    starts, ends = np.flatnonzero(d == 1), np.flatnonzero(d == -1)
    if not len(starts):
        return 0, starts
    lengths = ends - starts
    top = int(lengths.max())
    return top, starts[lengths == top]


def longest_common_run(a: Sequence[Any] | np.ndarray, b: Sequence[Any] | np.ndarray) -> tuple[int, int, int]:
    """The longest common contiguous token run of ``a`` and ``b`` (longest common substring over
    tokens): ``(length, start in a, start in b)``, the earliest in ``a`` (then in ``b``) among equally
    long runs; ``(0, 0, 0)`` when they share no token."""
    a, b = np.asarray(a), np.asarray(b)
    m, n = len(a), len(b)
    if not m or not n:
        return 0, 0, 0
    if m * (m + n) <= _MAX_CELLS:
        # lay each diagonal (j - i constant) out as one column, then find the longest run down
        # the columns, a False row separating consecutive columns
        cols = np.arange(n)[None, :] - np.arange(m)[:, None] + (m - 1)
        grid = np.zeros((m + 1, m + n - 1), dtype=bool)
        grid[np.arange(m)[:, None], cols] = a[:, None] == b[None, :]
        length, run_starts = _longest_true_runs(grid.T.ravel())
        if not length:
            return 0, 0, 0
        col, in_a = np.divmod(run_starts, m + 1)
        in_b = in_a + col - (m - 1)
        k = np.lexsort((in_b, in_a))[0]
        return length, int(in_a[k]), int(in_b[k])
    # very long notes: dynamic programming one row at a time, O(n) memory
    prev = np.zeros(n + 1, dtype=np.int64)
    best = best_i = best_j = 0
    for i in range(m):
        cur = np.zeros(n + 1, dtype=np.int64)
        cur[1:] = np.where(b == a[i], prev[:-1] + 1, 0)
        j = int(cur.argmax())
        if cur[j] > best:
            best, best_i, best_j = int(cur[j]), i, j - 1
        prev = cur
    return (best, best_i - best + 1, best_j - best + 1) if best else (0, 0, 0)


def normalise_whitespace(text: str) -> str:
    """Runs of whitespace as one space, no leading or trailing whitespace."""
    return " ".join(text.split())


def _digest(text: str) -> bytes:
    return hashlib.blake2b(normalise_whitespace(text).encode("utf-8"), digest_size=16).digest()


def exact_duplicates(synthetic: Sequence[str], real: Sequence[str]) -> list[int | None]:
    """For each synthetic text, the index of the first real text equal to it up to whitespace
    (hashed), or None."""
    seen: dict[bytes, int] = {}
    for i, text in enumerate(real):
        seen.setdefault(_digest(text), i)
    return [seen.get(_digest(text)) for text in synthetic]


def distinct_texts(texts: Sequence[str]) -> int:
    """How many different texts (up to whitespace) there are."""
    return len({_digest(t) for t in texts})


@dataclass(frozen=True)
class PhiString:
    """A distinct PHI string of the real notes: its normalised tokens (the matching key), its text
    (lowercased, whitespace normalised), its labels, how many spans of the real notes have it and
    in how many distinct real notes."""

    key: tuple[str, ...]
    text: str
    labels: tuple[str, ...]
    real_count: int
    real_notes: int = 0


def real_phi_strings(
    docs: Sequence[Document], tokenize: Tokenize, paragraph_token: str | None = PAR
) -> list[PhiString]:
    """The distinct PHI strings of ``docs`` (case and whitespace normalised, compared as token
    sequences), in order of first appearance."""
    counts: Counter[tuple[str, ...]] = Counter()
    notes: Counter[tuple[str, ...]] = Counter()
    texts: dict[tuple[str, ...], str] = {}
    labels: dict[tuple[str, ...], set[str]] = {}
    for doc in docs:
        in_doc: set[tuple[str, ...]] = set()
        for span in doc.spans:
            surface = doc.surface(span)
            key = tuple(tokenize_text(surface, tokenize, True, paragraph_token).tokens)
            if not key:
                continue
            counts[key] += 1
            in_doc.add(key)
            texts.setdefault(key, normalise_whitespace(surface).lower())
            labels.setdefault(key, set()).add(span.label)
        notes.update(in_doc)
    return [PhiString(k, texts[k], tuple(sorted(labels[k])), c, notes[k]) for k, c in counts.items()]


@dataclass(frozen=True)
class PhiLeakage:
    """Which real PHI strings reappear in the synthetic notes (as token sequences, anywhere)."""

    phi: list[PhiString]
    notes_with: np.ndarray
    """Per PHI string: the number of synthetic notes that contain it."""
    per_note: np.ndarray
    """Per synthetic note: how many distinct real PHI strings it contains."""
    per_note_multi: np.ndarray
    """The same for PHI strings of at least ``min_tokens`` tokens."""
    min_tokens: int

    def multi_token(self) -> np.ndarray:
        """Per PHI string: whether it has ``min_tokens`` tokens or more."""
        return np.array([len(p.key) >= self.min_tokens for p in self.phi], dtype=bool)

    def rates(self) -> dict[str, float | int | None]:
        leaked = self.notes_with > 0
        multi = self.multi_token()
        total, n_multi = len(self.phi), int(multi.sum())
        return {
            "phi_strings": total,
            "leaked": int(leaked.sum()),
            "rate": float(leaked.sum() / total) if total else None,
            "multi_token_min": self.min_tokens,
            "multi_token_strings": n_multi,
            "multi_token_leaked": int((leaked & multi).sum()),
            "multi_token_rate": float((leaked & multi).sum() / n_multi) if n_multi else None,
        }

    def identifying_rates(self, identifying: np.ndarray) -> dict[str, float | int | None]:
        """``rates`` over the strings ``identifying`` marks (``IdentifyingRule.identifying``): the
        figures the privacy gate limits. A corpus with multi-token PHI strings none of which is
        identifying has rate 0 (nothing identifying to leak); without any, ``None`` as in ``rates``."""
        leaked = (self.notes_with > 0) & identifying
        multi = self.multi_token()
        total, n_multi = int(identifying.sum()), int((identifying & multi).sum())
        return {
            "identifying_strings": total,
            "identifying_leaked": int(leaked.sum()),
            "identifying_rate": float(leaked.sum() / total) if total else (0.0 if self.phi else None),
            "identifying_multi_token_strings": n_multi,
            "identifying_multi_token_leaked": int((leaked & multi).sum()),
            "identifying_multi_token_rate": float((leaked & multi).sum() / n_multi)
            if n_multi
            else (0.0 if multi.any() else None),
        }

    def top(self, k: int = 20, among: np.ndarray | None = None) -> list[dict[str, Any]]:
        """The ``k`` leaked strings found in the most synthetic notes (then most frequent in the
        real notes, then alphabetical); ``among``: of the strings it marks only."""
        found = [i for i in range(len(self.phi)) if self.notes_with[i] > 0 and (among is None or among[i])]
        found.sort(key=lambda i: (-int(self.notes_with[i]), -self.phi[i].real_count, self.phi[i].text))
        return [
            {
                "text": self.phi[i].text,
                "labels": list(self.phi[i].labels),
                "tokens": len(self.phi[i].key),
                "synthetic_notes": int(self.notes_with[i]),
                "real_spans": self.phi[i].real_count,
            }
            for i in found[:k]
        ]


def phi_leakage(phi: Sequence[PhiString], synthetic: Sequence[Sequence[str]], min_tokens: int = 2) -> PhiLeakage:
    """Find each PHI string's token sequence in the synthetic notes' tokens (lowercased, like the
    keys). Vectorised per PHI length k: the k-grams of the PHI strings and of the notes get shared
    ids (``ngram_occurrences``)."""
    vocab = Vocabulary()
    syn_ids = vocab.encode_all(synthetic)
    notes_with = np.zeros(len(phi), dtype=np.int64)
    per_note = np.zeros(len(synthetic), dtype=np.int64)
    per_note_multi = np.zeros(len(synthetic), dtype=np.int64)
    by_len: dict[int, list[int]] = {}
    for i, p in enumerate(phi):
        by_len.setdefault(len(p.key), []).append(i)
    for k, members in sorted(by_len.items()):
        keys = [vocab.encode(phi[i].key) for i in members]
        occ = ngram_occurrences(keys + syn_ids, k)
        m = len(members)
        phi_ids = occ.ids[occ.indptr[:m]]  # one k-gram per PHI string of length k
        doc = occ.doc_of()
        in_syn = doc >= m
        pairs = np.unique(np.stack([doc[in_syn] - m, occ.ids[in_syn]]), axis=1)  # (note, k-gram)
        is_phi = np.zeros(occ.n_distinct, dtype=bool)
        is_phi[phi_ids] = True
        hits = pairs[:, is_phi[pairs[1]]]
        notes_with[members] = np.bincount(hits[1], minlength=occ.n_distinct)[phi_ids]
        found = np.bincount(hits[0], minlength=len(synthetic))
        per_note += found
        if k >= min_tokens:
            per_note_multi += found
    return PhiLeakage(list(phi), notes_with, per_note, per_note_multi, min_tokens)
