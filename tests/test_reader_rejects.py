"""#41: one bad note does not refuse a batch. With ``errors=[]`` every reader collects a note that
is empty, not UTF-8 or (JSONL) not JSON as an InputError naming its file, line or document, skips
it and reads the rest; without the list the same error is raised. And an xml_inline line whose
first word is followed by a tab keeps that word."""

from __future__ import annotations

from pathlib import Path

import pytest

from synthdeid.corpus_io import read_documents
from synthdeid.errors import InputError

LATIN1 = "Jos\xe9 kwam".encode("latin-1")  # é in latin1: not UTF-8


def _folder(root: Path, files: dict[str, bytes]) -> Path:
    root.mkdir()
    for name, data in files.items():
        (root / name).write_bytes(data)
    return root


def _jsonl(tmp_path: Path) -> Path:
    path = tmp_path / "c.jsonl"
    path.write_bytes(
        b'{"id": "a", "text": "Jan kwam", "spans": []}\n'
        b'{"id": "empty", "text": "", "spans": []}\n'
        b'{"id": "latin1", "text": "' + LATIN1 + b'", "spans": []}\n'
        b'{"id": "broken", "text": \n'
        b'{"id": "d", "text": "Piet ging", "spans": []}\n'
    )
    return path


def _text(tmp_path: Path) -> Path:
    return _folder(tmp_path / "notes", {"a.txt": b"Jan kwam", "empty.txt": b"", "latin1.txt": LATIN1, "d.txt": b"ok"})


def _brat(tmp_path: Path) -> Path:
    files = {"a.txt": b"Jan kwam", "empty.txt": b"", "latin1.txt": LATIN1, "d.txt": b"Piet ging"}
    files |= {name.replace(".txt", ".ann"): b"" for name in files}
    files["a.ann"] = b"T1\tName 0 3\tJan\n"
    return _folder(tmp_path / "brat", files)


def _inline(tmp_path: Path) -> Path:
    path = tmp_path / "c.inline"
    path.write_bytes(b"a\tJan kwam\nempty\t \nlatin1\t" + LATIN1 + b"\nd\tPiet ging\n")
    return path


def _xml_inline(tmp_path: Path) -> Path:
    path = tmp_path / "c.xmltags"
    path.write_bytes(b"a\t<Name>Jan</Name> kwam\nempty\t \nlatin1\t" + LATIN1 + b"\nd\tPiet ging\n")
    return path


def _xml_inline_folder(tmp_path: Path) -> Path:
    return _folder(tmp_path / "tagged", {"a.txt": b"<Name>Jan</Name>", "empty.txt": b"", "latin1.txt": LATIN1})


def _conll(tmp_path: Path) -> Path:
    path = tmp_path / "c.conll"
    path.write_bytes(
        b"-DOCSTART-\ta\nJan\tB-Name\nkwam\tO\n\n"
        b"-DOCSTART-\tlatin1\nJan\tO\n" + LATIN1.split()[0] + b"\tO\n\n"
        b"-DOCSTART-\td\nPiet\tO\n"
    )
    return path


def _i2b2(tmp_path: Path) -> Path:
    def xml(text: bytes) -> bytes:
        return b'<?xml version="1.0" encoding="UTF-8" ?>\n<r><TEXT><![CDATA[' + text + b"]]></TEXT><TAGS></TAGS></r>\n"

    return _folder(tmp_path / "i2b2", {"a.xml": xml(b"Jan kwam"), "empty.xml": xml(b""), "latin1.xml": xml(LATIN1)})


READERS = {
    # name: (make, format, ids read, {rejected id: its place})
    "jsonl": (_jsonl, None, ["a", "d"], {"empty": "c.jsonl:2", "latin1": "c.jsonl:3", "broken": "c.jsonl:4"}),
    "text": (_text, "text", ["a", "d"], {"empty": "empty.txt", "latin1": "latin1.txt:1"}),
    "brat": (_brat, "brat", ["a", "d"], {"empty": "empty.", "latin1": "latin1.txt:1"}),
    "inline": (_inline, None, ["a", "d"], {"empty": "c.inline:2", "latin1": "c.inline:3"}),
    "xml_inline": (_xml_inline, None, ["a", "d"], {"empty": "c.xmltags:2", "latin1": "c.xmltags:3"}),
    "xml_inline-folder": (_xml_inline_folder, "xml_inline", ["a"], {"empty": "empty.txt", "latin1": "latin1.txt:1"}),
    "conll": (_conll, None, ["a", "d"], {"latin1": "c.conll:7"}),
    "i2b2": (_i2b2, "i2b2", ["a"], {"empty": "empty.xml", "latin1": "latin1.xml:2"}),
}


