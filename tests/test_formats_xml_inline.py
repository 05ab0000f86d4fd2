"""XML-style inline tags: one document per line (or per file of a folder), element or attribute
form, an optional label set, the five XML entities; any line ending, a byte-order mark; malformed
tags refused at their line and column; the writer escapes so that reading gives back the same."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from stage_runner import repo_params, run_stages, stage_metrics

from synthdeid import Document, InputError, Span
from synthdeid.cli import main
from synthdeid.corpus.formats.jsonl import read_jsonl
from synthdeid.corpus.formats.xml_inline import encode_tagged, read_xml_inline
from synthdeid.corpus_io import guess_format, read_documents, write_documents

LINES = [
    "n1\tPatient <First_Name>Ulrik</First_Name> <Last_Name>Nielsen</Last_Name> seen on <Date>12-03-2067</Date>.",
    "notes-2\tDose &lt;5 mg &amp; <PHI TYPE=\"PATIENT\">Jane Doe</PHI> seen by <PHI TYPE='DOCTOR'>Dr. Smith</PHI>",
    "",
    "n3\tno PHI, a tab\there & there",
]


def _spans(doc: Document) -> list[tuple[str, str]]:
    return [(doc.surface(s), s.label) for s in doc.spans]


def test_reads_lines_ids_element_and_attribute_form(tmp_path: Path) -> None:
    path = tmp_path / "notes.xmltags"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    assert guess_format(path) == "xml_inline" and guess_format(tmp_path / "a.xml.txt") == "xml_inline"
    assert guess_format(tmp_path / "a.txt") == "text"
    docs = list(read_documents(path))
    assert [d.id for d in docs] == ["n1", "notes-2", "n3"]
    assert docs[0].text == "Patient Ulrik Nielsen seen on 12-03-2067."
    assert _spans(docs[0]) == [("Ulrik", "First_Name"), ("Nielsen", "Last_Name"), ("12-03-2067", "Date")]
    assert docs[1].text == "Dose <5 mg & Jane Doe seen by Dr. Smith"  # the five entities are decoded
    assert _spans(docs[1]) == [("Jane Doe", "PATIENT"), ("Dr. Smith", "DOCTOR")]
    assert docs[2].text == "no PHI, a tab\there & there" and docs[2].spans == ()


def test_round_trip_is_the_identity_and_byte_stable(tmp_path: Path) -> None:
    path = tmp_path / "notes.xmltags"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    docs = list(read_documents(path))
    write_documents(docs, tmp_path / "out.xmltags")
    assert list(read_documents(tmp_path / "out.xmltags")) == docs
    write_documents(list(read_documents(tmp_path / "out.xmltags")), tmp_path / "again.xmltags")
    assert (tmp_path / "out.xmltags").read_bytes() == (tmp_path / "again.xmltags").read_bytes()
    assert (tmp_path / "out.xmltags").read_text(encoding="utf-8").splitlines()[1] == (
        "notes-2\tDose &lt;5 mg &amp; <PATIENT>Jane Doe</PATIENT> seen by <DOCTOR>Dr. Smith</DOCTOR>"
    )


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
@pytest.mark.parametrize("bom", [False, True])
def test_any_line_ending_and_a_bom(tmp_path: Path, newline: str, bom: bool) -> None:
    path = tmp_path / "notes.xmltags"
    content = newline.join(["a\tJan <Name>Piet</Name> kwam", "", "b\top <Date>12 maart</Date>"]) + newline
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + content.encode("utf-8"))
    docs = list(read_documents(path))
    assert [(d.id, d.text, _spans(d)) for d in docs] == [
        ("a", "Jan Piet kwam", [("Piet", "Name")]),
        ("b", "op 12 maart", [("12 maart", "Date")]),
    ]
    bare = content.replace("a\t", "").replace("b\t", "")  # no line has an id (#41: a mix is refused)
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + bare.encode("utf-8"))
    assert [d.id for d in read_documents(path)] == ["notes-1", "notes-3"]  # line numbers count every line


def test_a_folder_keeps_each_files_text_exactly(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.txt").write_bytes(b"\xef\xbb\xbfNaam: <Name>Jan</Name>\r\nDatum: <Date>12-03</Date>\r\n")
    (folder / "sub" / "b.txt").write_bytes(b"Geen PHI\rhier.")
    docs = list(read_documents(folder, "xml_inline"))
    assert [(d.id, d.text, _spans(d)) for d in docs] == [
        ("a", "Naam: Jan\r\nDatum: 12-03\r\n", [("Jan", "Name"), ("12-03", "Date")]),
        ("sub/b", "Geen PHI\rhier.", []),
    ]
    write_documents(docs, tmp_path / "out", "xml_inline")
    assert list(read_documents(tmp_path / "out", "xml_inline")) == docs
    assert (tmp_path / "out" / "a.txt").read_bytes() == b"Naam: <Name>Jan</Name>\r\nDatum: <Date>12-03</Date>\r\n"
    # an error in a folder file names its line and column
    (folder / "c.txt").write_text("Naam: Jan\nDatum: <Date>12-03\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        list(read_documents(folder, "xml_inline"))
    assert e.value.path == str(folder / "c.txt") and e.value.line == 2 and "(line 2, column 8)" in e.value.problem


def test_the_line_writer_refuses_a_text_with_a_line_break(tmp_path: Path) -> None:
    doc = Document.create("a", "Jan\nkwam", [Span(0, 3, "Name")])
    with pytest.raises(InputError) as e:
        write_documents([doc], tmp_path / "out.xmltags")
    assert e.value.doc_id == "a" and "line break" in e.value.problem and "folder" in e.value.fix
    assert not (tmp_path / "out.xmltags").exists()
    with pytest.raises(InputError, match="whitespace"):
        write_documents([Document.create("a b", "Jan")], tmp_path / "out.xmltags")
    write_documents([doc], tmp_path / "folder", "xml_inline")
    assert list(read_documents(tmp_path / "folder", "xml_inline")) == [doc]


def test_the_label_set_option(tmp_path: Path) -> None:
    path = tmp_path / "a.xmltags"
    path.write_text(
        "a\tGive <5 mg<br> to <First_Name>Ulrik</First_Name> <i>now</i> on <Date>12-03</Date>\n", encoding="utf-8"
    )
    with pytest.raises(InputError) as e:  # without a label set <br> is a tag: the next one nests in it
        list(read_documents(path))
    assert "<First_Name> inside <br> (opened at line 1, column 13)" in e.value.problem
    assert "corpus.format_options.labels" in e.value.fix
    for labels in (["First_Name", "Date"], "First_Name, Date"):
        [doc] = read_documents(path, options={"labels": labels})
        assert doc.text == "Give <5 mg<br> to Ulrik <i>now</i> on 12-03"
        assert _spans(doc) == [("Ulrik", "First_Name"), ("12-03", "Date")]
    write_documents([doc], tmp_path / "out.xmltags")
    assert "Give &lt;5 mg&lt;br&gt; to <First_Name>" in (tmp_path / "out.xmltags").read_text(encoding="utf-8")
    assert list(read_documents(tmp_path / "out.xmltags")) == [doc]  # escaped: no label set needed
    # a label set with only PHI reads the attribute form
    path.write_text('a\t<b>Jan</b> <PHI TYPE="PATIENT">Jane</PHI>\n', encoding="utf-8")
    assert _spans(next(read_documents(path, options={"labels": ["PHI"]}))) == [("Jane", "PATIENT")]
    for bad in ([], ["5 mg"], {"Name": 1}, 3):
        with pytest.raises(InputError, match="format option labels"):
            list(read_documents(path, options={"labels": bad}))
    with pytest.raises(InputError, match="has no option 'newlines'"):
        list(read_documents(path, options={"newlines": "xml"}))


def test_labels_that_are_no_element_names_use_the_attribute_form(tmp_path: Path) -> None:
    doc = Document.create("a", 'Jan & "Piet" <x> 12-03', [Span(0, 3, "First Name"), Span(17, 22, 'D&"<>')])
    assert encode_tagged(doc) == (
        '<PHI TYPE="First Name">Jan</PHI> &amp; "Piet" &lt;x&gt; <PHI TYPE="D&amp;&quot;&lt;&gt;">12-03</PHI>'
    )
    write_documents([doc], tmp_path / "a.xmltags")
    assert list(read_documents(tmp_path / "a.xmltags")) == [doc]


def test_xml_names_of_any_script_and_with_a_prefix_are_tags(tmp_path: Path) -> None:
    """#28: <Förnamn> and <ns:Name> stayed in the text, 0 spans, and validated."""
    path = tmp_path / "a.xmltags"
    path.write_text(
        "a\t<Förnamn>Ulrik</Förnamn> <ns:Efternamn>Nielsen</ns:Efternamn> <Дата>12-03</Дата>\n", encoding="utf-8"
    )
    [doc] = read_documents(path)
    assert doc.text == "Ulrik Nielsen 12-03"
    assert _spans(doc) == [("Ulrik", "Förnamn"), ("Nielsen", "ns:Efternamn"), ("12-03", "Дата")]
    assert encode_tagged(doc) == "<Förnamn>Ulrik</Förnamn> <ns:Efternamn>Nielsen</ns:Efternamn> <Дата>12-03</Дата>"
    [again] = read_documents(path, options={"labels": ["Förnamn", "ns:Efternamn", "Дата"]})
    assert again == doc


