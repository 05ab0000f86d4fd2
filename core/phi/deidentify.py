"""De-identify notes with a trained tagger (any directory a tagger plugin wrote) or an annotator
plugin (``deduce``): find the PHI spans, then keep them as annotations (``annotate``), replace
them by surrogates from the language pack (``surrogate``: consistent within a note, keyed by a
secret, never the original, failing closed), or by ``[LABEL]`` markers or a mask (``redact``).
Every whole-word occurrence of a string found is treated as found (``every_occurrence``), and so
are its case variants, the parts of a name and a genitive ``-s`` (``name_variants``). Notes
stream through in batches: memory does not grow with the input. A note that cannot be
de-identified goes to ``reject`` with its reason (or stops the run, without ``reject``)."""

from __future__ import annotations

import dataclasses
import os
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from synthdeid.api import Annotator, LanguagePack
from synthdeid.corpus.formats.plaintext import write_plain
from synthdeid.corpus.records import Document
from synthdeid.corpus_io import guess_format, write_documents
from synthdeid.errors import InputError, SurrogateError
from synthdeid.model_files import trusting_pickles
from synthdeid.phi.annotate import annotate_documents
from synthdeid.phi.every_occurrence import add_every_occurrence
from synthdeid.phi.name_variants import Variant, find_variants, surrogate_with_variants
from synthdeid.phi.pseudonymize import substitute
from synthdeid.phi.public_ids import PublicIds
from synthdeid.phi.surrogate_key import SurrogateKey

Reject = Callable[[str, str], None]
"""``reject(where, reason)``: a note left out (``where`` names its id, or its file and line)."""

BATCH = 512
"""Notes per call of the tagger: it sorts a call's windows by length, so larger calls pad less
(64 notes a call ran about 25% slower than 1,000); memory grows with this, not with the input."""
MODES = ("annotate", "surrogate", "redact")
BYTES_PER_CHAR = 400
"""Memory a note may take per character while it is tagged and replaced (120-340 bytes measured
on a 50 MB note, issue 53), with a margin."""


def default_max_note_chars() -> int:
    """The longest note that fits in half this machine's memory at ``BYTES_PER_CHAR`` (at least
    a million characters)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not on Linux or macOS: assume 8 GB
        total = 8 * 2**30
    return max(1_000_000, total // 2 // BYTES_PER_CHAR)


@dataclass
class DeidCounts:
    """Notes and spans through ``deidentify``: the input's own spans (replaced by the ones found)
    and the spans found, per label."""

    notes: int = 0
    spans_in: int = 0
    found: Counter[str] = field(default_factory=Counter)
    added: int = 0
    """Spans added on further occurrences of a string the annotator found (``every_occurrence``)."""
    rejected: int = 0
    written: int = 0
    started: float = field(default_factory=time.perf_counter)

    @property
    def spans_found(self) -> int:
        return sum(self.found.values())

    def notes_per_second(self) -> float:
        return self.notes / max(time.perf_counter() - self.started, 1e-9)


def load_annotator(
    model: str | Path | None,
    annotator: str | None,
    language: str,
    config: Mapping[str, Any] | None = None,
    min_confidence: float | None = None,
    trust_model: bool = False,
    *,
    create: Callable[[str, dict[str, Any]], Annotator],
) -> Annotator:
    """The ``tagger`` annotator over the tagger directory ``model`` (recall-biased with
    ``min_confidence``), or the annotator plugin named ``annotator`` (with ``config``); exactly
    one of the two, built by ``create(name, config)`` (``synthdeid.spec.build.annotator``). A
    tagger folder is read as data (safetensors, JSON): one holding only a pickle (a flair
    ``best-model.pt`` of an older version) is refused, unless ``trust_model`` (``--trust-model``):
    unpickling runs whatever code the file holds."""
    if (model is None) == (annotator is None):
        raise InputError(
            "name either a trained tagger (--model DIR) or an annotator (--annotator NAME)",
            fix="e.g. --model data/taggers/augmented-lstm_p, or --annotator deduce",
        )
    if model is not None:
        if not Path(model).is_dir():
            raise InputError(
                "no such tagger directory", path=model, fix="name a folder a tagger stage wrote, e.g. data/taggers/real"
            )
        with trusting_pickles(trust_model):
            return create("tagger", {"model": str(model), "language": language, "min_confidence": min_confidence})
    if min_confidence is not None:
        raise InputError("--min-confidence needs a trained tagger's probabilities", fix="use it with --model")
    return create(cast(str, annotator), dict(config or {}))  # one of the two: not None


def redact(doc: Document, mask: str | None = None) -> Document:
    """``doc`` with each span's text replaced by ``[LABEL]`` (or ``mask``); the spans cover them."""
    if mask is not None and not mask:
        raise InputError("the mask is empty", fix="give a visible mask, e.g. --mask '***'")
    return substitute(doc, lambda span, text: f"[{span.label}]" if mask is None else mask)


