"""A self-contained HTML page on which a reviewer judges high-risk real/synthetic note pairs.

The page shows each pair side by side with the shared n-grams marked in both notes, asks the
questions of the paper's user study (Libbi et al. 2021, section 3.5 and Appendix D) and saves the
answers as ``review-<reviewer>.json`` through a browser download. It needs no server and loads
nothing from the network (a Content-Security-Policy forbids it); answers are kept in the browser's
localStorage so a reload does not lose them. ``synthdeid review analyze`` reads the saved files.
"""

from __future__ import annotations

import hashlib
import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from synthdeid.errors import InputError
from synthdeid.report.review.assets import CSS, JS
from synthdeid.report.review.highlight import find_ranges, render_marked
from synthdeid.report.review.questions import LIKERT_KEYS, QUESTIONS, SCALE, TEXT_KEYS

REQUIRED = ("pair_id", "synthetic_text", "real_text")
CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
INTRO = (
    "Each example shows a synthetic note next to the most similar real note, its candidate source. "
    "There are no true 1:1 matches, so the same synthetic note may appear with different real notes. "
    "Passages the two notes share are highlighted. The question is whether people in the real data "
    "could be re-identified from the synthetic data; how realistic or grammatical the synthetic text "
    "is does not matter. There is no right or wrong answer. Your answers stay in this browser until "
    "you press \u201cSave answers\u201d, which downloads them as a file to send back."
)


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def script_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element: ``<``, ``>`` and ``&`` are \\u-escaped,
    so neither ``</script>`` nor ``<!--`` in a note can end or alter the element."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def numeric_fields(pair: Mapping[str, Any]) -> dict[str, float | int]:
    """The pair's numeric fields (top level and inside a ``scores`` mapping), in input order."""
    out: dict[str, float | int] = {}
    sources = [pair, scores if isinstance(scores := pair.get("scores"), Mapping) else {}]
    for source in sources:
        for key, value in source.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                out[str(key)] = value
    return out


def _check_pair(pair: Any, index: int, seen: set[str]) -> dict[str, Any]:
    where = f"pair {index + 1}"
    if not isinstance(pair, Mapping):
        raise InputError(f"{where} is a {type(pair).__name__}, not an object", fix="give one JSON object per pair")
    missing = [k for k in REQUIRED if k not in pair]
    if missing:
        raise InputError(
            f"{where} lacks {', '.join(missing)}",
            doc_id=str(pair.get("pair_id", "")) or None,
            fix="each pair needs pair_id, synthetic_text and real_text",
        )
    pid = str(pair["pair_id"])
    for key in ("synthetic_text", "real_text"):
        if not isinstance(pair[key], str):
            raise InputError(f"{key} is not a string", doc_id=pid)
    if pid in seen:
        raise InputError("duplicate pair_id", doc_id=pid, fix="give every pair a unique pair_id")
    seen.add(pid)
    grams = pair.get("shared_ngrams") or []
    if not isinstance(grams, list) or not all(
        isinstance(g, (list, tuple)) and all(isinstance(t, str) for t in g) for g in grams
    ):
        raise InputError(
            "shared_ngrams is not a list of token lists",
            doc_id=pid,
            fix='write it as [["token", "token", "token"], ...]',
        )
    return {**pair, "pair_id": pid, "shared_ngrams": [list(g) for g in grams]}


def _page_key(title: str, pairs: Sequence[Mapping[str, Any]]) -> str:
    """A short digest naming this page's localStorage slot (file:// pages share one origin)."""
    h = hashlib.sha256(title.encode())
    for p in pairs:
        for key in ("pair_id", "synthetic_text", "real_text"):
            h.update(b"\0" + str(p[key]).encode())
    return h.hexdigest()[:16]


def _doc_html(i: int, side: str, label: str, doc_id: object, body: str) -> str:
    heading = f"{label} <code>{_esc(doc_id)}</code>" if doc_id not in (None, "") else label
    return (
        f'<article class="doc {side}" aria-labelledby="pair-{i}-{side}-h">'
        f'<h3 id="pair-{i}-{side}-h">{heading}</h3>'
        f'<div class="text" data-testid="pair-{i}-{side}">{body}</div></article>'
    )


