"""Type-aware surrogates for institution names: hospitals, care institutes and organisations.

An institution's name says what kind of place it is (``Apotheek``, ``Gemeente``, ``Verpleeghuis``,
``Hospital Universitario``, ``Ayuntamiento de``) and then which one (``Vijverhof``, ``Vuren``, ``La
Paz``). A surrogate keeps the kind and replaces only the name: the original's *type words* stay
where they are, and each run of other words is drawn anew in the form it has:

- after a place word (``de``, ``del``, ``van``) or starting with one: a town (``Complejo
  Hospitalario de Jaén`` -> ``... de Huelva``);
- a saint's name (``Virgen del Rocío``, ``Sint Jansdal``): another saint;
- a surname of the pack's lists (``Timmerbedrijf Jansen``): another surname, the only case in
  which an organisation's surrogate holds one;
- an acronym (``UMCG``, ``HULP``): an acronym of the same kind from the pack's list;
- anything else: a name of the kind from the pack's ``part_templates`` (``De Linde``, a town).

A name without a type word (``Efteling``, ``Bosrand``, ``Dijklander``) is drawn whole from the
kind's ``name_templates``, again without a type word, so a brand stays a brand. Nothing is ever made
of random letters, and no draw equals the words it replaces. The type words are the pack's own
(``InstitutionWords.types``) plus the study's head words of the label (``synthdeid.phi.head_words``),
which a caller passes as ``keep``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field

from synthdeid.errors import SurrogateError

from .shapes import capitalize_like, is_all_caps, match_case

_WORD = re.compile(r"\S+")
_ACRONYM = re.compile(r"^[A-ZÀ-Ý]{2,7}(?:[ -][A-ZÀ-Ý]{2,7})?$")
KINDS = ("hospital", "care", "organization")
FUNCTION_WORDS = frozenset(
    {"de", "del", "la", "las", "los", "el", "y", "e", "het", "der", "den", "en", "of", "the", "and"}
)
"""Words kept where they stand between type words and never taken for a name or a type."""
MAX_DRAWS = 20


def _is_acronym(run: str, original: str) -> bool:
    """``run`` is an acronym (``UMCG``, ``ABN AMRO``), not a name written in capitals (``LA PAZ`` of
    ``HOSPITAL LA PAZ``: one word of an all-caps name may be, several are not)."""
    return bool(_ACRONYM.match(run)) and (not is_all_caps(original) or len(run.split()) == len(original.split()) == 1)


def _fold(word: str) -> str:
    return word.casefold().strip(".,;:()\"'")


@dataclass(frozen=True)
class InstitutionWords:
    """A language's words for type-aware institution surrogates, per kind (``KINDS``)."""

    types: Mapping[str, Collection[str]] = field(default_factory=dict)
    """Words that say what kind of institution a name is; matched case-insensitively, word by
    word (``Medisch Centrum``: both words). A kind without any keeps its templates (not type-aware)."""
    type_suffixes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Per kind, endings that make a word a type word (``bedrijf``: ``Fietsenmakerij``'s kin
    ``Loodgietersbedrijf``; ``makerij``, ``winkel``)."""
    name_templates: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Whole names without a type word, for names that have none (``PlaceSurrogates.fill`` slots)."""
    part_templates: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Names after (or before) kept type words; default: ``name_templates``."""
    type_parts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Templates of the name after a given type word (``gemeente``: a town), case-insensitive."""
    acronyms: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Acronyms an acronym of the kind becomes."""
    place_words: Collection[str] = ()
    """Words before a town inside a name (``de``, ``del``, ``van``), kept, the town drawn."""
    saint_words: Collection[str] = ()
    """Words that start a saint's name (``San``, ``Santa``, ``Virgen``, ``Sint``, ``St.``)."""
    saints: tuple[str, ...] = ()
    """Saints' names such a run becomes (none: it is drawn as any other name)."""

    def type_aware(self, kind: str) -> bool:
        return bool(self.types.get(kind))


