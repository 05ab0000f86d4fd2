"""``synthdeid deidentify --engine ray``: the same notes out as the one-process engine, byte for
byte with one key file, as resumable mode-600 shards with a manifest that holds no key."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from toy_notes import toy_docs

pytest.importorskip("ray", reason="Ray is an optional extra: pip install -e '.[ray]' (make test installs it)")

import contextlib

from rich.console import Console

from synthdeid import Document
from synthdeid.cli import build_parser, main
from synthdeid.corpus_io import write_documents
from synthdeid.errors import InputError
from synthdeid.phi import ray_engine
from synthdeid.phi.deidentify_command import job_from_args
from synthdeid.phi.ray_engine import run_on_ray
from synthdeid.phi.surrogate_key import load_or_create_key
from synthdeid.plugin_system.manager import registry
from synthdeid.plugins.torch_tagger import create

pytestmark = pytest.mark.slow  # starts a local Ray cluster (`make test-fast` leaves it out)

FAST = {"threads": 1, "batch_size": 8, "hidden_size": 32, "embedding_size": 32, "char_filters": 16}
BLOCK = 7


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ray_tagger")
    pack = registry("language").create("nl")
    create({**FAST, "max_epochs": 8, "patience": 3}).train(
        toy_docs(30, seed=0), toy_docs(8, seed=1), out, pack.tokenize
    )
    return out


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ray_engine, "DEFAULT_BLOCK_NOTES", BLOCK)


def _args(src: Path, out: Path, model: Path, key: Path, *extra: str) -> list[str]:
    return ["deidentify", str(src), str(out), "--model", str(model), "--language", "nl", "--mode", "surrogate",
            "--key-file", str(key), *extra]  # fmt: skip


def _shards(folder: Path) -> bytes:
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["complete"] and [s["index"] for s in manifest["shards"]] == list(range(len(manifest["shards"])))
    return b"".join((folder / s["file"]).read_bytes() for s in manifest["shards"])


def _accounting(text: str) -> str:
    """The report's accounting, without its rate and path."""
    line = next(ln for ln in text.splitlines() if "notes in" in ln)
    return line.split(" (")[0] + " " + line.split("notes/s);")[1].split("; wrote")[0]


def _local(src: Path, tmp: Path, model: Path, key: Path, capsys: Any) -> tuple[bytes, str]:
    out = tmp / "local.jsonl"
    assert main(_args(src, out, model, key, "--engine", "local", "--threads", "1")) == 0
    return out.read_bytes(), _accounting(capsys.readouterr().out)


def _notes_with_problems() -> list[str]:
    docs = toy_docs(30, seed=21)
    lines = [json.dumps(d.to_dict(), ensure_ascii=False) for d in docs]
    lines.insert(4, "not json")  # a reader reject in the first shard
    lines.insert(12, json.dumps({"id": docs[2].id, "text": "Dhr. Bos belde."}))  # a repeat, two shards on
    lines.insert(20, json.dumps({"id": "empty", "text": ""}))  # an empty note
    return lines


@pytest.mark.parametrize("source", ["notes.jsonl", "notes", "notes.parquet"])
def test_ray_writes_what_the_local_engine_writes(
    local_ray: Any, model: Path, tmp_path: Path, capsys: Any, source: str
) -> None:
    """Shards in manifest order = ``--engine local``'s JSONL, byte for byte (one key file), and the
    same accounting line (notes in = out + rejected)."""
    key = tmp_path / "deid.key"
    load_or_create_key(key)
    jsonl = tmp_path / "notes.jsonl"
    jsonl.write_text("\n".join(_notes_with_problems()) + "\n", encoding="utf-8")
    if source == "notes":
        (tmp_path / "notes" / "ward").mkdir(parents=True)
        for doc in toy_docs(17, seed=4):
            (tmp_path / "notes" / "ward" / f"{doc.id}.txt").write_text(doc.text, encoding="utf-8")
        (tmp_path / "notes" / "blank.txt").write_text("  \n", encoding="utf-8")  # an empty note: a reject
    local, accounting = _local(
        tmp_path / ("notes" if source == "notes" else "notes.jsonl"), tmp_path, model, key, capsys
    )
    out = tmp_path / "ray"
    if source == "notes.parquet":
        _to_parquet(jsonl, tmp_path / source)
        assert main(_args(tmp_path / source, tmp_path / "nope.jsonl", model, key)) == 1  # one process: refused
        assert "--engine ray" in capsys.readouterr().err
    assert main(_args(tmp_path / source, out, model, key, "--engine", "ray")) == 0
    captured = capsys.readouterr()
    assert _shards(out) == local
    if source != "notes.parquet":  # Parquet cannot hold the line that is no JSON
        assert _accounting(captured.out) == accounting
    assert "notes in" in captured.out and "Running" not in captured.err  # Ray Data quiet off a terminal


