"""What may leave the machine: the study's files made from real notes may not be exported.

The pipeline's pseudonymized training notes are seeded from params.yaml so that DVC can rebuild
them byte for byte; whoever holds params.yaml and the note ids can recompute their surrogate
choices and date shifts. They, the prepared splits and the corpus stage's copy stay in the
project. Real notes leave through ``synthdeid deidentify --mode surrogate``, whose surrogates are
keyed by a secret."""

from __future__ import annotations

import os
from pathlib import Path

from synthdeid import paths
from synthdeid.errors import InputError


def real_note_folders() -> list[Path]:
    """The study's folders that hold real notes or notes made from them by params alone."""
    files = [paths.CORPUS_DOCUMENTS, paths.prepared("train"), paths.annotated("train"), paths.pseudonymized("train")]
    files += [paths.inline_text("train")]
    return sorted({Path(os.path.realpath(Path(f).parent)) for f in files})


def refuse_real_notes(path: str | Path, command: str = "export") -> None:
    """Refuse ``path`` when it lies in one of the study's folders of real (or params-pseudonymized) notes."""
    real = Path(os.path.realpath(path))
    for folder in real_note_folders():
        if real == folder or folder in real.parents:
            raise InputError(
                f"{command} refuses the study's real notes: {folder.name}/ holds real notes or notes pseudonymized "
                "with a seed from params.yaml, which whoever has params.yaml and the ids can undo",
                path=path,
                fix="release real notes with `synthdeid deidentify NOTES OUT --model data/taggers/real --mode "
                "surrogate` (surrogates keyed by a secret); export a synthetic corpus (lstm_p, ...) as it is",
            )
