"""A text builder that appends plain text and PHI pieces and records exact span offsets.

Notes are written through a tiny template language, parsed once and cached:

* ``{slot}`` or ``{slot:arg1:arg2}`` calls a slot (a function that writes into the builder,
  see ``context.py``) or inserts a plain string;
* ``[one|two|]`` picks one alternative at random (nestable; an empty alternative makes the
  part optional).

Plain text written at the start of a sentence is capitalised. At ``build`` time the pieces
can be lower-cased (sloppy messages) and plain pieces get seeded typos; offsets are computed
from the final pieces, so spans always cover exactly the PHI surface.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from functools import cache

from synthdeid.corpus.records import Document, Span
from synthdeid.sources.demo.typos import add_typos

SlotFn = Callable[["TextBuilder", tuple[str, ...]], object]
Slots = Mapping[str, SlotFn | str]

# Words ending in "." that do not end a sentence.
ABBREVIATIONS = frozenset(
    "mw. dhr. mevr. cl. pt. dr. ca. evt. z.n. i.v.m. ivm. b.v. bv. o.a. i.o.m. m.b.t. "
    "t.a.v. a.s. z.s.m. zsm. tel. nr. geb. gr. mgr. st. fam. jl. i.o. excl. incl. mbv. "
    "max. afd. ed. m.i.v. resp. eig. vnl. d.d. n.a.v. p.o. s.c.".split()
)

_BULLET_CHARS = set("-*•0123456789.) \t")


class TextBuilder:
    """Collects ``(text, label, fixed)`` pieces; ``label`` is None for plain text and
    ``fixed`` plain text (form labels) gets no typos."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.pieces: list[tuple[str, str | None, bool]] = []
        self._tail = ""
        self._after_phi = False
        self.signed = True  # False: the note gets no author signature

    # -- appending -------------------------------------------------------------------
    def text(self, s: str, fixed: bool = False) -> TextBuilder:
        if s[:1] in (".", ",", ";", ":") and s[:2] != ".." and self.pieces:
            if s[0] == "." and self._tail.endswith("."):
                s = s[1:]  # "mw." + "." -> "mw."
                self._after_phi = False
            self._strip_trailing_spaces()
        elif s[:1] == " " and (not self._tail or self._tail[-1] in " \n"):
            s = s.lstrip(" ")  # no double spaces from empty alternatives
        if s:
            self.pieces.append((s, None, fixed))
            self._tail = (self._tail + s)[-40:]
            if not s.isspace():
                self._after_phi = False
        return self

    def word(self, s: str) -> TextBuilder:
        """Plain text, capitalised when it starts a sentence."""
        if s[:1].islower() and self.at_sentence_start():
            s = s[0].upper() + s[1:]
        return self.text(s)

    def phi(self, s: str, label: str) -> TextBuilder:
        """Append a PHI surface; surrounding whitespace is written as plain text."""
        core = s.strip()
        if not core:
            raise ValueError(f"empty PHI value for {label}")
        lead = s[: len(s) - len(s.lstrip())]
        trail = s[len(s.rstrip()) :]
        self.text(lead)
        self.pieces.append((core, label, True))
        self._tail = (self._tail + core)[-40:]
        self._after_phi = True
        return self.text(trail)

    def nl(self, n: int = 1) -> TextBuilder:
        """End the current line (trailing spaces removed) and add ``n - 1`` blank lines."""
        self._strip_trailing_spaces()
        return self.text("\n" * n)

    def _strip_trailing_spaces(self) -> None:
        while self.pieces and self.pieces[-1][1] is None and self.pieces[-1][0].endswith(" "):
            t, lab, fx = self.pieces.pop()
            t = t.rstrip(" ")
            if t:
                self.pieces.append((t, lab, fx))
        self._tail = self._tail.rstrip(" ")

    def space(self) -> TextBuilder:
        if self._tail and not self._tail[-1].isspace():
            self.text(" ")
        return self

    # -- state -----------------------------------------------------------------------
    @property
    def empty(self) -> bool:
        return not self.pieces

    def at_sentence_start(self) -> bool:
        """True at the start of the text, a line, a list item or after a full stop."""
        tail = self._tail
        if self._after_phi and not tail.endswith("\n"):
            return False
        line = tail.rsplit("\n", 1)[-1]
        if ("\n" in tail or len(tail) < 40) and all(c in _BULLET_CHARS for c in line):
            return True
        word = tail.rstrip().rsplit(None, 1)[-1] if tail.strip() else ""
        if not word:
            return True
        if word[-1] in "!?":
            return True
        if word[-1] == ".":
            low = word.lower().lstrip("(")
            return low not in ABBREVIATIONS and low.count(".") < 2 and not low[:-1].isdigit()
        return False

    # -- templates -------------------------------------------------------------------
    def render(self, template: str, slots: Slots) -> TextBuilder:
        """Write ``template`` with its slots and alternatives resolved."""
        self._emit(_parse(template), slots)
        return self

    def _emit(self, seq: tuple, slots: Slots) -> None:
        for kind, val in seq:
            if kind == "t":
                if self.at_sentence_start() and val[:1].islower():
                    val = val[0].upper() + val[1:]
                self.text(val)
            elif kind == "a":
                self._emit(self.rng.choice(val), slots)
            else:
                name, args = val
                fn = slots.get(name)
                if fn is None:
                    raise KeyError(f"unknown slot {{{name}}} in a demo template")
                if isinstance(fn, str):
                    self._emit((("t", fn),), slots)
                else:
                    fn(self, args)

    # -- output ----------------------------------------------------------------------
    def build(self, doc_id: str, lower: bool = False, lower_phi: bool = False, typo_rate: float = 0.0) -> Document:
        """The finished document; lower-casing and typos are applied per piece."""
        parts: list[str] = []
        spans: list[Span] = []
        pos = 0
        for text, label, fixed in self.pieces:
            if label is None:
                if lower:
                    text = text.lower()
                if typo_rate and not fixed:
                    text = add_typos(text, self.rng, typo_rate)
            elif lower and lower_phi:
                text = text.lower()
            if label is not None:
                spans.append(Span(pos, pos + len(text), label))
            parts.append(text)
            pos += len(text)
        full = "".join(parts)
        stripped = full.rstrip()
        return Document.create(doc_id, stripped, spans)


@cache
def _parse(template: str) -> tuple:
    seq, i = _parse_seq(template, 0, top=True)
    if i != len(template):
        raise ValueError(f"unbalanced template: {template!r}")
    return seq


def _parse_seq(s: str, i: int, top: bool) -> tuple[tuple, int]:
    """Parse until ``|`` or ``]`` (inside alternatives) or the end."""
    out: list[tuple] = []
    buf: list[str] = []
    n = len(s)
    while i < n:
        c = s[i]
        if c == "{":
            j = s.index("}", i)
            if buf:
                out.append(("t", "".join(buf)))
                buf = []
            name, *args = s[i + 1 : j].split(":")
            out.append(("s", (name, tuple(args))))
            i = j + 1
        elif c == "[":
            if buf:
                out.append(("t", "".join(buf)))
                buf = []
            alts: list[tuple] = []
            i += 1
            while True:
                sub, i = _parse_seq(s, i, top=False)
                alts.append(sub)
                if i >= n:
                    raise ValueError(f"unclosed [ in template: {s!r}")
                if s[i] == "]":
                    i += 1
                    break
                i += 1  # skip "|"
            out.append(("a", tuple(alts)))
        elif c in "|]" and not top:
            break
        else:
            buf.append(c)
            i += 1
    if buf:
        out.append(("t", "".join(buf)))
    return tuple(out), i
