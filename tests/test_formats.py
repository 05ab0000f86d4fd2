import json
import string
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synthdeid import Document, InputError, Span
from synthdeid.corpus.formats.brat import read_brat
from synthdeid.corpus.formats.conll import read_conll
from synthdeid.corpus.formats.jsonl import read_jsonl
from synthdeid.corpus.formats.textfile import SAFE_ID
from synthdeid.corpus_io import guess_format, read_documents, write_documents
from synthdeid.errors import InputWarning

MEDDOCAN = Path(__file__).resolve().parents[2] / "shared" / "data" / "meddocan"

DOCS = [
    Document.create(
        "n1",
        "Dhr. Jan Jansen,\n geb. 12-03-1950 woont  in Utrecht.\n",
        [Span(5, 15, "Name"), Span(23, 33, "Date"), Span(45, 52, "Address")],
    ),
    Document.create("n2", "Geen PHI hier."),
    Document.create(
        "sub/n3", "Café Ñandú — 06-12345678\ttel", [Span(0, 11, "Organization_Company"), Span(14, 25, "Phone_fax")]
    ),
]


@pytest.mark.parametrize("name", ["c.jsonl", "c.inline", "brat"])
def test_lossless_round_trip(tmp_path, name):
    path = tmp_path / name
    assert write_documents(DOCS, path) == 3
    assert list(read_documents(path)) == sorted(DOCS, key=lambda d: d.id) if name == "brat" else DOCS


def test_conll_round_trip_is_token_level(tmp_path):
    path = tmp_path / "c.conll"
    write_documents(DOCS, path)
    back = list(read_documents(path))
    assert [d.id for d in back] == [d.id for d in DOCS]
    for orig, got in zip(DOCS, back):
        assert [s.label for s in got.spans] == [s.label for s in orig.spans]
        # tokens are the text's own words: a span's surface keeps its characters, spacing normalized
        assert [got.surface(s) for s in got.spans] == [" ".join(orig.surface(s).split()) for s in orig.spans]
    # a token-level document round-trips exactly, and the file is a fixed point
    write_documents(back, tmp_path / "again.conll")
    assert (tmp_path / "again.conll").read_text() == path.read_text()
    assert list(read_documents(tmp_path / "again.conll")) == back


def test_conll_reads_bioes_and_plain_blocks(tmp_path):
    p = tmp_path / "x.bio"
    p.write_text("Jan S-Name\nde B-Name\nVries E-Name\nkwam O\n\nop O\n12 B-Date\nmaart I-Date\n")
    docs = list(read_conll(p))
    assert [d.id for d in docs] == ["x-1", "x-2"]
    assert [(docs[0].surface(s), s.label) for s in docs[0].spans] == [("Jan", "Name"), ("de Vries", "Name")]
    assert [(docs[1].surface(s), s.label) for s in docs[1].spans] == [("12 maart", "Date")]


SPACED = "-DOCSTART- d1\n\nJan B-Name\nJansen I-Name\nkwam O\n\nop O\n12 B-Date\nmaart I-Date\n"


@pytest.mark.parametrize(
    "content",
    [
        SPACED,
        SPACED.replace(" ", "\t"),  # the same file with tabs
        SPACED.replace("Jan B-Name", "Jan\tB-Name").replace("12 B-Date", "12\tB-Date"),  # lines with tabs and without
        SPACED.replace(" B-", " NNP B-").replace(" I-", " NNP I-").replace(" O", " VB O"),  # two columns: tag last
        SPACED.replace(" B-", "   B-").replace(" I-", "  I-").replace(" O", " \u00a0O"),  # runs of spaces
    ],
    ids=["spaces", "tabs", "mixed-lines", "three-columns", "space-runs"],
)
def test_space_separated_conll_reads_like_tab_separated(tmp_path, content, capsys):
    """Space-separated CoNLL is read, not passed silently: the same tokens, labels and spans as tabs."""
    p = tmp_path / "x.conll"
    p.write_text(content, encoding="utf-8")
    [doc] = read_conll(p)
    assert (doc.id, doc.text) == ("d1", "Jan Jansen kwam\nop 12 maart")
    assert doc.spans == (Span(0, 10, "Name"), Span(19, 27, "Date"))
    assert [(doc.surface(s), s.label) for s in doc.spans] == [("Jan Jansen", "Name"), ("12 maart", "Date")]
    from synthdeid.cli import main

    assert main(["validate", str(p)]) == 0
    assert "1 documents, 2 spans" in capsys.readouterr().out


