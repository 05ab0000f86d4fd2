"""i2b2/n2c2 de-identification XML (the i2b2/UTHealth 2014 standoff layout): one document per
``NAME.xml`` file, its note in ``<TEXT><![CDATA[...]]></TEXT>`` and its PHI as empty elements in
``<TAGS>``: ``<NAME id="P1" start="40" end="48" text="Jane Doe" TYPE="PATIENT" comment="" />``.

The span label is the ``TYPE`` attribute; the element name (NAME, LOCATION, ...) is the i2b2
category, which the record does not keep: the writer derives it from the label (``CATEGORIES``,
else ``PHI``). The root element may have any name (MAE names it after its task). Offsets count
characters (code points) of the TEXT, end exclusive; a tag's ``text`` must equal
``TEXT[start:end]`` (whitespace compared collapsed, since an XML parser turns a raw newline in an
attribute into a space), else the document is refused, naming file, line, tag id and both strings.
A UTF-8 byte-order mark is dropped; XML comments are read past.

Line endings: an XML parser reads CRLF and CR as LF, also inside CDATA. By default (option
``newlines: keep``) the reader keeps the text as distributed, CRs included, so that offsets that
count them stay true; ``newlines: xml`` reads the text as an XML parser gives it instead (for
offsets made by a tool that parsed the file). The writer writes a CR as ``&#13;`` between CDATA
sections, so its files hold no raw CR and read the same either way (and in any XML tool); ``]]>``
in the text is split over two CDATA sections. A file whose TEXT holds CRs and whose tags have no
``text`` attribute (nothing to check the offsets against) is read with an ``InputWarning``: its
offsets may count LF line endings, which would shift every span after the first line break.

Refused, with the file, line and fix: malformed XML, a DOCTYPE (no entity expansion), an encoding
other than UTF-8, a missing or second TEXT or TAGS, elements or text anywhere else, a tag without
a valid ``start``/``end``/``TYPE``, an attribute other than ``id``, ``start``, ``end``, ``text``,
``TYPE`` and ``comment`` (comments are annotator notes, read past as BRAT's ``#`` lines), a tag id
used twice, and overlapping spans. A folder's ``.xml`` files are read in any case (``b.XML``); any
other file is named in a warning. Writing goes to a new or empty folder, one ``ID.xml`` each, and
checks every document first (characters XML cannot hold are refused).
"""

from __future__ import annotations

import re
import xml.parsers.expat as expat
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from synthdeid.corpus.formats.folder import by_id, scan_folder
from synthdeid.corpus.formats.textfile import each_record, read_text, warn, write_each, write_new
from synthdeid.corpus.records import Document, Span
from synthdeid.corpus.tags import TagSet
from synthdeid.errors import InputError

OPTIONS = ("newlines",)
NEWLINES = ("keep", "xml")
CATEGORIES: dict[str, str] = {
    **dict.fromkeys(("PATIENT", "DOCTOR", "USERNAME"), "NAME"),
    "PROFESSION": "PROFESSION",
    **dict.fromkeys(
        (
            "ROOM",
            "DEPARTMENT",
            "HOSPITAL",
            "ORGANIZATION",
            "STREET",
            "CITY",
            "STATE",
            "COUNTRY",
            "ZIP",
            "LOCATION-OTHER",
        ),
        "LOCATION",
    ),
    "AGE": "AGE",
    "DATE": "DATE",
    **dict.fromkeys(("PHONE", "FAX", "EMAIL", "URL", "IPADDR"), "CONTACT"),
    **dict.fromkeys(
        ("SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM"), "ID"
    ),
}
"""The i2b2-2014 category (element name) of each TYPE; the writer looks labels up in upper case."""
ROOT = "deIdi2b2"
TAG_ATTRIBUTES = ("id", "start", "end", "text", "TYPE", "comment")
_OFFSET = re.compile(r"[0-9]{1,15}")
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_UTF8 = {"utf-8", "utf8"}


def newlines_option(options: Mapping[str, Any] | None) -> str:
    """The ``newlines`` option (``keep`` unless given), checked."""
    value = (options or {}).get("newlines", "keep")
    if value not in NEWLINES:
        raise InputError(
            f"format option newlines is {value!r}",
            fix="set corpus.format_options.newlines (or --format-option newlines=...) to keep "
            "(the text's CRs as in the file, the default) or xml (line endings as an XML parser "
            "reads them: CRLF and CR become LF)",
        )
    return value


def _marker(data: str) -> str:
    """A private-use character the file does not hold: a stand-in for the CRs of the TEXT, which
    an XML parser would otherwise turn into LF."""
    free = next((chr(c) for c in range(0xE000, 0xF900) if chr(c) not in data), None)
    if free is None:  # a file holding every private-use character
        raise InputError(
            "the file holds every private-use character: its CRs cannot be kept",
            fix="read it with corpus.format_options: {newlines: xml}",
        )
    return free


