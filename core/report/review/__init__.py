"""Human review of high-risk real/synthetic note pairs: the reviewer page and agreement analysis."""

from synthdeid.report.review.analyze import analyze, cohen_kappa
from synthdeid.report.review.page import read_pairs, write_review_page
from synthdeid.report.review.questions import LIKERT_KEYS, QUESTIONS, SCALE

__all__ = ["LIKERT_KEYS", "QUESTIONS", "SCALE", "analyze", "cohen_kappa", "read_pairs", "write_review_page"]
