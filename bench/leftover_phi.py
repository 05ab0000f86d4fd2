"""Gold PHI strings that stay verbatim in ``deidentify --mode surrogate``'s output, with and without
the every-occurrence pass (``synthdeid.phi.every_occurrence``) and the variants pass
(``synthdeid.phi.name_variants``: case variants, parts of names, genitive -s), on the same notes
and key.

A gold string "stays" when it occurs as whole words in its note's output ("in any case": also in
another case, ``aafje`` for ``Aafje``). "Beside its surrogate": it stays although the tagger found
it elsewhere in the note (the output then links the original to its surrogate); the others the
tagger missed everywhere in the note.

    python bench/leftover_phi.py [--model data/taggers/real] [--notes data/prepared/test.jsonl] [--language nl]
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from synthdeid.corpus.formats import read_jsonl
from synthdeid.corpus.records import Document
from synthdeid.phi import deidentify as deid_module
from synthdeid.phi.deidentify import deidentify, load_annotator
from synthdeid.phi.keyed_surrogates import keyed_pseudonymize
from synthdeid.phi.pseudonymize import pseudonymize
from synthdeid.phi.surrogate_key import SurrogateKey
from synthdeid.plugin_system.manager import registry
from synthdeid.spec.build import annotator as create


def stays(surface: str, text: str, any_case: bool = False) -> bool:
    flags = re.IGNORECASE if any_case else 0
    return re.search(rf"(?<!\w){re.escape(surface)}(?!\w)", text, flags) is not None


def leftovers(gold: list[Document], found: list[Document], out: list[Document]) -> tuple[int, int, int, int]:
    """(gold PHI strings, those that stay, those that stay beside their surrogate, those that stay in any case)."""
    total = stay = beside = any_case = 0
    for g, f, o in zip(gold, found, out):
        strings = {g.surface(s) for s in g.spans if g.surface(s).strip()}
        seen = {f.surface(s) for s in f.spans}
        total += len(strings)
        left = {s for s in strings if stays(s, o.text)}
        stay += len(left)
        beside += len(left & seen)
        any_case += sum(1 for s in strings if stays(s, o.text, any_case=True))
    return total, stay, beside, any_case


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="data/taggers/real")
    ap.add_argument("--notes", default="data/prepared/test.jsonl")
    ap.add_argument("--language", default="nl")
    a = ap.parse_args()
    gold = list(read_jsonl(Path(a.notes)))
    annotator = load_annotator(a.model, None, a.language, create=create)
    pack = registry("language").create(a.language)
    key = SurrogateKey.fresh()
    found = list(deidentify(gold, annotator, "annotate"))
    missed = sum(
        1 for g, f in zip(gold, found) for s in g.spans if not any(s.start < t.end and t.start < s.end for t in f.spans)
    )
    print(f"{len(gold)} notes of {a.notes}, tagger {a.model}; gold spans no found span touches: {missed}")
    print(
        "| surrogate mode | gold PHI strings | stay verbatim (whole words) | of them found elsewhere in the note "
        "| stay in any case |"
    )
    print("|---|---:|---:|---:|---:|")
    keep = deid_module.add_every_occurrence, deid_module.find_variants, deid_module.surrogate_with_variants
    no_variants = lambda d: (d, {})  # noqa: E731
    rows = {
        "before: the tagger's spans, one draw (seed 0)": (
            lambda d: (d, 0),
            no_variants,
            lambda d, v, p, k: pseudonymize(d, p, 0),
        ),
        "+ every occurrence of a string found": (
            keep[0],
            no_variants,
            lambda d, v, p, k: pseudonymize(d, p, k.seed(d.id)),
        ),
        "+ no surrogate is another original": (keep[0], no_variants, lambda d, v, p, k: keyed_pseudonymize(d, p, k)),
        "+ case variants, name parts, genitive -s (now)": keep,
    }
    for name, seams in rows.items():
        deid_module.add_every_occurrence, deid_module.find_variants, deid_module.surrogate_with_variants = seams
        try:
            out = list(deidentify(gold, annotator, "surrogate", pack, key))
        finally:
            deid_module.add_every_occurrence, deid_module.find_variants, deid_module.surrogate_with_variants = keep
        total, stay, beside, any_case = leftovers(gold, found, out)
        print(f"| {name} | {total} | {stay} | {beside} | {any_case} |")


if __name__ == "__main__":
    main()
