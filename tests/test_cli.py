import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import synthdeid.corpus_io as formats
from synthdeid import Document, Span
from synthdeid.cli import main
from synthdeid.corpus_io import read_documents, write_documents

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
    out = subprocess.run([str(script), "plugins", "--json"], capture_output=True, text=True, check=True).stdout
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
        json.dumps({"id": "a", "text": "Jan", "spans": [{"start": 0, "end": 3, "label": "Persoon"}]})
        + "\n"
        + json.dumps({"id": "b", "text": "Jan", "spans": [{"start": 0, "end": 9, "label": "Name"}]})
        + "\n"
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
    rows = [
        {"id": f"d{i}", "text": "Ana vino", "spans": [{"start": 0, "end": 3, "label": "NOMBRE_SUJETO_ASISTENCIA"}]}
        for i in range(40)
    ]
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


# ---- #28: what a command cannot do is an error naming the file or document and a fix; nothing is left behind


def _error(capsys) -> str:
    err = " ".join(capsys.readouterr().err.split())
    assert "fix:" in err and "Traceback" not in err
    return err


@pytest.mark.parametrize("label", ["First Name", "Name\nX"])
@pytest.mark.parametrize("output", ["out.conll", "out-brat", "out.inline"])
def test_convert_refuses_labels_the_output_cannot_hold_and_writes_nothing(tmp_path, capsys, label, output):
    src = tmp_path / "in.jsonl"
    write_documents([DOC, Document.create("b", "Jan kwam", [Span(0, 3, label)])], src)
    to = ["--to", "brat"] if output == "out-brat" else []
    assert main(["convert", str(src), str(tmp_path / output), *to]) == 1
    err = _error(capsys)
    assert "document 'b'" in err and ("whitespace" in err or "cannot be written as an inline tag" in err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl"]


def test_i2b2_and_xml_inline_folders_hold_any_label(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    docs = [DOC, Document.create("b", "Jan kwam", [Span(0, 3, "First Name\nX")])]
    write_documents(docs, src)
    for out, to in (("i2b2", "i2b2"), ("xml", "xml_inline")):
        assert main(["convert", str(src), str(tmp_path / out), "--to", to]) == 0
        assert list(read_documents(tmp_path / out, to)) == sorted(docs, key=lambda d: d.id)


def test_convert_removes_an_output_that_does_not_read_back(tmp_path, capsys, monkeypatch):
    """A writer bug must not leave a broken output blamed on the user's input."""

    def broken(docs, path):
        Path(path).write_text("not json\n", encoding="utf-8")
        return len(list(docs))

    jsonl, lookup = formats.corpus_format("jsonl"), formats.corpus_format
    monkeypatch.setattr(
        formats, "corpus_format", lambda f: replace(jsonl, writer=broken) if f == "jsonl" else lookup(f)
    )
    src = tmp_path / "in.inline"
    write_documents([DOC], src)
    assert main(["convert", str(src), str(tmp_path / "out.jsonl")]) == 1
    err = _error(capsys)
    assert "cannot read it back" in err and "out.jsonl" in err
    assert not (tmp_path / "out.jsonl").exists()


def test_convert_into_the_current_empty_folder(tmp_path, capsys, monkeypatch):
    src = tmp_path / "in.jsonl"
    write_documents([DOC], src)
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    assert main(["convert", str(src), "."]) == 0
    assert sorted(p.name for p in Path(".").iterdir()) == ["n1.ann", "n1.txt"]
    assert list(read_documents(".")) == [DOC]
    assert main(["convert", str(src), "."]) == 1  # no longer empty
    assert "not empty" in _error(capsys)


@pytest.mark.parametrize("to", ["jsonl", "conll", "inline"])
def test_convert_to_a_file_format_onto_a_folder_is_refused(tmp_path, capsys, to):
    src = tmp_path / "in.jsonl"
    write_documents([DOC], src)
    (tmp_path / "out").mkdir()
    assert main(["convert", str(src), str(tmp_path / "out"), "--to", to]) == 1
    err = _error(capsys)
    assert f"{tmp_path / 'out'}: is a folder" in err
    assert list((tmp_path / "out").iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == [
        "in.jsonl",
        "out",
    ]


def test_validate_names_the_files_a_folder_reader_does_not_read(tmp_path, capsys):
    folder = tmp_path / "brat"
    folder.mkdir()
    for name, content in {
        "a.txt": "Jan kwam",
        "a.ann": "T1\tName 0 3\tJan\n",
        "B.TXT": "Piet kwam",
        "B.ANN": "T1\tName 0 4\tPiet\n",
        "notes.docx": "x",
        "annotation.conf": "[entities]",
    }.items():
        (folder / name).write_text(content, encoding="utf-8")
    assert main(["validate", str(folder)]) == 0
    captured = capsys.readouterr()
    assert "2 documents, 2 spans" in captured.out  # B.TXT/B.ANN read
    err = " ".join(captured.err.split())
    assert f"warning: {folder}: 1 file(s) not read: notes.docx" in err and "fix:" in err
    assert "annotation.conf" not in err  # BRAT's own configuration


def test_validate_warns_about_crlf_i2b2_offsets_it_cannot_check(tmp_path, capsys):
    path = tmp_path / "crlf.xml"
    path.write_bytes(
        b'<?xml version="1.0" encoding="UTF-8" ?>\n<deIdi2b2>\n<TEXT><![CDATA[Datum: x\r\nNaam: Jan]]>'
        b'</TEXT>\n<TAGS>\n<NAME id="P0" start="15" end="18" TYPE="Name" />\n</TAGS>\n</deIdi2b2>\n'
    )
    assert main(["validate", str(path)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert f"warning: {path}: the TEXT has CR line endings" in err and "newlines=xml" in err


def test_validate_names_a_txt_file_that_holds_tags(tmp_path, capsys):
    path = tmp_path / "reference_standard_annotated.txt"
    path.write_text("n1\tPatient <Name>Jan</Name> kwam\n", encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert f"{path}:1: looks like XML-style inline tags" in out and "pass --format xml_inline" in out
    assert main(["validate", str(path), "--format", "xml_inline"]) == 0
    assert "1 documents, 1 spans" in capsys.readouterr().out
    assert main(["convert", str(path), str(tmp_path / "out.jsonl")]) == 1
    assert "looks like XML-style inline tags" in _error(capsys) and not (tmp_path / "out.jsonl").exists()
    path.write_text("n1\tPatient <NameSTART> Jan <NameEND> kwam\n", encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    assert "pass --format inline" in " ".join(capsys.readouterr().out.split())


def test_validate_params_reads_what_the_corpus_stage_reads(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("notes.xmltags").write_text("a\tGive <5 mg<br> to <PERSOON>Jan</PERSOON>\n", encoding="utf-8")
    Path("params.yaml").write_text(
        "corpus:\n  source: files\n  path: notes.xmltags\n  format: xml_inline\n"
        "  format_options: {labels: [PERSOON]}\n"
        "tags:\n  mapping: {PERSOON: Name}\n  keep_unmapped: false\n",
        encoding="utf-8",
    )
    assert main(["validate", "notes.xmltags", "--any-labels"]) == 1  # <br> is a tag without the label set
    capsys.readouterr()
    assert main(["validate", "--params", "params.yaml"]) == 0  # corpus.path, its format and options, its mapping
    assert "notes.xmltags: 1 documents, 1 spans" in capsys.readouterr().out
    assert main(["validate", "notes.xmltags", "--params", "params.yaml"]) == 0
    assert main(["validate", "--params", "params.yaml", "--format", "jsonl"]) == 1
    assert "--format gives 'jsonl' but corpus.format is 'xml_inline'" in _error(capsys)
    assert main(["validate"]) == 1
    assert "no corpus to validate" in _error(capsys)


def test_errors_print_colon_codes_as_written(tmp_path, capsys, monkeypatch):
    """rich reads ``:100:`` as an emoji code: ``params.yaml:100:`` (a key on line 100) printed as 💯."""
    monkeypatch.chdir(tmp_path)
    assert main(["convert", "in:100:x.jsonl", "out.jsonl"]) == 1
    err = capsys.readouterr().err
    assert "in:100:x.jsonl" in err and "\U0001f4af" not in err