def _to_parquet(jsonl: Path, path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = []
    for line in jsonl.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            continue
    table = pa.table({"id": [r["id"] for r in rows], "text": [r["text"] for r in rows]})
    pq.write_table(table, path, row_group_size=11)  # row groups that do not match the shards


def test_rejects_are_listed_per_shard_and_accounted(local_ray: Any, model: Path, tmp_path: Path, capsys: Any) -> None:
    src = tmp_path / "notes.jsonl"
    src.write_text("\n".join(_notes_with_problems()) + "\n", encoding="utf-8")
    out = tmp_path / "ray"
    assert main(["deidentify", str(src), str(out), "--model", str(model), "--language", "nl", "--engine", "ray"]) == 0
    captured = capsys.readouterr()
    assert "33 notes in, 30 out, 3 rejected" in captured.out and "ray.rejects.jsonl" in captured.err
    manifest = json.loads((out / "manifest.json").read_text())
    shards = manifest["shards"]
    assert sum(s["notes_in"] for s in shards) == 33 and sum(s["out"] for s in shards) == 30
    assert all(s["notes_in"] == s["out"] + s["rejected"] for s in shards)
    listed = [json.loads(ln) for s in shards if s["rejects"] for ln in (out / s["rejects"]).read_text().splitlines()]
    assert [r["where"] for r in listed] == [f"{src}:5", f"{src}:13, document 'd21-2'", f"{src}:21, document 'empty'"]
    assert "malformed JSON" in listed[0]["reason"] and "duplicate document id" in listed[1]["reason"]
    combined = [json.loads(ln) for ln in (tmp_path / "ray.rejects.jsonl").read_text().splitlines()]
    assert combined == listed


def test_strict_stops_at_the_first_bad_note(local_ray: Any, model: Path, tmp_path: Path, capsys: Any) -> None:
    src = tmp_path / "notes.jsonl"
    src.write_text("\n".join(_notes_with_problems()) + "\n", encoding="utf-8")
    args = ["deidentify", str(src), str(tmp_path / "ray"), "--model", str(model), "--language", "nl"]
    assert main([*args, "--engine", "ray", "--strict"]) == 1
    assert f"{src}:5: malformed JSON" in capsys.readouterr().err


def test_files_are_private_and_the_manifest_holds_no_key(
    local_ray: Any, model: Path, tmp_path: Path, capsys: Any
) -> None:
    key = tmp_path / "deid.key"
    secret = load_or_create_key(key)._secret.hex()
    src = tmp_path / "notes.jsonl"
    src.write_text("\n".join(_notes_with_problems()) + "\n", encoding="utf-8")
    out = tmp_path / "ray"
    assert main(_args(src, out, model, key, "--engine", "ray")) == 0
    capsys.readouterr()
    files = [*out.iterdir(), tmp_path / "ray.rejects.jsonl"]
    assert len(files) > 10 and all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files)
    assert stat.S_IMODE(out.stat().st_mode) == 0o700
    assert not [f for f in out.iterdir() if f.name.endswith(".tmp")]
    manifest_text = (out / "manifest.json").read_text()
    for f in out.iterdir():
        text = f.read_text()
        assert secret not in text and secret[:16] not in text
    manifest = json.loads(manifest_text)
    assert len(manifest["key_fingerprint"]) == 32 and "key" not in manifest["settings"]
    assert manifest["settings"]["mode"] == "surrogate" and manifest["settings"]["block_notes"] == BLOCK


def test_another_job_in_the_folder_is_refused(local_ray: Any, model: Path, tmp_path: Path, capsys: Any) -> None:
    key, other = tmp_path / "deid.key", tmp_path / "other.key"
    src = tmp_path / "notes.jsonl"
    write_documents(toy_docs(20, seed=8), src)
    out = tmp_path / "ray"
    assert main(_args(src, out, model, key, "--engine", "ray")) == 0
    job = job_from_args(build_parser().parse_args(_args(src, tmp_path / "x", model, key, "--engine", "ray")))
    job = dataclasses.replace(job, output=out)
    console = Console(soft_wrap=True)
    assert run_on_ray(job, console) == 0  # the same job: every shard is done already
    assert "resumed: 3 of 3 shard(s)" in capsys.readouterr().out
    with pytest.raises(InputError, match=r"another job's shards: the settings \(mask, mode\)"):
        run_on_ray(dataclasses.replace(job, mode="redact", key=None, mask="***"), console)
    with pytest.raises(InputError, match="the surrogate key"):
        run_on_ray(dataclasses.replace(job, key=load_or_create_key(other)), console)
    with pytest.raises(InputError, match=r"the settings \(block_notes\)"):
        run_on_ray(job, console, block_notes=5)
    with pytest.raises(InputError, match="the input"):
        write_documents(toy_docs(21, seed=8), src.with_name("more.jsonl"))
        os.replace(src.with_name("more.jsonl"), src)
        run_on_ray(job, console)
    assert run_on_ray(job, console, force=True) == 0  # --force: start over
    assert "21 notes in, 21 out" in capsys.readouterr().out and len(list(out.glob("*.done.json"))) == 3


