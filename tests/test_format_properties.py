"""Property tests per reader and writer: reading anything raises nothing but our InputError, and
writing what was read, then reading it again, gives back the same documents."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from synthdeid.corpus.records import Document, Span
from synthdeid.corpus_io import read_documents, write_documents
from synthdeid.errors import InputError

FRAGMENTS = {
    "jsonl": [
        '{"id": ',
        '"a"',
        '"b"',
        '"c"',
        ', "text": ',
        '"Jan Jansen kwam"',
        '"é\\n\\t"',
        '""',
        ', "spans": ',
        "[",
        "]",
        "{",
        "}",
        '{"start": 0, "end": 3, "label": "Name"}',
        '{"start": 4, "end": 10, "label": "Date"}',
        '"start": ',
        '"end": ',
        '"label": ',
        '"Name"',
        "0",
        "3",
        "-1",
        "1e999",
        "null",
        "true",
        ",",
        ": ",
        "\n",
        '"\\ud800"',
        '"entities"',
        "99999999999999999999",
    ],
    "conll": [
        "Jan",
        "Jansen",
        "12-03",
        ",",
        "é",
        "\t",
        " ",
        "\u00a0",
        "B-Name",
        "I-Name",
        "E-Name",
        "S-Date",
        "B-Date",
        "I-Date",
        "O",
        "B-",
        "X-Name",
        "\n",
        "\n\n",
        "-DOCSTART-",
        "-DOCSTART-\td1",
        "-X-",
        "\r\n",
    ],
    "inline": [
        "a\t",
        "b\t",
        "\t",
        "Jan",
        " ",
        "Jansen",
        "<NameSTART>",
        "<NameEND>",
        "<DateSTART>",
        "<DateEND>",
        "<NameSTART> ",
        " <NameEND>",
        "<EOD>",
        " <EOD>",
        "<PAR>",
        " <PAR> ",
        "\n",
        "é",
        "<FooSTART>",
        "\r",
    ],
    "ann": [
        "T1\t",
        "T2\t",
        "Name ",
        "Date ",
        "0 3",
        "4 10",
        "0 3;4 10",
        "\t",
        "Jan",
        "Jansen",
        "\n",
        "R1\t",
        "#1\t",
        "A1\t",
        "x",
        " ",
        "-1",
        "99",
        ";",
        "*\t",
    ],
}
EXTENSIONS = {"jsonl": "c.jsonl", "conll": "c.conll", "inline": "c.inline"}


@st.composite
def documents(draw) -> list[Document]:
    """Valid documents with spans (ids unique), in the shapes notes have."""
    n = draw(st.integers(1, 3))
    docs = []
    for i in range(n):
        words = draw(
            st.lists(
                st.sampled_from(["Jan", "Jansen", "12-03-1950", "kwam", "é", ",", ".", "Utrecht"]),
                min_size=1,
                max_size=8,
            )
        )
        seps = draw(st.lists(st.sampled_from([" ", " ", "\n", "  "]), min_size=len(words), max_size=len(words)))
        text, spans, pos = "", [], 0
        for w, sep in zip(words, seps):
            if draw(st.booleans()) and w not in {",", "."}:
                spans.append(Span(pos, pos + len(w), draw(st.sampled_from(["Name", "Date", "Address"]))))
            text += w + sep
            pos += len(w) + len(sep)
        docs.append(Document.create(draw(st.sampled_from(["n", "note", "x"])) + str(i), text, spans))
    return docs


@st.composite
def mutated(draw, fmt: str) -> str:
    """A file our writer wrote, then (usually) cut or spliced with a format fragment."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / EXTENSIONS[fmt]
        write_documents(draw(documents()), path, fmt)
        content = path.read_text(encoding="utf-8")
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(content)))
        j = draw(st.integers(i, min(len(content), i + 8)))
        content = content[:i] + draw(st.sampled_from(FRAGMENTS[fmt] + [""])) + content[j:]
    return content


def file_content(fmt: str) -> st.SearchStrategy[str]:
    pieces = st.one_of(st.sampled_from(FRAGMENTS[fmt]), st.text(max_size=4))
    soup = st.lists(pieces, max_size=30).map("".join)
    return soup if fmt == "ann" else st.one_of(soup, mutated(fmt))


def read_or_our_error(path: Path, fmt: str) -> list | None:
    """The documents read, or None when the reader refused with our error (anything else fails)."""
    try:
        return list(read_documents(path, fmt))
    except InputError as e:
        assert e.fix and e.where(), f"an error without place or fix: {e}"
        return None


def assert_write_read_identity(docs: list, fmt: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / (EXTENSIONS.get(fmt) or "brat")
        assert write_documents(docs, out, fmt) == len(docs)
        back = list(read_documents(out, fmt))
    key = (lambda d: d.id) if fmt == "brat" else None
    assert back == (sorted(docs, key=key) if key else docs)


PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def check_file(fmt: str, content: str | bytes, tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / EXTENSIONS[fmt]
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", errors="surrogatepass", newline="")
    docs = read_or_our_error(path, fmt)
    event("read" if docs else "refused")
    if docs:
        assert_write_read_identity(docs, fmt)
    shutil.rmtree(folder)


@PROPERTY
@given(content=file_content("jsonl"))
def test_jsonl_reads_or_refuses_and_round_trips(tmp_path, content):
    check_file("jsonl", content, tmp_path)


@PROPERTY
@given(content=file_content("conll"))
def test_conll_reads_or_refuses_and_round_trips(tmp_path, content):
    check_file("conll", content, tmp_path)


@PROPERTY
@given(content=file_content("inline"))
def test_inline_reads_or_refuses_and_round_trips(tmp_path, content):
    check_file("inline", content, tmp_path)


@PROPERTY
@given(fmt=st.sampled_from(sorted(EXTENSIONS)), content=st.binary(max_size=200))
def test_any_bytes_read_or_refuse(tmp_path, fmt, content):
    check_file(fmt, content, tmp_path)


@PROPERTY
@given(text=st.text(alphabet="Jan sé\n\t.\ufeff", max_size=20), ann=file_content("ann"), orphan=st.booleans())
def test_brat_reads_or_refuses_and_round_trips(tmp_path, text, ann, orphan):
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    (folder / "a.txt").write_text(text, encoding="utf-8", newline="")
    (folder / "a.ann").write_text(ann, encoding="utf-8", newline="")
    if orphan:
        (folder / "b.ann").write_text(ann, encoding="utf-8", newline="")
    docs = read_or_our_error(folder, "brat")
    event("read" if docs else "refused")
    assert not (docs and orphan), "an .ann without its .txt was read past"
    if docs:
        assert_write_read_identity(docs, "brat")
    shutil.rmtree(folder)
