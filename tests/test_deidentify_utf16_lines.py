"""A line of UTF-16 text in a UTF-8 JSONL batch (a note pasted from another tool) is rejected by
itself, with its line number and reason: its two-byte newline never takes the next note down."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from synthdeid.cli import main
from synthdeid.corpus_io import read_documents


def _line(doc_id: str, text: str) -> str:
    return json.dumps({"id": doc_id, "text": text}) + "\n"


BATCHES = {
    "utf-16-le": lambda s: s.encode("utf-16-le"),
    "utf-16-le with its mark": lambda s: b"\xff\xfe" + s.encode("utf-16-le"),
    "utf-16-be": lambda s: s.encode("utf-16-be"),
    "two utf-16-le lines": lambda s: s.encode("utf-16-le") + _line("b2", "Dhr. Bos belde.").encode("utf-16-le"),
}


def _batch(path: Path, kind: str) -> int:
    """a (UTF-8), b (UTF-16, or two lines of it), c (UTF-8), d (UTF-8); returns the bad lines."""
    bad = BATCHES[kind](_line("b", "Dhr. Bos kwam."))
    path.write_bytes(
        _line("a", "Mw. Jansen belde.").encode() + bad + _line("c", "Mw. Smit belde.").encode()
        + _line("d", "Dhr. Mol kwam.").encode()
    )  # fmt: skip
    return 2 if kind.startswith("two") else 1


@pytest.mark.parametrize("kind", BATCHES)
def test_a_utf16_line_is_rejected_alone(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "notes.jsonl"
    n_bad = _batch(path, kind)
    errors: list = []
    docs = list(read_documents(path, "jsonl", errors=errors))
    assert [d.id for d in docs] == ["a", "c", "d"]
    assert [e.line for e in errors] == list(range(2, 2 + n_bad))
    assert all("UTF-16" in e.problem for e in errors), [e.problem for e in errors]
    assert all("UTF-8" in (e.fix or "") for e in errors)


@pytest.mark.parametrize("kind", ["utf-16-le", "two utf-16-le lines"])
def test_deidentify_counts_the_utf16_line_and_keeps_the_next_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    monkeypatch.chdir(tmp_path)
    n_bad = _batch(tmp_path / "notes.jsonl", kind)
    argv = ["deidentify", "notes.jsonl", "out.jsonl", "--annotator", "deduce", "--language", "nl"]
    assert main([*argv, "--mode", "redact", "--keep-ids"]) == 0  # ids kept: to name the notes read
    assert f"{3 + n_bad} notes in, 3 out, {n_bad} rejected" in capsys.readouterr().out
    assert [d.id for d in read_documents("out.jsonl")] == ["a", "c", "d"]
    rejects = [json.loads(x) for x in Path("out.jsonl.rejects.jsonl").read_text().split("\n") if x]
    assert [r["where"] for r in rejects] == [f"notes.jsonl:{i}" for i in range(2, 2 + n_bad)]
    assert all("UTF-16" in r["reason"] for r in rejects)


def test_the_ray_plan_cuts_shards_after_a_utf16_line(tmp_path: Path) -> None:
    """The planner and the shard reader agree on where the line after a UTF-16 line starts."""
    from synthdeid.phi.note_sources import plan_shards, read_shard

    path = tmp_path / "notes.jsonl"
    _batch(path, "two utf-16-le lines")
    plan, _ = plan_shards(path, "jsonl", 2, strict=False)
    ids, errors = [], []
    for shard in plan:
        ids += [d.id for d in read_shard(shard, errors)]
    assert ids == ["a", "c", "d"] and [e.line for e in errors] == [2, 3]


def test_a_same_size_edit_with_its_time_restored_changes_the_input_fingerprint(tmp_path: Path) -> None:
    """A Ray resume compares the input's fingerprint: an edit of the same size whose modification
    time is set back (``touch -r``) must not resume stale shards."""
    import os
    import time

    from synthdeid.phi.note_sources import plan_shards

    path = tmp_path / "notes.jsonl"
    path.write_text(_line("a", "Mw. Jansen belde."), encoding="utf-8")
    _, before = plan_shards(path, "jsonl", 10, strict=False)
    st = path.stat()
    time.sleep(0.01)
    path.write_text(_line("a", "Mw. Bakker belde."), encoding="utf-8")
    assert path.stat().st_size == st.st_size
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_mtime_ns == st.st_mtime_ns
    _, after = plan_shards(path, "jsonl", 10, strict=False)
    assert after != before
    _, again = plan_shards(path, "jsonl", 10, strict=False)
    assert again == after  # and the fingerprint of an unchanged input stays the same
