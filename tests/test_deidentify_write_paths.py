"""Attacks on what ``synthdeid deidentify`` writes: the rejects file, the key file or the id map
naming the output (or a file inside the output folder, a Ray shard, the manifest), the notes
folder or a note; devices, FIFOs and links as write targets, ``--force`` included. Every one is
refused before anything is written, with an error naming the path, the clash and the fix."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from synthdeid.cli import main

NOTE = '{"id": "n1", "text": "Mw. Aafje Jansen kwam op 3 januari."}\n'


def _tree(folder: Path) -> dict[str, object]:
    """Every entry under ``folder``: a file's bytes, a folder, a link's target."""
    out: dict[str, object] = {}
    for p in sorted(folder.rglob("*")):
        rel = str(p.relative_to(folder))
        if p.is_symlink():
            out[rel] = ("link", os.readlink(p))
        elif p.is_dir():
            out[rel] = None
        elif p.is_file():
            out[rel] = p.read_bytes()
        else:
            out[rel] = ("special", stat.S_IFMT(os.lstat(p).st_mode))
    return out


def deid(*argv: object) -> int:
    return main(["deidentify", *map(str, argv), "--annotator", "deduce", "--language", "nl", "--mode", "surrogate"])


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.jsonl").write_text(NOTE, encoding="utf-8")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("Mw. Aafje Jansen kwam op 3 januari.", encoding="utf-8")
    return tmp_path


def refused(capsys: pytest.CaptureFixture[str], work: Path, argv: list[object], *expect: str) -> str:
    before = _tree(work)
    assert deid(*argv) == 1
    err = " ".join(capsys.readouterr().err.split())
    for fragment in expect:
        assert fragment in err, (fragment, err)
    assert "fix:" in err, err
    assert _tree(work) == before, "a refused run wrote or changed files"
    return err


@pytest.mark.parametrize(
    ("argv", "expect"),
    [
        (["notes.jsonl", "out.jsonl", "--rejects", "out.jsonl"], ("the rejects file (--rejects)", "same path")),
        (["notes.jsonl", "out.jsonl", "--rejects", "./x/../out.jsonl"], ("same path",)),
        (["notes.jsonl", "out", "--to", "text", "--rejects", "out/r.jsonl"], ("lies inside the output",)),
        (["notes.jsonl", "out", "--rejects", "out/n1.txt"], ("lies inside the output",)),
        (["notes.jsonl", "out.jsonl", "--key-file", "out.jsonl"], ("the key file (--key-file)", "same path")),
        (["notes.jsonl", "out", "--key-file", "out/deid.key"], ("the key file (--key-file) lies inside the output",)),
        (["notes.jsonl", "out.jsonl", "--key-file", "k", "--rejects", "k"], ("same path",)),
        (["notes.jsonl", "out.jsonl", "--key-file", "out.jsonl.rejects.jsonl"], ("same path",)),
        (["notes", "out.jsonl", "--rejects", "notes/r.jsonl"], ("the rejects file (--rejects) is the input or lies",)),
        (["notes", "out.jsonl", "--key-file", "notes/k"], ("lies inside it",)),
        (["notes", "out.jsonl", "--rejects", "notes/a.txt", "--force"], ("lies inside it",)),
        (["notes.jsonl", "out.jsonl", "--rejects", "notes.jsonl", "--force"], ("is the input",)),
        (["notes.jsonl", "out.jsonl", "--rejects", ".", "--force"], ("is a folder",)),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_side_files_never_clash_with_the_output_or_the_notes(
    work: Path, capsys: pytest.CaptureFixture[str], argv: list[str], expect: tuple[str, ...]
) -> None:
    refused(capsys, work, argv, *expect)


def test_ray_shards_and_manifest_are_never_a_side_file(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The clash is found before Ray starts: nothing of the shard folder is written."""
    for side in ("out/shard-00000.jsonl", "out/manifest.json", "out/shard-00000.rejects.jsonl"):
        argv = ["notes.jsonl", "out", "--engine", "ray", "--rejects", side]
        refused(capsys, work, argv, "lies inside the output", "out")
    refused(capsys, work, ["notes.jsonl", "out", "--engine", "ray", "--key-file", "out/k"], "lies inside the output")


def test_a_hard_link_or_a_link_to_a_note_is_never_written(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.link(work / "notes.jsonl", work / "hard.jsonl")
    refused(capsys, work, ["notes.jsonl", "out.jsonl", "--rejects", "hard.jsonl", "--force"], "is one of the notes")
    elsewhere = work / "real" / "b.txt"
    elsewhere.parent.mkdir()
    elsewhere.write_text("Dhr. Bos belde.", encoding="utf-8")
    (work / "notes" / "b.txt").symlink_to(elsewhere)  # a note that is a link to a file outside the folder
    refused(capsys, work, ["notes", "out.jsonl", "--rejects", elsewhere, "--force"], "is one of the notes")


@pytest.mark.parametrize("flag", ["--rejects", "output", "--key-file"])
def test_devices_fifos_and_links_are_never_write_targets(
    work: Path, capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    os.mkfifo(work / "fifo")
    (work / "precious.jsonl").write_text("keep\n", encoding="utf-8")
    (work / "link.jsonl").symlink_to(work / "precious.jsonl")
    (work / "dangling.jsonl").symlink_to(work / "nowhere.jsonl")
    for target, what in (
        ("/dev/null", "device, FIFO or socket"),
        ("fifo", "device, FIFO or socket"),
        ("link.jsonl", "symbolic link"),
        ("dangling.jsonl", "symbolic link"),
    ):
        argv = ["notes.jsonl", target] if flag == "output" else ["notes.jsonl", "out.jsonl", flag, target]
        refused(capsys, work, [*argv, "--force"], target, what)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert (work / "precious.jsonl").read_text() == "keep\n" and not (work / "nowhere.jsonl").exists()


def test_a_side_file_that_is_a_folder_is_refused_before_the_output_is_written(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "r").mkdir()
    refused(capsys, work, ["notes.jsonl", "out.jsonl", "--rejects", "r", "--force"], "is a folder")


def test_separate_paths_still_run(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert deid("notes", "out.jsonl", "--rejects", "side/r.jsonl", "--key-file", "deid.key") == 0
    assert (work / "out.jsonl").is_file() and stat.S_IMODE((work / "deid.key").stat().st_mode) == 0o600
