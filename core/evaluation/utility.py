"""Utility experiments (Libbi Table 6): which documents a tagger trains and validates on, for
real, synthetic-only and real+synthetic (augmentation) settings, training the utility tagger and
predicting the test split with it, and the summary tables."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from synthdeid.api import Tagger, Tokenize
from synthdeid.corpus.rare_words import SMALL_CORPUS_TOKENS, rare_word_share
from synthdeid.corpus.records import Document, Span
from synthdeid.errors import SynthdeidError
from synthdeid.evaluation.metrics import compare_systems, entity_scores

KINDS = ("real", "synthetic", "augmented")
CALIBRATED = {"auto": ("synthetic",), "synthetic": ("synthetic",), "all": ("synthetic", "augmented"), "off": ()}
"""``utility.calibrate_unknown_words``: the utility kinds whose taggers get calibrated unknown-word
training (``auto``: those of ``synthetic`` when the real training notes are a small corpus)."""


def setting_name(kind: str, corpus: str | None) -> str:
    """``real``, ``synthetic-<corpus>`` or ``augmented-<corpus>``."""
    return kind if kind == "real" else f"{kind}-{corpus}"


def hold_out(docs: Sequence[Document], share: float, seed: int) -> tuple[list[Document], list[Document]]:
    """A seeded (train, validation) split of a synthetic corpus: synthetic-only taggers are
    validated on synthetic notes, as in the paper's Table 6."""
    order = sorted(docs, key=lambda d: d.id)
    random.Random(seed).shuffle(order)
    n_val = max(1, round(len(order) * share)) if len(order) > 1 else 0
    return sorted(order[n_val:], key=lambda d: d.id), sorted(order[:n_val], key=lambda d: d.id)


def training_sets(
    kind: str,
    real_train: Sequence[Document],
    real_dev: Sequence[Document],
    synthetic: Sequence[Document],
    val_share: float,
    seed: int,
    expand: Callable[[list[Document]], list[Document]] | None = None,
) -> tuple[list[Document], list[Document]]:
    """(train, validation) documents of one utility setting; ``expand`` turns the synthetic
    training notes into what the tagger trains on (``evaluation.redraws``)."""
    grow = expand or list
    if kind == "real":
        return list(real_train), list(real_dev)
    if kind == "synthetic":
        train, val = hold_out(synthetic, val_share, seed)
        return grow(train), val
    if kind == "augmented":
        return list(real_train) + grow(list(synthetic)), list(real_dev)
    raise ValueError(f"unknown utility kind {kind!r}; kinds: {', '.join(KINDS)}")


def budget_of(settings: Any) -> Any:
    """The ``max_train_tokens`` of a tagger's settings (built, or a params mapping); None: it has none."""
    if isinstance(settings, Mapping):
        return settings.get("max_train_tokens")
    return getattr(settings, "max_train_tokens", None)


def augmented_config(settings: Any, train: Sequence[Document], real: Sequence[Document], tokenize: Tokenize) -> Any:
    """The tagger ``settings`` for real + synthetic notes ``train`` (``utility.augmented_budget:
    scaled``): a token budget (``max_train_tokens``, when the tagger stops by one) grown by all
    tokens / the real notes' tokens, so that the tagger passes over the real notes as often as the
    one trained on them alone (a fixed budget over three times the notes gave it a third of the
    passes). A tagger without a budget trains by epochs and passes as often anyway.

    ``settings``: the tagger's settings as the study spec built them (a copy with the grown budget,
    ``settings.replace``), or its params mapping (a new mapping)."""
    budget = budget_of(settings)
    if not budget or not real:
        return dict(settings) if isinstance(settings, Mapping) else settings
    size = lambda docs: sum(len(tokenize(d.text)) for d in docs)  # noqa: E731
    grown = math.ceil(budget * size(train) / max(1, size(real)))
    if isinstance(settings, Mapping):
        return {**settings, "max_train_tokens": grown}
    return settings.replace(max_train_tokens=grown)


