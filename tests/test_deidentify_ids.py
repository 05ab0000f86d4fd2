"""Ids and file names are PHI too (``Jansen_Aafje_14-02-1957.txt``): ``deidentify`` writes a keyed
hash of each id instead (HMAC-SHA256 under the surrogate key, 16 hex digits), in the output and
in the rejects file; ``--keep-ids`` keeps them, with a warning; the mapping is written only to
``--id-map PATH`` (mode 600, checked like every other path the command writes)."""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path

import pytest

from synthdeid.cli import main
from synthdeid.corpus_io import read_documents

NAME = "Jansen_Aafje_14-02-1957"
HASHED = re.compile(r"[0-9a-f]{16}")


def deid(*argv: object, mode: str = "surrogate") -> int:
    return main(["deidentify", *map(str, argv), "--annotator", "deduce", "--language", "nl", "--mode", mode])


def _everything(folder: Path, skip: set[str]) -> str:
    """Every name and byte under ``folder`` but the ``skip`` files, as text."""
    out = []
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder).as_posix()
        if rel.split("/")[0] in skip:
            continue
        out.append(rel)
        if p.is_file():
            out.append(p.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(out)


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / f"{NAME}.txt").write_text("Mw. Aafje Jansen kwam op 3 januari.", encoding="utf-8")
    (tmp_path / "notes" / "Bos_Piet_01-01-1960.txt").write_text("   ", encoding="utf-8")  # empty: a reject
    lines = [
        {"id": NAME, "text": "Mw. Aafje Jansen kwam op 3 januari."},
        {"id": "Bos_Piet_01-01-1960", "text": "  "},
        {"id": "ok-2", "text": "Dhr. Mol belde."},
    ]
    (tmp_path / "notes.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("mode", ["surrogate", "redact"])
@pytest.mark.parametrize("source", ["notes", "notes.jsonl"])
def test_no_id_or_file_name_leaves_the_machine(work: Path, mode: str, source: str) -> None:
    out = "out" if source == "notes" else "out.jsonl"
    extra = ["--to", "text"] if source == "notes" else []
    assert deid(source, out, *extra, "--key-file", "deid.key", mode=mode) == 0
    written = _everything(work, {"notes", "notes.jsonl", "deid.key"})
    for part in ("Jansen_Aafje", "14-02-1957", "Bos_Piet", "1960"):
        assert part not in written, (part, written)
    if source == "notes":
        [note] = list((work / "out").iterdir())
        assert HASHED.fullmatch(note.stem) and note.suffix == ".txt"
    else:
        ids = [d.id for d in read_documents("out.jsonl")]
        assert len(ids) == 2 and all(HASHED.fullmatch(i) for i in ids)
    rejects = [json.loads(x) for x in Path(f"{out}.rejects.jsonl").read_text().split("\n") if x]
    assert len(rejects) == 1 and HASHED.search(rejects[0]["where"]), rejects


def test_the_same_key_gives_the_same_ids_and_another_key_others(work: Path) -> None:
    for out, key in (("a.jsonl", "k1"), ("b.jsonl", "k1"), ("c.jsonl", "k2")):
        assert deid("notes.jsonl", out, "--key-file", key) == 0
    ids = {out: [d.id for d in read_documents(out)] for out in ("a.jsonl", "b.jsonl", "c.jsonl")}
    assert ids["a.jsonl"] == ids["b.jsonl"] and set(ids["a.jsonl"]).isdisjoint(ids["c.jsonl"])


def test_the_id_map_is_written_only_when_asked_and_private(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert deid("notes.jsonl", "out.jsonl", "--id-map", "ids.jsonl") == 0
    assert stat.S_IMODE(Path("ids.jsonl").stat().st_mode) == 0o600
    mapping = {r["id"]: r["input_id"] for r in map(json.loads, Path("ids.jsonl").read_text().split("\n")[:-1])}
    assert sorted(mapping.values()) == sorted(["Bos_Piet_01-01-1960", NAME, "ok-2"])
    assert {d.id for d in read_documents("out.jsonl")} <= set(mapping)
    capsys.readouterr()
    for bad, clash in (
        ("new.jsonl", "same path"),
        ("notes.jsonl", "is the input"),
        ("new.jsonl.rejects.jsonl", "same"),
    ):
        assert deid("notes.jsonl", "new.jsonl", "--id-map", bad, "--force") == 1
        err = " ".join(capsys.readouterr().err.split())
        assert "the id map (--id-map)" in err and clash in err and not Path("new.jsonl").exists(), err
    assert deid("notes", "new.jsonl", "--id-map", "notes/ids.jsonl") == 1
    assert "lies inside it" in " ".join(capsys.readouterr().err.split())


def test_keep_ids_keeps_them_with_a_warning(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert deid("notes.jsonl", "out.jsonl", "--keep-ids") == 0
    assert [d.id for d in read_documents("out.jsonl")] == [NAME, "ok-2"]
    err = capsys.readouterr().err
    assert "--keep-ids" in err and "warning" in err
    assert deid("notes.jsonl", "x.jsonl", "--keep-ids", "--id-map", "m.jsonl") == 1
    assert "--id-map" in capsys.readouterr().err


def test_annotate_keeps_the_ids_as_it_keeps_the_text(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert deid("notes.jsonl", "found.jsonl", mode="annotate") == 0
    assert [d.id for d in read_documents("found.jsonl")] == [NAME, "ok-2"]
    assert deid("notes.jsonl", "f2.jsonl", "--id-map", "m.jsonl", mode="annotate") == 1
    assert "--id-map" in capsys.readouterr().err