@pytest.mark.parametrize(
    "content, problem",
    [
        ("Jan\tNNP B-Name\nkwam\tVB O\n", "the tag column 'NNP B-Name' holds a space"),
        ("Jan NNP\tB-Name\n", "the token 'Jan NNP' holds whitespace"),
        ("Jan B-Name\nJansen NNP I-Name\n", "3 columns where the file's first token line (line 1) has 2"),
        ("Jan NNP B-Name\nJansen I-Name\n", "2 columns where the file's first token line (line 1) has 3"),
    ],
)
def test_conll_refuses_columns_it_cannot_split_exactly(tmp_path, content, problem):
    p = tmp_path / "x.conll"
    p.write_text(content, encoding="utf-8")
    msg = _err(lambda: list(read_conll(p)))
    assert problem in msg and f"{p}:" in msg


@st.composite
def brat_docs(draw):
    text = draw(st.text(alphabet=string.ascii_letters + " .\n" + "éß€", min_size=2, max_size=50).filter(str.strip))
    cuts = sorted(draw(st.sets(st.integers(0, len(text)), max_size=6)))
    frags = [
        (a, b)
        for a, b in zip(cuts[::2], cuts[1::2])
        if a < b and text[a:b].strip() == text[a:b] and "\n" not in text[a:b]
    ]
    bom = draw(st.booleans())
    discontinuous = draw(st.booleans()) and len(frags) >= 2
    return text, frags, bom, discontinuous


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(brat_docs())
def test_brat_reader_offsets_bom_and_discontinuous_spans(tmp_path, case):
    text, frags, bom, discontinuous = case
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    shift = 1 if bom else 0
    (folder / "d.txt").write_bytes((("\ufeff" if bom else "") + text).encode("utf-8"))
    lines = []
    if discontinuous:
        (a, b), (c, d) = frags[:2]
        lines.append(f"T1\tName {a + shift} {b + shift};{c + shift} {d + shift}\t{text[a:b]} {text[c:d]}")
        rest = frags[2:]
    else:
        rest = frags
    lines += [f"T{i + 2}\tDate {a + shift} {b + shift}\t{text[a:b]}" for i, (a, b) in enumerate(rest)]
    lines.append("#1\tAnnotatorNotes T1\tnot a span")
    (folder / "d.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")
    [doc] = read_brat(folder)
    assert doc.text == text
    assert [(s.start, s.end) for s in doc.spans] == frags
    assert [s.label for s in doc.spans] == ["Name", "Name"] * discontinuous + ["Date"] * len(rest)


@pytest.mark.skipif(not (MEDDOCAN / "train").is_dir(), reason="MEDDOCAN not present in ../shared/data")
def test_meddocan_train_loads_completely():
    docs = list(read_brat(MEDDOCAN / "train"))
    assert len(docs) == 500
    assert sum(len(d.spans) for d in docs) == 11333
    ann_texts = {}
    for ann in (MEDDOCAN / "train").glob("*.ann"):
        for line in ann.read_text(encoding="utf-8").splitlines():
            if line.startswith("T"):
                _, _, surface = line.split("\t")
                ann_texts.setdefault(ann.stem, []).append(surface)
    for d in docs:
        assert sorted(d.text[s.start : s.end] for s in d.spans) == sorted(ann_texts.get(d.id, []))
    assert not any(d.text.startswith("\ufeff") for d in docs)


def test_guess_format(tmp_path):
    assert guess_format("a.jsonl") == "jsonl"
    assert guess_format("a.bio") == "conll"
    assert guess_format("a.inline.txt") == "inline"
    assert guess_format(tmp_path) == "brat"
    assert guess_format("a.xml") == "i2b2" and guess_format("a.XML") == "i2b2"
    assert guess_format("a.xmltags") == "xml_inline" and guess_format("a.xml.txt") == "xml_inline"
    assert guess_format("a.txt") == "text"
    with pytest.raises(InputError, match="cannot tell the format"):
        guess_format("a.docx")


# ---- bad input: each error names the file, the line or document, and the fix


def _err(fn):
    with pytest.raises(InputError) as e:
        fn()
    assert "fix:" in str(e.value)
    return str(e.value)


def test_malformed_json_names_file_and_line(tmp_path):
    p = tmp_path / "c.jsonl"
    p.write_text(json.dumps(DOCS[1].to_dict()) + '\n{"id": "x", \n')
    msg = _err(lambda: list(read_jsonl(p)))
    assert f"{p}:2" in msg and "malformed JSON" in msg


