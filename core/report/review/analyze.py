"""Inter-reviewer agreement on the privacy questionnaire (Libbi et al. 2021, section 4.3.2).

Per Likert question (Q1-Q3; Q4 is free text) and per pair of reviewers: Cohen's kappa, unweighted
and quadratic-weighted (categories are the scale values 1-5, so weights follow the distance between
answers even when some answers were never given), Spearman's rank correlation with its p-value, the
raw agreement and the number of pairs both reviewers rated. With more than two reviewers every
pair of reviewers is compared on the pairs they share, and ``pooled`` adds all those ratings up,
which is the paper's "micro-averaged over all document pairs" when each pair had two reviewers.
Statistics that are undefined (no variance, fewer than two ratings) are ``None`` with a reason.
"""

from __future__ import annotations

import itertools
import json
import math
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from synthdeid.errors import InputError
from synthdeid.report.review.questions import LIKERT_KEYS, QUESTIONS, SCALE_VALUES

Ratings = dict[str, dict[str, int | None]]
"""pair_id -> question key -> value (None = not answered)."""


def cohen_kappa(
    a: Sequence[int], b: Sequence[int], weights: str | None = None, labels: Sequence[int] = SCALE_VALUES
) -> float | None:
    """Cohen's kappa of two raters' paired ratings; ``weights`` None, "linear" or "quadratic".

    Returns None when kappa is undefined (no ratings, or both raters used one and the same category).
    """
    import numpy as np  # here, not at module level: the CLI imports this module on every call

    if len(a) != len(b):
        raise ValueError("the two raters need the same number of ratings")
    if not a:
        return None
    index = {v: i for i, v in enumerate(labels)}
    k = len(labels)
    observed = np.zeros((k, k))
    for x, y in zip(a, b):
        observed[index[x], index[y]] += 1
    observed /= observed.sum()
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0))
    values = np.asarray(labels, dtype=float)
    diff = np.abs(values[:, None] - values[None, :])
    if weights is None:
        w = (diff > 0).astype(float)
    elif weights == "linear":
        w = diff
    elif weights == "quadratic":
        w = diff**2
    else:
        raise ValueError(f"unknown weights {weights!r}: use None, 'linear' or 'quadratic'")
    denom = float((w * expected).sum())
    if denom == 0.0:
        return None
    return 1.0 - float((w * observed).sum()) / denom


def spearman(a: Sequence[int], b: Sequence[int]) -> tuple[float | None, float | None]:
    """Spearman's rho and its two-sided p-value (scipy), or (None, None) where undefined."""
    if len(a) < 2 or len(set(a)) < 2 or len(set(b)) < 2:
        return None, None
    from scipy.stats import spearmanr

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = spearmanr(a, b)
    rho, p = float(res.statistic), float(res.pvalue)
    return (None if math.isnan(rho) else rho), (None if math.isnan(p) else p)


def question_stats(a: Sequence[int], b: Sequence[int]) -> dict[str, Any]:
    """Agreement statistics of one question over paired ratings ``a[i]``, ``b[i]``."""
    rho, p = spearman(a, b)
    stats: dict[str, Any] = {
        "n": len(a),
        "agreement": (sum(x == y for x, y in zip(a, b)) / len(a)) if a else None,
        "kappa": cohen_kappa(a, b),
        "weighted_kappa": cohen_kappa(a, b, "quadratic"),
        "spearman_rho": rho,
        "spearman_p": p,
    }
    notes = []
    if len(a) < 2:
        notes.append("fewer than 2 pairs rated by both")
    elif stats["kappa"] is None:
        notes.append("kappa undefined: both reviewers gave one and the same answer throughout")
    if len(a) >= 2 and rho is None:
        notes.append("Spearman undefined: a reviewer gave the same answer to every pair")
    if notes:
        stats["note"] = "; ".join(notes)
    return stats


def _bad(path: Path, problem: str, fix: str | None = None) -> InputError:
    return InputError(problem, path=path, fix=fix or "pass the review-<name>.json files saved from the review page")


