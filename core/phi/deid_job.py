"""One ``synthdeid deidentify`` run as data (``DeidJob``), whichever engine runs it, and what every
engine writes beside its output: the rejects file and the accounting line."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from synthdeid.phi.surrogate_key import SurrogateKey


@dataclass(frozen=True)
class DeidJob:
    """Everything one run needs, whichever engine runs it (one process, or Ray)."""

    input: Path
    input_format: str
    output: Path
    output_format: str | None
    mode: str
    language: str
    model: str | None
    annotator: str | None
    min_confidence: float | None
    trust_model: bool
    key: SurrogateKey | None
    mask: str | None
    strict: bool
    rejects: Path
    threads: int
    keep_ids: bool = False
    """Write the notes' own ids (file names) instead of their keyed hashes (``public_ids``)."""
    id_map: Path | None = None
    """Where to write the mapping of public ids to input ids (``--id-map``), or nowhere."""
    max_note_chars: int | None = None
    """Notes longer than this are rejected before they are tagged (``--max-note-chars``)."""


def rejects_path(output: str | Path) -> Path:
    """Where the notes left out are listed by default: ``OUTPUT.rejects.jsonl`` beside the output."""
    out = Path(os.path.abspath(output))  # "." has no name to put a suffix on
    return out.with_name(out.name + ".rejects.jsonl")


def write_rejects(rejects: list[dict[str, Any]], path: Path) -> None:
    """The notes left out, one JSON object per line (where, reason, fix): never their text."""
    from synthdeid.corpus.formats.textfile import atomic_write

    with atomic_write(path) as f:
        for r in rejects:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


EXIT_ALL_REJECTED = 3
"""The exit code of a run that wrote no note because every one was rejected (1: refused or failed;
2: a usage error or a bug)."""


def report(out: Console, job: DeidJob, counts: Any, written: int, read_rejects: int) -> int:
    """The run's accounting: notes in = out + rejected, spans found per label, spans added; returns
    the exit code (``EXIT_ALL_REJECTED`` when every note was rejected, else 0)."""
    labels = ", ".join(f"{label} {k}" for label, k in sorted(counts.found.items()))
    rejected = read_rejects + counts.rejected
    out.print(
        f"{job.mode}: {counts.notes + read_rejects} notes in, {written} out, {rejected} rejected "
        f"({counts.notes_per_second():.1f} notes/s); {counts.spans_found} PHI spans found "
        f"({labels or 'none'}) and {counts.added} more on further occurrences of their strings; "
        f"the input had {counts.spans_in} spans of its own; wrote {job.output}",
        highlight=False,
    )
    if rejected:
        print(
            f"warning: {rejected} note(s) left out, listed with their reasons in {job.rejects} "
            "(--strict stops at the first instead)",
            file=sys.stderr,
        )
    if rejected and not written:
        print(
            f"error: every note was rejected: {job.output} holds none (exit code {EXIT_ALL_REJECTED}); "
            f"fix: read the reasons in {job.rejects}",
            file=sys.stderr,
        )
        return EXIT_ALL_REJECTED
    return 0