def _question_html(i: int) -> str:
    parts: list[str] = []
    for q in QUESTIONS:
        label = q.key.upper()
        if q.likert:
            options = "".join(
                f'<span class="opt"><input type="radio" id="p{i}-{q.key}-{v}" name="p{i}-{q.key}" '
                f'value="{v}" data-testid="pair-{i}-{q.key}-{v}">'
                f'<label for="p{i}-{q.key}-{v}">{_esc(anchor)}</label></span>'
                for v, anchor in SCALE
            )
            parts.append(
                f'<fieldset data-testid="pair-{i}-{q.key}"><legend>{label}: {_esc(q.text)}</legend>'
                f'<div class="scale">{options}</div>'
                f'<label class="note" for="p{i}-{q.key}_text">Notes on {label} (optional)</label>'
                f'<textarea id="p{i}-{q.key}_text" data-testid="pair-{i}-{q.key}-text" rows="1">'
                f"</textarea></fieldset>"
            )
        else:
            parts.append(
                f'<label class="free" for="p{i}-{q.key}">{label}: {_esc(q.text)}</label>'
                f'<textarea id="p{i}-{q.key}" data-testid="pair-{i}-{q.key}" rows="3"></textarea>'
            )
    parts.append(
        f'<label class="free" for="p{i}-comment">Other comments (optional)</label>'
        f'<textarea id="p{i}-comment" data-testid="pair-{i}-comment" rows="1"></textarea>'
    )
    return "".join(parts)


def _pair_html(i: int, n: int, pair: Mapping[str, Any], ranges: Mapping[str, list]) -> str:
    scores = "".join(
        f"<div><dt>{_esc(k)}</dt><dd>{_esc(f'{v:.3f}' if isinstance(v, float) else v)}</dd></div>"
        for k, v in numeric_fields(pair).items()
    )
    real = _doc_html(i, "real", "Real document", pair.get("real_id"), render_marked(pair["real_text"], ranges["real"]))
    synthetic = _doc_html(
        i,
        "synthetic",
        "Synthetic document",
        pair.get("synthetic_id"),
        render_marked(pair["synthetic_text"], ranges["synthetic"]),
    )
    return (
        f'<section class="pair" id="pair-{i}" data-testid="pair-{i}" data-pair-id="{_esc(pair["pair_id"])}" '
        f'aria-labelledby="pair-{i}-title">'
        f'<h2 id="pair-{i}-title">Pair {i + 1} of {n} <span class="pid">{_esc(pair["pair_id"])}</span> '
        f'<span class="status" id="pair-{i}-status" data-testid="pair-{i}-status"></span></h2>'
        f'<dl class="scores" aria-label="similarity scores">{scores}</dl>'
        f'<div class="docs">{real}{synthetic}</div>'
        f'<div class="questions">{_question_html(i)}</div></section>'
    )


