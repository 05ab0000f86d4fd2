"""Surrogate realism: the classifier AUC per label, its grouping, the copy check, and the
``surrogate_realism`` privacy metric."""

from __future__ import annotations

import random

import pytest

from synthdeid import Document, Span, SynthdeidError
from synthdeid.api import PrivacyInput
from synthdeid.corpus.formats.conll import default_tokenize
from synthdeid.plugins import registry
from synthdeid.privacy.audit.realism import MIN_STRINGS, distinct_phi, realism

GIVEN = ["Anna", "Bram", "Carla", "Daan", "Eva", "Frank", "Greet", "Henk", "Ilse", "Joost", "Karin", "Lars"]
FAMILY = ["Jansen", "Bakker", "Visser", "Smit", "Meijer", "Mulder", "Bos", "Vos", "Peters", "Hendriks"]


def _notes(prefix: str, names: list[str], label: str = "Name") -> list[Document]:
    docs = []
    for i, name in enumerate(names):
        text = f"Gesprek met {name} over de medicatie."
        docs.append(Document.create(f"{prefix}{i}", text, [Span(12, 12 + len(name), label)]))
    return docs


def _people(rng: random.Random, n: int) -> list[str]:
    return sorted({f"{rng.choice(GIVEN)} {rng.choice(FAMILY)}" for _ in range(n * 3)})[:n]


def _letters(rng: random.Random, n: int) -> list[str]:
    """Random-letter "names", as a scrambling fallback writes them."""
    word = lambda k: "".join(rng.choice("bcdfghjklmnpqrstvwxz") for _ in range(k)).capitalize()  # noqa: E731
    return [f"{word(5)} {word(7)}" for _ in range(n)]


def test_random_letters_are_told_from_names_and_names_from_the_same_lists_are_not() -> None:
    rng = random.Random(0)
    real = _notes("r", _people(rng, 60))
    fake = realism(real, _notes("s", _letters(rng, 60)))["Name"]
    assert fake["auc"] > 0.9 and fake["copied"] == 0
    same = realism(real, _notes("s", _people(random.Random(1), 60)))["Name"]
    assert 0.3 < same["auc"] < 0.7
    assert 0 < same["copied_share"] < 1  # names drawn from the same lists overlap by chance


def test_copying_the_real_strings_reaches_chance_and_the_copy_check_shows_it() -> None:
    real = _notes("r", _people(random.Random(0), 40))
    copied = realism(real, _notes("s", [real_doc.text[12:-19] for real_doc in real]))["Name"]
    assert copied["copied_share"] == 1.0
    assert copied["auc"] == pytest.approx(0.5, abs=0.05)  # a string on both sides: one fold, one score


def test_a_note_and_its_pseudonymized_copy_share_a_fold_in_the_context_variant() -> None:
    # the same sentences on both sides: grouped by note, the context tells nothing either way
    rng = random.Random(3)
    real = _notes("n", _people(rng, 50))
    same_notes = _notes("n", _people(random.Random(4), 50))
    row = realism(real, same_notes)["Name"]
    assert row["auc_context"] is not None and 0.3 < row["auc_context"] < 0.7


def test_too_few_strings_give_no_auc_but_still_the_counts() -> None:
    real = _notes("r", _people(random.Random(0), MIN_STRINGS - 1))
    row = realism(real, _notes("s", _people(random.Random(1), 30)))["Name"]
    assert row["auc"] is None and row["auc_context"] is None
    assert (row["real_strings"], row["surrogate_strings"]) == (MIN_STRINGS - 1, 30)


def test_distinct_strings_keep_their_first_context_and_labels_apart() -> None:
    docs = _notes("a", ["Jan  Smit", "Jan Smit"]) + _notes("b", ["Jan Smit"], label="Organization_Company")
    phi = distinct_phi(docs, context_words=2)
    assert list(phi["Name"]) == ["Jan Smit"] and phi["Name"]["Jan Smit"].context == "Gesprek met [Jan Smit] over de"
    assert phi["Name"]["Jan Smit"].doc == "a0" and list(phi["Organization_Company"]) == ["Jan Smit"]


def test_the_metric_measures_the_corpus_and_the_pseudonymized_notes_against_the_real_phi() -> None:
    rng = random.Random(0)
    original = _notes("r", _people(rng, 60))
    data = PrivacyInput(
        real=_notes("r", _people(random.Random(1), 60)),
        synthetic=_notes("s", _letters(rng, 60)),
        tokenize=default_tokenize,
        original=original,
    )
    metric = registry("privacy_metric").create("surrogate_realism", {"min_real_strings": 50})
    summary = metric.compute(data).summary
    assert summary["corpus"]["worst"]["label"] == "Name" and summary["corpus"]["worst"]["auc"] > 0.9
    assert summary["pseudonymized"]["labels"]["Name"]["auc"] < 0.7
    high = registry("privacy_metric").create("surrogate_realism", {"min_real_strings": 61}).compute(data).summary
    assert high["corpus"]["worst"] == {"auc": None, "label": None, "min_real_strings": 61}


def test_without_the_original_notes_the_metric_refuses() -> None:
    metric = registry("privacy_metric").create("surrogate_realism", {})
    with pytest.raises(SynthdeidError, match="before pseudonymization"):
        metric.compute(PrivacyInput(real=[], synthetic=[], tokenize=default_tokenize))


def test_the_report_table_and_the_datasheet_line_show_the_figures() -> None:
    from synthdeid.report.datasheet import _realism_line
    from synthdeid.report.tables import realism_table

    row = {
        "real_strings": 80,
        "surrogate_strings": 90,
        "copied": 9,
        "copied_share": 0.1,
        "auc": 0.91,
        "auc_context": 0.8,
    }
    low = {**row, "auc": 0.55, "copied_share": 0.02}
    worst = {"auc": 0.91, "label": "Name", "min_real_strings": 50}
    metrics = {
        "lstm_p": {
            "surrogate_realism": {
                "corpus": {"labels": {"Name": row}, "worst": worst},
                "pseudonymized": {"labels": {"Name": low}, "worst": {**worst, "auc": 0.55}},
            }
        }
    }
    table = realism_table(metrics)
    assert "| Name | 80 | 0.55 (2.00%) | 0.91 (10.00%) |" in table
    assert "0.91 (Name)" in table
    assert "not in privacy.metrics" in realism_table({"lstm_p": {}})
    assert _realism_line(metrics["lstm_p"]["surrogate_realism"])[1] == (
        "worst label Name: 0.91 (labels with 50+ real strings)"
    )
    assert _realism_line(None)[1] is None
