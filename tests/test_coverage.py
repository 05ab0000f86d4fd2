"""PHI vocabulary coverage (the utility report's per-type diagnosis, the privacy audit's exposure)."""

from __future__ import annotations

import re

from synthdeid.corpus.records import Document, Span
from synthdeid.evaluation.coverage import coverage, exposure, label_vocabulary


def tokenize(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(r"\w+|[^\w\s]", text)]


def _doc(i: str, *spans: tuple[str, str]) -> Document:
    text, out = "", []
    for surface, label in spans:
        out.append(Span(len(text), len(text) + len(surface), label))
        text += surface + " en "
    return Document.create(i, text, out)


def test_coverage_counts_token_occurrences_seen_under_the_same_label() -> None:
    train = [_doc("t", ("Apotheek Vuren", "Organization_Company"), ("Jan Vuren", "Name"))]
    vocab = label_vocabulary(train, tokenize)
    assert vocab == {"Organization_Company": {"apotheek", "vuren"}, "Name": {"jan", "vuren"}}
    test = [
        _doc("a", ("apotheek Dorpskade", "Organization_Company"), ("Piet , Jan", "Name")),
        _doc("b", ("Apotheek Apotheek", "Organization_Company"), ("Dorpskade", "Hospital")),
    ]
    got = coverage(test, vocab, tokenize)
    assert got["Organization_Company"] == {"tokens": 4, "seen": 3, "share": 0.75}
    assert got["Name"] == {"tokens": 2, "seen": 1, "share": 0.5}  # the comma is no PHI token
    assert got["Hospital"] == {"tokens": 1, "seen": 0, "share": 0.0}  # "Vuren" as a Name is no Hospital


def test_exposure_is_the_real_notes_tokens_found_in_the_synthetic_spans() -> None:
    real = [_doc("r", ("Apotheek Vuren", "Organization_Company"), ("Jan", "Name"))]
    synthetic = [_doc("s", ("Apotheek Almelo", "Organization_Company"), ("Vuren", "Name"))]
    got = exposure(real, synthetic, tokenize)
    assert got["tokens"] == 3 and got["share"] == round(1 / 3, 4)
    assert got["per_label"]["Name"]["seen"] == 0
    assert exposure([], synthetic, tokenize) == {"share": None, "tokens": 0, "per_label": {}}


def test_per_type_diagnosis_sets_each_setting_beside_real() -> None:
    from synthdeid.evaluation.utility_report import diagnosis_markdown, per_type_diagnosis, score_settings

    gold = [_doc("g", ("Apotheek Vuren", "Organization_Company"), ("Jan", "Name"))]
    found_all = gold
    found_name = [Document.create("g", gold[0].text, [gold[0].spans[1]])]
    scores = score_settings(gold, {"real": found_all, "synthetic-x": found_name}, tokenize)
    covered = {
        "real": coverage(gold, label_vocabulary(gold, tokenize), tokenize),
        "synthetic-x": coverage(
            gold, label_vocabulary([_doc("s", ("Bouwbedrijf Vuren", "Organization_Company"))], tokenize), tokenize
        ),
    }
    got = per_type_diagnosis(scores, covered)
    org = got["Organization_Company"]
    assert org["support"] == 1 and org["test_tokens"] == 2
    assert org["real"] == {"f1": 1.0, "recall": 1.0, "f1_of_real": 1.0, "coverage": 1.0}
    assert org["synthetic-x"] == {"f1": 0.0, "recall": 0.0, "f1_of_real": 0.0, "coverage": 0.5}
    assert got["Name"]["synthetic-x"]["coverage"] == 0.0 and got["Name"]["synthetic-x"]["f1"] == 1.0
    page = diagnosis_markdown(got, ["real", "synthetic-x"])
    assert "### synthetic-x" in page and "| Organization_Company | 1 | 1.000 | 1.000 | 1.000 | 0.000 |" in page


def test_the_report_names_a_missing_coverage_file_and_the_fix(tmp_path) -> None:
    import pytest

    from synthdeid.corpus.accounting import read_json, write_json
    from synthdeid.errors import SynthdeidError

    write_json({"Name": {"tokens": 2, "seen": 1, "share": 0.5}}, tmp_path / "real/coverage.json")
    assert read_json(tmp_path / "real/coverage.json")["Name"]["share"] == 0.5
    with pytest.raises(SynthdeidError, match=r"synthetic-x/coverage.json is missing: run `dvc repro`"):
        read_json(tmp_path / "synthetic-x/coverage.json")
