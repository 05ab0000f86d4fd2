"""``synthdeid deidentify`` in this process: read, de-identify and write the notes as a stream."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from rich.console import Console

from synthdeid.corpus.records import Document
from synthdeid.corpus_io import read_documents
from synthdeid.errors import InputError
from synthdeid.phi.deid_job import DeidJob, report, write_rejects
from synthdeid.phi.public_ids import PublicIds, public_ids


def reject_entry(where: str, reason: str, fix: str | None = None) -> dict[str, Any]:
    """One line of the rejects file: where the note was and why it was left out (never its text)."""
    return {"where": where, "reason": reason, **({"fix": fix} if fix else {})}


def build_annotator(job: DeidJob) -> Any:
    """The job's annotator (a tagger folder or an annotator plugin), checked against its language."""
    from synthdeid.language_choice import check_annotator_language
    from synthdeid.phi.deidentify import load_annotator
    from synthdeid.phi.threads import use_threads
    from synthdeid.plugin_system.manager import registry

    use_threads(job.threads)
    annotator = load_annotator(
        job.model,
        job.annotator,
        job.language,
        min_confidence=job.min_confidence,
        trust_model=job.trust_model,
        create=registry("annotator").create,
    )
    check_annotator_language(annotator, job.annotator, job.language)
    return annotator


def language_pack(job: DeidJob) -> Any:
    from synthdeid.plugin_system.manager import registry

    return registry("language").create(job.language) if job.mode == "surrogate" else None


def run_local(job: DeidJob, out: Console) -> int:
    from synthdeid.phi.deidentify import DeidCounts, deidentify, write_output
    from synthdeid.progress import track

    annotator = build_annotator(job)
    pack = language_pack(job)
    ids = public_ids(job, record=job.id_map is not None)
    rejects: list[dict[str, Any]] = []
    errors: list[InputError] | None = None if job.strict else []
    docs = read_documents(job.input, job.input_format, errors=errors)
    counts = DeidCounts()

    def reject(where: str, reason: str) -> None:
        rejects.append(reject_entry(where, reason))

    n = write_output(
        deidentify(
            track(draining(docs, errors, rejects, ids), f"de-identify ({job.mode})"),
            annotator,
            job.mode,
            pack,
            job.key,
            job.mask,
            counts,
            None if job.strict else reject,
            ids,
            job.max_note_chars,
        ),
        job.output,
        job.output_format,
        job.mode,
    )
    if rejects:
        write_rejects(rejects, job.rejects)
    if job.id_map is not None:
        ids.write_map(job.id_map)
    return report(out, job, counts, n, len(rejects) - counts.rejected)


def draining(
    docs: Iterable[Document],
    errors: list[InputError] | None,
    rejects: list[dict[str, Any]],
    ids: PublicIds | None = None,
) -> Iterator[Document]:
    """``docs``, moving each note the reader refused (collected in ``errors``) to ``rejects``
    (named by its public id, with ``ids``)."""
    for doc in docs:
        _drain(errors, rejects, ids)
        yield doc
    _drain(errors, rejects, ids)


def _drain(errors: list[InputError] | None, rejects: list[dict[str, Any]], ids: PublicIds | None) -> None:
    while errors:
        e = errors.pop(0)
        rejects.append(ids.error_entry(e) if ids is not None else reject_entry(e.where(), e.problem, e.fix))
