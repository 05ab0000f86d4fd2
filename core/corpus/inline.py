"""The inline-tag codec of the Libbi paper: ``<NameSTART> Jan Jansen <NameEND>``, ``<PAR>`` for a
newline, ``<EOD>`` at the end of a document.

Encoding puts one space on the inner side of each tag (``"<XSTART> "``, ``" <XEND>"``) and one on
each side of ``<PAR>``; decoding removes exactly those spaces, so ``decode(encode(doc))`` gives the
document back unchanged. With a tokenizer, every text piece is tokenized and all tokens (tags
included) are joined by single spaces: the form word-level language models are trained on.

Decoding generated text never drops a document: malformed tags (unclosed, unopened, nested,
crossing, empty, unknown label) are counted per label and removed, their words kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from synthdeid.corpus.records import Document, Span
from synthdeid.errors import InputError

if TYPE_CHECKING:
    from synthdeid.corpus.tokens import Tokenize

PAR = "<PAR>"
EOD = "<EOD>"
TAG_KINDS = ("well_formed", "unclosed", "unopened", "nested", "crossing", "empty", "unknown")

_MARKER = re.compile(
    r"(?P<par> ?<PAR> ?)|(?P<eod> ?<EOD>)|(?P<start><(?P<sl>[A-Za-z][A-Za-z0-9_]*?)START> ?)"
    r"|(?P<end> ?<(?P<el>[A-Za-z][A-Za-z0-9_]*?)END>)"
)
_RESERVED = re.compile(r"<PAR>|<EOD>|<[A-Za-z][A-Za-z0-9_]*?(?:START|END)>")


def start_tag(label: str) -> str:
    """The inline tag that opens a span of ``label``: ``Name`` -> ``<NameSTART>``."""
    return f"<{label}START>"


def end_tag(label: str) -> str:
    """The inline tag that closes a span of ``label``: ``Name`` -> ``<NameEND>``."""
    return f"<{label}END>"


def special_tokens(labels: Iterable[str]) -> list[str]:
    """Every tag token for ``labels`` plus ``<PAR>`` and ``<EOD>``: the tokens an LM must keep whole."""
    out = [PAR, EOD]
    for label in labels:
        out += [start_tag(label), end_tag(label)]
    return out


_TAG_MARKER = re.compile(r"<[A-Za-z][A-Za-z0-9_]*?START> ?| ?<[A-Za-z][A-Za-z0-9_]*?END>")


def strip_tags(text: str) -> str:
    """Inline-tag text without its PHI tags, keeping ``<PAR>`` and ``<EOD>`` and the tagged words:
    the text of an untagged generator (Vakili et al.'s machine-annotation route). Each tag goes
    with the space :func:`encode` put on its inner side, so ``strip_tags(encode(doc))`` equals
    ``encode`` of the document without spans (tokenized: when span edges are token edges; the
    text stays single-spaced)."""
    return _TAG_MARKER.sub("", text)


def check_label(label: str, doc_id: str) -> None:
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", label) or label.endswith(("START", "END")):
        raise InputError(
            f"label {label!r} cannot be written as an inline tag",
            doc_id=doc_id,
            fix="use labels of letters, digits and underscores that do not end in START/END "
            "(map them in params: tags.mapping)",
        )


def find_reserved(text: str) -> re.Match[str] | None:
    """The first tag token (``<PAR>``, ``<EOD>``, ``<XSTART>``, ``<XEND>``) inside plain text."""
    return _RESERVED.search(text)


_TAG_LIKE = re.compile(r"<\s*[^\s<>]*\s*(?:START|END|PAR|EOD)\s*>")


def find_tag_like(text: str) -> re.Match[str] | None:
    """The first token that looks like a tag but is none (``<Name START>``, ``< NameEND>``,
    ``<FörnamnSTART>``, ``<START>``): in text a file reader has decoded, a tag it would otherwise
    keep as words (``decode`` itself keeps them so, as generated text needs)."""
    return _TAG_LIKE.search(text)


def encode(doc: Document, tokenize: Tokenize | None = None, eod: bool = True) -> str:
    """The document as one line of inline-tag text (lossless unless ``tokenize`` is given)."""
    clash = find_reserved(doc.text)
    if clash:
        raise InputError(
            f"the text contains the reserved token {clash.group()!r} at offset {clash.start()}",
            doc_id=doc.id,
            fix="remove or rewrite it before encoding: inline tags are reserved for PHI markup",
        )
    out: list[str] = []
    pos = 0

    def text_piece(piece: str) -> None:
        if tokenize is None:
            out.append(piece.replace("\n", f" {PAR} "))
            return
        for i, line in enumerate(piece.split("\n")):
            if i:
                out.append(PAR)
            out.extend(line[a:b] for a, b in tokenize(line))

    for span in doc.spans:
        check_label(span.label, doc.id)
        text_piece(doc.text[pos : span.start])
        if tokenize is None:
            out.append(f"{start_tag(span.label)} ")
            text_piece(doc.text[span.start : span.end])
            out.append(f" {end_tag(span.label)}")
        else:
            out.append(start_tag(span.label))
            text_piece(doc.text[span.start : span.end])
            out.append(end_tag(span.label))
        pos = span.end
    text_piece(doc.text[pos:])
    if eod:
        out.append(f" {EOD}" if tokenize is None else EOD)
    if tokenize is None:
        return "".join(out)
    return " ".join(t for t in out if t)


@dataclass
class Decoded:
    """A decoded document with the tag counts per label and kind (see ``TAG_KINDS``)."""

    document: Document
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    ended: bool = False
    """True when the text had an end-of-document token (anything after it is cut)."""

    def count(self, kind: str) -> int:
        return sum(c.get(kind, 0) for c in self.counts.values())


def decode(text: str, doc_id: str, labels: Iterable[str] | None = None, trim: bool = True) -> Decoded:
    """Parse inline-tag text into a Document; malformed tags are counted and removed.

    ``labels`` restricts the accepted tag labels; tags with other labels count as ``unknown``.
    ``trim`` strips whitespace at span edges (generated text); ``trim=False`` keeps spans exactly
    as encoded (``decode(encode(doc), doc.id, trim=False).document == doc``).
    """
    allowed = None if labels is None else set(labels)
    pieces: list[str] = []
    length = 0
    events: list[tuple[str, str, int]] = []  # (start|end, label, offset in output)
    pos = 0
    ended = False
    counts: dict[str, dict[str, int]] = {}

    def bump(label: str, kind: str) -> None:
        c = counts.setdefault(label, {k: 0 for k in TAG_KINDS})
        c[kind] += 1

    for m in _MARKER.finditer(text):
        pieces.append(text[pos : m.start()])
        length += m.start() - pos
        pos = m.end()
        if m.group("par"):
            pieces.append("\n")
            length += 1
        elif m.group("eod"):
            ended = True
            break
        else:
            kind, label = ("start", m.group("sl")) if m.group("start") else ("end", m.group("el"))
            if allowed is not None and label not in allowed:
                bump(label, "unknown")
            else:
                events.append((kind, label, length))
    if not ended:
        pieces.append(text[pos:])
    out = "".join(pieces)

    # match each END to the most recent unmatched START of its label
    open_: dict[str, list[int]] = {}
    pairs: list[tuple[int, int]] = []  # event indices
    for i, (kind, label, _) in enumerate(events):
        if kind == "start":
            open_.setdefault(label, []).append(i)
        elif open_.get(label):
            pairs.append((open_[label].pop(), i))
        else:
            bump(label, "unopened")
    for label, starts in open_.items():
        for _ in starts:
            bump(label, "unclosed")

    bad: dict[int, str] = {}
    for a, (s1, e1) in enumerate(pairs):
        for s2, e2 in pairs[a + 1 :]:
            (ps, pe), (qs, qe) = sorted([(s1, e1), (s2, e2)])
            if ps < qs < pe < qe:
                bad[ps] = bad[qs] = "crossing"
            elif ps < qs and qe < pe:
                bad.setdefault(ps, "nested")
    spans: list[Span] = []
    for s, e in sorted(pairs):
        label = events[s][1]
        start, end = events[s][2], events[e][2]
        while trim and start < end and out[start].isspace():
            start += 1
        while trim and end > start and out[end - 1].isspace():
            end -= 1
        kind = bad.get(s) or ("empty" if start >= end else "well_formed")
        bump(label, kind)
        if kind == "well_formed":
            spans.append(Span(start, end, label))
    doc = Document(doc_id, out, tuple(sorted(spans))).validate(allow_empty=True)
    return Decoded(doc, dict(sorted(counts.items())), ended)