@pytest.mark.parametrize("name", sorted(READERS))
def test_a_bad_note_is_collected_and_skipped(tmp_path: Path, name: str) -> None:
    make, fmt, ids, rejected = READERS[name]
    source = make(tmp_path)
    errors: list[InputError] = []
    docs = list(read_documents(source, fmt, errors=errors))
    assert [d.id for d in docs] == ids
    assert len(errors) == len(rejected), [str(e) for e in errors]
    for e, (doc_id, where) in zip(errors, rejected.items(), strict=True):
        assert e.fix and where in e.where(), (where, str(e))
        if doc_id != "broken":  # a line that is no JSON has no id to name
            assert e.doc_id == doc_id, str(e)
        assert e.line is not None or e.doc_id is not None


@pytest.mark.parametrize("name", sorted(READERS))
def test_without_a_list_the_first_bad_note_is_raised(tmp_path: Path, name: str) -> None:
    make, fmt, _, rejected = READERS[name]
    with pytest.raises(InputError) as e:
        list(read_documents(make(tmp_path), fmt))
    assert next(iter(rejected.values())) in e.value.where()


def test_an_undecodable_line_names_its_byte_and_a_charset_fix(tmp_path: Path) -> None:
    errors: list[InputError] = []
    list(read_documents(_jsonl(tmp_path), errors=errors))
    latin1 = errors[1]
    assert "not UTF-8" in latin1.problem and "\\xe9" in latin1.problem and "iconv" in (latin1.fix or "")


def test_a_conll_line_that_is_not_utf8_skips_only_its_document(tmp_path: Path) -> None:
    path = tmp_path / "c.conll"
    path.write_bytes(b"Jan\tB-Name\nkwam\tO\n\n" + LATIN1.split()[0] + b"\tO\nkwam\tO\n\nPiet\tO\n")
    errors: list[InputError] = []
    assert [d.text for d in read_documents(path, errors=errors)] == ["Jan kwam", "Piet"]
    assert errors[0].line == 4 and errors[0].doc_id == "c-2"


def test_a_late_byte_order_mark_skips_only_its_line(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text('{"id": "a", "text": "x"}\n\ufeff{"id": "b", "text": "y"}\n', encoding="utf-8")
    errors: list[InputError] = []
    assert [d.id for d in read_documents(path, errors=errors)] == ["a"]
    assert errors[0].line == 2 and "byte-order mark" in errors[0].problem


# ---- xml_inline: a note's first word and a tab is no id


def _tagged(tmp_path: Path, content: str) -> Path:
    path = tmp_path / "notes.xmltags"
    path.write_text(content, encoding="utf-8")
    return path


def test_a_first_word_and_a_tab_in_a_file_without_ids_is_refused_not_taken_for_an_id(tmp_path: Path) -> None:
    path = _tagged(tmp_path, "Pat. <Name>Jan</Name> kwam\nBP\t120/80, pols 72\n")
    with pytest.raises(InputError) as e:
        list(read_documents(path))
    assert "line 2 starts with 'BP' and a tab" in e.value.problem and "line 1 has no id" in e.value.problem
    assert "ids=none" in (e.value.fix or "") and e.value.line == 2
    docs = list(read_documents(path, options={"ids": "none"}))
    assert [(d.id, d.text) for d in docs] == [("notes-1", "Pat. Jan kwam"), ("notes-2", "BP\t120/80, pols 72")]


def test_a_line_without_id_in_a_file_with_ids_is_refused(tmp_path: Path) -> None:
    path = _tagged(tmp_path, "n1\t<Name>Jan</Name> kwam\nvervolg van de notitie\nn2\tPiet\n")
    with pytest.raises(InputError, match="line 1 starts with 'n1' and a tab"):
        list(read_documents(path))
    errors: list[InputError] = []
    docs = list(read_documents(path, errors=errors, options={"ids": "every_line"}))
    assert [d.id for d in docs] == ["n1", "n2"] and errors[0].line == 2 and "no" in errors[0].problem


def test_files_with_ids_on_every_line_or_none_read_as_before(tmp_path: Path) -> None:
    assert [d.id for d in read_documents(_tagged(tmp_path, "n1\tJan\nn2\tBP\t120/80\n"))] == ["n1", "n2"]
    docs = list(read_documents(_tagged(tmp_path, "Jan <Name>Piet</Name>\n\nBP 120/80\n")))
    assert [(d.id, d.text) for d in docs] == [("notes-1", "Jan Piet"), ("notes-3", "BP 120/80")]


def test_the_ids_option_is_checked(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="format option ids is 'yes'"):
        list(read_documents(_tagged(tmp_path, "a\tb\n"), options={"ids": "yes"}))
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "a.txt").write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="ids is for a file"):
        list(read_documents(tmp_path / "folder", "xml_inline", options={"ids": "none"}))
