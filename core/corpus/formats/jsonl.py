"""JSONL standoff, the canonical format: one ``{"id", "text", "spans"}`` object per line.

Reading is strict: a record holds exactly the keys ``id``, ``text`` and ``spans`` (each span
``start``, ``end``, ``label`` and optionally its ``text``, which must match the note), no key
twice, string ids, text and labels that are valid Unicode (no lone surrogate escapes), and
every document id once. Anything else is an ``InputError`` naming the file, line and fix: a key
synthdeid does not read would otherwise be dropped without a word.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from synthdeid.corpus.formats.doc_ids import duplicate_id
from synthdeid.corpus.formats.textfile import atomic_write, check_unicode, checked, decoded_lines, each_record
from synthdeid.corpus.records import Document, Span
from synthdeid.corpus.tags import TagSet
from synthdeid.errors import InputError

RECORD_KEYS = ("id", "text", "spans")
SPAN_KEYS = ("start", "end", "label", "text")


def read_jsonl(
    path: str | Path, tagset: TagSet | None = None, errors: list[InputError] | None = None
) -> Iterator[Document]:
    """Documents of a JSONL file, validated; errors name the file and line. With an ``errors``
    list, invalid records are collected there and skipped instead of raising."""
    seen: dict[str, int] = {}
    lines = ((line, path, n, tagset, seen, bad) for n, line, bad in decoded_lines(path) if line.strip())
    return each_record(lines, parse_record, errors)


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise InputError(
            f"key {twice[0]!r} appears twice in one object (JSON keeps only the last)", fix="write each key once"
        )
    return dict(pairs)


def parse_json_line(line: str) -> Any:
    """One JSON value, with our error (not a Python one) for malformed, duplicate-key, too deeply
    nested or absurdly long-number input."""
    try:
        return json.loads(line, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as e:
        raise InputError(
            f"malformed JSON ({e.msg} at column {e.colno})", fix="write one complete JSON object per line"
        ) from None
    except InputError:
        raise
    except RecursionError:
        raise InputError(
            "the JSON is nested too deeply to be a record", fix='write {"id": ..., "text": ..., "spans": [...]}'
        ) from None
    except ValueError as e:  # e.g. an integer of thousands of digits
        raise InputError(
            f"unreadable JSON number ({str(e)[:80]})",
            fix="offsets are character positions: small non-negative integers",
        ) from None


def _unknown_key(key: str, known: tuple[str, ...], what: str) -> InputError:
    close = difflib.get_close_matches(key, known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return InputError(
        f"unknown key {key!r} in {what}{hint}",
        fix="synthdeid reads only "
        + ", ".join(repr(k) for k in known)
        + ': rename it (PHI spans go under "spans") or remove it',
    )


def record_to_document(data: Any, tagset: TagSet | None = None) -> Document:
    """The document of one JSON record, checked strictly (see the module docstring)."""
    if not isinstance(data, dict):
        raise InputError("a record must be a JSON object", fix='write {"id": ..., "text": ..., "spans": [...]}')
    raw_id = data.get("id")
    doc_id = raw_id if isinstance(raw_id, str) else None
    for key in data:
        if key not in RECORD_KEYS:
            raise _unknown_key(key, RECORD_KEYS, "the record").located(doc_id=doc_id)
    if "id" not in data or "text" not in data:
        missing = [k for k in ("id", "text") if k not in data]
        raise InputError(
            f"missing key(s) {', '.join(missing)}",
            doc_id=doc_id,
            fix='every record needs "id" and "text" ("spans" may be empty)',
        )
    if not isinstance(raw_id, str) or not raw_id.strip():
        raise InputError(
            f'"id" must be a non-empty string, not {json.dumps(raw_id)[:40]}',
            fix='write the id as a JSON string, e.g. "id": "note-12"',
        )
    check_unicode(raw_id, '"id"', doc_id=None)
    if not isinstance(data["text"], str):
        raise InputError('"text" must be a string', doc_id=doc_id, fix="store the note as a JSON string")
    check_unicode(data["text"], '"text"', doc_id)
    raw = data.get("spans", [])
    if not isinstance(raw, list):
        raise InputError('"spans" must be a list', doc_id=doc_id, fix='write "spans": [{"start", "end", "label"}, ...]')
    spans = [_span(i, s, data["text"], raw_id) for i, s in enumerate(raw)]
    return Document.create(raw_id, data["text"], spans, tagset=tagset)


def _span(i: int, s: Any, text: str, doc_id: str) -> Span:
    if not isinstance(s, dict) or not {"start", "end", "label"} <= s.keys():
        raise InputError(
            f"span #{i} needs start, end and label",
            doc_id=doc_id,
            fix='write each span as {"start": 0, "end": 3, "label": "Name"}',
        )
    for key in s:
        if key not in SPAN_KEYS:
            raise _unknown_key(key, SPAN_KEYS, f"span #{i}").located(doc_id=doc_id)
    start, end = s["start"], s["end"]
    if type(start) is not int or type(end) is not int:
        raise InputError(
            f"span #{i} has non-integer offsets {json.dumps(start)[:20]}-{json.dumps(end)[:20]}",
            doc_id=doc_id,
            fix="offsets are character positions (integers)",
        )
    if not (0 <= start <= len(text) and 0 <= end <= len(text)):
        raise InputError(
            f"span #{i} offsets {str(start)[:20]}-{str(end)[:20]} are outside the text (length {len(text)})",
            doc_id=doc_id,
            fix="correct the offsets: they count characters of the text, end exclusive",
        )
    if not isinstance(s["label"], str) or not s["label"]:
        raise InputError(
            f"span #{i} label must be a non-empty string, not {json.dumps(s['label'])[:40]}",
            doc_id=doc_id,
            fix='write the label as a string, e.g. "label": "Name"',
        )
    check_unicode(s["label"], f"span #{i} label", doc_id)
    if "text" in s and s["text"] != text[start:end]:
        raise InputError(
            f"span #{i} says its text is {str(s['text'])[:40]!r} but the note has "
            f"{text[start:end][:40]!r} at {start}-{end}",
            doc_id=doc_id,
            fix='the offsets do not match the text: fix them, or drop the span\'s "text"',
        )
    return Span(start, end, s["label"])


def parse_record(
    line: str, path: str | Path, lineno: int, tagset: TagSet | None, seen: dict[str, int], bad: InputError | None
) -> Document:
    """One JSONL record (line ``lineno`` of ``path``) as a Document; ``bad`` is the line's reading
    error (``decoded_lines``), ``seen`` the ids read so far (their lines), for the duplicate check."""
    if bad is not None:  # a line that is no UTF-8 (or starts with a byte-order mark): named by its id if it has one
        raise bad.located(doc_id=_id_of(line))
    try:
        doc = record_to_document(parse_json_line(line), tagset=tagset)
    except InputError as e:
        raise e.located(path=path, line=lineno) from None
    duplicate = duplicate_id(doc.id, seen, path, lineno)
    if duplicate is not None:
        raise duplicate
    return doc


def _id_of(line: str) -> str | None:
    """The id of a record line, if it holds one that was read whole."""
    try:
        data = parse_json_line(line.lstrip("\ufeff"))
    except InputError:
        return None
    doc_id = data.get("id") if isinstance(data, dict) else None
    return doc_id if isinstance(doc_id, str) and "\ufffd" not in doc_id else None


def write_jsonl(docs: Iterable[Document], path: str | Path) -> int:
    """Write documents (byte-stable: sorted spans, fixed key order); returns the count."""
    n = 0
    docs = checked(docs, lambda doc, i: None)  # JSON holds any text and label a file can hold
    with atomic_write(path) as f:
        for doc in docs:
            f.write(json.dumps(doc.to_dict(), ensure_ascii=False) + "\n")
            n += 1
    return n
