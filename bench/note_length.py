"""Time per MB of a note against its length (#41): tokenizing, sentence splitting and
``deidentify`` (annotate with a tagger, surrogates, written as JSONL) of one note of 10 kB,
100 kB and 1 MB, for a few shapes: words without a sentence end, runs without spaces that once
made the tokenizer's e-mail alternative or the splitter's boundary rescan ahead from every
position (quadratic: 1 MB took hours), and random mixtures of URL, e-mail and number characters.

The reference is the 10 kB note of the same shape, measured in the same run: the last column is
the 1 MB note's time per MB over the 10 kB note's (linear means about 1; quadratic means about
100). Short notes are repeated until a measurement lasts ``--min-seconds``, and the median run
is kept. The tagger is ``--model`` (default ``data/taggers/real`` when present; without it a
small ``torch_bilstm_crf`` is trained on toy notes first, and the table says so). Run it alone.

    python bench/note_length.py [--model DIR] [--language nl] [--packs nl en es sv]
                                [--shapes words letter-dash ...] [--sizes 10000 100000 1000000]

``--deduce`` times DEDUCE's annotations instead (Dutch) on a PHI-dense note (``phi-dense``: names,
dates, places and phone numbers in every few words): the annotator as it runs, and, as the
reference in the same run, DEDUCE's full run with its redactor (the redacted copy of the text the
annotator does not use, which it ran until 2026-11-29):

    python bench/note_length.py --deduce [--sizes 10000 100000 1000000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the adversarial and toy notes

from adversarial_notes import SHAPES, note  # noqa: E402

from synthdeid import Document  # noqa: E402
from synthdeid.corpus.formats.jsonl import write_jsonl  # noqa: E402
from synthdeid.phi.deidentify import deidentify, load_annotator  # noqa: E402
from synthdeid.plugin_system.manager import registry  # noqa: E402
from synthdeid.spec.build import annotator as build_annotator  # noqa: E402

DEFAULT_SHAPES = ("words", "letter-dash", "marks", "mixture", "mixture-email", "e-mails")
SIZES = (10_000, 100_000, 1_000_000)


def seconds(run: Callable[[], object], min_seconds: float) -> float:
    """The median wall time of ``run``, repeated until the repeats last ``min_seconds``."""
    times: list[float] = []
    while not times or sum(times) < min_seconds:
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def toy_model(folder: Path, language: str) -> Path:
    """A small tagger trained on toy notes (when no trained one is given)."""
    from toy_notes import toy_docs

    from synthdeid.plugins.torch_tagger import create

    docs = toy_docs(120, seed=0)
    create({"max_epochs": 3, "threads": 1}).train(
        docs[:100], docs[100:], folder, registry("language").create(language).tokenize
    )
    return folder


def row(step: str, shape: str, per_mb: dict[int, float], sizes: list[int]) -> str:
    cells = " | ".join(f"{per_mb[n]:.2f}" for n in sizes)
    ratio = per_mb[sizes[-1]] / per_mb[sizes[0]] if per_mb[sizes[0]] > 0 else float("nan")
    return f"| {step} | {shape} | {cells} | {ratio:.2f} |"


PHI_WORDS = ("Jan Jansen", "Utrecht", "06-12345678", "de patiënt", "klaagt over", "pijn", "12-03-1961")


def phi_dense(size: int) -> str:
    """A note of ``size`` characters of clinical words and Dutch PHI, one PHI string in about every two words."""
    import random

    rng = random.Random(1)
    words: list[str] = []
    while sum(len(w) + 1 for w in words) < size:
        words.append(rng.choice(PHI_WORDS))
    return " ".join(words)[:size]


def deduce_rows(sizes: list[int], min_seconds: float) -> None:
    """DEDUCE on a PHI-dense note: the annotator (no redactor) against DEDUCE's full run."""
    from synthdeid.plugins.deduce_annotator import _deduce

    annotator, deduce = registry("annotator").create("deduce"), _deduce(None)
    texts = {n: phi_dense(n) for n in sizes}
    full = {n: seconds(lambda t=texts[n]: deduce.deidentify(t), min_seconds) * 1e6 / n for n in sizes}
    fast = {n: seconds(lambda t=texts[n]: annotator.annotate(t), min_seconds) * 1e6 / n for n in sizes}
    print(row("deduce with its redactor (reference)", "phi-dense", full, sizes), flush=True)
    print(row("deduce annotator", "phi-dense", fast, sizes), flush=True)
    print(f"annotator / with redactor at {sizes[-1] // 1000} kB: {fast[sizes[-1]] / full[sizes[-1]]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path)
    ap.add_argument("--language", default="nl", help="the pack of the tagger and of deidentify")
    ap.add_argument("--packs", nargs="+", default=["nl", "en", "es", "sv"], help="packs whose tokenizer is timed")
    ap.add_argument("--shapes", nargs="+", default=list(DEFAULT_SHAPES), choices=SHAPES)
    ap.add_argument("--sizes", nargs="+", type=int, default=list(SIZES))
    ap.add_argument("--min-seconds", type=float, default=0.5)
    ap.add_argument("--deduce", action="store_true", help="time DEDUCE's annotations on a PHI-dense note instead")
    a = ap.parse_args()
    sizes = sorted(a.sizes)
    if a.deduce:
        header = " | ".join(f"{n // 1000} kB s/MB" for n in sizes)
        print(f"| step | shape | {header} | {sizes[-1] // 1000} kB / {sizes[0] // 1000} kB |")
        print("|---|---|" + "---:|" * (len(sizes) + 1))
        deduce_rows(sizes, a.min_seconds)
        return
    notes = {(shape, n): note(shape, n) for shape in a.shapes for n in sizes}

    header = " | ".join(f"{n // 1000} kB s/MB" for n in sizes)
    print(f"| step | shape | {header} | {sizes[-1] // 1000} kB / {sizes[0] // 1000} kB |")
    print("|---|---|" + "---:|" * (len(sizes) + 1))
    for code in a.packs:
        pack = registry("language").create(code)
        for step, fn in ((f"tokenize {code}", pack.tokenize), (f"sentences {code}", pack.split_sentences)):
            for shape in a.shapes:
                per_mb = {n: seconds(lambda t=notes[shape, n], f=fn: f(t), a.min_seconds) * 1e6 / n for n in sizes}
                print(row(step, shape, per_mb, sizes), flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        model = a.model or (ROOT / "data/taggers/real")
        what = str(model)
        if a.model is None and not (model / "tagger.json").exists():
            model, what = toy_model(Path(tmp) / "tagger", a.language), "a toy torch_bilstm_crf (no data/taggers/real)"
        annotator = load_annotator(model, None, a.language, create=build_annotator)
        pack = registry("language").create(a.language)
        out = Path(tmp) / "out.jsonl"

        rejected: dict[str, str] = {}

        def deid(text: str, shape: str) -> None:
            def reject(where: str, reason: str) -> None:  # as the command does: the note is left out
                rejected[shape] = reason

            docs = deidentify([Document.create("n", text, [])], annotator, "surrogate", pack, reject=reject)
            write_jsonl(docs, out)

        for shape in a.shapes:
            per_mb = {n: seconds(lambda t=notes[shape, n], k=shape: deid(t, k), a.min_seconds) * 1e6 / n for n in sizes}
            print(row(f"deidentify {a.language}", shape, per_mb, sizes), flush=True)
        for shape, reason in rejected.items():
            print(f"deidentify rejected the {shape} note (as the command would, timed all the same): {reason[:160]}")
    print(f"tagger: {what}; one note a call; a 10 kB note of the same shape is the reference")


if __name__ == "__main__":
    main()
