"""The math of the privacy audit: pure functions on token ids, sparse matrices instead of loops
over note pairs. The privacy-metric plugins (``synthdeid.plugins.privacy``) wrap it."""

from synthdeid.privacy.audit.bm25 import BM25Best, BM25Index
from synthdeid.privacy.audit.corpus import AuditCorpus
from synthdeid.privacy.audit.leakage import (
    PhiLeakage,
    PhiString,
    exact_duplicates,
    longest_common_run,
    normalise_whitespace,
    phi_leakage,
    real_phi_strings,
)
from synthdeid.privacy.audit.ngrams import NgramOccurrences, ngram_occurrences
from synthdeid.privacy.audit.pairs import (
    STRUCTURE_PATTERN,
    HighRiskPairs,
    high_risk_pairs,
)
from synthdeid.privacy.audit.recall import NgramRecall, ngram_recall
from synthdeid.privacy.audit.rouge import (
    RougeBest,
    clipped_overlap,
    pair_scores,
    rouge_best,
    summary,
)
from synthdeid.privacy.audit.tokens import (
    PAR,
    TokenizedNote,
    Vocabulary,
    phi_token_mask,
    tokenize_documents,
    tokenize_text,
)

__all__ = [
    "PAR",
    "STRUCTURE_PATTERN",
    "AuditCorpus",
    "BM25Best",
    "BM25Index",
    "HighRiskPairs",
    "NgramOccurrences",
    "NgramRecall",
    "PhiLeakage",
    "PhiString",
    "RougeBest",
    "TokenizedNote",
    "Vocabulary",
    "clipped_overlap",
    "exact_duplicates",
    "high_risk_pairs",
    "longest_common_run",
    "ngram_occurrences",
    "ngram_recall",
    "normalise_whitespace",
    "pair_scores",
    "phi_leakage",
    "phi_token_mask",
    "real_phi_strings",
    "rouge_best",
    "summary",
    "tokenize_documents",
    "tokenize_text",
]
