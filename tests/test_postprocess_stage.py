"""The ``postprocess`` stage's fresh-surrogate settings: only the chosen labels are re-drawn, labels
it does not know and training shapes for a DP generator's corpus are refused before anything
is written."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from stage_runner import run_stages

from synthdeid.corpus.formats import read_jsonl
from synthdeid.plugin_system.manager import registry
from synthdeid.stages import common

RAW = (
    "Mw. <NameSTART> Jansen <NameEND> belde op <DateSTART> 3 mei <DateEND> met <Phone_faxSTART> ( 7 ) <Phone_faxEND> ."
)
REAL = {
    "id": "t1",
    "text": "Dhr. De Vries belde 06-12345678 op 12-05-2020.",
    "spans": [
        {"start": 5, "end": 13, "label": "Name"},
        {"start": 20, "end": 31, "label": "Phone_fax"},
        {"start": 35, "end": 45, "label": "Date"},
    ],
}


def _workspace(tmp_path: Path, fresh: Any, dp: bool = False) -> dict[str, Any]:
    (tmp_path / "data/synthetic/x").mkdir(parents=True)
    (tmp_path / "data/pseudonymized").mkdir(parents=True)
    (tmp_path / "data/synthetic/x/raw.jsonl").write_text(
        json.dumps({"id": "x-0", "text": RAW}) + "\n", encoding="utf-8"
    )
    (tmp_path / "data/pseudonymized/train.jsonl").write_text(json.dumps(REAL) + "\n", encoding="utf-8")
    (tmp_path / "data/prepared").mkdir(parents=True)  # the real notes: no word of theirs fills an <unk>
    (tmp_path / "data/prepared/train.jsonl").write_text(json.dumps(REAL) + "\n", encoding="utf-8")
    (tmp_path / "data/pseudonymized/head_words.json").write_text(
        json.dumps({"min_spans": 5, "min_notes": 5, "words": {}}) + "\n", encoding="utf-8"
    )
    return {
        "language": "nl",
        "tags": {"mapping": {}},
        "pseudonymize": {"seed": 0},
        "generators": {"g": {"plugin": "lstm", "config": {"dp": {"target_epsilon": 10}} if dp else {}}},
        "corpora": {"x": {"generator": "g", "decoder": "nucleus", "fresh_surrogates": fresh}},
        "taggers": {"bilstm_crf": {"plugin": "torch_bilstm_crf"}},
        "privacy": {"metrics": {"leakage": {}}},
    }


def _run(tmp_path: Path, params: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["postprocess", "x"])
    monkeypatch.setattr(common, "_STUDY", [])  # this run's params.yaml, not a cached study
    run_stages(tmp_path, params, ["postprocess"])


def test_chosen_labels_get_training_shaped_surrogates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _run(tmp_path, _workspace(tmp_path, {"labels": ["Phone_fax", "Date"], "shapes": "training"}), monkeypatch)
    [doc] = read_jsonl(tmp_path / "data/synthetic/x/documents.jsonl")
    name, date, phone = (doc.surface(s) for s in doc.spans)
    assert name == "Jansen"  # not chosen: as generated
    assert sum(c.isdigit() for c in phone) == 10 and phone != "06-12345678"  # shaped on the training number
    assert sum(c.isdigit() for c in date) == 8
    metrics = json.loads((tmp_path / "data/metrics/postprocess/x.json").read_text())
    assert (
        metrics["fresh_surrogates"]["labels"] == ["Date", "Phone_fax"]
        and metrics["fresh_surrogates"]["spans_replaced"] == 2
    )


@pytest.mark.parametrize(
    "fresh, dp, says",
    [
        (["Telefoon"], False, "'Telefoon' is not a tag of the study"),  # refused by the spec, before any stage
        ({"labels": "all", "shapes": "training"}, True, "outside the differential privacy of generator 'g'"),
        ("yes", False, "must be true, false, a list of labels"),
    ],
)
def test_bad_settings_fail_before_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fresh: Any, dp: bool, says: str
) -> None:
    with pytest.raises(SystemExit):
        _run(tmp_path, _workspace(tmp_path, fresh, dp), monkeypatch)
    assert says in capsys.readouterr().err
    assert not (tmp_path / "data/synthetic/x/documents.jsonl").exists()


def test_a_corpus_without_tags_for_the_taggers_names_its_generator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    params = _workspace(tmp_path, False)
    (tmp_path / "data/synthetic/x/raw.jsonl").write_text(
        json.dumps({"id": "x-0", "text": "Goed geslapen ."}) + "\n", encoding="utf-8"
    )
    _run(tmp_path, params, monkeypatch)  # no tagger trains on it: written as it is
    assert [d.spans for d in read_jsonl(tmp_path / "data/synthetic/x/documents.jsonl")] == [()]
    (tmp_path / "data/synthetic/x/documents.jsonl").unlink()
    with pytest.raises(SystemExit):
        _run(tmp_path, {**params, "utility": {"synthetic": ["x"], "augmented": []}}, monkeypatch)
    err = " ".join(capsys.readouterr().err.split())
    assert "postprocess@x: the 1 notes generate@x wrote hold no PHI tags" in err
    assert "generator 'g' learned none (stage train_lm@g" in err and "max_train_tokens" in err
    assert not (tmp_path / "data/synthetic/x/documents.jsonl").exists()


def test_spans_outside_the_training_bounds_are_removed_with_their_text_and_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A span of a label the training notes have no spans of (URL_IP), and a Name longer than the
    training notes' longest Name (2 tokens) plus the margin (2), are removed with their text,
    counted by reason; a note with nothing else is rejected; a generated ``<unk>`` is filled with one
    ordinary word of the language pack first (no word of the training notes), so it counts as one word."""
    params = _workspace(tmp_path, False)
    notes = [
        RAW,
        "Zie <URL_IPSTART> ( rjdqjwydwb ) o ijhabb kd ikc pawse xqiyvldj <URL_IPEND> op <DateSTART> 3 mei <DateEND> .",
        "Mw. <NameSTART> Anna Maria van de Vries <NameEND> belde .",
        "Mw. <NameSTART> <unk> van de <unk> <NameEND> belde .",
        "<NameSTART> a b c d e f <NameEND>",
    ]
    (tmp_path / "data/synthetic/x/raw.jsonl").write_text(
        "".join(json.dumps({"id": f"x-{i}", "text": t}) + "\n" for i, t in enumerate(notes)), encoding="utf-8"
    )
    _run(tmp_path, params, monkeypatch)
    docs = {d.id: d for d in read_jsonl(tmp_path / "data/synthetic/x/documents.jsonl")}
    assert sorted(docs) == ["x-0", "x-1", "x-2", "x-3"]
    assert docs["x-1"].text == "Zie op 3 mei ." and [docs["x-1"].surface(s) for s in docs["x-1"].spans] == ["3 mei"]
    assert docs["x-2"].text == "Mw. belde ." and docs["x-2"].spans == ()
    (span,) = docs["x-3"].spans
    first, van, de, last = docs["x-3"].surface(span).split(" ")
    words = set(registry("language").create("nl").ordinary_words())
    assert (van, de) == ("van", "de") and first.lower() in words and last.lower() in words
    assert "<unk>" not in docs["x-3"].text and docs["x-3"].text.endswith(" belde .")
    metrics = json.loads((tmp_path / "data/metrics/postprocess/x.json").read_text())
    assert metrics["unknown_words"]["filled"] == metrics["unknown_words"]["inside_phi"] == 2
    assert (metrics["documents_in"], metrics["documents_out"], metrics["documents_rejected"]) == (5, 4, 1)
    assert metrics["rejected_reasons"] == {"nothing left once its spans outside the training bounds were removed": 1}
    assert metrics["spans_dropped"] == {
        "a Name span longer than the training notes' longest (2 tokens, +2)": 2,
        "a URL_IP span, a label the training notes have no spans of": 1,
    }
    assert metrics["span_bounds"]["longest_training_span_tokens"] == {"Date": 1, "Name": 2, "Phone_fax": 1}


def test_with_unmapped_labels_kept_the_stage_still_refuses_a_label_of_no_span(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    params = _workspace(tmp_path, ["Telefoon"])
    params["tags"]["keep_unmapped"] = True  # any label may occur: the spec cannot check, the stage does
    with pytest.raises(SystemExit):
        _run(tmp_path, params, monkeypatch)
    assert "Telefoon is no label of this corpus" in capsys.readouterr().err
    assert not (tmp_path / "data/synthetic/x/documents.jsonl").exists()
