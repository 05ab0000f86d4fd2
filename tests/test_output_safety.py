"""#41: what the writers make is private (files 0o600, folders 0o700, whatever the umask), two ids
never land on one file, ids too deep or long for a file system and folder outputs named like files
are refused before anything is written, and UTF-16/32 input is named as such."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from synthdeid.cli import main
from synthdeid.corpus.formats.outpaths import FILE_SUFFIXES, MAX_DEPTH
from synthdeid.corpus.formats.plaintext import write_plain
from synthdeid.corpus.formats.sniff_encoding import wide_encoding
from synthdeid.corpus.formats.textfile import atomic_write
from synthdeid.corpus.records import Document, Span
from synthdeid.corpus_io import read_documents, writable_formats, write_documents
from synthdeid.corpus_io.export import export_corpus
from synthdeid.corpus_io.registered import formats
from synthdeid.errors import InputError

FOLDER_WRITERS = {"brat": ".txt", "i2b2": ".xml", "xml_inline": ".txt", "text": ".txt"}


def _docs(*ids: str) -> list[Document]:
    return [Document.create(i, "Jan kwam.", [Span(0, 3, "Name")]) for i in ids]


def _write(docs: list[Document], out: Path, fmt: str) -> int:
    return write_plain(docs, out) if fmt == "text" else write_documents(docs, out, fmt)


def _modes(root: Path) -> Iterator[tuple[Path, int]]:
    yield root, stat.S_IMODE(root.stat().st_mode)
    for p in sorted(root.rglob("*")):
        yield p, stat.S_IMODE(p.stat().st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    old = os.umask(0o022)  # the usual umask, which makes 0o644 files
    yield
    os.umask(old)


@pytest.mark.parametrize("fmt", ["jsonl", "conll", "inline", "xml_inline"])
def test_file_writers_make_0600_files_and_0700_folders(tmp_path: Path, fmt: str, open_umask: None) -> None:
    out = tmp_path / "new" / "deeper" / {"xml_inline": "out.xmltags"}.get(fmt, f"out.{fmt}")
    write_documents(_docs("a", "b"), out, fmt)
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert stat.S_IMODE(out.parent.stat().st_mode) == 0o700 == stat.S_IMODE(out.parent.parent.stat().st_mode)
    assert sorted(p.name for p in out.parent.iterdir()) == [out.name]  # no temporary file left


@pytest.mark.parametrize("fmt", sorted(FOLDER_WRITERS))
def test_folder_writers_make_0600_files_and_0700_folders(tmp_path: Path, fmt: str, open_umask: None) -> None:
    out = tmp_path / "new" / "out"
    assert _write(_docs("a", "sub/b", "sub/deep/c"), out, fmt) == 3
    modes = dict(_modes(out))
    assert len(modes) >= 6, modes
    for path, mode in modes.items():
        assert mode == (0o700 if path.is_dir() else 0o600), (path, oct(mode))
    assert stat.S_IMODE(out.parent.stat().st_mode) == 0o700


def test_an_existing_output_folder_keeps_its_mode_and_gets_private_files(tmp_path: Path, open_umask: None) -> None:
    out = tmp_path / "out"
    out.mkdir(mode=0o755)
    write_documents(_docs("a", "sub/b"), out, "brat")
    assert stat.S_IMODE(out.stat().st_mode) == 0o755  # the user's folder: not ours to change
    assert {stat.S_IMODE(p.stat().st_mode) for p in out.rglob("*")} == {0o600, 0o700}


def test_a_private_input_comes_back_private_through_convert(tmp_path: Path, open_umask: None, capsys) -> None:
    src = tmp_path / "in.jsonl"
    write_documents(_docs("a"), src)
    os.chmod(src, 0o600)
    for out, to in ((tmp_path / "o.jsonl", "jsonl"), (tmp_path / "o-brat", "brat")):
        assert main(["convert", str(src), str(out), "--to", to]) == 0
        assert {m for _, m in _modes(out)} <= {0o600, 0o700}


def test_atomic_write_replaces_a_file_with_a_private_one(tmp_path: Path, open_umask: None) -> None:
    out = tmp_path / "o.jsonl"
    out.write_text("old\n")
    os.chmod(out, 0o644)
    with atomic_write(out) as f:
        f.write("new\n")
    assert out.read_text() == "new\n" and stat.S_IMODE(out.stat().st_mode) == 0o600


def test_export_writes_private_files(tmp_path: Path, open_umask: None) -> None:
    pytest.importorskip("datasets")
    out = tmp_path / "hf"
    export_corpus(_docs("a"), out, "hf", name="x", language="nl", tokenize=lambda t: [(0, len(t))])
    assert {m for _, m in _modes(out)} == {0o600, 0o700}


# ---- S3: two ids, one file


@pytest.mark.parametrize("fmt", sorted(FOLDER_WRITERS))
@pytest.mark.parametrize(
    ("first", "second", "where"),
    [
        ("a/b", "a/./b", "a/b"),
        ("c", "./c", "c"),
        ("c", "././c", "c"),
        ("Note", "note", "Note"),
        ("a/b", "A/B", "a/b"),
    ],
)
def test_ids_naming_one_file_are_refused_naming_both(
    tmp_path: Path, fmt: str, first: str, second: str, where: str
) -> None:
    out = tmp_path / "out"
    with pytest.raises(InputError) as e:
        _write(_docs("z", first, second), out, fmt)
    assert f"documents {first!r} and {second!r} would both be written to {where}" in e.value.problem
    assert e.value.doc_id == second and e.value.fix
    assert not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fmt", sorted(FOLDER_WRITERS))
def test_an_id_that_is_another_ids_folder_is_refused(tmp_path: Path, fmt: str) -> None:
    suffix = FOLDER_WRITERS[fmt]
    with pytest.raises(InputError, match="would both be written to") as e:
        _write(_docs("a", f"a{suffix}/b"), tmp_path / "out", fmt)
    assert "'a'" in e.value.problem and e.value.doc_id == f"a{suffix}/b"
    with pytest.raises(InputError, match="would both be written to"):
        _write(_docs(f"a{suffix}/b", "a"), tmp_path / "out", fmt)
    assert list(tmp_path.iterdir()) == []


def test_a_brat_id_naming_another_ids_ann_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(
        InputError, match=r"'a' and 'a\.ann/b' would both be written to a\.ann \(a file of 'a', a folder"
    ):
        write_documents(_docs("a", "a.ann/b"), tmp_path / "out", "brat")


@pytest.mark.parametrize("fmt", sorted(FOLDER_WRITERS))
@pytest.mark.parametrize("doc_id", ["a//b", "a/b/", "/etc/x", "../x", "a/../../x", "a\x00b", "a b", "", "a\nb"])
def test_unsafe_ids_stay_refused(tmp_path: Path, fmt: str, doc_id: str) -> None:
    docs = [Document("ok", "Jan kwam.", ()), Document(doc_id, "Jan kwam.", ())]
    with pytest.raises(InputError, match="cannot be used as a file name"):
        _write(docs, tmp_path / "out", fmt)
    assert list(tmp_path.iterdir()) == []


def test_a_lone_id_with_dot_parts_is_refused_as_it_would_read_back_changed(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"written to a/b\.txt and read back as 'a/b'"):
        write_documents(_docs("a/./b"), tmp_path / "out", "brat")


def test_convert_refuses_colliding_ids_and_writes_nothing(tmp_path: Path, capsys) -> None:
    src = tmp_path / "x.jsonl"
    write_documents(_docs("a/b", "a/./b", "c", "./c"), src)
    assert main(["convert", str(src), str(tmp_path / "out"), "--to", "brat"]) == 1
    err = capsys.readouterr().err
    assert "documents 'a/b' and 'a/./b' would both be written to a/b.txt" in err and "fix:" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.jsonl"]


# ---- C4: ids too deep or too long


@pytest.mark.parametrize("fmt", sorted(FOLDER_WRITERS))
@pytest.mark.parametrize(
    ("doc_id", "problem"),
    [
        ("a/" * 1500 + "x", "1500 nested folders"),
        ("a/" * (MAX_DEPTH + 1) + "x", f"more than the {MAX_DEPTH}"),
        ("x" * 300, "more than the 255"),
        ("x" * 252, "more than the 255"),  # 256 bytes with the 4-byte suffix
        ("é" * 200 + "/x", "more than the 255"),  # counted in bytes
        ("/".join(["y" * 250] * 17), "a path may have"),
    ],
)
def test_ids_too_deep_or_long_are_refused_up_front(tmp_path: Path, fmt: str, doc_id: str, problem: str) -> None:
    with pytest.raises(InputError) as e:
        _write(_docs("ok", doc_id), tmp_path / "out", fmt)
    assert problem in e.value.problem and "--to jsonl" in (e.value.fix or "")
    assert e.value.doc_id and doc_id.startswith(e.value.doc_id.rstrip("."))
    assert list(tmp_path.iterdir()) == []


def test_the_deepest_and_longest_allowed_ids_are_written(tmp_path: Path) -> None:
    ids = ["d/" * MAX_DEPTH + "x", "x" * 251]
    assert write_documents(_docs(*ids), tmp_path / "out", "brat") == 2
    assert sorted(d.id for d in read_documents(tmp_path / "out", "brat")) == sorted(ids)


def test_convert_of_a_deep_id_is_our_error_not_a_bug(tmp_path: Path, capsys) -> None:
    src = tmp_path / "deep.jsonl"
    write_documents(_docs("a/" * 1500 + "x"), src)
    assert main(["convert", str(src), str(tmp_path / "deep"), "--to", "brat"]) == 1
    err = capsys.readouterr().err
    assert "nested folders" in err and "this is a bug" not in err


# ---- folder outputs named like files


@pytest.mark.parametrize("fmt", sorted(FOLDER_WRITERS))
@pytest.mark.parametrize("name", ["e6.jsonl", "out.conll", "out.JSONL", "notes.txt", "out.spacy", "x.json"])
def test_a_folder_output_named_like_a_file_is_refused(tmp_path: Path, fmt: str, name: str) -> None:
    if fmt == "xml_inline":
        pytest.skip("a name with a suffix is xml_inline's one-file layout")
    with pytest.raises(InputError) as e:
        _write(_docs("a"), tmp_path / name, fmt)
    assert "output is a folder" in e.value.problem and e.value.fix
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_named_like_a_file_is_the_users_choice(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").mkdir()
    assert write_documents(_docs("a"), tmp_path / "notes.txt", "brat") == 1


def test_every_format_suffix_is_a_file_suffix() -> None:
    last_suffixes = {"." + ending.rsplit(".", 1)[1] for ending in formats().endings}  # .inline.txt: .txt
    assert last_suffixes <= FILE_SUFFIXES and set(writable_formats()) >= {"brat", "i2b2"}


@pytest.mark.parametrize("command", ["convert", "export"])
def test_commands_refuse_a_folder_named_like_a_file(tmp_path: Path, command: str, capsys) -> None:
    src = tmp_path / "x.jsonl"
    write_documents(_docs("a"), src)
    args = [command, str(src), str(tmp_path / "e6.jsonl"), "--to", "brat"]
    assert main(args + (["--language", "nl"] if command == "export" else [])) == 1
    err = capsys.readouterr().err
    assert "output is a folder, but its name ends in .jsonl" in err and "fix:" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.jsonl"]


def test_export_to_hf_refuses_a_folder_named_like_a_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="Hugging Face dataset output is a folder"):
        export_corpus(_docs("a"), tmp_path / "hf.jsonl", "hf", name="x", language="nl", tokenize=lambda t: [])
    assert list(tmp_path.iterdir()) == []


# ---- UTF-16 / UTF-32 input


@pytest.mark.parametrize(
    ("encoding", "iconv"),
    [
        ("utf-16", "UTF-16"),
        ("utf-16-le", "UTF-16LE"),
        ("utf-16-be", "UTF-16BE"),
        ("utf-32", "UTF-32"),
        ("utf-32-le", "UTF-32LE"),
        ("utf-32-be", "UTF-32BE"),
    ],
)
@pytest.mark.parametrize("name", ["c.jsonl", "c.inline", "c.conll", "c.xmltags", "notes/a.txt", "notes.txt"])
def test_utf16_and_utf32_are_named_with_their_iconv_line(tmp_path: Path, encoding: str, iconv: str, name: str) -> None:
    content = {
        "c.jsonl": '{"id": "a", "text": "Jan kwam", "spans": []}\n',
        "c.inline": "a\tJan kwam\n",
        "c.conll": "Jan\tO\nkwam\tO\n",
        "c.xmltags": "a\tJan <Name>Piet</Name> kwam\n",
    }.get(name, "Jan kwam op 12 maart.")
    path = tmp_path / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(content.encode(encoding))
    with pytest.raises(InputError) as e:
        list(read_documents(path.parent if name.startswith("notes/") else path, "text" if "txt" in name else None))
    assert e.value.problem.startswith(f"the file is {iconv[:6]} (") and e.value.problem.endswith("not UTF-8")
    assert f"iconv -f {iconv} -t UTF-8" in (e.value.fix or "") and "latin1" not in (e.value.fix or "")
    assert e.value.path == str(path)


def test_utf8_text_with_a_few_nuls_or_accents_is_not_taken_for_utf16() -> None:
    assert wide_encoding("Jan kwam\x00 op één dag".encode()) is None
    assert wide_encoding(b"") is None and wide_encoding(b"a") is None
    assert wide_encoding("a".encode("utf-16-le")) == ("UTF-16LE", "UTF-16 (little-endian, without a byte-order mark)")
