"""The i2b2/n2c2 XML format: an i2b2-2014-style folder reads, writes and reads back the same
(byte-stable files), line endings are kept as distributed, offsets are checked against the tags'
text, and every malformed file is refused with our error naming the file, line and fix."""

from __future__ import annotations

import json
import shutil
import tempfile
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from synthdeid import Document, InputError, Span
from synthdeid.cli import main
from synthdeid.corpus.formats.i2b2 import CATEGORIES, read_i2b2, to_i2b2_xml
from synthdeid.corpus_io import guess_format, read_documents, write_documents
from synthdeid.errors import InputWarning

HEAD = '<?xml version="1.0" encoding="UTF-8" ?>\n'


def i2b2_file(text: str, tags: list[tuple[str, int, int, str]], *, category: str = "PHI") -> str:
    """An i2b2 2014 file: ``tags`` are (TYPE, start, end, text attribute)."""
    lines = [
        f'<{CATEGORIES.get(t, category)} id="P{i}" start="{a}" end="{b}" text="{s}" TYPE="{t}" comment="" />'
        for i, (t, a, b, s) in enumerate(tags)
    ]
    return (
        HEAD
        + "<deIdi2b2>\n<TEXT><![CDATA["
        + text
        + "]]></TEXT>\n<TAGS>\n"
        + "".join(x + "\n" for x in lines)
        + "</TAGS>\n</deIdi2b2>\n"
    )


NOTE_1 = "Record date: 2067-05-03\n\nJane Doe, 64 y/o, seen at Mercy Hospital by Dr. Smith.\nCall 555-1234."
NOTE_2 = "Record date: 2091-11-20\nNo PHI besides the date & <nothing> else ]]> here."


def _tags(text: str, pieces: list[tuple[str, str]]) -> list[tuple[str, int, int, str]]:
    out = []
    for label, surface in pieces:
        a = text.index(surface)
        out.append((label, a, a + len(surface), surface))
    return out


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "i2b2"
    folder.mkdir()
    (folder / "110-01.xml").write_text(
        i2b2_file(
            NOTE_1,
            _tags(
                NOTE_1,
                [
                    ("DATE", "2067-05-03"),
                    ("PATIENT", "Jane Doe"),
                    ("AGE", "64"),
                    ("HOSPITAL", "Mercy Hospital"),
                    ("DOCTOR", "Smith"),
                    ("PHONE", "555-1234"),
                ],
            ),
        ),
        encoding="utf-8",
    )
    # ']]>' in the note: two CDATA sections; '&' and '<' are CDATA text
    text2 = NOTE_2.replace("]]>", "]]]]><![CDATA[>")
    (folder / "110-02.xml").write_text(i2b2_file(text2, [("DATE", 13, 23, "2091-11-20")]), encoding="utf-8")
    return folder


def test_reads_an_i2b2_2014_folder(corpus: Path) -> None:
    assert guess_format(corpus) == "i2b2"
    docs = list(read_documents(corpus))
    assert [d.id for d in docs] == ["110-01", "110-02"]
    assert docs[0].text == NOTE_1 and docs[1].text == NOTE_2
    assert [(docs[0].surface(s), s.label) for s in docs[0].spans] == [
        ("2067-05-03", "DATE"),
        ("Jane Doe", "PATIENT"),
        ("64", "AGE"),
        ("Mercy Hospital", "HOSPITAL"),
        ("Smith", "DOCTOR"),
        ("555-1234", "PHONE"),
    ]
    [single] = read_documents(corpus / "110-02.xml")
    assert single == docs[1] and guess_format(corpus / "110-02.xml") == "i2b2"