def deidentify(
    docs: Iterable[Document],
    annotator: Annotator,
    mode: str,
    pack: LanguagePack | None = None,
    key: SurrogateKey | None = None,
    mask: str | None = None,
    counts: DeidCounts | None = None,
    reject: Reject | None = None,
    ids: PublicIds | None = None,
    max_chars: int | None = None,
) -> Iterator[Document]:
    """Each note with the annotator's spans (and every further occurrence of their strings), then
    surrogates keyed by ``key`` (a fresh random key when not given) or redaction by ``mode``. A
    note whose surrogates fail goes to ``reject`` when given; without it the run stops there.
    ``ids`` renames each note written (and named in a reject) to its public id; surrogates stay
    keyed by the note's own id. A note longer than ``max_chars`` characters is rejected (or stops
    the run) before it is tagged: memory grows with a note's length."""
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r}", fix="use one of " + ", ".join(MODES))
    if mode == "surrogate" and pack is None:
        raise InputError("surrogates need a language pack", fix="pass --language")
    if mode == "redact" and mask is not None and not mask:
        raise InputError("the mask is empty", fix="give a visible mask, e.g. --mask '***'")
    counts = counts if counts is not None else DeidCounts()
    key = key if key is not None or mode != "surrogate" else SurrogateKey.fresh()

    def counted(items: Iterable[Document]) -> Iterator[Document]:
        for doc in items:
            counts.notes += 1
            counts.spans_in += len(doc.spans)
            if max_chars is not None and len(doc.text) > max_chars:
                reason = (
                    f"the note has {len(doc.text):,} characters, over the limit of {max_chars:,} (memory grows "
                    f"with a note's length, up to {BYTES_PER_CHAR} bytes a character): split it, or raise "
                    "--max-note-chars if the machine has the memory"
                )
                if reject is None:
                    raise InputError(reason, doc_id=doc.id, fix="split the note, or raise --max-note-chars")
                counts.rejected += 1
                where = f"document {doc.id!r}"
                reject(where if ids is None else ids.hide(where, doc.id), reason)
                continue
            yield doc

    for found in annotate_documents(counted(docs), annotator, batch=BATCH):
        doc, added = add_every_occurrence(found)
        doc, variants = find_variants(doc)
        added += len(variants)
        try:
            out = _apply(doc, mode, pack, key, mask, variants)
        except SurrogateError as e:
            if reject is None:
                raise
            counts.rejected += 1
            where, reason = f"document {doc.id!r}", _without_phi(str(e), doc)
            if ids is not None:
                where, reason = ids.hide(where, doc.id), ids.hide(reason, doc.id)
            reject(where, reason)
            continue
        counts.found.update(s.label for s in found.spans)
        counts.added += added
        yield out if ids is None or ids.key is None else dataclasses.replace(out, id=ids(out.id))


def _without_phi(message: str, doc: Document) -> str:
    """``message`` with every quoted PHI string of ``doc`` (``'Visser'``, as errors quote them)
    replaced by its label: a reason may be read by whoever receives the rejects file."""
    labels = {doc.surface(s): s.label for s in doc.spans}

    def label(m: re.Match[str]) -> str:
        inner = m.group(0)[1:-1]
        return f"<{labels[inner]}>" if inner in labels else m.group(0)

    return _QUOTED.sub(label, message)


_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def _apply(
    doc: Document,
    mode: str,
    pack: LanguagePack | None,
    key: SurrogateKey | None,
    mask: str | None,
    variants: dict[tuple[int, int], Variant] | None = None,
) -> Document:
    if mode == "annotate":
        return doc
    if mode == "surrogate":
        return surrogate_with_variants(doc, variants or {}, cast(LanguagePack, pack), cast(SurrogateKey, key))
    return redact(doc, mask)


def input_format(path: str | Path) -> str:
    """The format of an input: a folder that is no BRAT, i2b2 or xml_inline corpus holds plain
    notes (``text``)."""
    return guess_format(path, folder="text")


def write_output(docs: Iterable[Document], path: str | Path, fmt: str | None, mode: str) -> int:
    """Write the de-identified notes: by the output's name (a folder is BRAT: the ``.txt`` files
    are the de-identified notes, the ``.ann`` files their spans) or ``fmt``; ``text`` writes the
    ``.txt`` files alone, which ``annotate`` refuses (its output is the spans)."""
    fmt = fmt or guess_format(path, for_writing=True)
    if fmt == "text":
        if mode == "annotate":
            raise InputError(
                "annotate writes the spans it found, which plain text cannot hold",
                path=path,
                fix="write .jsonl, .inline, .conll or a BRAT folder, or use --mode surrogate/redact",
            )
        return write_plain(docs, path)
    return write_documents(docs, path, fmt)