def test_offsets_out_of_range_in_jsonl(tmp_path):
    p = tmp_path / "c.jsonl"
    p.write_text(json.dumps({"id": "z9", "text": "abc", "spans": [{"start": 1, "end": 10, "label": "Name"}]}) + "\n")
    msg = _err(lambda: list(read_jsonl(p)))
    assert f"{p}:1" in msg and "'z9'" in msg and "outside the text" in msg


def test_overlap_unknown_label_empty_and_duplicate_id(tmp_path):
    p = tmp_path / "c.jsonl"
    rows = [
        {
            "id": "o",
            "text": "Jan Jansen",
            "spans": [{"start": 0, "end": 10, "label": "Name"}, {"start": 4, "end": 7, "label": "Name"}],
        },
        {"id": "u", "text": "Jan", "spans": [{"start": 0, "end": 3, "label": "Alien"}]},
        {"id": "e", "text": "   ", "spans": []},
        {"id": "ok", "text": "x", "spans": []},
        {"id": "ok", "text": "y", "spans": []},
    ]
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    errors = []
    from synthdeid import TagSet

    docs = list(read_jsonl(p, tagset=TagSet(), errors=errors))
    assert [d.id for d in docs] == ["ok"]
    msgs = [str(e) for e in errors]
    assert "overlap" in msgs[0] and f"{p}:1" in msgs[0]
    assert "unknown label 'Alien'" in msgs[1] and f"{p}:2" in msgs[1]
    assert "empty" in msgs[2] and f"{p}:3" in msgs[2]
    assert "duplicate document id 'ok'" in msgs[3] and f"{p}:5" in msgs[3]


def test_undecodable_bytes(tmp_path):
    p = tmp_path / "c.jsonl"
    p.write_bytes(b'{"id": "a", "text": "ok"}\n{"id": "b", "text": "caf\xe9"}\n')
    msg = _err(lambda: list(read_jsonl(p)))
    assert f"{p}:2" in msg and "not UTF-8" in msg and "iconv" in msg


def test_missing_files(tmp_path):
    assert "not found" in _err(lambda: list(read_documents(tmp_path / "nope.jsonl")))
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "x.txt").write_text("Jan")
    msg = _err(lambda: list(read_brat(tmp_path / "b")))
    assert "x.txt" in msg and "no .ann file" in msg and "x.ann" in msg


def test_brat_offsets_that_do_not_match_the_text(tmp_path):
    (tmp_path / "x.txt").write_text("Jan Jansen")
    (tmp_path / "x.ann").write_text("T1\tName 0 3\tJan\nT2\tName 4 9\tJansen\n")
    msg = _err(lambda: list(read_brat(tmp_path)))
    assert f"{tmp_path / 'x.ann'}:2" in msg and "differs" in msg


def test_conll_bad_line_and_bad_tag(tmp_path):
    p = tmp_path / "x.conll"
    p.write_text("-DOCSTART-\ta\n\nJan B-Name\nzomaar\n\n-DOCSTART-\tb\n\nPiet X-Name\n\n-DOCSTART-\tc\n\nok O\n")
    errors = []
    docs = list(read_conll(p, errors=errors))
    assert [d.id for d in docs] == ["c"]
    assert f"{p}:4" in str(errors[0]) and "expected a token and a tag" in str(errors[0])
    assert f"{p}:8" in str(errors[1]) and "unknown tag 'X-Name'" in str(errors[1])


def test_inline_file_with_malformed_tags(tmp_path):
    p = tmp_path / "x.inline"
    p.write_text("a\t<NameSTART> Jan <EOD>\n")
    msg = _err(lambda: list(read_documents(p)))
    assert f"{p}:1" in msg and "1 unclosed" in msg


@pytest.mark.parametrize("name", ["c.jsonl", "c.inline", "c.conll", "brat"])
@pytest.mark.parametrize("lazy", [False, True])
def test_writers_refuse_a_second_document_with_one_id(tmp_path, name, lazy):
    """Converting to BRAT used to keep one of two notes with one id: every writer refuses, and
    writes nothing (a list is checked before writing, a stream fails before the output is renamed)."""
    twice = [DOCS[0], DOCS[1], Document.create("n1", "Een andere notitie.")]
    with pytest.raises(InputError, match="a second document with this id") as err:
        write_documents(iter(twice) if lazy else twice, tmp_path / name)
    assert "n1" in str(err.value)
    assert not (tmp_path / name).exists()