def test_round_trip_is_the_identity_and_byte_stable(corpus: Path, tmp_path: Path) -> None:
    docs = list(read_documents(corpus))
    assert write_documents(docs, tmp_path / "out", "i2b2") == 2
    assert list(read_documents(tmp_path / "out")) == docs
    write_documents(list(read_documents(tmp_path / "out")), tmp_path / "again", "i2b2")
    for name in ("110-01.xml", "110-02.xml"):
        assert (tmp_path / "out" / name).read_bytes() == (tmp_path / "again" / name).read_bytes()
    written = (tmp_path / "out" / "110-01.xml").read_text(encoding="utf-8")
    assert written.startswith(HEAD + "<deIdi2b2>\n<TEXT><![CDATA[Record date")
    assert '<NAME id="P1" start="25" end="33" text="Jane Doe" TYPE="PATIENT" comment="" />' in written
    assert '<LOCATION id="P3"' in written and '<CONTACT id="P5"' in written and '<AGE id="P2"' in written
    assert "]]]]><![CDATA[>" in (tmp_path / "out" / "110-02.xml").read_text(encoding="utf-8")


def test_written_files_read_the_same_in_any_xml_parser(tmp_path: Path) -> None:
    """CRs are written as &#13; between CDATA sections: ElementTree (which turns raw CRs into LF)
    sees the same text, so the offsets hold there too; labels without a category become PHI."""
    doc = Document.create(
        "n/1",
        "Naam:\r\nJan & <Piet>\rkwam ]]> op 12-03.\tKlaar",
        [Span(8, 11, "Name"), Span(14, 20, "Name"), Span(33, 38, "Date")],
    )
    write_documents([doc], tmp_path / "out", "i2b2")
    path = tmp_path / "out" / "n" / "1.xml"
    assert "\r" not in path.read_text(encoding="utf-8")
    root = ET.parse(path).getroot()
    assert root.tag == "deIdi2b2" and root.find("TEXT").text == doc.text
    tags = list(root.find("TAGS"))
    assert [t.tag for t in tags] == ["PHI", "PHI", "DATE"]  # "Date" -> DATE (looked up in upper case)
    assert [doc.text[int(t.get("start")) : int(t.get("end"))] for t in tags] == [t.get("text") for t in tags]
    assert list(read_documents(tmp_path / "out")) == [doc]
    assert list(read_documents(tmp_path / "out", options={"newlines": "xml"})) == [doc]


def test_line_endings_are_kept_as_distributed_or_read_as_xml(tmp_path: Path) -> None:
    text = "Date: 2067-05-03\r\nName: Jane Doe\rEnd"
    start = text.index("Jane")
    path = tmp_path / "crlf.xml"
    path.write_bytes(
        i2b2_file(text, [("DATE", 6, 16, "2067-05-03"), ("PATIENT", start, start + 8, "Jane Doe")]).encode("utf-8")
    )
    [doc] = read_documents(path)
    assert doc.text == text and [doc.surface(s) for s in doc.spans] == ["2067-05-03", "Jane Doe"]
    # the same offsets counted on the text as a parser reads it do not match: refused, with the option named
    with pytest.raises(InputError) as e:
        list(read_documents(path, options={"newlines": "xml"}))
    assert "text='Jane Doe' but TEXT[" in str(e.value) and "newlines: keep" in str(e.value)
    parsed = text.replace("\r\n", "\n").replace("\r", "\n")
    start = parsed.index("Jane")
    path.write_bytes(i2b2_file(text, [("PATIENT", start, start + 8, "Jane Doe")]).encode("utf-8"))
    [doc] = read_documents(path, options={"newlines": "xml"})
    assert doc.text == parsed and doc.surface(doc.spans[0]) == "Jane Doe"
    with pytest.raises(InputError, match="newlines: xml"):
        list(read_documents(path))


def test_a_cr_only_and_crlf_file_with_a_bom(tmp_path: Path) -> None:
    text = "Patient Jane Doe\nseen 2067-05-03"
    for name, newline in (("cr", "\r"), ("crlf", "\r\n"), ("lf", "\n")):
        content = i2b2_file(text, [("PATIENT", 8, 16, "Jane Doe"), ("DATE", 22, 32, "2067-05-03")])
        # the file's own line breaks (outside TEXT) are CR or CRLF; the note keeps its LF
        body = content.replace("\n", newline).replace("Doe" + newline + "seen", "Doe\nseen")
        (tmp_path / f"{name}.xml").write_bytes(b"\xef\xbb\xbf" + body.encode("utf-8"))
        [doc] = read_documents(tmp_path / f"{name}.xml")
        assert (doc.text, [doc.surface(s) for s in doc.spans]) == (text, ["Jane Doe", "2067-05-03"]), name


