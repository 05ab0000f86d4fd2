"""Reading and writing a corpus in any registered format (``register_formats``: the built-ins in
``synthdeid.corpus_io.builtin``, a plugin's too), looked up by name in ``registered``, the format
told from a path by ``detect`` when not given: a format whose ``options`` name any takes an
``options`` mapping (params.yaml's ``corpus.format_options``); the others refuse any option. It sits
above ``synthdeid.corpus`` (which holds the built-in readers and writers) because it asks the plugin
manager for the formats: ``corpus`` itself imports no plugin machinery."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from synthdeid.api import CorpusFormat
from synthdeid.corpus.records import Document
from synthdeid.corpus.tags import TagSet
from synthdeid.corpus_io.detect import guess_format
from synthdeid.corpus_io.registered import formats
from synthdeid.errors import InputError

__all__ = [
    "check_format",
    "check_options",
    "corpus_format",
    "format_names",
    "guess_format",
    "read_documents",
    "writable_formats",
    "write_documents",
]


def format_names() -> list[str]:
    """The names of the registered formats, the built-ins first (``jsonl``, ``brat``, ...)."""
    return list(formats().by_name)


def writable_formats() -> list[str]:
    """The names of the registered formats that have a writer."""
    return formats().writable()


def corpus_format(fmt: str) -> CorpusFormat:
    """The registered format ``fmt``; an unknown name is an ``InputError`` listing the formats."""
    return formats().get(fmt)


def check_format(fmt: str) -> str:
    """``fmt`` when it is a registered format (else an ``InputError`` listing them)."""
    corpus_format(fmt)
    return fmt


def read_documents(
    path: str | Path,
    fmt: str | None = None,
    tagset: TagSet | None = None,
    errors: list[InputError] | None = None,
    options: Mapping[str, Any] | None = None,
) -> Iterator[Document]:
    """Documents from ``path`` in ``fmt`` (guessed from the name when not given). With an
    ``errors`` list, invalid records are collected there and skipped instead of raising. A
    source that holds no document at all is an error: an empty corpus is never "valid".
    ``options`` go to the reader (its format's ``options``); an option it does not take is an error."""
    p = Path(path)
    if not p.exists():
        raise InputError("not found", path=p, fix="check the path (params.yaml or the command line)")
    fmt = check_format(fmt or guess_format(p))
    check_options(fmt, options)
    reader = corpus_format(fmt)
    kwargs = {"options": options} if reader.options else {}
    return _not_empty(reader.reader(p, tagset=tagset, errors=errors, **kwargs), p, errors)


def check_options(fmt: str, options: Mapping[str, Any] | None) -> None:
    """Refuse reader options that ``fmt`` does not take, naming those it does."""
    if options is not None and not isinstance(options, Mapping):
        raise InputError(
            f"format options must be a mapping, not {options!r}"[:120],
            fix="write corpus.format_options: {key: value} (or --format-option KEY=VALUE)",
        )
    accepted = corpus_format(fmt).options
    unknown = sorted(str(k) for k in (options or {}) if k not in accepted)
    if unknown:
        takes = f"it takes {', '.join(accepted)}" if accepted else "it takes none"
        raise InputError(
            f"format {fmt!r} has no option {unknown[0]!r}",
            fix=f"remove it from corpus.format_options (or --format-option): {takes}",
        )


def _not_empty(docs: Iterator[Document], path: Path, errors: list[InputError] | None) -> Iterator[Document]:
    n_errors = len(errors) if errors is not None else 0
    n = 0
    for doc in docs:
        n += 1
        yield doc
    if n == 0 and (errors is None or len(errors) == n_errors):
        raise InputError(
            "holds no documents",
            path=path,
            fix="check that this is the corpus you meant (an empty file or folder is not a corpus)",
        )


def write_documents(docs: Iterable[Document], path: str | Path, fmt: str | None = None) -> int:
    """Write ``docs`` to ``path``; two documents with one id are refused (a reader would refuse the
    file, and a BRAT folder would hold only one of them). Returns the number written."""
    p = Path(path)
    fmt = check_format(fmt or guess_format(p, for_writing=True))
    writer = corpus_format(fmt).writer
    if writer is None:
        raise InputError(
            f"{fmt!r} is read only: it cannot hold PHI spans",
            path=p,
            fix="write " + ", ".join(writable_formats()) + " (by the output's name or --to)",
        )
    return writer(_unique_ids(docs), p)


def _unique_ids(docs: Iterable[Document]) -> Iterable[Document]:
    if isinstance(docs, (list, tuple)):  # checked before anything is written
        for _ in _unique_ids(iter(docs)):
            pass
        return docs
    return _check_ids(docs)


def _check_ids(docs: Iterable[Document]) -> Iterator[Document]:
    seen: set[str] = set()
    for doc in docs:
        if doc.id in seen:
            raise InputError(
                "a second document with this id", doc_id=doc.id, fix="give every document a unique id before writing"
            )
        seen.add(doc.id)
        yield doc