def test_tag_like_tokens_are_refused_unless_kept_or_outside_the_label_set(tmp_path: Path) -> None:
    path = tmp_path / "a.xmltags"
    path.write_text("a\tDr. < Name>Jan</ Name> kwam<br/> op <Date>12-03</Date>\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        list(read_documents(path))
    assert "'< Name>' looks like a tag but is none" in e.value.problem and "(line 1, column 7)" in e.value.problem
    assert "unknown_tags: keep" in e.value.fix
    [doc] = read_documents(path, options={"unknown_tags": "keep"})
    assert doc.text == "Dr. < Name>Jan</ Name> kwam<br/> op 12-03" and _spans(doc) == [("12-03", "Date")]
    path.write_text("a\tDr. <Name>Jan</Name> kwam<br/> op <Date>12-03</Date>\n", encoding="utf-8")
    with pytest.raises(InputError, match="an empty element marks no text"):
        list(read_documents(path))
    [doc] = read_documents(path, options={"labels": ["Name", "Date"]})  # <br/> is no label: text
    assert doc.text == "Dr. Jan kwam<br/> op 12-03"
    with pytest.raises(InputError, match="format option unknown_tags is 'yes'"):
        list(read_documents(path, options={"unknown_tags": "yes"}))


BAD = {
    "unclosed": ("a\tJan <Name>Piet kwam", "the opening tag <Name> has no closing tag </Name> (line 2, column 7)"),
    "unopened": ("a\tJan Piet</Name> kwam", "the closing tag </Name> has no opening tag <Name> (line 2, column 11)"),
    "nested": ("a\t<Name>Jan <Date>12</Date></Name>", "<Date> inside <Name> (opened at line 2, column 3)"),
    "crossing": ("a\t<Name>Jan <Date>12</Name> x</Date>", "nested or crossing tags (line 2, column 13)"),
    "mismatched": ("a\t<Name>Jan</Date>", "</Date> closes <Name>"),
    "empty": ("a\tJan <Name></Name> kwam", "the tag <Name> is empty"),
    "other-attribute": ('a\t<PHI TYPE="PATIENT" id="P1">Jan</PHI>', "<PHI> has the attribute 'id'"),
    "empty-type": ('a\t<PHI TYPE="">Jan</PHI>', "<PHI> has an empty TYPE"),
    "twice-type": ('a\t<PHI TYPE="A" TYPE="B">Jan</PHI>', "the attribute TYPE twice"),
    "closing-attribute": ('a\t<Name>Jan</Name x="1">', "the closing tag '</Name x=\"1\">' has attributes"),
    "duplicate-id": ("a\tJan\na\tPiet", "duplicate document id 'a' (first on line 2)"),
    "empty-note": ("a\t   ", "the document is empty"),
}


def test_a_line_without_id_is_refused_at_its_place(tmp_path: Path) -> None:
    path = tmp_path / "c.xmltags"
    path.write_text("fine\nJan <Name>Piet\n", encoding="utf-8")  # no line has an id: FILE-LINE
    with pytest.raises(InputError, match=r"has no closing tag </Name> \(line 2, column 5\)") as e:
        list(read_documents(path))
    assert e.value.line == 2 and e.value.doc_id == "c-2"


@pytest.mark.parametrize("name", sorted(BAD))
def test_malformed_tags_are_refused_at_their_place(tmp_path: Path, name: str) -> None:
    content, problem = BAD[name]
    path = tmp_path / "c.xmltags"
    path.write_text("ok\tfine\n" + content + "\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        list(read_documents(path))
    assert problem in e.value.problem and e.value.fix
    assert e.value.path == str(path) and e.value.line == (3 if name == "duplicate-id" else 2)
    errors: list[InputError] = []
    assert [d.id for d in read_documents(path, errors=errors)] == ["ok"] + ["a"] * (name == "duplicate-id")
    assert len(errors) == 1


def test_convert_xml_inline_to_jsonl_with_a_label_set(tmp_path: Path, capsys) -> None:
    path = tmp_path / "notes.xmltags"
    path.write_text("a\tGive <5 mg to <Name>Jan</Name> on <Date>12-03</Date><br>\n", encoding="utf-8")
    assert main(["convert", str(path), str(tmp_path / "x.jsonl")]) == 1
    assert "no closing tag </br>" in capsys.readouterr().err
    assert main(["convert", str(path), str(tmp_path / "x.jsonl"), "--format-option", "labels=[Name, Date]"]) == 0
    assert "read 1 documents, 2 spans" in capsys.readouterr().out
    [row] = [json.loads(line) for line in (tmp_path / "x.jsonl").read_text(encoding="utf-8").splitlines()]
    assert row == {
        "id": "a",
        "text": "Give <5 mg to Jan on 12-03<br>",
        "spans": [{"start": 14, "end": 17, "label": "Name"}, {"start": 21, "end": 26, "label": "Date"}],
    }
    assert main(["validate", str(path), "--format-option", "labels=Name,Date"]) == 0
    assert main(["validate", str(path), "--format-option", "labels"]) == 1
    assert "not KEY=VALUE" in capsys.readouterr().err
    assert main(["convert", str(tmp_path / "x.jsonl"), str(tmp_path / "y.xml.txt")]) == 0
    assert list(read_documents(tmp_path / "y.xml.txt")) == list(read_jsonl(tmp_path / "x.jsonl"))


def _stage_params(tmp_path: Path, options: object) -> dict:
    path = tmp_path / "notes.xmltags"
    path.write_text(
        "a\tGive <5 mg to <PERSOON>Jan</PERSOON> on <Date>12-03</Date><br>\nb\tGeen PHI.\n", encoding="utf-8"
    )
    params = repo_params()
    params["corpus"] |= {"source": "files", "path": str(path), "format": "xml_inline", "format_options": options}
    params["tags"] = {"mapping": {"PERSOON": "Name"}, "keep_unmapped": False}
    return params


def test_the_corpus_stage_reads_xml_inline_with_format_options(tmp_path: Path, capsys) -> None:
    run_stages(tmp_path, _stage_params(tmp_path, {"labels": ["PERSOON", "Date"]}), ["corpus"])
    docs = list(read_jsonl(tmp_path / "data/corpus/documents.jsonl"))
    assert [(d.id, d.text, _spans(d)) for d in docs] == [
        ("a", "Give <5 mg to Jan on 12-03<br>", [("Jan", "Name"), ("12-03", "Date")]),
        ("b", "Geen PHI.", []),
    ]
    assert stage_metrics(tmp_path, "corpus")["documents_out"] == 2
    with pytest.raises(SystemExit):  # without the label set, <br> is an unclosed tag
        run_stages(tmp_path, _stage_params(tmp_path, {}), ["corpus"])
    assert "the opening tag <br> has no closing tag </br>" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        run_stages(tmp_path, _stage_params(tmp_path, ["PERSOON"]), ["corpus"])
    err = capsys.readouterr().err
    assert "corpus.format_options" in err and "['PERSOON']" in err
    with pytest.raises(SystemExit):
        run_stages(tmp_path, _stage_params(tmp_path, {"label": ["PERSOON"]}), ["corpus"])
    assert "format 'xml_inline' has no option 'label'" in capsys.readouterr().err


# ---- properties: any documents round-trip; any file reads or is refused with our error

ALPHABET = "Jan Piet&<>;ampltgquos\"'/\té😀\ufeff"


@st.composite
def documents(draw, newlines: bool = False) -> list[Document]:
    docs = []
    for i in range(draw(st.integers(1, 3))):
        text = draw(
            st.text(alphabet=ALPHABET + ("\r\n" if newlines else ""), min_size=1, max_size=40).filter(str.strip)
        )
        cuts = sorted(draw(st.sets(st.integers(0, len(text)), max_size=6)))
        spans = [
            Span(a, b, draw(st.sampled_from(["Name", "PHI", "First_Name", "a b", "x&y<\"'", "Date.1"])))
            for a, b in zip(cuts[::2], cuts[1::2])
            if a < b
        ]
        docs.append(Document.create(draw(st.sampled_from(["n", "\ufeffn", "x.y"])) + str(i), text, spans))
    return docs


PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@PROPERTY
@given(docs=documents())
def test_any_documents_round_trip_in_a_file(tmp_path: Path, docs: list[Document]) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    if any(d.id.startswith("\ufeff") for d in docs[1:]):  # a U+FEFF starting a later line reads as a joined file
        with pytest.raises(InputError, match="only the first line may"):
            write_documents(docs, folder / "a.xmltags")
        assert not (folder / "a.xmltags").exists()
    else:
        write_documents(docs, folder / "a.xmltags")
        assert list(read_documents(folder / "a.xmltags")) == docs
    shutil.rmtree(folder)


@PROPERTY
@given(docs=documents(newlines=True))
def test_any_documents_round_trip_in_a_folder(tmp_path: Path, docs: list[Document]) -> None:
    docs = [Document.create(d.id.lstrip("\ufeff"), d.text, d.spans) for d in docs]
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    write_documents(docs, folder / "out", "xml_inline")
    assert list(read_documents(folder / "out", "xml_inline")) == sorted(docs, key=lambda d: d.id)
    shutil.rmtree(folder)


FRAGMENTS = [
    "<",
    ">",
    "</",
    "<Name>",
    "</Name>",
    "<Date>",
    "</Date>",
    '<PHI TYPE="X">',
    "</PHI>",
    "&amp;",
    "&lt;",
    "&",
    "\t",
    "a\t",
    "\n",
    "\r",
    "\r\n",
    "\ufeff",
    " ",
    "<br>",
    "<Name/>",
    'TYPE="',
    '"',
    "\x00",
]


@PROPERTY
@given(
    docs=documents(),
    labels=st.sampled_from([None, ["Name"], ["Name", "PHI", "Date"]]),
    edits=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 6), st.sampled_from(FRAGMENTS + [""])), max_size=3),
)
def test_any_damaged_file_reads_or_is_refused(tmp_path: Path, docs: list[Document], labels, edits) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "a.xmltags"
    docs = docs[:1] + [Document.create(d.id.lstrip("\ufeff"), d.text, d.spans) for d in docs[1:]]
    write_documents(docs, path)
    content = path.read_text(encoding="utf-8")
    for i, n, fragment in edits:
        i %= len(content) + 1
        content = content[:i] + fragment + content[i + n :]
    path.write_text(content, encoding="utf-8", newline="")
    try:
        back = list(read_xml_inline(path, options={"labels": labels}))
    except InputError as e:
        assert e.fix and e.where(), f"an error without place or fix: {e}"
        event("refused")
    else:
        event("read")
        if back and all("\r" not in d.text and "\n" not in d.text for d in back):
            write_documents(back, folder / "b.xmltags")
            assert list(read_documents(folder / "b.xmltags")) == back
    shutil.rmtree(folder)
