"""The ids ``synthdeid deidentify`` writes: a note's id (and so a BRAT or text output's file name)
is often PHI itself (``Jansen_Aafje_14-02-1957.txt``), so by default it is replaced by a keyed
hash, ``HMAC-SHA256(key, id)`` truncated to ``ID_DIGITS`` hex digits, in the output and in the
rejects file alike. The hash is stable under one ``--key-file`` and unlinkable without the key;
``--keep-ids`` keeps the ids (with a warning), and the mapping is written only to ``--id-map``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from synthdeid.errors import InputError
from synthdeid.phi.surrogate_key import SurrogateKey

ID_DIGITS = 16
"""64 bits: two of a million notes share a hash with a chance of about 3 in 100 million."""


class PublicIds:
    """Renames ids (``__call__``) and builds the rejects file's entries without raw ids; with
    ``record``, keeps the mapping for ``write_map``. ``key`` None keeps every id as it is."""

    def __init__(self, key: SurrogateKey | None, source: str | Path | None = None, record: bool = False) -> None:
        self.key = key
        self.source = Path(source) if source is not None else None
        self.mapping: dict[str, str] | None = {} if record else None

    def __call__(self, doc_id: str) -> str:
        if self.key is None:
            return doc_id
        public = self.key.public_id(doc_id, ID_DIGITS)
        if self.mapping is not None:
            self.mapping.setdefault(public, doc_id)
        return public

    def hide(self, text: str, doc_id: str | None) -> str:
        """``text`` with ``doc_id`` replaced by its public id where it is quoted (``'Jansen_A'``, as
        errors quote ids) or is a file's name (``Jansen_A.txt``, ``ward/Jansen_A.TXT``). A bare word
        stays: the id ``empty`` must not turn "the document is empty" into nonsense."""
        if self.key is None or not doc_id:
            return text
        public = self(doc_id)
        for raw in dict.fromkeys((doc_id, Path(doc_id).name)):
            if raw:
                text = text.replace(repr(raw), repr(public)).replace(f'"{raw}"', f'"{public}"')
                text = re.sub(rf"(?<![\w.-]){re.escape(raw)}(?=\.\w+\b)", lambda _: public, text)
        return text

    def entry(self, where: str, reason: str, fix: str | None = None, doc_id: str | None = None) -> dict[str, Any]:
        """One line of the rejects file (never the note's text, nor its id)."""
        where, reason = self.hide(where, doc_id), self.hide(reason, doc_id)
        return {"where": where, "reason": reason, **({"fix": self.hide(fix, doc_id)} if fix else {})}

    def error_entry(self, e: InputError) -> dict[str, Any]:
        """The entry of a note a reader refused: its id is the error's, or its file's in a notes folder."""
        doc_id = e.doc_id if e.doc_id is not None else self._folder_id(e.path)
        return self.entry(e.where(), e.problem, e.fix, doc_id)

    def _folder_id(self, path: str | None) -> str | None:
        if self.key is None or path is None or self.source is None or not self.source.is_dir():
            return None
        try:
            return Path(path).relative_to(self.source).with_suffix("").as_posix()
        except ValueError:
            return None

    def write_map(self, path: Path) -> None:
        """The mapping (``{"id": public, "input_id": original}`` per line), mode 600."""
        from synthdeid.corpus.formats.textfile import atomic_write

        with atomic_write(path) as f:
            for public, original in sorted((self.mapping or {}).items()):
                f.write(json.dumps({"id": public, "input_id": original}, ensure_ascii=False) + "\n")


def public_ids(job: Any, record: bool = False) -> PublicIds:
    """The renaming a ``DeidJob`` asks for: none for ``annotate`` (it keeps the text) or with
    ``keep_ids``, else the keyed hash."""
    key = None if job.mode == "annotate" or job.keep_ids else job.key
    return PublicIds(key, job.input, record)
