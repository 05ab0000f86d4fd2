"""Plain text notes without annotations: one ``.txt`` file, or a folder of them (ids are the
relative paths without ``.txt``, read in any case; other files are named in a warning), as notes
arrive for de-identification. Written back as a folder of ``.txt`` files, which keeps no spans:
only de-identified text goes there."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from synthdeid.corpus.formats.folder import by_id, scan_folder
from synthdeid.corpus.formats.textfile import each_record, read_text, write_each, write_new
from synthdeid.corpus.records import Document
from synthdeid.corpus.tags import TagSet
from synthdeid.errors import InputError


def read_note(path: Path, doc_id: str) -> Document:
    """The note in the ``.txt`` file ``path`` (a byte-order mark dropped), without spans."""
    text = read_text(path, doc_id)
    text = text[1:] if text.startswith("\ufeff") else text
    try:
        return Document.create(doc_id, text)
    except InputError as e:
        raise e.located(path=path) from None


def read_plain(
    path: str | Path, tagset: TagSet | None = None, errors: list[InputError] | None = None
) -> Iterator[Document]:
    """The notes of a ``.txt`` file or of every ``.txt`` file under a folder (sorted), no spans."""
    root = Path(path)
    if root.is_file():
        yield from each_record([(root, root.stem)], read_note, errors)
        return
    if not root.is_dir():
        raise InputError("not found", path=root, fix="name a .txt file or a folder of them")
    files = scan_folder(root, (".txt",), "plain-text")[".txt"]
    if not files:
        raise InputError("no .txt files in the folder", path=root, fix="put each note in its own NAME.txt")
    yield from each_record(((f, key) for key, f in by_id(root, files, errors).items()), read_note, errors)


def write_plain(docs: Iterable[Document], folder: str | Path) -> int:
    """One ``ID.txt`` per document, into a new or empty folder; spans are not written."""
    # a text that starts with U+FEFF gets a byte-order mark before it, which the reader strips
    return write_each(
        docs,
        folder,
        ".txt",
        lambda doc, out: write_new(out, "\ufeff" * doc.text.startswith("\ufeff") + doc.text),
        "plain-text",
    )