def build_review_html(pairs: Sequence[Mapping[str, Any]], title: str) -> str:
    """The review page for ``pairs`` as one HTML string (see ``write_review_page``)."""
    seen: set[str] = set()
    checked = [_check_pair(p, i, seen) for i, p in enumerate(pairs)]
    if not checked:
        # a corpus with no high-risk pair still gets its page: saying so is the review's result
        return (
            "<!DOCTYPE html>\n"
            '<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f"<title>{_esc(title)}</title><style>{CSS}</style></head>\n<body>\n"
            f'<header class="toolbar"><h1 data-testid="page-title">{_esc(title)}</h1></header>\n<main>\n'
            '<p class="intro" data-testid="no-pairs">No pairs to review: no synthetic note passed the high-risk '
            "filters (overlap with a real note beyond structure tokens, notes under the length limit).</p>\n"
            "</main>\n</body></html>\n"
        )
    data_pairs = []
    sections = []
    for i, pair in enumerate(checked):
        ranges = {side: find_ranges(pair[f"{side}_text"], pair["shared_ngrams"]) for side in ("real", "synthetic")}
        data_pairs.append({**pair, "highlights": {k: [list(r) for r in v] for k, v in ranges.items()}})
        sections.append(_pair_html(i, len(checked), pair, ranges))
    data = {
        "title": title,
        "page_key": _page_key(title, checked),
        "likert_keys": list(LIKERT_KEYS),
        "text_keys": list(TEXT_KEYS),
        "questions": {q.key: q.text for q in QUESTIONS},
        "scale": {str(v): anchor for v, anchor in SCALE},
        "pairs": data_pairs,
    }
    nav = "".join(f'<li><a id="nav-{i}" href="#pair-{i}">{_esc(p["pair_id"])}</a></li>' for i, p in enumerate(checked))
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_esc(title)}</title><style>{CSS}</style></head>\n<body>\n"
        f'<header class="toolbar"><h1 data-testid="page-title">{_esc(title)}</h1>'
        '<label for="reviewer">Your name</label>'
        '<input type="text" id="reviewer" data-testid="reviewer-name" autocomplete="name" required>'
        '<button type="button" id="save" data-testid="save-answers">Save answers</button>'
        '<p id="progress" data-testid="progress" aria-live="polite"></p>'
        '<p id="message" class="message" data-testid="message" role="status" aria-live="polite"></p>'
        "</header>\n<main>\n"
        f'<p class="intro">{_esc(INTRO)}</p>'
        f'<nav aria-label="pairs"><ol>{nav}</ol></nav>\n' + "\n".join(sections) + "\n</main>\n"
        f'<script type="application/json" id="review-data">{script_json(data)}</script>\n'
        f"<script>{JS}</script>\n</body></html>\n"
    )


def write_review_page(pairs: list[dict], path: str | Path, title: str) -> Path:
    """Write the review page for ``pairs`` to ``path`` (one self-contained HTML file).

    Each pair needs ``pair_id``, ``synthetic_text`` and ``real_text``; ``synthetic_id``,
    ``real_id``, ``shared_ngrams`` (token lists, marked in both notes) and numeric scores
    (shown as they are) are optional. Raises ``InputError`` for a malformed or duplicate pair.
    """
    out = Path(path)
    text = build_review_html(pairs, title)
    if out.is_dir():
        raise InputError(
            "is a folder: the review page is one HTML file", path=out, fix=f"name the file, e.g. {out / 'review.html'}"
        )
    blocking = next((p for p in out.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise InputError(
            "is a file, not a folder: the review page cannot be written under it",
            path=blocking,
            fix="name an HTML file in a folder, e.g. review.html",
        )
    from synthdeid.corpus.formats.textfile import atomic_write

    with atomic_write(out) as f:  # it quotes real notes: mode 600 (folders 700), whatever the umask
        f.write(text)
    return out


def read_pairs(path: str | Path) -> list[dict]:
    """Pairs from a JSONL file (one object per line; blank lines are skipped)."""
    p = Path(path)
    if not p.is_file():
        raise InputError("file not found", path=p, fix="pass the JSONL file of high-risk pairs")
    try:
        lines = p.read_text(encoding="utf-8").split("\n")  # not splitlines(): U+2028 is no line break in JSON
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 ({e.reason} at byte {e.start})", path=p, fix="save the file as UTF-8") from None
    pairs: list[dict] = []
    seen: set[str] = set()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(
                f"invalid JSON: {e.msg} (column {e.colno})",
                path=p,
                line=n,
                fix="write one JSON object per line (pair_id, synthetic_text, real_text)",
            ) from None
        if not isinstance(obj, dict):
            raise InputError(
                f"expected a JSON object, got {type(obj).__name__}",
                path=p,
                line=n,
                fix="write one JSON object per line (pair_id, synthetic_text, real_text)",
            )
        try:
            _check_pair(obj, len(pairs), seen)
        except InputError as e:
            raise e.located(path=p, line=n) from None
        pairs.append(obj)
    if not pairs:
        raise InputError("no pairs in the file", path=p, fix="write one JSON object per line")
    return pairs