def test_an_offset_text_mismatch_names_file_tag_and_both_strings(tmp_path: Path) -> None:
    path = tmp_path / "x.xml"
    path.write_text(
        i2b2_file(NOTE_1, [("DATE", 13, 23, "2067-05-03"), ("PATIENT", 26, 34, "Jane Doe")]), encoding="utf-8"
    )
    with pytest.raises(InputError) as e:
        list(read_documents(path))
    err = e.value
    assert err.path == str(path) and err.line == 9 and err.fix  # the note spans lines 3-6
    assert "tag 'P1'" in err.problem and "'Jane Doe'" in err.problem and "'ane Doe,'" in err.problem


BAD = {
    "malformed": ("<deIdi2b2><TEXT>a & b</TEXT><TAGS/></deIdi2b2>", "malformed XML", 2),
    "truncated": ("<deIdi2b2><TEXT><![CDATA[Jan]]></TEXT><TAGS>", "malformed XML", 2),
    "doctype": ('<!DOCTYPE x [<!ENTITY a "Jan">]>\n<deIdi2b2><TEXT>&a;</TEXT><TAGS/></deIdi2b2>', "DOCTYPE", 2),
    "latin1-declared": ("<deIdi2b2><TEXT>Café</TEXT><TAGS/></deIdi2b2>", "declares encoding 'ISO-8859-1'", 1),
    "no-text": ("<deIdi2b2>\n<TAGS/></deIdi2b2>", "no <TEXT> element", 1),
    "no-tags": ("<deIdi2b2><TEXT>Jan</TEXT></deIdi2b2>", "no <TAGS> element", 1),
    "second-text": ("<deIdi2b2><TEXT>Jan</TEXT>\n<TEXT>Piet</TEXT><TAGS/></deIdi2b2>", "a second TEXT", 3),
    "second-tags": ("<deIdi2b2><TEXT>Jan</TEXT><TAGS/>\n<TAGS/></deIdi2b2>", "a second TAGS", 3),
    "text-outside": ("<deIdi2b2><TEXT>Jan</TEXT>\nkwam<TAGS/></deIdi2b2>", "text outside TEXT", 3),
    "text-in-tags": ("<deIdi2b2><TEXT>Jan</TEXT><TAGS>\nJan</TAGS></deIdi2b2>", "text outside TEXT", 3),
    "element-in-text": ("<deIdi2b2><TEXT>Jan <b>Piet</b></TEXT><TAGS/></deIdi2b2>", "TEXT holds an element <b>", 2),
    "other-element": ("<deIdi2b2><TEXT>Jan</TEXT><META/><TAGS/></deIdi2b2>", "unexpected element <META>", 2),
    "no-start": (
        '<deIdi2b2><TEXT>Jan</TEXT><TAGS>\n<NAME id="P0" end="3" TYPE="PATIENT"/></TAGS></deIdi2b2>',
        "no start attribute",
        3,
    ),
    "no-type": (
        '<deIdi2b2><TEXT>Jan</TEXT><TAGS>\n<NAME id="P0" start="0" end="3"/></TAGS></deIdi2b2>',
        "no TYPE attribute",
        3,
    ),
    "empty-type": (
        '<deIdi2b2><TEXT>Jan</TEXT><TAGS>\n<NAME id="P0" start="0" end="3" TYPE=""/></TAGS></deIdi2b2>',
        "no TYPE attribute",
        3,
    ),
    "word-offset": (
        '<deIdi2b2><TEXT>Jan</TEXT><TAGS>\n<NAME id="P0" start="zero" end="3" TYPE="P"/></TAGS></deIdi2b2>',
        "not whole numbers",
        3,
    ),
    "negative": (
        '<deIdi2b2><TEXT>Jan</TEXT><TAGS>\n<NAME id="P0" start="-1" end="3" TYPE="P"/></TAGS></deIdi2b2>',
        "not whole numbers",
        3,
    ),
    "past-end": (
        '<deIdi2b2><TEXT>Jan</TEXT><TAGS>\n<NAME id="P0" start="0" end="9" TYPE="P"/></TAGS></deIdi2b2>',
        "outside the TEXT",
        3,
    ),
    "zero-width": (
        '<deIdi2b2><TEXT>Jan</TEXT><TAGS>\n<NAME id="P0" start="2" end="2" TYPE="P"/></TAGS></deIdi2b2>',
        "outside the TEXT (3 characters) or empty",
        3,
    ),
    "unknown-attribute": (
        '<deIdi2b2><TEXT>Jan</TEXT><TAGS>\n<NAME id="P0" start="0" end="3" TYPE="P" score="1"/></TAGS></deIdi2b2>',
        "attribute 'score' is not read",
        3,
    ),
    "duplicate-tag-id": (
        '<deIdi2b2><TEXT>Jan Jansen</TEXT><TAGS>\n<NAME id="P0" start="0" end="3" TYPE="P"/>\n'
        '<NAME id="P0" start="4" end="10" TYPE="P"/></TAGS></deIdi2b2>',
        "used twice",
        4,
    ),
    "tag-with-content": (
        '<deIdi2b2><TEXT>Jan</TEXT><TAGS>\n<NAME id="P0" start="0" end="3" TYPE="P">Jan</NAME></TAGS></deIdi2b2>',
        "text outside TEXT, in a tag",
        3,
    ),
    "mismatch": (
        '<deIdi2b2><TEXT>Jan Jansen</TEXT><TAGS>\n<NAME id="P0" start="0" end="3" text="Piet" TYPE="P"/>'
        "</TAGS></deIdi2b2>",
        "text='Piet' but TEXT[0:3] is 'Jan'",
        3,
    ),
    "overlap": (
        '<deIdi2b2><TEXT>Jan Jansen</TEXT><TAGS>\n<NAME id="P0" start="0" end="10" TYPE="P"/>\n'
        '<NAME id="P1" start="4" end="10" TYPE="P"/></TAGS></deIdi2b2>',
        "spans overlap",
        None,
    ),
    "empty-note": ("<deIdi2b2><TEXT><![CDATA[ \n ]]></TEXT><TAGS/></deIdi2b2>", "the document is empty", None),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_malformed_files_are_refused_with_place_and_fix(tmp_path: Path, name: str) -> None:
    content, problem, line = BAD[name]
    head = HEAD.replace("UTF-8", "ISO-8859-1") if name == "latin1-declared" else HEAD
    path = tmp_path / f"{name}.xml"
    path.write_text(head + content, encoding="utf-8")
    with pytest.raises(InputError) as e:
        list(read_documents(path))
    assert problem in e.value.problem and e.value.fix
    assert e.value.path == str(path) and e.value.line == line


def test_an_ascii_file_may_declare_another_encoding(tmp_path: Path) -> None:
    path = tmp_path / "a.xml"
    path.write_text(HEAD.replace("UTF-8", "ISO-8859-1") + "<deIdi2b2><TEXT>Jan</TEXT><TAGS/></deIdi2b2>")
    assert [d.text for d in read_documents(path)] == ["Jan"]


def test_tags_attribute_whitespace_entities_and_plain_text(tmp_path: Path) -> None:
    """TEXT may be plain character data (entities decoded); a tag's text attribute may hold a raw
    newline, which XML reads as a space (compared with whitespace collapsed); comments are read past."""
    path = tmp_path / "a.xml"
    path.write_text(
        HEAD + '<deIdi2b2><TEXT>Jan &amp; Piet\nJansen</TEXT><TAGS>\n<NAME id="P0" start="6" end="17" '
        'text="Piet\nJansen" TYPE="DOCTOR" comment="checked"/><!-- a note --></TAGS></deIdi2b2>'
    )
    [doc] = read_documents(path)
    assert doc.text == "Jan & Piet\nJansen" and doc.spans == (Span(6, 17, "DOCTOR"),)


def test_errors_are_collected_and_the_valid_documents_kept(corpus: Path) -> None:
    (corpus / "110-03.xml").write_text(HEAD + "<deIdi2b2><TEXT>Jan</TEXT></deIdi2b2>", encoding="utf-8")
    (corpus / "sub").mkdir()
    (corpus / "sub" / "x.xml").write_text(i2b2_file("Jan kwam", [("PATIENT", 0, 3, "Jan")]), encoding="utf-8")
    errors: list[InputError] = []
    docs = list(read_documents(corpus, errors=errors))
    assert [d.id for d in docs] == ["110-01", "110-02", "sub/x"]
    assert [(Path(e.path).name, e.problem) for e in errors] == [("110-03.xml", "no <TAGS> element")]


def test_options_are_checked(corpus: Path, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="format 'i2b2' has no option 'labels'") as e:
        list(read_documents(corpus, options={"labels": ["Name"]}))
    assert "it takes newlines" in e.value.fix
    with pytest.raises(InputError, match="newlines is 'crlf'"):
        list(read_documents(corpus, options={"newlines": "crlf"}))
    jsonl = tmp_path / "a.jsonl"
    write_documents([Document.create("a", "Jan")], jsonl)
    with pytest.raises(InputError, match="format 'jsonl' has no option 'newlines'") as e:
        list(read_documents(jsonl, options={"newlines": "xml"}))
    assert "it takes none" in e.value.fix
    assert [d.id for d in read_documents(jsonl, options={})] == ["a"]


def test_the_writer_refuses_what_it_cannot_write(tmp_path: Path) -> None:
    doc = Document.create("a", "Jan", [Span(0, 3, "Name")])
    with pytest.raises(InputError, match="a folder"):
        write_documents([doc], tmp_path / "out.xml")
    with pytest.raises(InputError, match="U\\+000C at character 3") as e:
        write_documents([Document.create("b", "Jan\x0ckwam")], tmp_path / "ff", "i2b2")
    assert e.value.doc_id == "b"
    with pytest.raises(InputError, match="cannot be used as a file name"):
        write_documents([Document.create("a b", "Jan")], tmp_path / "sp", "i2b2")
    with pytest.raises(InputError, match="same file"):
        write_documents([doc, Document.create("A", "Piet")], tmp_path / "case", "i2b2")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "old.xml").write_text("x")
    with pytest.raises(InputError, match="not empty"):
        write_documents([doc], tmp_path / "full", "i2b2")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full"], "a refused write left something behind"