def load_answers(path: str | Path) -> tuple[str, Ratings]:
    """The reviewer name and Likert ratings of one answers file; InputError if it is malformed."""
    p = Path(path)
    if not p.is_file():
        raise _bad(p, "file not found")
    try:
        obj = json.loads(p.read_text(encoding="utf-8"))
    except UnicodeDecodeError as e:
        raise _bad(p, f"not UTF-8 ({e.reason} at byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise _bad(p, f"invalid JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
    if not isinstance(obj, dict):
        raise _bad(p, f"expected a JSON object, got {type(obj).__name__}")
    reviewer = obj.get("reviewer")
    if not isinstance(reviewer, str) or not reviewer.strip():
        raise _bad(p, 'no reviewer name ("reviewer" is missing or empty)')
    answers = obj.get("answers")
    if not isinstance(answers, list):
        raise _bad(p, '"answers" is missing or not a list')
    ratings: Ratings = {}
    for n, ans in enumerate(answers, 1):
        if (
            not isinstance(ans, dict)
            or not isinstance(ans.get("pair_id"), (str, int))
            or isinstance(ans.get("pair_id"), bool)
        ):
            raise _bad(p, f"answer {n} is not an object with a pair_id")
        pid = str(ans["pair_id"])
        if pid in ratings:
            raise _bad(p, f"pair {pid!r} is answered twice (answers {n} and earlier)")
        row: dict[str, int | None] = {}
        for key in LIKERT_KEYS:
            value = ans.get(key)
            if value is not None and (isinstance(value, bool) or value not in SCALE_VALUES):
                raise _bad(p, f"pair {pid!r}: {key} is {value!r}, not one of {list(SCALE_VALUES)} or null")
            row[key] = value
        ratings[pid] = row
    return reviewer.strip(), ratings


def _paired(r1: Ratings, r2: Ratings, pids: Sequence[str], key: str) -> tuple[list[int], list[int]]:
    a, b = [], []
    for pid in pids:
        x, y = r1[pid][key], r2[pid][key]
        if x is not None and y is not None:
            a.append(x)
            b.append(y)
    return a, b


def _means(ratings: Ratings) -> dict[str, dict[str, Any]]:
    out = {}
    for key in LIKERT_KEYS:
        vals = [v for v in (r[key] for r in ratings.values()) if v is not None]
        out[key] = {"mean": (sum(vals) / len(vals)) if vals else None, "n": len(vals)}
    return out


def analyze(files: list[Path]) -> dict[str, Any]:
    """Agreement between the reviewers of ``files`` (answers saved from the review page).

    Returns ``{"reviewers", "files", "questions", "means", "comparisons", "pooled", "warnings"}``:
    one comparison per pair of reviewers (its ``shared_pairs``, the pairs ``only_in`` one file and
    per-question statistics), the pooled statistics and each reviewer's mean score per question.
    Pairs only one reviewer answered are reported and left out. Raises ``InputError`` for a
    malformed file, fewer than two files, two files of one reviewer or no pair in common.
    """
    paths = [Path(f) for f in files]
    if len(paths) < 2:
        raise InputError(
            f"agreement needs at least 2 reviewers' files, got {len(paths)}",
            fix="pass two or more review-<name>.json files",
        )
    loaded = [load_answers(p) for p in paths]
    names: dict[str, Path] = {}
    for path, (name, _) in zip(paths, loaded):
        if name in names:
            raise InputError(
                f"reviewer {name!r} has two files: {names[name]} and {path}", fix="pass one answers file per reviewer"
            )
        names[name] = path
    warnings_: list[str] = []
    comparisons: list[dict[str, Any]] = []
    pooled: dict[str, tuple[list[int], list[int]]] = {k: ([], []) for k in LIKERT_KEYS}
    for (p1, (n1, r1)), (p2, (n2, r2)) in itertools.combinations(zip(paths, loaded), 2):
        shared = [pid for pid in r1 if pid in r2]
        only = {n1: sorted(set(r1) - set(r2)), n2: sorted(set(r2) - set(r1))}
        for name, pids in only.items():
            if pids and shared:
                warnings_.append(
                    f"{len(pids)} pair(s) only in {name}'s file (vs {n1 if name == n2 else n2}),"
                    f" left out: {', '.join(pids[:10])}{' ...' if len(pids) > 10 else ''}"
                )
        questions = {}
        for key in LIKERT_KEYS:
            a, b = _paired(r1, r2, shared, key)
            pooled[key][0].extend(a)
            pooled[key][1].extend(b)
            questions[key] = question_stats(a, b)
        comparisons.append(
            {
                "reviewers": [n1, n2],
                "files": [str(p1), str(p2)],
                "shared_pairs": len(shared),
                "only_in": only,
                "questions": questions,
            }
        )
    if not any(c["shared_pairs"] for c in comparisons):
        raise InputError(
            "the files have no pair_id in common: "
            + "; ".join(f"{n}: {len(r)} pairs ({p})" for p, (n, r) in zip(paths, loaded)),
            fix="pass answer files saved from the same review page",
        )
    for c in comparisons:
        if not c["shared_pairs"]:
            warnings_.append(f"{c['reviewers'][0]} and {c['reviewers'][1]} share no pairs")
    return {
        "reviewers": [n for n, _ in loaded],
        "files": [str(p) for p in paths],
        "questions": {q.key: q.text for q in QUESTIONS if q.likert},
        "means": {n: _means(r) for n, r in loaded},
        "comparisons": comparisons,
        "pooled": {key: question_stats(*pooled[key]) for key in LIKERT_KEYS},
        "warnings": warnings_,
    }