class InstitutionDraws:
    """The type-aware draws of one document (``PlaceSurrogates.institution`` calls them)."""

    def __init__(
        self,
        words: InstitutionWords,
        choice: Callable[[tuple[str, ...]], str],
        fill: Callable[[str], str],
        city: Callable[[], str],
        surnames: Collection[str],
    ) -> None:
        self.words = words
        self.choice = choice
        self.fill = fill
        self.city = city
        self.surnames = {_fold(s) for s in surnames}
        self.surname_list = tuple(surnames)
        self._types = {kind: {_fold(w) for t in words.types.get(kind, ()) for w in t.split()} for kind in KINDS}
        self._places = {_fold(w) for w in words.place_words}
        self._saints = {_fold(w) for w in words.saint_words}
        self._type_parts = {_fold(w): t for w, t in words.type_parts.items()}

    def name(self, kind: str, original: str, keep: Collection[str] = ()) -> str:
        """A new name of the kind of ``original`` (see the module docstring)."""
        # the study's head words may hold a saint's or a place's first word ("virgen", "del"): not types
        types = self._types[kind] | ({_fold(w) for w in keep} - self._places - self._saints - FUNCTION_WORDS)
        found = list(_WORD.finditer(original))
        suffixes = tuple(x.casefold() for x in self.words.type_suffixes.get(kind, ()))
        typed = [_fold(m.group()) in types or (bool(suffixes) and _fold(m.group()).endswith(suffixes)) for m in found]
        if not any(typed):
            if _is_acronym(original, original) and self.words.acronyms.get(kind):
                return self._acronym(kind, original)
            return self._other(original, lambda: self.fill(self.choice(self.words.name_templates[kind])), case=True)
        generic = all(t or _fold(m.group()) in FUNCTION_WORDS for t, m in zip(typed, found))
        if generic:  # type words only ("Edificio Juzgados", "het Gasthuis"): they stay, a name is added
            return original + " " + self._part(kind, original, _fold(found[-1].group()), original)
        out, pos, i = [], 0, 0
        while i < len(found):
            if typed[i]:
                i += 1
                continue
            j = i
            while j < len(found) and not typed[j]:
                j += 1
            start, end = found[i].start(), found[j - 1].end()
            before = _fold(found[i - 1].group()) if i else ""
            out += [original[pos:start], self._part(kind, original[start:end], before, original)]
            pos, i = end, j
        out.append(original[pos:])
        return "".join(out)

    def _part(self, kind: str, run: str, before: str, original: str) -> str:
        """A new run of name words (``run``, after the word ``before``, in ``original``)."""
        first, *rest = run.split()
        if all(_fold(w) in self._places | FUNCTION_WORDS for w in run.split()):  # "de" between type words
            return run
        if _fold(first) in self._places and rest:  # "de Jaén": the place word stays
            return first + run[len(first) : len(run) - len(" ".join(rest))] + self._town(" ".join(rest))
        if before in self._places:
            return self._town(run)
        if _fold(first) in self._saints and self.words.saints:
            return self._other(run, lambda: self.choice(self.words.saints), case=True)
        if all(_fold(w) in self.surnames for w in run.split()):  # "Jansen", "Jiménez Díaz": as many surnames
            count = len(run.split())
            return self._other(run, lambda: " ".join(self.choice(self.surname_list) for _ in range(count)), case=True)
        if _is_acronym(run, original) and self.words.acronyms.get(kind):
            return self._acronym(kind, run)
        if not before:  # a name before the type words ("Mediq Apotheek"): a whole name, as a brand
            templates = self.words.name_templates[kind]
        else:
            templates = (
                self._type_parts.get(before) or self.words.part_templates.get(kind) or self.words.name_templates[kind]
            )
        return self._other(run, lambda: self.fill(self.choice(templates)), case=True)

    def _town(self, run: str) -> str:
        return self._other(run, self.city, case=True)

    def _acronym(self, kind: str, run: str) -> str:
        """An acronym of the kind's list, of ``run``'s length where the list has one."""
        listed = self.words.acronyms[kind]
        same = tuple(a for a in listed if len(a) == len(run) and a.casefold() != run.casefold())
        return self._other(run, lambda: self.choice(same or listed))

    @staticmethod
    def _other(run: str, draw: Callable[[], str], case: bool = False) -> str:
        """A draw that differs from ``run`` (case-insensitive) and shares none of its words."""
        words = {_fold(w) for w in run.split()} - FUNCTION_WORDS - {"van", "san", "santa", "sint", "st"}
        new = draw()
        for _ in range(MAX_DRAWS):
            if new.casefold() != run.casefold() and not words & {_fold(w) for w in new.split()}:
                break
            new = draw()
        else:
            raise SurrogateError(f"no institution name different from {run!r} after {MAX_DRAWS} draws")
        if case and new.split()[0] not in FUNCTION_WORDS | {"van", "te", "in"}:  # "de Huelva" stays lower-case
            return capitalize_like(run, new)
        return match_case(run, new)