def test_convert_i2b2_to_jsonl_and_back(corpus: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "c.jsonl"
    assert main(["convert", str(corpus), str(out)]) == 0
    assert "read 2 documents, 7 spans" in capsys.readouterr().out
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows[0]["id"] == "110-01" and rows[0]["spans"][1] == {"start": 25, "end": 33, "label": "PATIENT"}
    assert main(["convert", str(out), str(tmp_path / "back"), "--to", "i2b2"]) == 0
    assert list(read_documents(tmp_path / "back")) == list(read_documents(corpus))
    assert main(["validate", str(corpus), "--any-labels"]) == 0
    assert main(["validate", str(corpus), "--format", "i2b2", "--format-option", "newlines=xml", "--any-labels"]) == 0
    assert main(["validate", str(corpus), "--format-option", "labels=Name", "--any-labels"]) == 1
    assert "no option 'labels'" in capsys.readouterr().out


def test_guessing_a_folder(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "a.xml").write_text("")
    assert guess_format(tmp_path / "x") == "i2b2"
    (tmp_path / "x" / "a.ann").write_text("")
    assert guess_format(tmp_path / "x") == "brat"  # BRAT's annotations win
    (tmp_path / "y").mkdir()
    assert guess_format(tmp_path / "y") == "brat" and guess_format(tmp_path / "new", for_writing=True) == "brat"


def test_an_upper_case_folder_is_guessed_and_read(corpus: Path) -> None:
    """#28: b.XML was skipped without a word, and `deidentify` took the folder for plain notes."""
    from synthdeid.phi.deidentify import input_format

    (corpus / "110-02.xml").rename(corpus / "110-02.XML")
    (corpus / "110-01.xml").unlink()
    assert guess_format(corpus) == "i2b2" and input_format(corpus) == "i2b2"
    assert [d.id for d in read_documents(corpus)] == ["110-02"]


def test_crlf_offsets_that_nothing_checks_are_warned_about(tmp_path: Path) -> None:
    """#28: CRLF text, offsets counted on LF and no text= attributes shifted every span silently."""
    text = "Date: 2067-05-03\r\nName: Jane Doe"
    start = text.replace("\r\n", "\n").index("Jane")  # counted by a tool that parsed the XML
    path = tmp_path / "crlf.xml"
    path.write_text(
        i2b2_file(text, [("PATIENT", start, start + 8, "")]).replace(' text=""', ""), encoding="utf-8", newline=""
    )
    with pytest.warns(InputWarning, match="the TEXT has CR line endings and no tag has a text= attribute") as w:
        [doc] = read_documents(path)
    assert str(path) in str(w[0].message) and "newlines: xml" in str(w[0].message)
    assert doc.surface(doc.spans[0]) == " Jane Do"  # shifted: what the warning is about
    with warnings.catch_warnings():
        warnings.simplefilter("error", InputWarning)
        [doc] = read_documents(path, options={"newlines": "xml"})
        assert doc.surface(doc.spans[0]) == "Jane Doe"
        path.write_text(i2b2_file(text, [("PATIENT", start + 1, start + 9, "Jane Doe")]), encoding="utf-8", newline="")
        [doc] = read_documents(path)  # a text= attribute checks the offsets: no doubt left
        assert doc.surface(doc.spans[0]) == "Jane Doe"


# ---- properties: any documents round-trip; any file reads or is refused with our error

ALPHABET = "Jan Pietkwmé\n\r\t&<>]\"'ü😀"


@st.composite
def documents(draw) -> list[Document]:
    docs = []
    for i in range(draw(st.integers(1, 3))):
        text = draw(st.text(alphabet=ALPHABET, min_size=1, max_size=40).filter(str.strip))
        cuts = sorted(draw(st.sets(st.integers(0, len(text)), max_size=6)))
        spans = [
            Span(a, b, draw(st.sampled_from(["Name", "PATIENT", "LOCATION-OTHER", 'a b&<"', "Date"])))
            for a, b in zip(cuts[::2], cuts[1::2])
            if a < b
        ]
        docs.append(Document.create(f"d{i}", text, spans))
    return docs


PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@PROPERTY
@given(docs=documents())
def test_any_documents_round_trip(tmp_path: Path, docs: list[Document]) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path)) / "out"
    write_documents(docs, folder, "i2b2")
    assert list(read_documents(folder)) == docs
    for doc in docs:  # and an XML parser reads the same text
        assert ET.parse(folder / f"{doc.id}.xml").getroot().find("TEXT").text == doc.text
    shutil.rmtree(folder.parent)


