"""``phi_reinjection`` (Belkadi et al.'s re-identification rate of a refill generator): a masked PHI
string put back where it was, counted against the note the synthetic note was rewritten from."""

from __future__ import annotations

import json

import pytest

from synthdeid import Document, Span, SynthdeidError
from synthdeid.api import PrivacyInput
from synthdeid.plugin_system.manager import registry
from synthdeid.privacy.measure import refill_sources


def tokenize(text: str) -> list[tuple[int, int]]:
    out, pos = [], 0
    for word in text.split():
        start = text.index(word, pos)
        out.append((start, start + len(word)))
        pos = start + len(word)
    return out


def _span(text: str, part: str, label: str) -> Span:
    start = text.index(part)
    return Span(start, start + len(part), label)


SOURCE_TEXT = "Jan Jansen woont in Utrecht sinds 2010."
SOURCE = Document.create(
    "r1",
    SOURCE_TEXT,
    [
        _span(SOURCE_TEXT, "Jan Jansen", "Name"),
        _span(SOURCE_TEXT, "Utrecht", "Address"),
        _span(SOURCE_TEXT, "2010", "Date"),
    ],
)


def _refill(doc_id: str, name: str, town: str, year: str) -> Document:
    text = f"{name} woont in {town} sinds {year}."
    return Document.create(
        doc_id, text, [_span(text, name, "Name"), _span(text, town, "Address"), _span(text, year, "Date")]
    )


def metric(**config):
    return registry("privacy_metric").create("phi_reinjection", config)


def test_counts_spans_put_back_in_their_source_note() -> None:
    synthetic = [
        _refill("s1", "jan  JANSEN", "Amsterdam", "2011"),  # the two-token name put back (case, spaces)
        _refill("s2", "Piet Bakker", "Utrecht", "2010"),  # the town and the year put back
        _refill("s3", "Jan Jansen", "Delft", "1999"),  # no source: written from a prompt
    ]
    data = PrivacyInput([SOURCE], synthetic, tokenize, sources={"s1": "r1", "s2": "r1"})
    result = metric().compute(data)
    s = result.summary
    assert (s["applicable"], s["notes_with_source"], s["spans"], s["reinjected"]) == (True, 2, 6, 3)
    assert s["rate"] == pytest.approx(0.5)
    assert (s["multi_token_spans"], s["multi_token_reinjected"], s["multi_token_rate"]) == (2, 1, 0.5)
    assert s["per_label"]["Address"] == {"spans": 2, "reinjected": 1, "rate": 0.5}
    assert s["per_label"]["Name"]["reinjected"] == 1
    assert [(r["synthetic_id"], r["phi_reinjected"]) for r in result.rows] == [("s1", 1), ("s2", 2)]


def test_same_text_under_another_label_is_not_a_reinjection() -> None:
    text = "Utrecht woont in Jan sinds 2010."
    syn = Document.create("s1", text, [_span(text, "Utrecht", "Name")])
    assert metric().compute(PrivacyInput([SOURCE], [syn], tokenize, sources={"s1": "r1"})).summary["reinjected"] == 0


def test_corpora_written_from_prompts_are_not_applicable() -> None:
    result = metric().compute(PrivacyInput([SOURCE], [_refill("s1", "Jan Jansen", "Utrecht", "2010")], tokenize))
    assert result.summary["applicable"] is False and "prompts" in result.summary["reason"] and not result.rows


def test_a_source_outside_the_training_notes_is_an_error() -> None:
    data = PrivacyInput([SOURCE], [_refill("s1", "A B", "C", "1")], tokenize, sources={"s1": "r9"})
    with pytest.raises(SynthdeidError, match="r9"):
        metric().compute(data)


@pytest.mark.parametrize("bad", [0, -1, True, 1.5])
def test_bad_config(bad) -> None:
    with pytest.raises(
        SynthdeidError,
        match=f"privacy metric 'phi_reinjection': setting 'multi_token_min' must be "
        rf"(a (whole )?number )?>= 1, got {bad!r}",
    ):
        metric(multi_token_min=bad)


def test_sources_are_the_prompts_that_name_training_notes(tmp_path) -> None:
    raw = tmp_path / "raw.jsonl"
    raw.write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {"id": "mlm-000000", "prompt": "r1", "text": "x"},
                {"id": "lstm-000001", "prompt": "De patiënt", "text": "y"},  # an LM's prompt text
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    assert refill_sources(str(raw), [SOURCE]) == {"mlm-000000": "r1"}


def test_a_corpus_without_raw_notes_has_no_sources(tmp_path) -> None:
    assert refill_sources(str(tmp_path / "missing.jsonl"), [SOURCE]) == {}