class _Tree:
    """The parse of one file: TEXT's character data and TAGS's tags, with the line of each."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.stack: list[str] = []
        self.text_parts: list[str] = []
        self.texts: list[int] = []  # line of each TEXT element
        self.text_bytes = (0, 0)  # where TEXT's start tag and end tag begin, in the UTF-8 bytes parsed
        self.tags_elements: list[int] = []  # line of each TAGS element
        self.tags: list[tuple[str, dict[str, str], int]] = []  # element name, attributes, line
        self.parser = expat.ParserCreate(encoding="UTF-8")
        self.parser.buffer_text = True
        self.parser.StartElementHandler = self._start
        self.parser.EndElementHandler = self._end
        self.parser.CharacterDataHandler = self._data
        self.parser.StartDoctypeDeclHandler = self._doctype
        self.parser.XmlDeclHandler = self._declaration

    def error(self, problem: str, fix: str, line: int | None = None) -> InputError:
        return InputError(problem, path=self.path, line=line or self.parser.CurrentLineNumber, fix=fix)

    def _doctype(self, *_: Any) -> None:
        raise self.error(
            "the file has a DOCTYPE declaration",
            "i2b2 files have none: remove it (synthdeid does not read DTDs or expand the entities they declare)",
        )

    def _declaration(self, version: str, encoding: str | None, standalone: int) -> None:
        if encoding and encoding.lower() not in _UTF8 and not self.ascii:
            raise self.error(
                f"the file declares encoding {encoding!r}",
                'synthdeid reads UTF-8: re-save the file as UTF-8 and declare encoding="UTF-8"',
            )

    def _start(self, name: str, attrs: dict[str, str]) -> None:
        line = self.parser.CurrentLineNumber
        depth = len(self.stack)
        self.stack.append(name)
        if depth == 1 and name == "TEXT":
            if attrs:
                raise self.error(
                    f"TEXT has attributes ({', '.join(sorted(attrs))})",
                    "write <TEXT><![CDATA[the note]]></TEXT> without attributes",
                )
            self.texts.append(line)
            if len(self.texts) > 1:
                raise self.error(
                    f"a second TEXT element (the first is on line {self.texts[0]})",
                    "put each note in its own file: one TEXT per document",
                )
            self.text_bytes = (self.parser.CurrentByteIndex, self.parser.CurrentByteIndex)
        elif depth == 1 and name == "TAGS":
            self.tags_elements.append(line)
            if len(self.tags_elements) > 1:
                raise self.error(
                    f"a second TAGS element (the first is on line {self.tags_elements[0]})",
                    "put all tags of the note in one <TAGS> element",
                )
        elif depth == 1:
            raise self.error(
                f"unexpected element <{name}> in <{self.stack[0]}>",
                "an i2b2 document holds <TEXT> and <TAGS> only: remove it or move it into TAGS",
            )
        elif depth == 2 and self.stack[1] == "TAGS":
            self.tags.append((name, attrs, line))
        elif depth == 2:
            raise self.error(
                f"the TEXT holds an element <{name}>",
                "write the note as character data: <TEXT><![CDATA[the note]]></TEXT> "
                "(PHI tags go in <TAGS>, with offsets)",
            )
        elif depth > 2:
            raise self.error(
                f"element <{name}> inside {'/'.join(self.stack[:-1])}",
                'i2b2 tags are empty elements: <NAME id="P1" start="0" end="3" text="Jan" TYPE="PATIENT" />',
            )

    def _end(self, name: str) -> None:
        if self.stack[1:] == ["TEXT"]:
            self.text_bytes = (self.text_bytes[0], self.parser.CurrentByteIndex)
        self.stack.pop()

    def _data(self, data: str) -> None:
        if self.stack[1:] == ["TEXT"]:
            self.text_parts.append(data)
            return
        if data.strip():
            where = "a tag" if len(self.stack) > 2 else "/".join(self.stack) or "the file"
            raise self.error(
                f"text outside TEXT, in {where}: {data.strip()[:40]!r}",
                "the note goes in <TEXT><![CDATA[...]]></TEXT> only: remove the stray text "
                '(a tag\'s text goes in its text="..." attribute)',
            )

    def parse(self, data: bytes) -> None:
        self.ascii = data.isascii()
        try:
            self.parser.Parse(data, True)
        except expat.ExpatError as e:
            raise self.error(
                f"malformed XML ({expat.ErrorString(e.code)} at column {e.offset + 1})",
                "repair the XML (each <TAG> closed, '&' written as &amp; outside CDATA)",
                line=e.lineno,
            ) from None
        if not self.texts:
            raise self.error("no <TEXT> element", "write the note in <TEXT><![CDATA[...]]></TEXT>", line=1)
        if not self.tags_elements:
            raise self.error(
                "no <TAGS> element", "add <TAGS></TAGS> (empty for a note without PHI) after the TEXT", line=1
            )

    def text(self) -> str:
        return "".join(self.text_parts)


def _text_as_distributed(data: bytes, tree: _Tree) -> str:
    """TEXT with the file's CRs kept: the file parsed again with each CR inside TEXT replaced by a
    stand-in (only there: elsewhere a CR may stand where XML allows whitespace only)."""
    start, end = tree.text_bytes
    opened = data.find(b">", start, end) + 1  # the end of <TEXT>, which has no attributes
    if not opened or b"\r" not in data[opened:end]:
        return tree.text()
    marker = _marker(data.decode("utf-8"))
    again = _Tree(tree.path)
    again.parse(data[:opened] + data[opened:end].replace(b"\r", marker.encode("utf-8")) + data[end:])
    return again.text().replace(marker, "\r")


def _norm(s: str) -> str:
    return " ".join(s.split())


def read_i2b2_document(path: Path, doc_id: str, tagset: TagSet | None = None, newlines: str = "keep") -> Document:
    """The document of one i2b2 XML file (see the module docstring)."""
    data = read_text(path, doc_id)
    data = data[1:] if data.startswith("\ufeff") else data
    raw = data.encode("utf-8")
    tree = _Tree(path)
    tree.parse(raw)
    text = _text_as_distributed(raw, tree) if newlines == "keep" else tree.text()
    has_cr = b"\r" in raw[tree.text_bytes[0] : tree.text_bytes[1]]
    spans: list[Span] = []
    seen: dict[str, int] = {}
    for i, (element, attrs, line) in enumerate(tree.tags):
        spans.append(_span(element, attrs, line, i, text, path, seen, has_cr, newlines))
    if has_cr and newlines == "keep" and tree.tags and not any("text" in attrs for _, attrs, _ in tree.tags):
        warn(
            "the TEXT has CR line endings and no tag has a text= attribute to check its offsets against: if "
            "they count LF line endings (as a tool that parsed the XML counts them), every span after the first "
            "line break is shifted",
            path=path,
            fix="look at a few spans (synthdeid convert FILE out.jsonl); if they are shifted, read with "
            "corpus.format_options: {newlines: xml} (--format-option newlines=xml)",
        )
    try:
        return Document.create(doc_id, text, spans, tagset=tagset)
    except InputError as e:
        raise e.located(path=path) from None


def _span(
    element: str,
    attrs: dict[str, str],
    line: int,
    i: int,
    text: str,
    path: Path,
    seen: dict[str, int],
    has_cr: bool,
    newlines: str,
) -> Span:
    name = f"tag {attrs['id']!r}" if attrs.get("id") else f"tag #{i + 1} <{element}>"

    def error(problem: str, fix: str) -> InputError:
        return InputError(f"{name}: {problem}", path=path, line=line, fix=fix)

    unknown = sorted(set(attrs) - set(TAG_ATTRIBUTES))
    if unknown:
        raise error(
            f"attribute {unknown[0]!r} is not read",
            "i2b2 tags have the attributes " + ", ".join(TAG_ATTRIBUTES) + ": remove the others",
        )
    if "id" in attrs:
        if attrs["id"] in seen:
            raise error(f"the id is used twice (first on line {seen[attrs['id']]})", "give every tag its own id")
        seen[attrs["id"]] = line
    missing = [k for k in ("start", "end", "TYPE") if not attrs.get(k)]
    if missing:
        raise error(
            f"no {' or '.join(missing)} attribute (or an empty one)",
            "every tag needs start and end (character offsets into TEXT) and its TYPE, e.g. "
            '<NAME id="P1" start="0" end="3" text="Jan" TYPE="PATIENT" comment="" />',
        )
    if not (_OFFSET.fullmatch(attrs["start"]) and _OFFSET.fullmatch(attrs["end"])):
        raise error(
            f"offsets start={attrs['start'][:20]!r} end={attrs['end'][:20]!r} are not whole numbers "
            "(of at most 15 digits)",
            "offsets count characters of the TEXT from 0, end exclusive",
        )
    start, end = int(attrs["start"]), int(attrs["end"])
    if not 0 <= start < end <= len(text):
        raise error(
            f"offsets {start}-{end} are outside the TEXT ({len(text)} characters) or empty",
            "offsets count characters (not bytes) of the TEXT from 0, end exclusive",
        )
    surface = text[start:end]
    if "text" in attrs and _norm(attrs["text"]) != _norm(surface):
        hint = ""
        if has_cr:
            other = "xml" if newlines == "keep" else "keep"
            hint = (
                f"; the file has CR line endings, which these offsets may "
                f"{'not ' if newlines == 'keep' else ''}count: try corpus.format_options: {{newlines: {other}}}"
            )
        raise error(
            f"text={attrs['text'][:60]!r} but TEXT[{start}:{end}] is {surface[:60]!r}",
            "the offsets do not match the text: correct start/end (they count characters of the "
            f"TEXT), or the text attribute{hint}",
        )
    return Span(start, end, attrs["TYPE"])


def read_i2b2(
    path: str | Path,
    tagset: TagSet | None = None,
    errors: list[InputError] | None = None,
    options: Mapping[str, Any] | None = None,
) -> Iterator[Document]:
    """The documents of an i2b2 XML file, or of every ``*.xml`` file under a folder (sorted; ids
    are the relative paths without ``.xml``). With an ``errors`` list, invalid documents are
    collected there and skipped. ``options``: ``newlines`` (``keep`` or ``xml``)."""
    newlines = newlines_option(options)
    root = Path(path)
    if root.is_file():
        return each_record([(root, root.stem, tagset, newlines)], read_i2b2_document, errors)
    if not root.is_dir():
        raise InputError("not found", path=root, fix="name an i2b2 .xml file or a folder of them")
    files = scan_folder(root, (".xml",), "i2b2")[".xml"]
    if not files:
        raise InputError(
            "no .xml files in the folder",
            path=root,
            fix="put each note in its own NAME.xml (i2b2 layout: <TEXT> and <TAGS>)",
        )
    items = ((f, key, tagset, newlines) for key, f in by_id(root, files, errors).items())
    return each_record(items, read_i2b2_document, errors)


def _escape_attribute(value: str) -> str:
    return (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("\t", "&#9;")
        .replace("\n", "&#10;")
        .replace("\r", "&#13;")
    )


def _cdata(text: str) -> str:
    """The text as CDATA sections: ``]]>`` split over two sections, each CR written as ``&#13;``
    (which no XML parser turns into LF)."""
    pieces = []
    for part in text.split("\r"):
        pieces.append("<![CDATA[" + part.replace("]]>", "]]]]><![CDATA[>") + "]]>" if part else "")
    return "&#13;".join(pieces)


def _check_xml_chars(value: str, what: str, doc_id: str) -> None:
    bad = _NOT_XML.search(value)
    if bad:
        raise InputError(
            f"{what} holds U+{ord(bad.group()):04X} at character {bad.start()}, which XML 1.0 "
            "cannot hold (not even as a character reference)",
            doc_id=doc_id,
            fix="remove or replace the control character, or write another format (jsonl keeps it)",
        )


def check_i2b2(doc: Document, index: int = 0) -> None:
    """Refuse what an i2b2 file cannot hold: characters XML 1.0 cannot hold, in the text or a label."""
    _check_xml_chars(doc.text, "the text", doc.id)
    for s in doc.spans:
        _check_xml_chars(s.label, f"the label {s.label[:40]!r}", doc.id)


def to_i2b2_xml(doc: Document) -> str:
    """The i2b2 XML file of ``doc``: the 2014 layout, byte-stable."""
    check_i2b2(doc)
    lines = ['<?xml version="1.0" encoding="UTF-8" ?>', f"<{ROOT}>", f"<TEXT>{_cdata(doc.text)}</TEXT>", "<TAGS>"]
    for i, s in enumerate(doc.spans):
        element = CATEGORIES.get(s.label.upper(), "PHI")
        lines.append(
            f'<{element} id="P{i}" start="{s.start}" end="{s.end}" text="{_escape_attribute(doc.surface(s))}" '
            f'TYPE="{_escape_attribute(s.label)}" comment="" />'
        )
    lines += ["</TAGS>", f"</{ROOT}>"]
    return "\n".join(lines) + "\n"


def write_i2b2(docs: Iterable[Document], folder: str | Path) -> int:
    """One ``ID.xml`` per document into a new or empty folder; returns the count."""
    root = Path(folder)
    if root.suffix.lower() == ".xml" and not root.is_dir():
        raise InputError(
            "i2b2 output is a folder (one ID.xml per document), not one .xml file",
            path=root,
            fix="name a new or empty folder (e.g. without the .xml suffix)",
        )
    return write_each(
        docs,
        root,
        ".xml",
        lambda doc, out: write_new(out, to_i2b2_xml(doc), newline="\n"),
        "i2b2",
        check=check_i2b2,
    )
