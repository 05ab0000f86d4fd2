"""Attacks on ``synthdeid deidentify``'s small edges: thread, worker and block counts out of bounds,
a run whose every note is rejected, a key of zero bytes, notes that are links out of their
folder, a Ray address nothing answers at, line separators inside JSONL strings, an unquoted
dataset card. Each is refused with its fix (or handled), never a silent default, crash or hang."""

from __future__ import annotations

import json
import os
import socket
import time
from pathlib import Path

import pytest
import yaml

from synthdeid.cli import main
from synthdeid.errors import InputError
from synthdeid.phi.surrogate_key import load_or_create_key

NOTE = '{"id": "n1", "text": "Mw. Aafje Jansen kwam op 3 januari."}\n'
ALL_REJECTED = 3


def deid(*argv: object) -> int:
    return main(["deidentify", *map(str, argv), "--annotator", "deduce", "--language", "nl", "--mode", "surrogate"])


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.jsonl").write_text(NOTE, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("flag", "value", "expect"),
    [
        ("--threads", "0", "--threads 0: at least one"),
        ("--threads", "-2", "--threads -2: at least one"),
        ("--threads", "100000", "--threads 100000: more than"),
        ("--workers", "0", "--workers 0: at least one"),
        ("--workers", "-1", "--workers -1: at least one"),
        ("--workers", "100000", "--workers 100000: more than"),
        ("--block-notes", "0", "--block-notes 0: at least one"),
        ("--block-notes", "-5", "--block-notes -5: at least one"),
    ],
)
def test_counts_out_of_bounds_are_refused_with_their_fix(
    work: Path, capsys: pytest.CaptureFixture[str], flag: str, value: str, expect: str
) -> None:
    engine = ["--engine", "ray"] if flag != "--threads" else []
    for extra in ([], ["--engine", "ray"]) if flag == "--threads" else (engine,):
        assert deid("notes.jsonl", "out", flag, value, *extra) == 1
        err = " ".join(capsys.readouterr().err.split())
        assert expect in err and "fix:" in err, err
        assert sorted(p.name for p in work.iterdir()) == ["notes.jsonl"]


