"""Variants of the PHI strings found in a note, replaced like the string they vary.

``every_occurrence`` finds a found string again only as it was written. A note also writes it in
other cases (``aafje``, ``JAN.JANSEN@GMAIL.COM``), by a part of a name (``Jansen`` or ``Aafje``
alone after ``Aafje Jansen``) and with a genitive ``-s`` (``Jansens``). ``find_variants`` marks
those, uncovered and as whole words, with the label of the string they vary and how to derive
their replacement from its surrogate: the surrogate itself, its first word (a given name), the
rest (a family name), in the variant's case (lower or UPPER), plus the ``s``. ``surrogate_with_variants``
draws the surrogates of the found strings (``keyed_pseudonymize``), then writes each variant's.

Only the parts of a ``Name`` span of two or more words are used, each of at least
``MIN_PART`` letters (``de``, ``van``: particles, not names, and ``Jo`` too short to be safe).
The pass is linear in the note's length (one dictionary lookup per word, as ``every_occurrence``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from synthdeid.api import LanguagePack
from synthdeid.corpus.records import Document, Span
from synthdeid.phi.keyed_surrogates import keyed_pseudonymize
from synthdeid.phi.pseudonymize import substitute
from synthdeid.phi.surrogate_key import SurrogateKey

MIN_PART = 3
NAME = "Name"
PARTICLES = frozenset("van von de der den het ten ter te la le du di da del dos das in op 't".split())
"""Words of a name that are no name by themselves (Dutch, German, French, Spanish, Portuguese)."""
TITLES = frozenset(
    "meneer mevrouw mejuffrouw juffrouw heer dhr mw mevr mr mrs ms miss sir madam dokter doctor dr drs ir ing prof "
    "zuster broeder pastoor herr frau fräulein doktor señor señora señorita don doña sr sra srta fru herr fröken "
    "professor".split()
)
"""Titles before a name: a pack keeps them in the surrogate (``Meneer Vos`` -> ``Meneer Smit``), so
they are no part of the name. A word written with a full stop (``Dhr.``) is taken for one too."""
_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class Variant:
    """How a variant's replacement comes from the surrogate of ``source`` (a found string)."""

    source: str
    part: str = "all"
    """``all``, ``first`` (its first word: a given name) or ``last`` (the words after it)."""
    case: str = "as is"
    """``as is``, ``lower`` or ``upper``: the variant's own case."""
    suffix: str = ""
    """``s`` of a genitive."""


def find_variants(doc: Document) -> tuple[Document, dict[tuple[int, int], Variant]]:
    """``doc`` with a span on every uncovered variant of a found string, and each one's ``Variant``
    by its (start, end)."""
    if not doc.spans:
        return doc, {}
    text = doc.text
    forms: dict[tuple[str, ...], tuple[str, str, str]] = {}  # casefolded words -> (source, label, part)
    for span in doc.spans:
        surface = text[span.start : span.end]
        words = tuple(w.casefold() for w in _TOKEN.findall(surface))
        if words and surface.strip():
            forms.setdefault(words, (surface, span.label, "all"))
    for span in doc.spans:  # parts come after whole strings: a found "Jansen" is its own source
        surface = text[span.start : span.end]
        for part, word in name_parts(surface, span.label):
            forms.setdefault((word.casefold(),), (surface, span.label, part))
        family = family_name(surface, span.label)
        if family:  # "de Vries" alone is the family name whole, never "de" + a surrogate
            forms.setdefault(tuple(w.casefold() for w in _TOKEN.findall(family)), (surface, span.label, "last"))
    lengths: dict[str, list[int]] = {}
    for words in forms:
        lengths.setdefault(words[0], []).append(len(words))
    by_first = {w: sorted(set(ns), reverse=True) for w, ns in lengths.items()}
    tokens = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text)]
    taken = sorted(doc.spans)
    added: list[Span] = []
    variants: dict[tuple[int, int], Variant] = {}
    i = 0
    last_end = 0
    for t, (start, _, word) in enumerate(tokens):
        if start < last_end:
            continue
        while i < len(taken) and taken[i].end <= start:
            i += 1
        if i < len(taken) and taken[i].start <= start:
            continue  # inside a span
        found = _match(tokens, t, word, forms, by_first)
        if found is None:
            continue
        end, (source, label, part), suffix = found
        if i < len(taken) and taken[i].start < end:
            continue
        variants[(start, end)] = Variant(source, part, _case(text[start:end]), suffix)
        added.append(Span(start, end, label))
        last_end = end
    if not added:
        return doc, {}
    return Document.create(doc.id, text, [*doc.spans, *added]), variants


