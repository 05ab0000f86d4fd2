"""What ``synthdeid deidentify`` writes for release: surrogates keyed by a secret (no public seed
undoes them), every occurrence of a string found replaced, nothing destroyed or replaced without
``--force``, bad notes listed in a rejects file while the rest goes on."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest
from tiny_draws import TinyDraws
from toy_notes import toy_docs

from synthdeid import Document, InputError, Span
from synthdeid.cli import main
from synthdeid.corpus_io import read_documents, write_documents
from synthdeid.phi.deidentify import _without_phi
from synthdeid.phi.every_occurrence import add_every_occurrence
from synthdeid.phi.pseudonymize import pseudonymize
from synthdeid.phi.surrogate_key import SurrogateKey, load_or_create_key
from synthdeid.plugin_system.manager import registry
from synthdeid.plugins.torch_tagger import create

FAST = {"threads": 1, "batch_size": 8, "hidden_size": 32, "embedding_size": 32, "char_filters": 16}


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("release_tagger")
    pack = registry("language").create("nl")
    create({**FAST, "max_epochs": 12, "patience": 4}).train(
        toy_docs(40, seed=0), toy_docs(10, seed=1), out, pack.tokenize
    )
    return out


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    path = tmp_path / "notes.jsonl"
    write_documents(toy_docs(12, seed=21), path)
    return path


def run(*argv: object) -> int:
    return main([str(a) for a in argv])


def deid(notes: Path, out: Path, model: Path, *extra: object) -> int:
    return run("deidentify", notes, out, "--model", model, "--language", "nl", "--mode", "surrogate", *extra)


# -- keyed surrogates ---------------------------------------------------------------------------


def test_default_runs_draw_a_fresh_key_and_a_key_file_repeats(model: Path, notes: Path, tmp_path: Path) -> None:
    assert deid(notes, tmp_path / "a.jsonl", model) == 0
    assert deid(notes, tmp_path / "b.jsonl", model) == 0
    assert (tmp_path / "a.jsonl").read_bytes() != (tmp_path / "b.jsonl").read_bytes()
    assert not list(tmp_path.glob("*key*"))  # the run's key is never written
    key = tmp_path / "deid.key"
    assert deid(notes, tmp_path / "c.jsonl", model, "--key-file", key) == 0
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert deid(notes, tmp_path / "d.jsonl", model, "--key-file", key) == 0
    assert (tmp_path / "c.jsonl").read_bytes() == (tmp_path / "d.jsonl").read_bytes()


def test_no_public_seed_recomputes_the_surrogates(model: Path, notes: Path, tmp_path: Path) -> None:
    """The tester's attack: the old output was pseudonymize(note, pack, seed) with the public
    --seed (default 0); recomputing it for any small seed no longer matches the output."""
    assert deid(notes, tmp_path / "out.jsonl", model, "--keep-ids") == 0  # to pair each note with its original
    assert run("deidentify", notes, tmp_path / "found.jsonl", "--model", model, "--language", "nl") == 0
    found = {d.id: d for d in read_documents(tmp_path / "found.jsonl")}
    released = list(read_documents(tmp_path / "out.jsonl"))
    pack = registry("language").create("nl")
    assert any(d.spans for d in released)
    for doc in released:
        for seed in range(20):
            assert pseudonymize(found[doc.id], pack, seed).text != doc.text or not doc.spans


def test_a_key_file_others_can_read_or_that_is_no_key_is_refused(tmp_path: Path) -> None:
    key = tmp_path / "k"
    first = load_or_create_key(key)
    assert load_or_create_key(key).seed("n1") == first.seed("n1") != SurrogateKey.fresh().seed("n1")
    assert "<secret>" in repr(first) and key.read_text().split()[-1] not in repr(first)
    os.chmod(key, 0o644)
    with pytest.raises(InputError, match=r"readable or writable by others \(mode 644\)") as e:
        load_or_create_key(key)
    assert f"chmod 600 {key}" in str(e.value)
    bad = tmp_path / "bad"
    bad.write_text("not a key\n")
    os.chmod(bad, 0o600)
    with pytest.raises(InputError, match="not a synthdeid key file"):
        load_or_create_key(bad)
    os.chmod(key, 0o600)
    (tmp_path / "link").symlink_to(key)
    with pytest.raises(InputError, match="symbolic link"):
        load_or_create_key(tmp_path / "link")
    with pytest.raises(InputError, match="folder does not exist"):
        load_or_create_key(tmp_path / "nope" / "k")


def test_seed_is_refused_with_the_reason(model: Path, notes: Path, tmp_path: Path, capsys) -> None:
    assert deid(notes, tmp_path / "o.jsonl", model, "--seed", "0") == 1
    err = capsys.readouterr().err
    assert "--seed is gone" in err and "--key-file" in err
    assert not (tmp_path / "o.jsonl").exists()


# -- every occurrence ---------------------------------------------------------------------------


def test_every_whole_word_occurrence_of_a_found_string_becomes_a_span() -> None:
    text = "Aafje belde. Later kwam Aafje terug, Aafjes zus niet. AAFJE? Dr. Aafje-Jansen."
    doc = Document.create("n", text, [Span(0, 5, "Name")])
    out, added = add_every_occurrence(doc)
    assert [out.surface(s) for s in out.spans] == ["Aafje", "Aafje", "Aafje"] and added == 2
    assert all(s.label == "Name" for s in out.spans)
    assert [text[s.start - 5 : s.start] for s in out.spans[1:]] == ["kwam ", " Dr. "]


def test_the_longer_string_wins_and_spans_already_there_stay() -> None:
    text = "Jan Jansen en Jan. Jan Jansen belde."
    doc = Document.create("n", text, [Span(0, 10, "Name"), Span(14, 17, "Name")])
    out, added = add_every_occurrence(doc)
    assert [out.surface(s) for s in out.spans] == ["Jan Jansen", "Jan", "Jan Jansen"] and added == 1
    assert add_every_occurrence(out) == (out, 0)


def test_surrogate_mode_leaves_no_original_beside_its_surrogate(model: Path, tmp_path: Path, capsys) -> None:
    """The tagger finds the name where its context is typical and may miss it elsewhere; the
    original never stays in the output."""
    docs = [
        Document.create(f"n{i}", f"Mw. Visser kwam op 3 januari. Visser belde later. Vandaag {i} keer Visser gezien.")
        for i in range(4)
    ]
    write_documents(docs, tmp_path / "in.jsonl")
    assert deid(tmp_path / "in.jsonl", tmp_path / "out.jsonl", model) == 0
    added = int(re.search(r"and (\d+) more on further occurrences", capsys.readouterr().out).group(1))
    out = list(read_documents(tmp_path / "out.jsonl"))
    assert all("Visser" not in d.text for d in out)
    assert added >= 0  # how many the tagger missed depends on the tiny model; the output is what counts


def test_a_reason_in_the_rejects_file_never_quotes_the_phi() -> None:
    doc = Document.create("n", "Mw. Visser, 12 maart.", [Span(4, 10, "Name"), Span(12, 20, "Date")])
    reason = "document 'n', span 12-20 Date: no Date surrogate different from '12 maart' nor \"Visser\" (a)"
    assert (
        _without_phi(reason, doc)
        == "document 'n', span 12-20 Date: no Date surrogate different from <Date> nor <Name> (a)"
    )


# -- nothing destroyed, nothing widened -----------------------------------------------------------


@pytest.mark.parametrize("alias", ["same", "symlink", "hardlink", "dotted"])
def test_the_input_is_never_the_output(model: Path, notes: Path, tmp_path: Path, alias: str, capsys) -> None:
    before = notes.read_bytes()
    target = {
        "same": notes,
        "symlink": tmp_path / "link.jsonl",
        "hardlink": tmp_path / "hard.jsonl",
        "dotted": tmp_path / "." / "x" / ".." / notes.name,
    }[alias]
    if alias == "symlink":
        target.symlink_to(notes)
    if alias == "hardlink":
        os.link(notes, target)
    assert deid(notes, target, model, "--force") == 1
    assert "the output is the input" in capsys.readouterr().err
    assert run("convert", notes, target, "--to", "conll", "--force") == 1
    assert "the output is the input" in capsys.readouterr().err
    assert notes.read_bytes() == before


def test_a_folder_of_notes_is_never_written_into(model: Path, tmp_path: Path, capsys) -> None:
    src = tmp_path / "notes"
    src.mkdir()
    (src / "a.txt").write_text("Mw. Visser kwam op 3 januari.", encoding="utf-8")
    for out in (src, src / "clean", tmp_path):
        assert deid(src, out, model, "--to", "text", "--force") == 1
        assert "the output is the input" in capsys.readouterr().err
    assert [p.name for p in src.iterdir()] == ["a.txt"]


def test_an_existing_output_needs_force_and_outputs_stay_private(
    model: Path, notes: Path, tmp_path: Path, capsys
) -> None:
    os.chmod(notes, 0o600)
    out = tmp_path / "out.jsonl"
    out.write_text("keep me\n")
    assert deid(notes, out, model) == 1
    assert "already exists" in capsys.readouterr().err and out.read_text() == "keep me\n"
    assert deid(notes, out, model, "--force") == 0
    assert stat.S_IMODE(out.stat().st_mode) & 0o077 == 0
    assert run("convert", notes, out) == 1 and "pass --force" in capsys.readouterr().err


# -- rejects ------------------------------------------------------------------------------------


def test_an_empty_note_is_rejected_and_the_rest_goes_on(model: Path, tmp_path: Path, capsys) -> None:
    lines = [json.dumps(d.to_dict()) for d in toy_docs(5, seed=4)]
    lines.insert(2, json.dumps({"id": "empty", "text": "   "}))
    (tmp_path / "in.jsonl").write_text("\n".join(lines) + "\n")
    assert deid(tmp_path / "in.jsonl", tmp_path / "out.jsonl", model) == 0
    assert "6 notes in, 5 out, 1 rejected" in capsys.readouterr().out
    [rejected] = [json.loads(x) for x in (tmp_path / "out.jsonl.rejects.jsonl").read_text().splitlines()]
    assert "empty" in rejected["reason"] and f"{tmp_path / 'in.jsonl'}:3" in rejected["where"]
    assert stat.S_IMODE((tmp_path / "out.jsonl.rejects.jsonl").stat().st_mode) & 0o077 == 0
    assert len(list(read_documents(tmp_path / "out.jsonl"))) == 5
    assert deid(tmp_path / "in.jsonl", tmp_path / "strict.jsonl", model, "--strict") == 1
    assert "empty" in capsys.readouterr().err and not (tmp_path / "strict.jsonl").exists()


@pytest.mark.parametrize("corpus", ["pseudonymized", "data/prepared/train.jsonl", "data/corpus/documents.jsonl"])
def test_export_refuses_the_studys_real_notes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, corpus: str
) -> None:
    """The pipeline's pseudonymized notes are seeded from params: they never leave the project."""
    monkeypatch.chdir(tmp_path)
    for f in ("data/pseudonymized/train.jsonl", "data/prepared/train.jsonl", "data/corpus/documents.jsonl"):
        Path(f).parent.mkdir(parents=True, exist_ok=True)
        write_documents(toy_docs(2, seed=1), f)
    assert run("export", corpus, "out.jsonl", "--to", "jsonl", "--language", "nl") == 1
    err = capsys.readouterr().err
    assert "refuses the study's real notes" in err and "deidentify" in err
    assert not Path("out.jsonl").exists()


