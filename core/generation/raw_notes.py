"""The files around generation: the prompts (``inline``'s ``prompts.jsonl``) and a corpus's raw
generated notes (``{"id", "prompt", "text"}`` per line), before postprocess parses their tags."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any


def read_prompts(path: str | Path) -> list[str]:
    """The ``prompt`` of every non-empty line."""
    return [json.loads(line)["prompt"] for line in _lines(path) if line]


def write_raw_notes(notes: Sequence[tuple[str, str]], corpus: str, path: str | Path) -> None:
    """(prompt, text) pairs as raw notes with ids ``CORPUS-000000``, ..., creating the folder."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        for i, (prompt, text) in enumerate(notes):
            f.write(json.dumps({"id": f"{corpus}-{i:06d}", "prompt": prompt, "text": text}, ensure_ascii=False) + "\n")


def read_raw_notes(path: str | Path) -> Iterator[dict[str, Any]]:
    """Every raw note of the file, in order."""
    for line in _lines(path):
        if line:
            yield json.loads(line)


def _lines(path: str | Path) -> list[str]:
    """The file's JSONL lines: split on newlines only (``splitlines`` also splits on U+2028,
    U+2029, U+0085 and more, which JSON strings written with ``ensure_ascii=False`` hold)."""
    return Path(path).read_text(encoding="utf-8").split("\n")