def test_brat_writer_refuses_a_folder_that_holds_notes(tmp_path):
    out = tmp_path / "brat"
    out.mkdir()
    (out / "old.txt").write_text("een oude notitie", encoding="utf-8")
    with pytest.raises(InputError, match="not empty"):
        write_documents(DOCS, out)
    assert sorted(p.name for p in out.iterdir()) == ["old.txt"]
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="not a folder"):
        write_documents(DOCS, tmp_path / "file", "brat")


# ---- #28: folders read in any case, nothing skipped unseen; detection by contents; ids that are file names

FOLDERS = {
    "brat": {
        "a.txt": "Jan kwam",
        "a.ann": "T1\tName 0 3\tJan\n",
        "sub/B.TXT": "Piet kwam",
        "sub/B.ANN": "T1\tName 0 4\tPiet\n",
    },
    "text": {"a.txt": "Jan kwam", "sub/B.TXT": "Piet kwam"},
    "xml_inline": {"a.txt": "<Name>Jan</Name> kwam", "sub/B.TXT": "<Name>Piet</Name> kwam"},
}


@pytest.mark.parametrize("fmt", sorted(FOLDERS))
def test_folder_readers_take_any_case_and_name_the_files_they_do_not_read(tmp_path, fmt):
    for name, content in {**FOLDERS[fmt], "notes.md": "x", "sub/c.TXT.bak": "y"}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(content, encoding="utf-8")
    with pytest.warns(InputWarning, match=r"2 file\(s\) not read: notes.md, sub/c.TXT.bak") as caught:
        docs = list(read_documents(tmp_path, fmt))
    assert "fix:" in str(caught[0].message) and str(tmp_path) in str(caught[0].message)
    assert [d.id for d in docs] == ["a", "sub/B"]
    assert [len(d.spans) for d in docs] == ([0, 0] if fmt == "text" else [1, 1])


def test_folders_are_guessed_by_their_files(tmp_path):
    from synthdeid.phi.deidentify import input_format

    for name, files in {"x": FOLDERS["xml_inline"], "t": FOLDERS["text"], "b": FOLDERS["brat"]}.items():
        for f, content in files.items():
            (tmp_path / name / f).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name / f).write_text(content, encoding="utf-8")
    assert guess_format(tmp_path / "x") == "xml_inline" and input_format(tmp_path / "x") == "xml_inline"
    assert guess_format(tmp_path / "t") == "brat" and input_format(tmp_path / "t") == "text"
    assert guess_format(tmp_path / "b") == "brat" and input_format(tmp_path / "b") == "brat"
    assert guess_format(tmp_path / "x", for_writing=True) == "brat"  # the writer then refuses a full folder
    (tmp_path / "t" / "c.txt").write_text("n1\t<NameSTART> Jan <NameEND>", encoding="utf-8")
    with pytest.raises(InputError, match="hold inline tags") as e:
        guess_format(tmp_path / "t")
    assert e.value.path == str(tmp_path / "t" / "c.txt") and "--format text" in e.value.fix


def test_a_txt_file_holding_tags_is_not_taken_for_plain_notes(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("Geen PHI.\nn1\tPatient <Name>Jan</Name>\n", encoding="utf-8")
    with pytest.raises(InputError, match="looks like XML-style inline tags") as e:
        list(read_documents(path))
    assert e.value.line == 2 and "--format xml_inline" in e.value.fix
    assert [d.text for d in read_documents(path, "text")] == [path.read_text(encoding="utf-8")]  # when asked for
    assert guess_format(tmp_path / "new.txt") == "text"


def test_safe_ids_are_whole_matches():
    assert SAFE_ID.fullmatch("sub/n-1.a_b") and not SAFE_ID.fullmatch("ab\n") and not SAFE_ID.fullmatch("a b")


def test_the_inline_reader_keeps_tag_like_tokens_only_when_told(tmp_path):
    p = tmp_path / "x.inline"
    p.write_text("a\tDr. <Name START> Jan <NameSTART> Jansen <NameEND>\n", encoding="utf-8")
    with pytest.raises(InputError, match="'<Name START>' looks like an inline tag but is none") as e:
        list(read_documents(p))
    assert e.value.line == 1 and "unknown_tags: keep" in e.value.fix
    [doc] = read_documents(p, options={"unknown_tags": "keep"})
    assert doc.text == "Dr. <Name START> Jan Jansen" and [doc.surface(s) for s in doc.spans] == ["Jansen"]
    with pytest.raises(InputError, match="format option unknown_tags is 'drop'"):
        list(read_documents(p, options={"unknown_tags": "drop"}))