def test_a_surrogate_is_never_another_original_of_the_note() -> None:
    import dataclasses

    from synthdeid.errors import SurrogateError
    from synthdeid.phi.keyed_surrogates import keyed_pseudonymize

    nl = registry("language").create("nl")
    text = "Bos belde Visser. Daarna kwam de Vries."
    doc = Document.create("n", text, [Span(0, 3, "Name"), Span(10, 16, "Name"), Span(30, 38, "Name")])
    small = dataclasses.replace(
        nl, surrogates=lambda doc_id, seed: TinyDraws(seed, ["Visser", "Bos", "Vries", "Smit", "Mol", "Kok"])
    )
    key = SurrogateKey(bytes(32))
    outs = {keyed_pseudonymize(doc, small, key).text for _ in range(3)}
    [out] = outs  # keyed: the same every time
    assert not any(stays(w, out) for w in ("Bos", "Visser", "de Vries"))
    stuck = dataclasses.replace(nl, surrogates=lambda doc_id, seed: TinyDraws(seed, ["Visser", "Bos"]))
    with pytest.raises(SurrogateError, match="each of 16 keyed draws"):
        keyed_pseudonymize(
            Document.create("m", "Bos belde Visser.", [Span(0, 3, "Name"), Span(10, 16, "Name")]), stuck, key
        )


def stays(word: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None