FRAGMENTS = [
    "<",
    ">",
    "</TAGS>",
    "<TAGS>",
    "<TEXT>",
    "</TEXT>",
    "<![CDATA[",
    "]]>",
    '"',
    " start=",
    " end=",
    '"0"',
    '"3"',
    '"-1"',
    '"99"',
    " TYPE=",
    "&",
    "&amp;",
    "&#13;",
    "\r",
    "\n",
    "\r\n",
    "é",
    "<!--",
    "-->",
    "<!DOCTYPE x>",
    '<NAME id="P9" start="0" end="1" TYPE="X" />',
    "\ufeff",
    "\x00",
]


@PROPERTY
@given(
    docs=documents(),
    edits=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 8), st.sampled_from(FRAGMENTS + [""])), max_size=3),
)
def test_any_damaged_file_reads_or_is_refused(tmp_path: Path, docs: list[Document], edits) -> None:
    content = to_i2b2_xml(docs[0])
    for i, n, fragment in edits:
        i %= len(content) + 1
        content = content[:i] + fragment + content[i + n :]
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "a.xml"
    path.write_text(content, encoding="utf-8", newline="")
    try:
        back = list(read_i2b2(path))
    except InputError as e:
        assert e.fix and e.where(), f"an error without place or fix: {e}"
        event("refused")
    else:
        event("read")
        write_documents(back, folder / "out", "i2b2")
        assert list(read_documents(folder / "out")) == back
    shutil.rmtree(folder)
