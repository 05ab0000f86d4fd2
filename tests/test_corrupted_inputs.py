"""A table of corrupted inputs across the six formats: each must give our InputError naming
where (file and line, or document) with a fix, through `synthdeid validate` and `synthdeid
convert`, and the converter must write nothing. A second table holds documents each writer
cannot hold: refused before anything is written."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from synthdeid.cli import main
from synthdeid.corpus.records import Document, Span
from synthdeid.corpus.tags import TagSet
from synthdeid.corpus_io import read_documents, write_documents
from synthdeid.errors import InputError

TEXT = "Jan Jansen kwam op 12 maart."
GOOD = {"id": "a", "text": TEXT, "spans": [{"start": 0, "end": 10, "label": "Name"}]}


@dataclass(frozen=True)
class Case:
    name: str
    files: dict[str, str | bytes]
    problem: str  # a piece of the error's message
    where: str  # a piece of its location: "FILE:LINE", "FILE" or "document 'ID'"

    @property
    def source(self) -> str:
        """The path handed to the reader: the file, or the folder (BRAT, i2b2, xml_inline)."""
        first = next(iter(self.files))
        return first.split("/")[0]


def j(**changes) -> str:
    """A JSON line: the good record with ``changes`` (a value of ... deletes the key)."""
    rec = {k: v for k, v in {**GOOD, **changes}.items() if v is not ...}
    return json.dumps(rec, ensure_ascii=False)


def span(**changes) -> str:
    return j(spans=[{**GOOD["spans"][0], **changes}])


def jsonl(name: str, *lines: str, problem: str, line: int = 1) -> Case:
    return Case(f"jsonl-{name}", {"c.jsonl": "\n".join(lines) + "\n"}, problem, f"c.jsonl:{line}")


JSONL = [
    jsonl("not-json", "not json", problem="malformed JSON"),
    jsonl("truncated", j()[:-5], problem="malformed JSON"),
    jsonl("trailing-comma", '{"id": "a", "text": "x",}', problem="malformed JSON"),
    jsonl("single-quotes", "{'id': 'a', 'text': 'x'}", problem="malformed JSON"),
    jsonl("two-objects-one-line", j() + j(id="b"), problem="malformed JSON"),
    jsonl("array", json.dumps([GOOD]), problem="must be a JSON object"),
    jsonl("string", '"a note"', problem="must be a JSON object"),
    jsonl("number", "42", problem="must be a JSON object"),
    jsonl("null", "null", problem="must be a JSON object"),
    jsonl("no-id", j(id=...), problem="missing key(s) id"),
    jsonl("no-text", j(text=...), problem="missing key(s) text"),
    jsonl("null-id", j(id=None), problem='"id" must be a non-empty string'),
    jsonl("int-id", j(id=7), problem='"id" must be a non-empty string'),
    jsonl("list-id", j(id=["a"]), problem='"id" must be a non-empty string'),
    jsonl("empty-id", j(id=""), problem='"id" must be a non-empty string'),
    jsonl("blank-id", j(id="  "), problem='"id" must be a non-empty string'),
    jsonl("text-number", j(text=5), problem='"text" must be a string'),
    jsonl("text-null", j(text=None, spans=[]), problem='"text" must be a string'),
    jsonl("empty-text", j(text="", spans=[]), problem="the document is empty"),
    jsonl("blank-text", j(text=" \n ", spans=[]), problem="the document is empty"),
    jsonl("entities-key", j(spans=..., entities=GOOD["spans"]), problem="unknown key 'entities'"),
    jsonl("misspelt-spans", j(spans=..., span=GOOD["spans"]), problem="did you mean 'spans'"),
    jsonl("meta-key", j(meta={"ward": 3}), problem="unknown key 'meta'"),
    jsonl("duplicate-key", '{"id": "a", "id": "b", "text": "x"}', problem="key 'id' appears twice"),
    jsonl(
        "duplicate-span-key",
        '{"id": "a", "text": "Jan", "spans": [{"start": 0, "end": 3, "label": "Name", "label": "Date"}]}',
        problem="key 'label' appears twice",
    ),
    jsonl("spans-object", j(spans={"start": 0}), problem='"spans" must be a list'),
    jsonl("spans-string", j(spans="0-10 Name"), problem='"spans" must be a list'),
    jsonl("span-list", j(spans=[[0, 10, "Name"]]), problem="needs start, end and label"),
    jsonl("span-no-label", j(spans=[{"start": 0, "end": 10}]), problem="needs start, end and label"),
    jsonl("span-extra-key", span(score=0.9), problem="unknown key 'score' in span #0"),
    jsonl(
        "span-misspelt-key",
        j(spans=[{"start": 0, "end": 10, "label": "Name", "lable": "x"}]),
        problem="did you mean 'label'",
    ),
    jsonl("offset-string", span(start="0"), problem="non-integer offsets"),
    jsonl("offset-float", span(end=10.0), problem="non-integer offsets"),
    jsonl("offset-bool", span(start=False), problem="non-integer offsets"),
    jsonl("offset-null", span(end=None), problem="non-integer offsets"),
    jsonl(
        "offset-inf",
        '{"id": "a", "text": "x", "spans": [{"start": 0, "end": 1e999, "label": "Name"}]}',
        problem="non-integer offsets",
    ),
    jsonl("offset-negative", span(start=-1), problem="outside the text"),
    jsonl("offset-past-end", span(end=999), problem="outside the text"),
    jsonl("offset-huge", span(end=10**200), problem="outside the text"),
    jsonl(
        "offset-5000-digits",
        '{"id": "a", "text": "x", "spans": [{"start": 0, "end": 1' + "0" * 5000 + ', "label": "Name"}]}',
        problem="unreadable JSON number",
    ),
    jsonl("start-after-end", span(start=5, end=2), problem="start >= end"),
    jsonl("zero-width", span(start=3, end=3), problem="start >= end"),
    jsonl(
        "overlap",
        j(spans=[{"start": 0, "end": 10, "label": "Name"}, {"start": 4, "end": 15, "label": "Name"}]),
        problem="spans overlap",
    ),
    jsonl("label-number", span(label=3), problem="label must be a non-empty string"),
    jsonl("label-null", span(label=None), problem="label must be a non-empty string"),
    jsonl("label-empty", span(label=""), problem="label must be a non-empty string"),
    jsonl("label-unknown", span(label="Persoon"), problem="unknown label 'Persoon'"),
    jsonl("span-text-mismatch", span(text="Piet Peters"), problem="says its text is"),
    jsonl("lone-surrogate-text", '{"id": "a", "text": "Jan \\ud800 kwam", "spans": []}', problem="lone surrogate"),
    jsonl("lone-surrogate-id", '{"id": "a\\udc00", "text": "Jan", "spans": []}', problem="lone surrogate"),
    jsonl(
        "lone-surrogate-label",
        '{"id": "a", "text": "Jan", "spans": [{"start": 0, "end": 3, "label": "N\\ud83d"}]}',
        problem="lone surrogate",
    ),
    jsonl("deep-nesting", "[" * 100_000 + "]" * 100_000, problem="nested too deeply"),
    jsonl("duplicate-id", j(), j(), problem="duplicate document id 'a'", line=2),
    jsonl("duplicate-id-later", j(), j(id="b"), "", j(), problem="duplicate document id 'a' (first on line 1)", line=4),
    jsonl("bad-second-line", j(), "{", problem="malformed JSON", line=2),
    jsonl("bom-line-2", j(), "\ufeff" + j(id="b"), problem="byte-order mark (U+FEFF) starts line 2", line=2),
]


def conll(name: str, body: str, *, problem: str, line: int) -> Case:
    return Case(f"conll-{name}", {"c.conll": body}, problem, f"c.conll:{line}")


CONLL = [
    conll("one-column", "Jan\tB-Name\nJansen\n", problem="expected a token and a tag", line=2),
    conll("empty-token", "\tB-Name\n", problem="expected a token and a tag", line=1),
    conll("empty-tag", "Jan\t\n", problem="expected a token and a tag", line=1),
    conll("token-with-space", "Jan Jansen\tB-Name\n", problem="holds whitespace", line=1),
    conll("token-with-nbsp-tab", "Jan\u00a0Jansen\tB-Name\n", problem="holds whitespace", line=1),
    conll("ragged-spaces", "Jan B-Name\nJan Jansen I-Name\n", problem="3 columns where", line=2),
    conll("ragged-tabs", "Jan\tNNP\tB-Name\nkwam\tO\n", problem="2 columns where", line=2),
    conll("lowercase-b", "Jan\tb-Name\n", problem="unknown tag 'b-Name'", line=1),
    conll("underscore-tag", "Jan\tB_Name\n", problem="unknown tag 'B_Name'", line=1),
    conll("prefix-only", "Jan\tB-\n", problem="unknown tag 'B-'", line=1),
    conll("bare-label", "Jan\tName\n", problem="unknown tag 'Name'", line=1),
    conll("x-prefix", "Jan\tX-Name\n", problem="unknown tag 'X-Name'", line=1),
    conll("lowercase-o", "Jan\to\n", problem="unknown tag 'o'", line=1),
    conll("bad-tag-later", "Jan\tB-Name\nkwam\tO\nop\tOO\n", problem="unknown tag 'OO'", line=3),
    conll("unknown-label", "Jan\tB-Persoon\n", problem="unknown label 'Persoon'", line=1),
    conll(
        "duplicate-docstart",
        "-DOCSTART-\tn1\n\nJan\tO\n\n-DOCSTART-\tn1\n\nPiet\tO\n",
        problem="duplicate document id 'n1'",
        line=5,
    ),
    conll(
        "duplicate-docstart-later",
        "-DOCSTART-\tn1\n\nJan\tO\n\n-DOCSTART-\tn2\n\nx\tO\n\n-DOCSTART-\tn1\n\ny\tO\n",
        problem="duplicate document id 'n1' (first on line 1)",
        line=9,
    ),
    conll("only-docstart", "-DOCSTART-\tn1\n\n", problem="holds no documents", line=0),
    conll("only-blank", "\n\n\n", problem="holds no documents", line=0),
    conll("empty", "", problem="holds no documents", line=0),
    conll("latin1", "Jos\xe9\tB-Name\n".encode("latin-1"), problem="not UTF-8", line=1),  # type: ignore[arg-type]
    conll("bad-bytes-later", b"Jan\tB-Name\n\nkwam\tO\n\xff\tO\n", problem="not UTF-8", line=4),  # type: ignore[arg-type]
    conll("one-column-spaces", "Jan B-Name\nkwam\n", problem="expected a token and a tag", line=2),
    conll("tab-and-spaces-in-a-line", "Jan\tNNP B-Name\nkwam\tVB O\n", problem="holds a space", line=1),
    conll(
        "bom-line-3", "-DOCSTART-\tn1\n\n\ufeffJan\tB-Name\n", problem="byte-order mark (U+FEFF) starts line 3", line=3
    ),
]
for c in CONLL:  # an empty source has no line: the location is the file itself
    if c.where.endswith(":0"):
        object.__setattr__(c, "where", "c.conll")


def inline(name: str, body: str, *, problem: str, line: int = 1) -> Case:
    return Case(f"inline-{name}", {"c.inline": body}, problem, f"c.inline:{line}")


INLINE = [
    inline("no-tab", "a <NameSTART> Jan <NameEND> kwam\n", problem="expected '<id><TAB><inline text>'"),
    inline("empty-id", "\t<NameSTART> Jan <NameEND> kwam\n", problem="expected '<id><TAB><inline text>'"),
    inline("blank-id", "  \tJan kwam\n", problem="expected '<id><TAB><inline text>'"),
    inline("unclosed", "a\t<NameSTART> Jan kwam\n", problem="1 unclosed"),
    inline("unopened", "a\tJan <NameEND> kwam\n", problem="1 unopened"),
    inline("nested", "a\t<NameSTART> Jan <DateSTART> 12 <DateEND> x <NameEND>\n", problem="nested"),
    inline("crossing", "a\t<NameSTART> Jan <DateSTART> 12 <NameEND> x <DateEND>\n", problem="crossing"),
    inline("empty-span", "a\t<NameSTART><NameEND> kwam\n", problem="empty"),
    inline("mismatched-labels", "a\t<NameSTART> Jan <DateEND> kwam\n", problem="unclosed"),
    inline("unknown-label", "a\t<PersoonSTART> Jan <PersoonEND> kwam\n", problem="unknown label 'Persoon'"),
    inline("text-after-eod", "a\tJan kwam <EOD> en Piet ging\n", problem="text after <EOD>"),
    inline("two-notes-one-line", "a\tJan kwam <EOD> b\tPiet ging <EOD>\n", problem="text after <EOD>"),
    inline("duplicate-id", "a\tJan kwam\na\tPiet ging\n", problem="duplicate document id 'a'", line=2),
    inline("duplicate-id-later", "a\tJan\nb\tPiet\nc\tKees\na\tJoop\n", problem="(first on line 1)", line=4),
    inline("empty-note", "a\t <EOD>\n", problem="the document is empty"),
    inline("empty-file", "", problem="holds no documents"),
    inline("blank-file", "\n \n", problem="holds no documents"),
    inline("not-utf8", b"a\tJos\xe9 kwam\n", problem="not UTF-8"),  # type: ignore[arg-type]
    inline("bad-second-line", "a\tJan kwam\nb\t<NameSTART> Piet\n", problem="unclosed", line=2),
    inline("bom-line-2", "a\tJan kwam\n\ufeffb\tPiet ging\n", problem="byte-order mark (U+FEFF) starts line 2", line=2),
    inline("space-in-tags", "a\t<Name START> Jan <Name END> kwam\n", problem="looks like an inline tag but is none"),
    inline(
        "non-ascii-label", "a\tok\nb\t<FörnamnSTART> Jan <FörnamnEND>\n", problem="looks like an inline tag", line=2
    ),
    inline("space-after-lt", "a\t< NameSTART> Jan <NameEND>\n", problem="looks like an inline tag but is none"),
    Case(
        "inline-tags-in-a-txt",
        {"c.txt": "n1\tPatient <NameSTART> Jan <NameEND> kwam\n"},
        "looks like inline-tag text",
        "c.txt:1",
    ),
]
for c in INLINE:
    if c.name in {"inline-empty-file", "inline-blank-file"}:
        object.__setattr__(c, "where", "c.inline")


XML_HEAD = '<?xml version="1.0" encoding="UTF-8" ?>\n'


def xml(text: str = TEXT, *tags: str) -> str:
    """An i2b2 file: ``text`` in TEXT, each tag on its own line (the first on line 4)."""
    return (
        XML_HEAD
        + f"<deIdi2b2>\n<TEXT><![CDATA[{text}]]></TEXT>\n<TAGS>\n"
        + "".join(t + "\n" for t in tags)
        + "</TAGS>\n</deIdi2b2>\n"
    )


NAME_TAG = '<NAME id="P0" start="0" end="10" text="Jan Jansen" TYPE="Name" comment="" />'


def i2b2(name: str, content: str | bytes, *, problem: str, line: int | None = None) -> Case:
    return Case(f"i2b2-{name}", {"c.xml": content}, problem, "c.xml" + ("" if line is None else f":{line}"))


I2B2 = [
    i2b2(
        "malformed", XML_HEAD + "<deIdi2b2><TEXT>Jan & Piet</TEXT><TAGS/></deIdi2b2>", problem="malformed XML", line=2
    ),
    i2b2("truncated", xml(TEXT, NAME_TAG)[:-20], problem="malformed XML", line=6),
    i2b2("doctype", XML_HEAD + '<!DOCTYPE d [<!ENTITY x "Jan">]>\n<deIdi2b2/>', problem="DOCTYPE", line=2),
    i2b2("not-utf8", xml("Jos\xe9").encode("latin-1"), problem="not UTF-8", line=3),
    i2b2("no-tags", XML_HEAD + f"<deIdi2b2><TEXT>{TEXT}</TEXT></deIdi2b2>", problem="no <TAGS> element", line=1),
    i2b2("second-text", xml(TEXT).replace("</TEXT>\n", "</TEXT>\n<TEXT>x</TEXT>"), problem="a second TEXT", line=4),
    i2b2("text-outside", xml(TEXT).replace("<TAGS>", "kwam<TAGS>"), problem="text outside TEXT", line=4),
    i2b2(
        "element-in-text",
        xml("Jan <b>Jansen</b> kwam").replace("<![CDATA[", "").replace("]]>", ""),
        problem="TEXT holds an element <b>",
        line=3,
    ),
    i2b2("no-type", xml(TEXT, NAME_TAG.replace(' TYPE="Name"', "")), problem="no TYPE attribute", line=5),
    i2b2("word-offset", xml(TEXT, NAME_TAG.replace('start="0"', 'start="nul"')), problem="not whole numbers", line=5),
    i2b2("past-end", xml(TEXT, NAME_TAG.replace('end="10"', 'end="99"')), problem="outside the TEXT", line=5),
    i2b2(
        "text-mismatch",
        xml(TEXT, NAME_TAG.replace('start="0" end="10"', 'start="1" end="11"')),
        problem="text='Jan Jansen' but TEXT[1:11] is 'an Jansen '",
        line=5,
    ),
    i2b2("unknown-attribute", xml(TEXT, NAME_TAG.replace("comment", "score")), problem="attribute 'score'", line=5),
    i2b2(
        "duplicate-tag-id",
        xml(
            TEXT,
            NAME_TAG,
            NAME_TAG.replace('start="0" end="10" text="Jan Jansen"', 'start="19" end="27" text="12 maart"'),
        ),
        problem="the id is used twice (first on line 5)",
        line=6,
    ),
    i2b2(
        "overlap",
        xml(
            TEXT,
            NAME_TAG,
            NAME_TAG.replace("P0", "P1").replace('start="0"', 'start="4"').replace('"Jan Jansen"', '"Jansen"'),
        ),
        problem="spans overlap",
    ),
    i2b2(
        "unknown-label", xml(TEXT, NAME_TAG.replace('TYPE="Name"', 'TYPE="Persoon"')), problem="unknown label 'Persoon'"
    ),
    i2b2("empty-note", xml(" \n "), problem="the document is empty"),
    Case(
        "i2b2-second-doc-bad",
        {"i2b2/a.xml": xml(TEXT, NAME_TAG), "i2b2/b.xml": xml(TEXT, NAME_TAG.replace('end="10"', 'end="99"'))},
        "outside the TEXT",
        "b.xml:5",
    ),
    # an upper-case suffix is read, not skipped: its error is found
    Case(
        "i2b2-upper-case-doc-bad",
        {"i2b2/a.xml": xml(TEXT, NAME_TAG), "i2b2/b.XML": xml(TEXT, NAME_TAG.replace('end="10"', 'end="99"'))},
        "outside the TEXT",
        "b.XML:5",
    ),
]


def xml_inline(name: str, body: str | bytes, *, problem: str, line: int | None = 1) -> Case:
    return Case(f"xml_inline-{name}", {"c.xmltags": body}, problem, "c.xmltags" + ("" if line is None else f":{line}"))


XML_INLINE = [
    xml_inline("unclosed", "a\t<Name>Jan kwam\n", problem="the opening tag <Name> has no closing tag"),
    xml_inline("unopened", "a\tJan</Name> kwam\n", problem="the closing tag </Name> has no opening tag"),
    xml_inline("nested", "a\t<Name>Jan <Date>12</Date></Name>\n", problem="<Date> inside <Name>"),
    xml_inline("crossing", "a\t<Name>Jan <Date>12</Name></Date>\n", problem="nested or crossing"),
    xml_inline("mismatched", "a\t<Name>Jan</Date> kwam\n", problem="</Date> closes <Name>"),
    xml_inline("stray-tag", "a\tJan<br>kwam <Name>Piet</Name>\n", problem="<Name> inside <br>"),
    xml_inline("empty-tag", "a\t<Name></Name> kwam\n", problem="the tag <Name> is empty"),
    xml_inline("other-attribute", 'a\t<PHI TYPE="Name" id="1">Jan</PHI>\n', problem="has the attribute 'id'"),
    xml_inline("empty-type", 'a\t<PHI TYPE="">Jan</PHI>\n', problem="has an empty TYPE"),
    xml_inline("unknown-label", "a\t<Persoon>Jan</Persoon> kwam\n", problem="unknown label 'Persoon'"),
    xml_inline("attribute-unknown-label", 'a\t<PHI TYPE="PATIENT">Jan</PHI>\n', problem="unknown label 'PATIENT'"),
    xml_inline("duplicate-id", "a\tJan\na\tPiet\n", problem="duplicate document id 'a' (first on line 1)", line=2),
    xml_inline("bad-second-line", "a\tJan\rb\t<Name>Piet\r", problem="has no closing tag", line=2),
    xml_inline("empty-note", "a\t \n", problem="the document is empty"),
    xml_inline("not-utf8", b"a\tJos\xe9\n", problem="not UTF-8"),  # type: ignore[arg-type]
    xml_inline("empty-file", "", problem="holds no documents", line=None),
    xml_inline("blank-file", "\r\n \r\n", problem="holds no documents", line=None),
    xml_inline(
        "bom-line-2", "d1\tJan\n\ufeffd2\t<Name>Piet</Name>\n", problem="byte-order mark (U+FEFF) starts line 2", line=2
    ),
    xml_inline("space-after-lt", "a\t< Name>Jan</Name> kwam\n", problem="no space may follow '<'"),
    xml_inline("space-after-slash", "a\t<Name>Jan</ Name> kwam\n", problem="looks like a tag but is none"),
    xml_inline("empty-element", "a\tJan <Name/> kwam\n", problem="an empty element marks no text"),
    xml_inline("name-start", "a\t<Name START>Jan</Name> kwam\n", problem="looks like a tag but is none"),
    xml_inline("unquoted-type", "a\tok\rb\t<PHI TYPE=PATIENT>Jan</PHI>\r", problem="looks like a tag", line=2),
    Case(
        "xml_inline-tags-in-a-txt",
        {"c.txt": "n1\tPatient <Name>Jan</Name> kwam\n"},
        "looks like XML-style inline tags",
        "c.txt:1",
    ),
    Case(
        "xml_inline-upper-case-folder-file-bad",
        {"notes/a.txt": "<Name>Jan</Name> kwam", "notes/B.TXT": "ok\n<Name>Piet kwam"},
        "has no closing tag",
        "B.TXT:2",
    ),
]


def brat(name: str, files: dict[str, str | bytes], *, problem: str, where: str) -> Case:
    return Case(f"brat-{name}", {f"brat/{k}": v for k, v in files.items()}, problem, where)


T1 = "T1\tName 0 10\tJan Jansen\n"
BRAT = [
    brat("no-ann", {"a.txt": TEXT}, problem="no .ann file", where="a.txt"),
    brat("orphan-ann", {"a.txt": TEXT, "a.ann": T1, "b.ann": T1}, problem="without its .txt", where="b.ann"),
    brat(
        "garbage-line",
        {"a.txt": TEXT, "a.ann": T1 + "hello world\n"},
        problem="unreadable annotation line",
        where="a.ann:2",
    ),
    brat(
        "spaces-not-tabs",
        {"a.txt": TEXT, "a.ann": "T1 Name 0 10 Jan Jansen\n"},
        problem="unreadable annotation line",
        where="a.ann:1",
    ),
    brat(
        "missing-offsets",
        {"a.txt": TEXT, "a.ann": "T1\tName\tJan\n"},
        problem="unreadable annotation line",
        where="a.ann:1",
    ),
    brat(
        "one-offset",
        {"a.txt": TEXT, "a.ann": "T1\tName 0\tJan\n"},
        problem="unreadable annotation line",
        where="a.ann:1",
    ),
    brat(
        "negative-offset",
        {"a.txt": TEXT, "a.ann": "T1\tName -1 10\tJan\n"},
        problem="unreadable annotation line",
        where="a.ann:1",
    ),
    brat(
        "no-t-id",
        {"a.txt": TEXT, "a.ann": "\tName 0 10\tJan Jansen\n"},
        problem="unreadable annotation line",
        where="a.ann:1",
    ),
    brat(
        "lowercase-t",
        {"a.txt": TEXT, "a.ann": "t1\tName 0 10\tJan Jansen\n"},
        problem="unreadable annotation line",
        where="a.ann:1",
    ),
    brat(
        "t-without-number",
        {"a.txt": TEXT, "a.ann": "T\tName 0 10\tJan Jansen\n"},
        problem="unreadable annotation line",
        where="a.ann:1",
    ),
    brat(
        "relation-without-tab",
        {"a.txt": TEXT, "a.ann": T1 + "R1 Rel Arg1:T1\n"},
        problem="unreadable annotation line",
        where="a.ann:2",
    ),
    brat(
        "bad-fragment-list",
        {"a.txt": TEXT, "a.ann": "T1\tName 0 3;\tJan\n"},
        problem="unreadable annotation line",
        where="a.ann:1",
    ),
    brat(
        "duplicate-t-id",
        {"a.txt": TEXT, "a.ann": T1 + "T1\tDate 19 27\t12 maart\n"},
        problem="used twice",
        where="a.ann:2",
    ),
    brat("past-end", {"a.txt": TEXT, "a.ann": "T1\tName 0 99\tJan\n"}, problem="outside the text", where="a.ann:1"),
    brat(
        "start-after-end", {"a.txt": TEXT, "a.ann": "T1\tName 10 0\tJan\n"}, problem="outside the text", where="a.ann:1"
    ),
    brat("zero-width", {"a.txt": TEXT, "a.ann": "T1\tName 4 4\t\n"}, problem="outside the text", where="a.ann:1"),
    brat(
        "huge-offset",
        {"a.txt": TEXT, "a.ann": "T1\tName 0 1" + "0" * 5000 + "\tJan\n"},
        problem="more than 15 digits",
        where="a.ann:1",
    ),
    brat(
        "text-mismatch",
        {"a.txt": TEXT, "a.ann": "T1\tName 0 10\tPiet Peters\n"},
        problem="differs from the .txt",
        where="a.ann:1",
    ),
    brat(
        "byte-offsets",
        {"a.txt": "Café Jan Jansen", "a.ann": "T1\tName 6 16\tJan Jansen\n"},
        problem="outside the text",
        where="a.ann:1",
    ),
    brat(
        "overlap", {"a.txt": TEXT, "a.ann": T1 + "T2\tName 4 15\tJansen kwam\n"}, problem="spans overlap", where="a.ann"
    ),
    brat(
        "unknown-label",
        {"a.txt": TEXT, "a.ann": "T1\tPersoon 0 10\tJan Jansen\n"},
        problem="unknown label 'Persoon'",
        where="a.ann",
    ),
    brat("empty-note", {"a.txt": " \n", "a.ann": ""}, problem="the document is empty", where="a.ann"),
    brat("txt-not-utf8", {"a.txt": b"Jos\xe9", "a.ann": ""}, problem="not UTF-8", where="a.txt:1"),
    brat("ann-not-utf8", {"a.txt": TEXT, "a.ann": b"T1\tName 0 3\tJ\xe9n\n"}, problem="not UTF-8", where="a.ann:1"),
    brat("no-txt-files", {"notes.md": "hello"}, problem="no .txt files", where="brat"),
    brat(
        "second-doc-bad",
        {"a.txt": TEXT, "a.ann": T1, "b.txt": TEXT, "b.ann": "T1\tName 0 99\tx\n"},
        problem="outside the text",
        where="b.ann:1",
    ),
    brat(
        "upper-case-doc-bad",
        {"a.txt": TEXT, "a.ann": T1, "B.TXT": TEXT, "B.ANN": "T1\tName 0 99\tx\n"},
        problem="outside the text",
        where="B.ANN:1",
    ),
    brat("upper-case-orphan", {"a.txt": TEXT, "a.ann": T1, "B.ANN": T1}, problem="without its .txt", where="B.ANN"),
    brat("case-twins", {"a.txt": TEXT, "a.ann": T1, "a.TXT": TEXT}, problem="give one document id 'a'", where="a.txt"),
]

EMPTY_JSONL = [
    Case("jsonl-empty-file", {"c.jsonl": ""}, "holds no documents", "c.jsonl"),
    Case("jsonl-blank-lines", {"c.jsonl": "\n\n  \n"}, "holds no documents", "c.jsonl"),
    Case("jsonl-not-utf8", {"c.jsonl": b'{"id": "a", "text": "Jos\xe9"}\n'}, "not UTF-8", "c.jsonl:1"),
    Case("jsonl-utf16", {"c.jsonl": j().encode("utf-16")}, "not UTF-8", "c.jsonl:1"),
]

CASES = JSONL + CONLL + INLINE + BRAT + EMPTY_JSONL + I2B2 + XML_INLINE


def test_the_table_is_large_and_covers_every_format() -> None:
    assert len(CASES) >= 100 and len({c.name for c in CASES}) == len(CASES)
    assert {c.name.split("-")[0] for c in CASES} == {"jsonl", "conll", "inline", "brat", "i2b2", "xml_inline"}


def materialize(case: Case, root: Path) -> Path:
    for name, content in case.files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
    return root / case.source


def check_location(e: InputError, case: Case, root: Path) -> None:
    where = e.where()
    path, _, line = case.where.partition(":")
    if path.startswith("document "):
        assert path in where, where
        return
    target = next((p for p in [root / case.source / path, root / path] if p.exists()), root / path)
    assert e.path is not None and Path(e.path).resolve() == target.resolve(), (e.path, target)
    if line:
        assert e.line == int(line), (e.line, line)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_reading_gives_our_error_with_place_and_fix(case: Case, tmp_path: Path) -> None:
    source = materialize(case, tmp_path)
    with pytest.raises(InputError) as info:
        list(read_documents(source, tagset=TagSet()))
    e = info.value
    assert case.problem in e.problem, e.problem
    assert e.fix, "every error says how to fix it"
    check_location(e, case, tmp_path)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_validate_lists_it_and_convert_writes_nothing(case: Case, tmp_path: Path, capsys) -> None:
    source = materialize(case, tmp_path / "in")
    assert main(["validate", str(source)]) == 1
    assert case.problem in " ".join(capsys.readouterr().out.split())
    if case.problem.startswith("unknown label"):
        return  # convert keeps a corpus's own labels: only validation checks them against the tag set
    for out_name in ("out.jsonl", "out.conll", "out.inline", "out-brat"):
        assert (
            main(
                [
                    "convert",
                    str(source),
                    str(tmp_path / out_name),
                    "--to",
                    out_name.split(".")[-1] if "." in out_name else "brat",
                ]
            )
            == 1
        )
        err = capsys.readouterr().err
        assert case.problem in err and "fix:" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"], "a failed conversion wrote something"


def test_collecting_errors_reports_every_invalid_record_and_keeps_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text(
        "\n".join([j(), "not json", j(id="b", spans=[{"start": 0, "end": 3, "label": "X"}]), j(id="c"), j(id="a")])
        + "\n"
    )
    errors: list[InputError] = []
    docs = list(read_documents(path, tagset=TagSet(), errors=errors))
    assert [d.id for d in docs] == ["a", "c"]
    assert [(e.line, e.problem.split(" (")[0]) for e in errors] == [
        (2, "malformed JSON"),
        (3, "unknown label 'X'"),
        (5, "duplicate document id 'a'"),
    ]


# ---- documents a writer cannot hold: refused before the first byte is written (list or stream)

OK_DOC = Document.create("a", TEXT, [Span(0, 10, "Name")])
OUTPUTS = {
    "jsonl": "out.jsonl",
    "conll": "out.conll",
    "inline": "out.inline",
    "brat": "out-brat",
    "i2b2": "out-i2b2",
    "xml_inline": "out.xmltags",
    "xml_inline-folder": "out-xml",
}


@dataclass(frozen=True)
class Unwritable:
    name: str  # "<output>-<what>", the output a key of OUTPUTS
    doc: Document  # written after OK_DOC
    problem: str

    @property
    def output(self) -> str:
        return next(k for k in sorted(OUTPUTS, key=len, reverse=True) if self.name.startswith(k + "-"))


def labelled(label: str) -> Document:
    return Document.create("b", TEXT, [Span(0, 10, label)])


UNWRITABLE = [
    Unwritable("brat-label-space", labelled("First Name"), "holds whitespace, which a BRAT .ann line cannot hold"),
    Unwritable("brat-label-newline", labelled("Name\nDate"), "holds whitespace"),
    Unwritable("brat-id-newline", Document.create("b\n", TEXT), "cannot be used as a file name"),
    Unwritable("conll-label-space", labelled("First Name"), "holds whitespace, which a CoNLL tag column cannot hold"),
    Unwritable("conll-label-newline", labelled("Name\n"), "holds whitespace"),
    Unwritable("conll-label-tab", labelled("Name\tX"), "holds whitespace"),
    Unwritable("conll-id-o", Document.create("O", TEXT), "reads as no id"),
    Unwritable("conll-id-x", Document.create("-X-", TEXT), "reads as no id"),
    Unwritable("conll-docstart-word", Document.create("b", "Jan\n-DOCSTART-x kwam"), "reads as a -DOCSTART- line"),
    Unwritable("conll-bom-word", Document.create("b", "Jan\n\ufeffPiet"), "a stray byte-order mark"),
    Unwritable("inline-label-space", labelled("First Name"), "cannot be written as an inline tag"),
    Unwritable("inline-label-non-ascii", labelled("Förnamn"), "cannot be written as an inline tag"),
    Unwritable("inline-bom-id", Document.create("\ufeffb", TEXT), "only the first line may"),
    Unwritable("inline-tag-like-text", Document.create("b", "Jan <Name START> kwam"), "reads as an inline tag"),
    Unwritable("xml_inline-bom-id", Document.create("\ufeffb", TEXT), "only the first line may"),
    Unwritable("xml_inline-empty-label", labelled(""), "has the label ''"),
    Unwritable("xml_inline-folder-id-newline", Document.create("b\n", TEXT), "cannot be used as a file name"),
    Unwritable("i2b2-id-newline", Document.create("b\n", TEXT), "cannot be used as a file name"),
    Unwritable("i2b2-control-label", labelled("Na\x01me"), "XML 1.0 cannot hold"),
    Unwritable("i2b2-empty-label", labelled(""), "has the label ''"),
    Unwritable("jsonl-lone-surrogate", Document.create("b", "Jan \ud800 kwam"), "lone surrogate"),
]


def test_the_writer_table_covers_every_writer() -> None:
    assert {u.output for u in UNWRITABLE} == set(OUTPUTS) and len({u.name for u in UNWRITABLE}) == len(UNWRITABLE)


@pytest.mark.parametrize("lazy", [False, True], ids=["list", "stream"])
@pytest.mark.parametrize("case", UNWRITABLE, ids=lambda u: u.name)
def test_writers_refuse_what_they_cannot_hold_and_write_nothing(case: Unwritable, lazy: bool, tmp_path: Path) -> None:
    docs = [OK_DOC, case.doc]
    fmt = case.output.split("-")[0]
    with pytest.raises(InputError) as info:
        write_documents(iter(docs) if lazy else docs, tmp_path / OUTPUTS[case.output], fmt)
    e = info.value
    assert case.problem in e.problem and e.fix and e.doc_id == case.doc.id, e
    assert list(tmp_path.iterdir()) == [], "a refused document left output behind"


@pytest.mark.parametrize("output", ["i2b2", "xml_inline-folder", "jsonl"])
def test_labels_with_spaces_and_line_breaks_round_trip_where_the_format_holds_them(output: str, tmp_path: Path) -> None:
    docs = [OK_DOC, Document.create("b", TEXT, [Span(0, 10, "First Name"), Span(19, 27, "Date\nof birth")])]
    fmt = output.split("-")[0]
    write_documents(docs, tmp_path / OUTPUTS[output], fmt)
    assert list(read_documents(tmp_path / OUTPUTS[output], fmt)) == docs
