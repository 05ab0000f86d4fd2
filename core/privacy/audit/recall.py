"""Corpus n-gram recall (Vakili et al. 2025, section 4.7, Eq. 1 and Figure 2).

R is the set of distinct n-grams of the real training notes (the reference), S that of the synthetic
notes (the candidate): recall = |R ∩ S| / |R|, the share of the real corpus's n-grams that the
synthetic corpus reproduces. The PHI-sensitive variant uses R* ⊆ R, the n-grams with at least one
occurrence overlapping a PHI span of a real note (an occurrence overlaps PHI when any of its tokens
does): recall* = |R* ∩ S| / |R*|.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from synthdeid.privacy.audit.ngrams import ngram_occurrences


@dataclass(frozen=True)
class NgramRecall:
    """Corpus n-gram recall for one n; ``*_per_note`` are per synthetic note: how many of its
    distinct n-grams are in R (``shared``) and in R* (``phi_shared``)."""

    n: int
    real: int
    synthetic: int
    shared: int
    recall: float | None
    phi_real: int
    phi_shared: int
    phi_recall: float | None
    shared_per_note: np.ndarray
    phi_shared_per_note: np.ndarray

    def summary(self) -> dict[str, float | int | None]:
        return {
            "recall": self.recall,
            "phi_recall": self.phi_recall,
            "real_ngrams": self.real,
            "synthetic_ngrams": self.synthetic,
            "shared_ngrams": self.shared,
            "phi_real_ngrams": self.phi_real,
            "phi_shared_ngrams": self.phi_shared,
        }


def ngram_recall(
    real: Sequence[np.ndarray], synthetic: Sequence[np.ndarray], real_phi: Sequence[np.ndarray], n: int
) -> NgramRecall:
    """Corpus n-gram recall of token-id arrays over one shared vocabulary; ``real_phi[d]`` says
    which tokens of real note ``d`` overlap a PHI span."""
    n_real = len(real)
    occ = ngram_occurrences(list(real) + list(synthetic), n)
    doc = occ.doc_of()
    is_real = doc < n_real
    flags = np.concatenate([np.asarray(m, dtype=bool) for m in real_phi]) if n_real else np.zeros(0, bool)
    n_tokens = int(occ.starts[-1])
    token_phi = np.zeros(n_tokens, dtype=bool)
    token_phi[: len(flags)] = flags  # the real notes come first in the concatenation
    occ_phi = occ.window_any(token_phi) & is_real

    in_r = np.zeros(occ.n_distinct, dtype=bool)
    in_r[occ.ids[is_real]] = True
    in_rstar = np.zeros(occ.n_distinct, dtype=bool)
    in_rstar[occ.ids[occ_phi]] = True
    in_s = np.zeros(occ.n_distinct, dtype=bool)
    in_s[occ.ids[~is_real]] = True

    r, rs = int(in_r.sum()), int(in_rstar.sum())
    shared, phi_shared = int((in_r & in_s).sum()), int((in_rstar & in_s).sum())

    # distinct (note, n-gram) pairs of the synthetic notes
    pairs = np.unique(np.stack([doc[~is_real] - n_real, occ.ids[~is_real]]), axis=1)
    n_syn = len(synthetic)
    per_note = np.bincount(pairs[0][in_r[pairs[1]]], minlength=n_syn)
    phi_per_note = np.bincount(pairs[0][in_rstar[pairs[1]]], minlength=n_syn)
    return NgramRecall(
        n,
        r,
        int(in_s.sum()),
        shared,
        shared / r if r else None,
        rs,
        phi_shared,
        phi_shared / rs if rs else None,
        per_note,
        phi_per_note,
    )