def family_name(surface: str, label: str) -> str | None:
    """The words after the given name of a found name of three or more words (``de Vries`` of
    ``Jan de Vries``), when its last word counts as a part; else None."""
    parts = dict(name_parts(surface, label))
    if "last" not in parts:
        return None
    names = [
        m
        for m in re.finditer(r"\w+", surface)
        if m.group().casefold() not in TITLES and surface[m.end() : m.end() + 1] != "."
    ]
    if len(names) < 3:
        return None
    return surface[names[1].start() :]


def name_parts(surface: str, label: str) -> list[tuple[str, str]]:
    """(``first``/``last``, word) of a found name of two or more words: the words that stand for it
    alone (at least ``MIN_PART`` letters, no particle)."""
    if label != NAME:
        return []
    tokens = _TOKEN.findall(surface)
    words = [
        w
        for i, w in enumerate(tokens)
        if w.isalpha() and w.casefold() not in TITLES and not (i + 1 < len(tokens) and tokens[i + 1] == ".")
    ]
    if len(words) < 2:
        return []
    return [
        (part, word)
        for part, word in (("first", words[0]), ("last", words[-1]))
        if len(word) >= MIN_PART and word.casefold() not in PARTICLES
    ]


def _match(
    tokens: list[tuple[int, int, str]],
    t: int,
    word: str,
    forms: dict[tuple[str, ...], tuple[str, str, str]],
    by_first: dict[str, list[int]],
) -> tuple[int, tuple[str, str, str], str] | None:
    """The longest form starting at token ``t`` (case-insensitively), or a genitive of a one-word one."""
    folded = word.casefold()
    for n in by_first.get(folded, ()):
        if t + n <= len(tokens):
            words = tuple(w.casefold() for _, _, w in tokens[t : t + n])
            if words in forms:
                return tokens[t + n - 1][1], forms[words], ""
    if folded.endswith("s") and len(folded) > MIN_PART:
        source = forms.get((folded[:-1],))
        if source is not None and word[:-1].isalpha():
            return tokens[t][1], source, word[-1]
    return None


def _case(variant: str) -> str:
    letters = [c for c in variant if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return "upper"
    if letters and all(c.islower() for c in letters):
        return "lower"
    return "as is"


def replacement(variant: Variant, surrogate: str) -> str:
    """A variant's text from the surrogate of its source."""
    words = surrogate.split(" ")
    if variant.part == "first" and len(words) > 1:
        text = words[0]
    elif variant.part == "last" and len(words) > 1:
        text = " ".join(words[1:])
    else:
        text = surrogate
    text += variant.suffix
    return text.lower() if variant.case == "lower" else text.upper() if variant.case == "upper" else text


def surrogate_with_variants(
    doc: Document, variants: dict[tuple[int, int], Variant], pack: LanguagePack, key: SurrogateKey
) -> Document:
    """``doc`` with keyed surrogates for its spans, each variant's derived from its source's."""
    also = {doc.text[a:b] for a, b in variants}  # no surrogate may be a variant or a part of a name either
    also.update(word for s in doc.spans for _, word in name_parts(doc.surface(s), s.label))
    also.update(f for s in doc.spans if (f := family_name(doc.surface(s), s.label)))
    own = Document.create(doc.id, doc.text, [s for s in doc.spans if (s.start, s.end) not in variants])
    drawn = keyed_pseudonymize(own, pack, key, also)
    by_span = {(s.start, s.end): drawn.surface(o) for s, o in zip(own.spans, drawn.spans)}
    of_source: dict[str, str] = {}
    for s, o in zip(own.spans, drawn.spans):
        of_source.setdefault(doc.surface(s), drawn.surface(o))

    def replace(span: Span, original: str) -> str:
        where = (span.start, span.end)
        if where in by_span:
            return by_span[where]
        variant = variants[where]
        return replacement(variant, of_source[variant.source])

    return substitute(doc, replace)