def unknown_calibrated(
    settings: Any, real_train: Sequence[Document], kind: str, mode: str, tokenize: Tokenize
) -> tuple[Any, float | None]:
    """The built tagger ``settings`` (``Registry.settings``) of a ``kind`` setting with calibrated
    unknown-word training, and the share used (None: ``settings`` as they are).

    When ``kind`` is one ``mode`` calibrates (``CALIBRATED``) and the tagger has the setting
    ``unknown_phi_share``, it is set to the share of the real training notes' singleton occurrences
    that lie inside PHI (``corpus.rare_words``): in real notes most words seen once are ordinary,
    in a synthetic corpus nearly all are surrogates, and a tagger trained on them alone learns
    "unseen word = PHI". Real notes without PHI singletons (or without ordinary ones) leave the
    settings as they are. The share is one number of the real notes, used by a tagger trained here.

    ``auto`` calibrates only below ``SMALL_CORPUS_TOKENS`` tokens of real training notes: on 45
    MEDDOCAN notes the synthetic-only tagger went from 0.92x to 1.003x the real one's F1, on 450 from
    0.947x to 0.937x (docs/utility.md)."""
    if mode == "auto" and sum(len(tokenize(d.text)) for d in real_train) >= SMALL_CORPUS_TOKENS:
        return settings, None
    if kind not in CALIBRATED[mode] or "unknown_phi_share" not in getattr(type(settings), "model_fields", {}):
        return settings, None
    share = rare_word_share(real_train, k=1).share
    if not 0.0 < share < 1.0:
        return settings, None
    share = round(share, 4)
    return settings.replace(unknown_phi_share=share), share


def train_and_predict(
    tagger: Tagger,
    train: Sequence[Document],
    dev: Sequence[Document],
    out_dir: Path,
    tokenize: Tokenize,
    test: Sequence[Document],
) -> tuple[dict[str, Any], list[list[Span]]]:
    """Train ``tagger`` into ``out_dir`` and predict ``test`` with the model loaded back from there
    (as any later user of the directory would); returns the training metrics and one list of spans
    per test document."""
    metrics = tagger.train(train, dev, out_dir, tokenize)
    predicted = tagger.load(out_dir, tokenize).predict(test)
    if len(predicted) != len(test):
        raise SynthdeidError(f"tagger {tagger.name!r} predicted {len(predicted)} of {len(test)} test documents")
    return metrics, predicted


def summary_table(
    gold: Sequence[Document],
    predictions: Mapping[str, Sequence[Document]],
    baseline: str,
    trials: int,
    alpha: float,
    seed: int,
) -> list[dict[str, Any]]:
    """One row per setting: entity-level micro P/R/F1 and a randomization test of each score
    against the baseline (Table 6)."""
    rows = []
    for name, pred in predictions.items():
        scores = entity_scores(gold, pred)["micro"]
        row: dict[str, Any] = {
            "setting": name,
            **{k: scores[k] for k in ("precision", "recall", "f1", "tp", "fp", "fn")},
        }
        for metric in ("precision", "recall", "f1"):
            if name == baseline:
                row[f"{metric}_p"], row[f"{metric}_mark"] = None, ""
                continue
            r = compare_systems(gold, pred, predictions[baseline], metric=metric, trials=trials, seed=seed, alpha=alpha)
            row[f"{metric}_p"], row[f"{metric}_mark"] = round(r.p_value, 5), r.marker
        rows.append(row)
    return rows


def per_tag_table(gold: Sequence[Document], predictions: Mapping[str, Sequence[Document]]) -> dict[str, dict[str, Any]]:
    """Per-tag F1 (and support) of every setting (Table 7)."""
    out: dict[str, dict[str, Any]] = {}
    for name, pred in predictions.items():
        for tag, s in entity_scores(gold, pred)["per_tag"].items():
            out.setdefault(tag, {"support": s["support"]})[name] = s["f1"]
    return dict(sorted(out.items(), key=lambda kv: -kv[1]["support"]))


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    def cell(v: Any) -> str:
        return f"{v:.3f}" if isinstance(v, float) else ("" if v is None else str(v))

    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in r) + " |" for r in rows]
    return "\n".join(lines) + "\n"
