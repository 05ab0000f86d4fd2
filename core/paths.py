"""Every file and folder the pipeline's stages read and write, relative to the project root. dvc.yaml
declares the same paths (it is the pipeline's declaration); ``tests/test_paths.py`` keeps the two in
step. Functions take the per-stage key (a split, generator, corpus or tagger setting)."""

from __future__ import annotations

DATA = "data"

CORPUS_DOCUMENTS = "data/corpus/documents.jsonl"
CORPUS_TEST = "data/corpus/test.jsonl"
CORPUS_REJECTED = "data/corpus/rejected.jsonl"
PROMPTS = "data/inline/prompts.jsonl"
UTILITY_REPORT = "data/reports/utility.md"
REPORT = "data/reports/report.md"
FIGURES = "data/reports/figures"
DATASHEETS = "data/reports/datasheets"
UTILITY_SUMMARY = "data/metrics/utility_summary.json"
RULE_SETTING = "rule"
"""The tagger setting of the rule-based baseline (``predictions(RULE_SETTING)``)."""


def prepared(split: str) -> str:
    """A split of the prepared gold corpus (train, dev, test)."""
    return f"data/prepared/{split}.jsonl"


def annotated(split: str) -> str:
    return f"data/annotated/{split}.jsonl"


def pseudonymized(split: str) -> str:
    return f"data/pseudonymized/{split}.jsonl"


HEAD_WORDS = "data/pseudonymized/head_words.json"
"""The head words surrogates keep (``pseudonymize.head_words``; written empty when off)."""


def inline_text(split: str) -> str:
    """The inline-tag LM text of a split, one note per line."""
    return f"data/inline/{split}.txt"


def model_dir(generator: str) -> str:
    return f"data/models/{generator}"


def data_canaries(generator: str) -> str:
    """The record of a generator's data-only membership canaries."""
    return f"data/canaries/{generator}.json"


def raw_corpus(corpus: str) -> str:
    """A generated corpus before its inline tags are parsed."""
    return f"data/synthetic/{corpus}/raw.jsonl"


def synthetic_corpus(corpus: str) -> str:
    return f"data/synthetic/{corpus}/documents.jsonl"


def corpus_origin(corpus: str) -> str:
    """The generator and fresh-surrogate setting a synthetic corpus was made with (``generation.origin``)."""
    return f"data/synthetic/{corpus}/origin.json"


def tagger_dir(setting: str) -> str:
    return f"data/taggers/{setting}"


def predictions(setting: str) -> str:
    """A tagger setting's predictions on the real gold test split."""
    return f"data/utility/{setting}/predictions.jsonl"


def tagger_coverage(setting: str) -> str:
    """Per PHI type, the share of the test split's PHI tokens seen in same-label spans of the notes
    a tagger setting trained on (``evaluation.coverage``)."""
    return f"data/utility/{setting}/coverage.json"


def privacy_dir(corpus: str) -> str:
    return f"data/privacy/{corpus}"


def review_page(corpus: str) -> str:
    return f"data/reports/review/{corpus}.html"


def datasheet(corpus: str) -> str:
    return f"{DATASHEETS}/{corpus}.md"


def phi_distribution_plot(corpus: str) -> str:
    return f"data/plots/phi_distribution/{corpus}.csv"


def learning_curve_plot(corpus: str) -> str:
    return f"data/plots/learning_curve/{corpus}.csv"


def metrics(stage: str) -> str:
    """The metrics of a stage that runs once (corpus, prepare, annotate, pseudonymize, inline)."""
    return f"data/metrics/{stage}.json"


def stage_metrics(stage: str, key: str) -> str:
    """The metrics of one run of a per-key stage: ``stage_metrics("train_lm", "lstm")``; the folder
    names are train_lm, privacy_model (audit_lm), generate, postprocess, machine_annotate,
    train_tagger, learning_curve and privacy."""
    return f"data/metrics/{stage}/{key}.json"
