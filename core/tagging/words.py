"""Words, windows and BIO tags shared by the taggers (flair and transformers).

A document becomes lines of word offsets (the language pack's tokenizer, run line by line);
for training, words are also cut at span edges so every gold span is a run of whole words.
Lines or documents are cut into windows of at most N words (never truncated). Predicted tags
(BIO or BIOES) go back to character spans from the first word's start to the last word's end,
with invalid sequences repaired the same way everywhere: an ``I-``/``E-`` tag that does not
continue an open span of its label starts a new span; tags of labels unseen in training are
read as ``O``. Spans never overlap because words never do.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Collection, Iterable, Sequence

from synthdeid.api import Tokenize
from synthdeid.corpus.records import Document, Span
from synthdeid.errors import SynthdeidError

Word = tuple[int, int]


SPLITS = ("pack", "suffix", "punctuation")
_PIECE = re.compile(r"\w+|[^\w\s]")


def split_tokens(tokenize: Tokenize, split: str) -> Tokenize:
    """The pack's tokenizer, its tokens cut further for tagging: ``pack`` keeps them; ``suffix``
    cuts punctuation off a token's end, one character a token (``H.`` -> ``H`` ``.``, ``1º.`` ->
    ``1º`` ``.``), where an abbreviation-aware pack keeps it on; ``punctuation`` also cuts inside
    (word-character runs and single punctuation marks: ``06-1234`` -> ``06`` ``-`` ``1234``).
    A gold span that ends before a kept-on period (MEDDOCAN's ``Sexo: H.``) can only be tagged
    exactly when the period is its own token."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {', '.join(SPLITS)}, got {split!r}")
    if split == "pack":
        return tokenize

    def cut(line: str) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        for a, b in tokenize(line):
            if split == "punctuation":
                out.extend(m.span() for m in _PIECE.finditer(line, a, b))
                continue
            end = b
            while (
                end - a > 1
                and not line[end - 1].isalnum()
                and not line[end - 1].isspace()
                and any(c.isalnum() for c in line[a : end - 1])
            ):
                end -= 1
            out.append((a, end))
            out.extend((i, i + 1) for i in range(end, b))
        return out

    return cut


def _strip(text: str, a: int, b: int) -> Word | None:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return (a, b) if a < b else None


def line_words(text: str, tokenize: Tokenize, cuts: Sequence[int] = ()) -> list[list[Word]]:
    """Word offsets of each non-empty line of ``text``. Tokens are stripped of whitespace (empty
    ones dropped), overlapping ones dropped, and split at every offset in the sorted ``cuts``."""
    lines: list[list[Word]] = []
    pos = 0
    for line in text.split("\n"):
        words: list[Word] = []
        last_end = pos
        for ta, tb in sorted(tokenize(line)):
            if ta < 0 or tb > len(line):
                continue
            a, b = ta + pos, tb + pos
            if a < last_end:
                continue
            inner = cuts[bisect_right(cuts, a) : bisect_right(cuts, b - 1)]
            for x, y in zip((a, *inner), (*inner, b)):
                word = _strip(text, x, y)
                if word is not None:
                    words.append(word)
            last_end = b
        if words:
            lines.append(words)
        pos += len(line) + 1
    return lines


def span_cuts(doc: Document) -> list[int]:
    """Every span edge of ``doc``, sorted: where ``line_words`` must cut a token so that each gold
    span starts and ends on token edges."""
    return sorted({x for s in doc.spans for x in (s.start, s.end)})


def windows(words: Sequence[Word], size: int) -> list[list[Word]]:
    """Consecutive windows of at most ``size`` words covering every word."""
    if size < 1:
        raise ValueError("a window holds at least one word")
    return [list(words[i : i + size]) for i in range(0, len(words), size)]


def bio_tags(words: Sequence[Word], spans: Sequence[Span]) -> list[str]:
    """BIO tags of ``words`` (sorted, cut at span edges) for the sorted, non-overlapping ``spans``.
    The first word of a span in this word sequence gets ``B-``."""
    tags: list[str] = []
    starts = [s.start for s in spans]
    open_span: Span | None = None
    for a, b in words:
        i = bisect_right(starts, a) - 1
        span = spans[i] if i >= 0 and spans[i].start <= a and b <= spans[i].end else None
        if span is None:
            tags.append("O")
        else:
            tags.append(("I-" if span is open_span else "B-") + span.label)
        open_span = span
    return tags


def covered_spans(words: Iterable[Word], spans: Sequence[Span]) -> int:
    """How many of ``spans`` contain at least one of ``words`` (the others cannot be learnt)."""
    starts = [s.start for s in spans]
    hit: set[int] = set()
    for a, b in words:
        i = bisect_right(starts, a) - 1
        if i >= 0 and spans[i].start <= a and b <= spans[i].end:
            hit.add(i)
    return len(hit)


def decode(tags: Sequence[str], words: Sequence[Word], labels: Collection[str]) -> list[Span]:
    """Character spans of BIO/BIOES ``tags`` over ``words``; invalid sequences are repaired
    (a continuation tag without a matching open span starts a new span) and tags of labels
    outside ``labels`` count as ``O``."""
    spans: list[Span] = []
    current: list = []  # [start, end, label] of the open span

    def close() -> None:
        if current:
            spans.append(Span(current[0], current[1], current[2]))
            current.clear()

    for tag, (a, b) in zip(tags, words, strict=True):
        prefix, _, label = tag.partition("-")
        if prefix not in {"B", "I", "E", "S"} or label not in labels:
            close()
            continue
        if prefix in {"B", "S"} or not current or current[2] != label:
            close()
            current.extend((a, b, label))
        else:
            current[1] = b
        if prefix in {"E", "S"}:
            close()
    close()
    return spans


def restrict_labels(docs: Sequence[Document], labels: Collection[str]) -> tuple[list[Document], dict[str, int]]:
    """``docs`` without spans whose label is not in ``labels``, and how many were removed per
    label (a dev label unseen in training cannot be predicted and would crash flair)."""
    dropped: dict[str, int] = {}
    out = []
    for d in docs:
        keep = tuple(s for s in d.spans if s.label in labels)
        for s in d.spans:
            if s.label not in labels:
                dropped[s.label] = dropped.get(s.label, 0) + 1
        out.append(d if len(keep) == len(d.spans) else Document(d.id, d.text, keep))
    return out, dict(sorted(dropped.items()))


def training_labels(
    tagger: str, train: Sequence[Document], dev: Sequence[Document]
) -> tuple[list[str], list[Document], dict[str, int]]:
    """What every tagger's training starts from: the labels of ``train`` (sorted; an error naming
    ``tagger`` when there are none), ``dev`` restricted to them, and the dev spans removed per label."""
    labels = sorted({s.label for d in train for s in d.spans})
    if not labels:
        raise SynthdeidError(
            f"tagger {tagger!r}: the training documents hold no PHI spans; train on an annotated corpus"
        )
    kept, dropped = restrict_labels(dev, labels)
    return labels, kept, dropped


def entity_f1(gold: Sequence[Sequence[Span]], pred: Sequence[Sequence[Span]]) -> dict[str, float]:
    """Micro entity-level precision, recall and F1 (exact offsets and label)."""
    tp = sum(len(set(g) & set(p)) for g, p in zip(gold, pred, strict=True))
    n_pred = sum(len(set(p)) for p in pred)
    n_gold = sum(len(set(g)) for g in gold)
    precision = tp / n_pred if n_pred else 0.0
    recall = tp / n_gold if n_gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}
