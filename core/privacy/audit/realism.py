"""Surrogate realism: can a classifier tell a corpus's surrogates from the real PHI they stand for?

Per label, the distinct real PHI strings of the training notes (before pseudonymization) against
the distinct surrogate strings of another corpus (the pseudonymized training notes, or a synthetic
corpus's fresh surrogates): a character 1-4-gram TF-IDF logistic regression (scikit-learn),
scored by ROC AUC over stratified folds with a fixed seed. 0.5: no such classifier can tell them
apart; 1.0: every surrogate can be told. The same with each string's context (``context_words``
words either side, one occurrence per distinct string) says whether the surrogates sit in their
text as real PHI does.

An AUC of 0.5 is also what copying the real strings would give, so the **copy check** goes beside
it: the share of the distinct surrogates that equal a real PHI string of the same label
(case-insensitive, whitespace normalised). A realistic surrogate engine keeps it near the chance
overlap of two draws from the same population; a high share is a leak, not realism.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from synthdeid.corpus.records import Document

_WORD = re.compile(r"\S+")
MIN_STRINGS = 10
"""Fewer distinct strings than this on either side: no AUC (5 folds of 2 strings say nothing)."""


def _normal(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class Occurrence:
    text: str
    """The span's text, whitespace normalised."""
    context: str
    """The span with ``context_words`` words either side: ``left [text] right``."""
    doc: str
    """The id of the document it occurs in first."""


def distinct_phi(docs: Sequence[Document], context_words: int) -> dict[str, dict[str, Occurrence]]:
    """Label -> distinct span text -> its first occurrence (documents in id order, spans in order)."""
    out: dict[str, dict[str, Occurrence]] = {}
    for doc in sorted(docs, key=lambda d: d.id):
        for span in doc.spans:
            text = _normal(doc.text[span.start : span.end])
            if not text or text in out.get(span.label, {}):
                continue
            left = _WORD.findall(doc.text[: span.start])[-context_words:] if context_words else []
            right = _WORD.findall(doc.text[span.end :])[:context_words] if context_words else []
            context = " ".join([*left, f"[{text}]", *right])
            out.setdefault(span.label, {})[text] = Occurrence(text, context, doc.id)
    return out


def _sample(items: list[Occurrence], cap: int, seed: int) -> list[Occurrence]:
    if len(items) <= cap:
        return items
    return sorted(random.Random(seed).sample(items, cap), key=lambda o: o.text)


def classifier_auc(
    real: Sequence[str], surrogate: Sequence[str], groups: Sequence[str], folds: int, seed: int
) -> float:
    """Cross-validated ROC AUC of a character 1-4-gram TF-IDF logistic regression telling
    ``surrogate`` (1) from ``real`` (0); the vectorizer is fitted inside each fold, and texts of
    one group (``groups``, real then surrogate) stay in one fold. Without groups, a string on both
    sides, or a real string and its surrogate in the same sentence, would be learnt with one label
    and scored with the other: an AUC below 0.5 that measures the split, not the surrogates."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import StratifiedGroupKFold, cross_val_predict
    from sklearn.pipeline import make_pipeline

    texts = [*real, *surrogate]
    labels = [0] * len(real) + [1] * len(surrogate)
    model = make_pipeline(
        TfidfVectorizer(analyzer="char", ngram_range=(1, 4), lowercase=False, sublinear_tf=True),
        LogisticRegression(max_iter=2000),
    )
    splits = StratifiedGroupKFold(n_splits=folds, shuffle=True, random_state=seed)
    scores = cross_val_predict(model, texts, labels, groups=list(groups), cv=splits, method="predict_proba")[:, 1]
    return float(roc_auc_score(labels, scores))


def realism(
    real: Sequence[Document],
    surrogates: Sequence[Document],
    *,
    context_words: int = 3,
    folds: int = 5,
    seed: int = 0,
    max_strings: int = 2000,
) -> dict[str, dict[str, Any]]:
    """Per label of ``real`` or ``surrogates``: distinct strings on each side, the AUC of strings and
    of strings in context (None below ``MIN_STRINGS`` on a side), and the copy check
    (``copied``: distinct surrogates equal to a real string of the label; ``copied_share``). At
    most ``max_strings`` distinct strings per side are classified (a seeded sample)."""
    real_phi = distinct_phi(real, context_words)
    fake_phi = distinct_phi(surrogates, context_words)
    out: dict[str, dict[str, Any]] = {}
    for label in sorted(set(real_phi) | set(fake_phi)):
        r, s = real_phi.get(label, {}), fake_phi.get(label, {})
        real_keys = {t.casefold() for t in r}
        copied = sum(t.casefold() in real_keys for t in s)
        row: dict[str, Any] = {
            "real_strings": len(r),
            "surrogate_strings": len(s),
            "copied": copied,
            "copied_share": round(copied / len(s), 4) if s else None,
            "auc": None,
            "auc_context": None,
        }
        if min(len(r), len(s)) >= MIN_STRINGS:
            rs = _sample(list(r.values()), max_strings, seed)
            ss = _sample(list(s.values()), max_strings, seed)
            both = [*rs, *ss]
            strings = [o.text.casefold() for o in both]  # a string on both sides: one fold
            k = min(folds, len(set(strings)))
            row["auc"] = round(classifier_auc([o.text for o in rs], [o.text for o in ss], strings, k, seed), 4)
            notes = [o.doc for o in both]  # a note and its pseudonymized copy share an id: one fold
            if context_words and len(set(notes)) >= 2:
                k = min(folds, len(set(notes)))
                auc = classifier_auc([o.context for o in rs], [o.context for o in ss], notes, k, seed)
                row["auc_context"] = round(auc, 4)
        out[label] = row
    return out