def test_workers_and_block_notes_need_the_ray_engine(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for flag in ("--workers", "--block-notes", "--address"):
        assert deid("notes.jsonl", "out.jsonl", flag, "2") == 1
        err = capsys.readouterr().err
        assert f"{flag} is a Ray engine setting" in err and "--engine ray" in err


def test_every_note_rejected_exits_with_its_own_code(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "bad.jsonl").write_text('{"id": "a", "text": "  "}\nnot json\n', encoding="utf-8")
    assert deid("bad.jsonl", "out.jsonl") == ALL_REJECTED
    captured = capsys.readouterr()
    assert "2 notes in, 0 out, 2 rejected" in captured.out
    assert "every note was rejected" in captured.err
    assert len((work / "out.jsonl.rejects.jsonl").read_text().split("\n")) == 3
    assert deid("notes.jsonl", "ok.jsonl") == 0  # one note out: success


def test_a_key_of_one_repeated_byte_is_refused(tmp_path: Path) -> None:
    for byte in ("00", "ff", "41"):
        key = tmp_path / f"k{byte}"
        key.write_text("# synthdeid surrogate key\n" + byte * 32 + "\n")
        os.chmod(key, 0o600)
        with pytest.raises(InputError, match="one byte repeated: no secret") as e:
            load_or_create_key(key)
        assert "a path that does not exist yet" in str(e.value)


def test_a_note_that_links_out_of_its_folder_is_refused(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "notes").mkdir()
    (work / "notes" / "a.txt").write_text("Mw. Aafje Jansen kwam.", encoding="utf-8")
    (work / "secret.txt").write_text("Dhr. Bos, BSN 123456782.", encoding="utf-8")
    (work / "notes" / "b.txt").symlink_to(work / "secret.txt")
    assert deid("notes", "out.jsonl") == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "notes/b.txt" in err and "links out of the notes folder" in err and "fix:" in err, err
    assert not (work / "out.jsonl").exists()
    (work / "notes" / "b.txt").unlink()
    (work / "notes" / "c.txt").symlink_to("a.txt")  # a link inside the folder is a note like any other
    assert deid("notes", "out.jsonl") == 0


def test_a_ray_address_nothing_answers_at_fails_fast(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    assert deid("notes.jsonl", "out", "--engine", "ray", "--address", f"127.0.0.1:{port}") == 1
    assert time.monotonic() - started < 30
    err = " ".join(capsys.readouterr().err.split())
    assert f"127.0.0.1:{port}" in err and "nothing answers" in err and "fix:" in err, err
    assert sorted(p.name for p in work.iterdir()) == ["notes.jsonl"]
    assert deid("notes.jsonl", "out", "--engine", "ray", "--address", "no-port-here") == 1
    assert "HOST:PORT" in capsys.readouterr().err


def test_line_separators_inside_jsonl_strings_are_no_line_breaks(tmp_path: Path) -> None:
    from synthdeid.generation.raw_notes import read_prompts, read_raw_notes
    from synthdeid.privacy.measure import refill_sources

    text = "Mw.\u2028Jansen\u2029belde\x85om 12-03.\x1cklaar"
    raw = tmp_path / "raw.jsonl"
    raw.write_text(json.dumps({"id": "x-000000", "prompt": "r1", "text": text}, ensure_ascii=False) + "\n")
    assert [r["text"] for r in read_raw_notes(raw)] == [text]
    assert read_prompts(raw) == ["r1"]
    from synthdeid import Document

    assert refill_sources(raw, [Document.create("r1", "x")]) == {"x-000000": "r1"}


@pytest.mark.parametrize(
    "name", ["notes: v2", "license: null", "a # comment", "[x]", "yes", "- item", "'quoted\"", "x\ny: 1"]
)
def test_the_dataset_cards_yaml_header_holds_any_name(name: str) -> None:
    from synthdeid.corpus_io.export import dataset_card

    card = dataset_card(name, [], "nl: x", None)
    meta = yaml.safe_load(card.split("\n---\n")[0].removeprefix("---\n"))
    assert meta["pretty_name"] == f"synthdeid {name}"
    assert meta["language"] == ["nl: x"] and meta["license"] is None
    assert meta["tags"] == ["synthetic", "clinical", "de-identification", "synthdeid"]


def test_the_privacy_stages_pairs_with_real_notes_are_private(tmp_path: Path) -> None:
    """``pairs.jsonl`` quotes real notes beside their nearest synthetic ones: mode 600, whatever
    the umask, and a line separator inside a note stays inside its line."""
    import stat

    from synthdeid.privacy.measure import write_rows

    old = os.umask(0o022)
    try:
        write_rows([{"pair_id": "p", "real_text": "Mw.\u2028Jansen"}], tmp_path / "pairs.jsonl")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "pairs.jsonl").stat().st_mode) == 0o600
    assert (tmp_path / "pairs.jsonl").read_text(encoding="utf-8").count("\n") == 1


def test_a_note_over_the_size_limit_is_rejected_with_its_reason(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from synthdeid.phi.deidentify import default_max_note_chars

    big = {"id": "big", "text": "Mw. Jansen belde. " * 20}
    (work / "two.jsonl").write_text(NOTE + json.dumps(big) + "\n", encoding="utf-8")
    assert deid("two.jsonl", "out.jsonl", "--max-note-chars", "100") == 0
    assert "2 notes in, 1 out, 1 rejected" in capsys.readouterr().out
    [rejected] = [json.loads(x) for x in (work / "out.jsonl.rejects.jsonl").read_text().split("\n") if x]
    assert "360 characters, over the limit of 100" in rejected["reason"] and "--max-note-chars" in rejected["reason"]
    assert deid("two.jsonl", "strict.jsonl", "--max-note-chars", "100", "--strict") == 1
    assert "over the limit of 100" in capsys.readouterr().err and not (work / "strict.jsonl").exists()
    assert deid("two.jsonl", "zero.jsonl", "--max-note-chars", "0") == 1
    assert "--max-note-chars 0: at least one" in capsys.readouterr().err
    assert 1_000_000 <= default_max_note_chars() < 10**10  # sized to the machine's memory


def test_ray_started_off_a_terminal_logs_errors_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray's start-up warnings (token authentication, ...) printed on every run in CI and logs."""
    import logging

    ray = pytest.importorskip("ray")
    from synthdeid.phi import ray_engine

    calls: list[dict] = []
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kw: calls.append(kw))
    ray_engine.ensure_ray(None)
    ray_engine.ensure_ray("10.0.0.5:6379")
    assert [c["logging_level"] for c in calls] == [logging.ERROR, logging.ERROR]
    assert all(c["log_to_driver"] is False for c in calls)