def test_a_killed_run_resumes_with_every_note_once(local_ray: Any, model: Path, tmp_path: Path, capsys: Any) -> None:
    """SIGKILL the driver once the first shard is done; the same command again redoes only what is
    missing, and the shards then equal the one-process output."""
    key = tmp_path / "deid.key"
    load_or_create_key(key)
    src = tmp_path / "notes.jsonl"
    write_documents(toy_docs(1500, seed=13), src)
    out = tmp_path / "ray"
    block = 25
    command = _args(src, out, model, key, "--engine", "ray", "--block-notes", str(block))
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"} | {"OMP_NUM_THREADS": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "synthdeid.cli", *command[0:]],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 240
        while not list(out.glob("*.done.json")) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:] if proc.stderr else ""
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        _end_group(proc)
    done_before = len(list(out.glob("*.done.json")))
    assert 1 <= done_before < 1500 // block
    assert main(command) == 0  # the same command again
    report = capsys.readouterr().out
    assert "1500 notes in, 1500 out, 0 rejected" in report
    resumed = int(report.split("resumed: ")[1].split(" of 60 shard(s)")[0])
    assert done_before <= resumed < 60  # a worker of the killed driver may finish its shard meanwhile
    local, _ = _local(src, tmp_path, model, key, capsys)
    assert _shards(out) == local
    ids = [json.loads(line)["id"] for line in _shards(out).decode().splitlines()]
    public = load_or_create_key(key).public_id  # surrogate ids are keyed hashes of the input ids
    assert ids == [public(d.id) for d in toy_docs(1500, seed=13)]


def _end_group(proc: subprocess.Popen[bytes]) -> None:
    """End what the killed driver's own Ray left in its process group (its session)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


def test_documents_survive_as_their_own_records(tmp_path: Path) -> None:
    """The planner reads the line ranges it cut: every record once, in order (no Ray needed)."""
    from synthdeid.phi.note_sources import plan_shards, read_shard

    docs = [Document.create(f"n{i}", f"Note {i}\r\nmet regels") for i in range(23)]
    src = tmp_path / "n.jsonl"
    src.write_bytes(b"\xef\xbb\xbf" + b"".join(json.dumps(d.to_dict()).encode() + b"\r\n\n" for d in docs))
    shards, _ = plan_shards(src, "jsonl", 5, strict=False)
    assert len(shards) == 5
    read = [d for s in shards for d in read_shard(s, [])]
    assert read == docs


def test_ray_writes_public_ids_and_the_same_id_map(local_ray: Any, model: Path, tmp_path: Path, capsys: Any) -> None:
    """Surrogate shards carry keyed hashes of the ids, in the notes and the rejects alike, and
    ``--id-map`` (read again by the driver) is the local engine's, byte for byte."""
    key = tmp_path / "deid.key"
    src = tmp_path / "notes.jsonl"
    src.write_text("\n".join(_notes_with_problems()) + "\n", encoding="utf-8")
    local = tmp_path / "local.jsonl"
    assert main(_args(src, local, model, key, "--id-map", str(tmp_path / "local.ids.jsonl"))) == 0
    out = tmp_path / "ray"
    assert main(_args(src, out, model, key, "--engine", "ray", "--id-map", str(tmp_path / "ray.ids.jsonl"))) == 0
    capsys.readouterr()
    assert _shards(out) == local.read_bytes()
    ray_map = (tmp_path / "ray.ids.jsonl").read_bytes()
    assert ray_map == (tmp_path / "local.ids.jsonl").read_bytes()
    assert stat.S_IMODE((tmp_path / "ray.ids.jsonl").stat().st_mode) == 0o600
    inputs = {json.loads(x)["id"] for x in _notes_with_problems() if x.startswith("{")}
    written = [json.loads(x)["id"] for x in _shards(out).decode().split("\n") if x]
    assert len(written) == 30 and not inputs & set(written)
    rejects = (tmp_path / "ray.rejects.jsonl").read_text()
    assert "'empty'" not in rejects and "'d21-2'" not in rejects
    mapping = {json.loads(x)["id"]: json.loads(x)["input_id"] for x in ray_map.decode().split("\n") if x}
    assert set(written) <= set(mapping) and "empty" in mapping.values()
