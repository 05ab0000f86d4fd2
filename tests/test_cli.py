import json
import subprocess
import sys
from pathlib import Path

from synthdeid import Document, Span
from synthdeid.cli import main
from synthdeid.corpus.formats import read_documents, write_documents

DOC = Document.create("n1", "Mw. Jansen belde op 12-03.", [Span(4, 10, "Name"), Span(20, 25, "Date")])


def test_plugins_json_lists_builtins_with_kind_and_package(capsys):
    assert main(["plugins", "--json"]) == 0
    entries = json.loads(capsys.readouterr().out)
    by_name = {(e["kind"], e["name"]): e for e in entries}
    assert by_name[("annotator", "deduce")]["package"] == "synthdeid"
    assert by_name[("language", "nl")]["package"] == "synthdeid"
    assert all({"name", "kind", "package"} <= e.keys() for e in entries)


def test_plugins_table(capsys):
    assert main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert "deduce" in out and "annotator" in out


def test_console_script_is_installed():
    script = Path(sys.executable).parent / "synthdeid"
    out = subprocess.run([str(script), "plugins", "--json"],
                         capture_output=True, text=True, check=True).stdout
    assert any(e["name"] == "nl" for e in json.loads(out))


def test_convert_between_every_format(tmp_path, capsys):
    src = tmp_path / "a.jsonl"
    write_documents([DOC], src)
    assert main(["convert", str(src), str(tmp_path / "b.inline")]) == 0
    assert main(["convert", str(tmp_path / "b.inline"), str(tmp_path / "brat")]) == 0
    assert main(["convert", str(tmp_path / "brat"), str(tmp_path / "c.conll")]) == 0
    assert main(["convert", str(tmp_path / "c.conll"), str(tmp_path / "d.txt"), "--to", "jsonl"]) == 0
    assert list(read_documents(tmp_path / "brat")) == [DOC]
    [back] = read_documents(tmp_path / "d.txt", "jsonl")
    assert [back.surface(s) for s in back.spans] == ["Jansen", "12-03"]
    assert "wrote 1 documents, 2 spans" in capsys.readouterr().out


def test_convert_error_is_clear_and_exits_1(tmp_path, capsys):
    assert main(["convert", str(tmp_path / "missing.jsonl"), str(tmp_path / "x.jsonl")]) == 1
    err = capsys.readouterr().err
    assert "missing.jsonl" in err and "not found" in err and "fix:" in err


def test_validate_reports_counts_and_every_problem(tmp_path, capsys):
    good = tmp_path / "good.jsonl"
    write_documents([DOC], good)
    assert main(["validate", str(good)]) == 0
    out = capsys.readouterr().out
    assert "1 documents, 2 spans" in out and "Name" in out and "valid" in out

    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        json.dumps({"id": "a", "text": "Jan", "spans": [{"start": 0, "end": 3, "label": "Persoon"}]}) + "\n"
        + json.dumps({"id": "b", "text": "Jan", "spans": [{"start": 0, "end": 9, "label": "Name"}]}) + "\n"
        + "not json\n"
    )
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "unknown label 'Persoon'" in out and f"{bad}:1" in out
    assert "outside the text" in out and f"{bad}:2" in out
    assert "malformed JSON" in out and f"{bad}:3" in out
    assert "3 problem(s)" in out


def test_validate_any_labels(tmp_path, capsys):
    p = tmp_path / "x.jsonl"
    p.write_text(json.dumps({"id": "a", "text": "Jan", "spans": [{"start": 0, "end": 3, "label": "PERSOON"}]}) + "\n")
    assert main(["validate", str(p), "--any-labels"]) == 0
    assert "PERSOON" in capsys.readouterr().out


def test_validate_groups_unknown_labels_and_maps_them(tmp_path, capsys):
    path = tmp_path / "m.jsonl"
    rows = [{"id": f"d{i}", "text": "Ana vino", "spans": [{"start": 0, "end": 3, "label": "NOMBRE_SUJETO_ASISTENCIA"}]}
            for i in range(40)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["validate", str(path)]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "unknown label 'NOMBRE_SUJETO_ASISTENCIA' in 40 record(s), first at" in out and f"{path}:1" in out
    assert "1 problem(s)" in out  # one line for the label, not one per record
    assert main(["validate", str(path), "--mapping", "meddocan"]) == 0
    params = tmp_path / "params.yaml"
    params.write_text("tags:\n  mapping: {NOMBRE_SUJETO_ASISTENCIA: Name}\n  keep_unmapped: false\n")
    assert main(["validate", str(path), "--params", str(params)]) == 0
    assert "40 documents, 40 spans" in capsys.readouterr().out
    mapping = tmp_path / "labels.yaml"  # --mapping FILE: one `label: Tag` per line
    mapping.write_text("NOMBRE_SUJETO_ASISTENCIA: Name\n")
    assert main(["validate", str(path), "--mapping", str(mapping)]) == 0
    mapping.write_text("NOMBRE_SUJETO_ASISTENCIA: Nombre\n")
    assert main(["validate", str(path), "--mapping", str(mapping)]) == 1
