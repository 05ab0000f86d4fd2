"""The ``corpus`` stage: labels mapped and checked against the user's own file; every invalid
record reported; ``corpus.on_invalid: reject`` leaves them out, counted with reasons and listed;
a failed run leaves no metrics of an earlier run behind."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from stage_runner import repo_params, run_stages, stage_metrics

from synthdeid.corpus.formats import read_jsonl

RECORDS = [
    {"id": "ok1", "text": "Jan Jansen kwam.", "spans": [{"start": 0, "end": 10, "label": "PERSOON"}]},
    {"id": "bad-label", "text": "Piet kwam.", "spans": [{"start": 0, "end": 4, "label": "Persoon"}]},
    {"id": "ok2", "text": "Op 12 maart.", "spans": [{"start": 3, "end": 11, "label": "Date"}]},
    {"id": "bad-offsets", "text": "Kees.", "spans": [{"start": 0, "end": 40, "label": "Date"}]},
    {"id": "ok1", "text": "Nog een keer.", "spans": []},
]


def _params(tmp_path: Path, on_invalid: str) -> dict[str, Any]:
    corpus = tmp_path / "notes.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    params = repo_params()
    params["corpus"] |= {"source": "files", "path": str(corpus), "format": "auto", "on_invalid": on_invalid}
    params["tags"] = {"mapping": {"PERSOON": "Name"}, "keep_unmapped": False}
    return params


def test_fail_lists_every_problem_at_the_users_file_and_line(tmp_path, capsys):
    stale = tmp_path / "data/metrics/corpus.json"
    stale.parent.mkdir(parents=True)
    stale.write_text('{"documents_out": 1000}')
    with pytest.raises(SystemExit):
        run_stages(tmp_path, _params(tmp_path, "fail"), ["corpus"])
    err = capsys.readouterr().err
    notes = tmp_path / "notes.jsonl"
    assert "3 invalid record(s)" in err
    assert f"{notes}:2" in err and "unknown label 'Persoon'" in err
    assert f"{notes}:4" in err and "outside the text" in err
    assert f"{notes}:5" in err and "duplicate document id 'ok1'" in err
    assert "corpus.on_invalid: reject" in err
    assert not stale.exists(), "a failed stage left the previous run's metrics in place"
    assert not (tmp_path / "data/corpus/documents.jsonl").exists()


def test_reject_counts_and_lists_them_and_maps_labels(tmp_path):
    run_stages(tmp_path, _params(tmp_path, "reject"), ["corpus"])
    docs = list(read_jsonl(tmp_path / "data/corpus/documents.jsonl"))
    assert [(d.id, [s.label for s in d.spans]) for d in docs] == [("ok1", ["Name"]), ("ok2", ["Date"])]
    m = stage_metrics(tmp_path, "corpus")
    assert (m["documents_in"], m["documents_out"], m["documents_rejected"]) == (5, 2, 3)
    assert m["rejected_reasons"] == {
        "duplicate document id '…' (first on line N)": 1,
        "span #N offsets N-N are outside the text (length N)": 1,
        "unknown label '…'": 1,
    }
    assert m["on_invalid"] == "reject"
    rejected = [json.loads(line) for line in (tmp_path / "data/corpus/rejected.jsonl").read_text().splitlines()]
    assert [(r["line"], r["document"]) for r in rejected] == [(2, "bad-label"), (4, "bad-offsets"), (5, "ok1")]
    assert all(r["path"] == str(tmp_path / "notes.jsonl") and r["fix"] for r in rejected)


def test_bad_setting_and_a_corpus_with_nothing_valid(tmp_path, capsys):
    with pytest.raises(SystemExit):
        run_stages(tmp_path, _params(tmp_path, "skip"), ["corpus"])
    err = capsys.readouterr().err
    assert "corpus.on_invalid" in err and "'skip'" in err
    params = _params(tmp_path, "reject")
    (tmp_path / "notes.jsonl").write_text(json.dumps(RECORDS[1]) + "\n")
    with pytest.raises(SystemExit):
        run_stages(tmp_path, params, ["corpus"])
    assert "every record of corpus.path is invalid" in capsys.readouterr().err
    (tmp_path / "notes.jsonl").write_text("")
    with pytest.raises(SystemExit):
        run_stages(tmp_path, params, ["corpus"])
    assert "holds no documents" in capsys.readouterr().err


def test_a_test_set_with_nothing_valid_stops_the_stage(tmp_path, capsys):
    params = _params(tmp_path, "reject")
    test = tmp_path / "test.jsonl"
    test.write_text(json.dumps(RECORDS[1]) + "\n" + json.dumps(RECORDS[3]) + "\n", encoding="utf-8")
    params["corpus"]["test_path"] = str(test)
    params["prepare"]["split"] = [0.9, 0.1, 0.0]
    with pytest.raises(SystemExit):
        run_stages(tmp_path, params, ["corpus"])
    err = capsys.readouterr().err
    assert "every record of corpus.test_path is invalid" in err and str(test) in err
    assert not (tmp_path / "data/corpus/test.jsonl").exists()


def test_a_label_mapped_onto_null_is_no_phi_its_spans_dropped_and_counted(tmp_path):
    notes = tmp_path / "titles.jsonl"
    records = [
        {
            "id": "n1",
            "text": "Dr. Jan Jansen kwam.",
            "spans": [{"start": 0, "end": 3, "label": "NAME_TITLE"}, {"start": 4, "end": 14, "label": "PERSOON"}],
        },
        {"id": "n2", "text": "Dr. Smit belde.", "spans": [{"start": 0, "end": 3, "label": "NAME_TITLE"}]},
    ]
    notes.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    params = repo_params()
    params["corpus"] |= {"source": "files", "path": str(notes), "format": "auto", "on_invalid": "fail"}
    params["tags"] = {"mapping": {"PERSOON": "Name", "NAME_TITLE": None}, "keep_unmapped": False}
    run_stages(tmp_path, params, ["corpus"])
    docs = {d.id: d for d in read_jsonl(tmp_path / "data/corpus/documents.jsonl")}
    assert [(d.surface(s), s.label) for s in docs["n1"].spans for d in [docs["n1"]]] == [("Jan Jansen", "Name")]
    assert docs["n2"].spans == () and docs["n2"].text == "Dr. Smit belde."  # the title stays as text
    metrics = stage_metrics(tmp_path, "corpus")
    assert metrics["spans_dropped_by_mapping"] == {"NAME_TITLE": 2}
    assert metrics["documents_in"] == metrics["documents_out"] == 2
