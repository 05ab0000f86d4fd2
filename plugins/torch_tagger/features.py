"""Words of a note as index tensors: word, word-shape and character ids, vocabularies built from
the training notes and saved beside the model (``vocab.json``)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from synthdeid import Document
from synthdeid.toolkit import Tokenize, Word, line_words, span_cuts, windows

PAD, UNK = "<pad>", "<unk>"
_DIGITS = re.compile(r"\d")


def normal_word(word: str) -> str:
    """The word's embedding key: lower-cased, every digit a 0."""
    return _DIGITS.sub("0", word.lower())


def shape(word: str, line_start: bool) -> str:
    """Character classes (``X`` upper, ``x`` lower, ``d`` digit, others as themselves) with runs
    collapsed, at most 8 long, ``^`` in front for the first word of a line: ``Jansen`` -> ``Xx``,
    ``06-12345678`` -> ``d-d``, ``J.`` -> ``X.``."""
    out: list[str] = []
    for ch in word:
        c = "X" if ch.isupper() else "x" if ch.islower() else "d" if ch.isdigit() else ch
        if not out or out[-1] != c:
            out.append(c)
    s = "".join(out)
    if len(s) > 8:
        s = s[:4] + "~" + s[-3:]
    return ("^" if line_start else "") + s


@dataclass
class Window:
    """One sequence the tagger reads: the document it belongs to, its words' offsets, and for
    each word whether it starts a line."""

    doc: int
    words: list[Word]
    line_starts: list[bool]


def doc_windows(
    docs: Sequence[Document], tokenize: Tokenize, context: str, max_tokens: int, labelled: bool
) -> list[Window]:
    """The windows of every document, in document order (``labelled``: words cut at span edges)."""
    out: list[Window] = []
    for i, d in enumerate(docs):
        lines = line_words(d.text, tokenize, span_cuts(d) if labelled else ())
        units = [[w for line in lines for w in line]] if context == "note" else lines
        starts = {line[0] for line in lines}
        for unit in units:
            for win in windows(unit, max_tokens) if unit else []:
                out.append(Window(i, win, [w in starts for w in win]))
    return out


def _index(items: Iterable[str]) -> dict[str, int]:
    table = {PAD: 0, UNK: 1}
    for item in items:
        table.setdefault(item, len(table))
    return table


@dataclass
class Vocab:
    """Index tables of words, shapes, characters and tags; ``singletons`` are the words seen once
    in training (candidates for unknown-word replacement)."""

    words: dict[str, int]
    shapes: dict[str, int]
    chars: dict[str, int]
    tags: list[str]
    max_word_chars: int
    singletons: set[int] = field(default_factory=set)

    @classmethod
    def build(cls, texts: Iterable[tuple[str, bool]], labels: Sequence[str], max_word_chars: int) -> Vocab:
        """From the training words (text, starts a line) and the span labels."""
        words: Counter[str] = Counter()
        shapes: Counter[str] = Counter()
        chars: Counter[str] = Counter()
        for text, start in texts:
            words[normal_word(text)] += 1
            shapes[shape(text, start)] += 1
            chars.update(text[:max_word_chars])
        ordered = lambda c: sorted(c, key=lambda k: (-c[k], k))  # noqa: E731  (frequency, then text)
        tags = ["O"] + [f"{p}-{lab}" for lab in labels for p in ("B", "I")]
        vocab = cls(_index(ordered(words)), _index(ordered(shapes)), _index(ordered(chars)), tags, max_word_chars)
        vocab.singletons = {vocab.words[w] for w, n in words.items() if n == 1}
        return vocab

    def to_json(self) -> dict[str, Any]:
        return {
            "words": list(self.words),
            "shapes": list(self.shapes),
            "chars": list(self.chars),
            "tags": self.tags,
            "max_word_chars": self.max_word_chars,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Vocab:
        index = lambda items: {x: i for i, x in enumerate(items)}  # noqa: E731
        return cls(
            index(data["words"]),
            index(data["shapes"]),
            index(data["chars"]),
            list(data["tags"]),
            int(data["max_word_chars"]),
        )

    def encode(self, text: str, window: Window) -> tuple[list[int], list[int], list[list[int]]]:
        """Word, shape and character ids of a window of ``text``."""
        w_ids, s_ids, c_ids = [], [], []
        for (a, b), start in zip(window.words, window.line_starts):
            word = text[a:b]
            w_ids.append(self.words.get(normal_word(word), 1))
            s_ids.append(self.shapes.get(shape(word, start), 1))
            c_ids.append([self.chars.get(c, 1) for c in word[: self.max_word_chars]])
        return w_ids, s_ids, c_ids
