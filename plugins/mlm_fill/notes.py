"""Word-level view of a note for masking and refilling (no model code here).

A note's *pieces* are its whitespace-separated words, cut again at PHI span edges, so that every
piece lies wholly inside one PHI span or wholly outside all of them ("Jansen," with the span
"Jansen" gives the pieces "Jansen" and ","). Generation masks every PHI piece plus a share of the
other pieces, refills them, and rebuilds the text: unmasked pieces and all whitespace between pieces
are copied verbatim, and each PHI span is re-anchored on its (refilled) pieces, so it stays annotated.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from synthdeid import Document, InputError, Span
from synthdeid.toolkit import decode_inline as decode

_WORD = re.compile(r"\S+")
# the reserved inline markers (synthdeid.corpus.inline): a refill must never spell one
_RESERVED = re.compile(r"<PAR>|<EOD>|<[A-Za-z][A-Za-z0-9_]*?(?:START|END)>")


@dataclass(frozen=True)
class Piece:
    start: int
    end: int
    span: int
    """Index of the PHI span holding the piece in ``doc.spans``, or -1."""


def split_pieces(doc: Document) -> list[Piece]:
    """The note's pieces in text order (see the module docstring)."""
    cuts = sorted({p for s in doc.spans for p in (s.start, s.end)})
    out: list[Piece] = []
    for m in _WORD.finditer(doc.text):
        bounds = [m.start(), *(c for c in cuts if m.start() < c < m.end()), m.end()]
        for a, b in pairwise(bounds):
            out.append(Piece(a, b, _span_at(doc.spans, a)))
    return out


def _span_at(spans: Sequence[Span], pos: int) -> int:
    for i, s in enumerate(spans):
        if s.start <= pos < s.end:
            return i
    return -1


def plan_masks(pieces: Sequence[Piece], ratio: float, rnd: random.Random) -> list[bool]:
    """Which pieces to mask: every PHI piece, and ``round(ratio * n)`` of the ``n`` other pieces
    drawn without replacement (so the masked share of non-PHI words is ``ratio`` up to rounding)."""
    other = [i for i, p in enumerate(pieces) if p.span < 0]
    chosen = set(rnd.sample(other, round(ratio * len(other))))
    return [p.span >= 0 or i in chosen for i, p in enumerate(pieces)]


def clean_fill(surface: str) -> str:
    """A refill as one line: whitespace runs become single spaces, edges stripped."""
    return " ".join(surface.split())


def rebuild(doc: Document, pieces: Sequence[Piece], fills: dict[int, str], new_id: str | None = None) -> Document:
    """The note with piece ``i`` replaced by ``fills[i]``; PHI spans follow their pieces.

    A PHI span whose pieces are all refilled keeps its label and becomes the refilled words (with
    the original whitespace between them). Refills of a PHI piece must be non-empty."""
    out: list[str] = []
    new_pos: list[tuple[int, int]] = []
    length = 0
    pos = 0
    for i, p in enumerate(pieces):
        gap = doc.text[pos : p.start]
        out.append(gap)
        length += len(gap)
        word = fills.get(i, doc.text[p.start : p.end])
        if p.span >= 0 and not word:
            raise ValueError(f"empty refill for PHI piece {i} of document {doc.id!r}")
        out.append(word)
        new_pos.append((length, length + len(word)))
        length += len(word)
        pos = p.end
    out.append(doc.text[pos:])
    text = "".join(out)
    # a refill next to an unchanged '<' or '>' could spell a reserved marker: break it with a
    # look-alike character (same length, so no offset moves)
    text = _RESERVED.sub(lambda m: "\u2039" + m.group()[1:], text)
    shift = len(text) - len(doc.text)
    spans = []
    for si, s in enumerate(doc.spans):
        mine = [i for i, p in enumerate(pieces) if p.span == si]
        if not mine:  # a span of whitespace only: nothing to refill, keep it in place
            spans.append(Span(_map(s.start, pieces, new_pos, shift), _map(s.end, pieces, new_pos, shift), s.label))
            continue
        first, last = mine[0], mine[-1]
        start = new_pos[first][0] - (pieces[first].start - s.start)
        end = new_pos[last][1] + (s.end - pieces[last].end)
        spans.append(Span(start, end, s.label))
    return Document.create(new_id or doc.id, text, spans, allow_empty=True)


def _map(old: int, pieces: Sequence[Piece], new_pos: Sequence[tuple[int, int]], shift: int) -> int:
    """New offset of a position lying in whitespace between pieces."""
    for p, (a, _) in zip(pieces, new_pos):
        if p.start >= old:
            return a - (p.start - old)
    return old + shift


def source_notes(
    lines: Sequence[str], prefix: str, ids: Sequence[str] | None = None
) -> tuple[list[Document], dict[str, int]]:
    """Decode inline-tag training lines into Documents.

    Notes without any word are skipped and counted (``skipped_empty``); malformed tags are removed by
    the decoder (their words kept) and counted (``malformed_tags``)."""
    if ids is not None and len(ids) != len(lines):
        raise InputError(
            f"{len(ids)} note ids for {len(lines)} {prefix} lines", fix="give TrainingData.extra one id per line"
        )
    docs: list[Document] = []
    stats = {"notes": 0, "skipped_empty": 0, "malformed_tags": 0, "phi_spans": 0}
    for n, line in enumerate(lines):
        doc_id = ids[n] if ids is not None else f"{prefix}-{n:06d}"
        decoded = decode(line, doc_id)
        stats["malformed_tags"] += sum(
            decoded.count(k) for k in ("unclosed", "unopened", "nested", "crossing", "empty", "unknown")
        )
        if not decoded.document.text.strip():
            stats["skipped_empty"] += 1
            continue
        docs.append(decoded.document)
        stats["notes"] += 1
        stats["phi_spans"] += len(decoded.document.spans)
    return docs, stats
