"""The data-constraint ablation (Vakili et al. 2025): a generator learns from a seeded share of the
real training notes (``generators.NAME.data_share``), the same share train_lm and audit_lm see, and
a machine annotator is trained on a share of the gold notes (``machine_annotated.NAME.tagger_share``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from synthdeid import Document, InputError
from synthdeid.corpus.formats import write_jsonl
from synthdeid.corpus.split import check_share, share_indices
from synthdeid.generation.lm_text import data_seed, training_text
from synthdeid.spec import validate
from synthdeid.spec.study import GeneratorSection


def test_shares_are_seeded_nested_and_never_empty() -> None:
    quarter, half = share_indices(40, 0.25, 3), share_indices(40, 0.5, 3)
    assert len(quarter) == 10 and len(half) == 20 and set(quarter) <= set(half)
    assert quarter == sorted(quarter) == share_indices(40, 0.25, 3) != share_indices(40, 0.25, 4)
    assert share_indices(40, 1.0, 0) == list(range(40)) and share_indices(3, 0.01, 0) != []
    assert share_indices(0, 0.5, 0) == []


@pytest.mark.parametrize("bad", [0, -0.5, 1.5, "half", True, None])
def test_a_bad_share_names_its_key(bad: object) -> None:
    with pytest.raises(InputError, match=r"generators\.g\.data_share must be a number in \(0, 1\]"):
        check_share(bad, "generators.g.data_share")


@pytest.fixture()
def lm_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for split, n in (("train", 20), ("dev", 4)):
        docs = [Document.create(f"{split}-{i}", f"note {i}", []) for i in range(n)]
        write_jsonl(docs, f"data/pseudonymized/{split}.jsonl")
        lines = [f"<NameSTART> Jan{i} <NameEND> note {i} <EOD>" for i in range(n)]
        Path("data/inline").mkdir(parents=True, exist_ok=True)
        Path(f"data/inline/{split}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


def test_a_generator_learns_from_its_share_of_the_notes_with_ids_in_step(lm_data: Path) -> None:
    full, full_ids, share = training_text(GeneratorSection(plugin="lstm"), 0)
    assert share == 1.0 and len(full["train"]) == 20 and len(full["dev"]) == 4
    spec = GeneratorSection(plugin="lstm", data_share=0.25, tags=False, config={"seed": 1})
    text, ids, share = training_text(spec, 1)
    assert share == 0.25 and len(text["train"]) == len(ids["train_ids"]) == 5
    for line, doc_id in zip(text["train"], ids["train_ids"]):  # each line still belongs to its note
        i = doc_id.split("-")[1]
        assert line == f"Jan{i} note {i} <EOD>"  # tags: false strips the tags, keeps their words
    assert text["dev"] == [f"Jan{i} note {i} <EOD>" for i in range(4)]  # the held-out notes are all kept
    assert ids["train_ids"] == [full_ids["train_ids"][i] for i in share_indices(20, 0.25, 1)]


def test_the_share_is_drawn_with_the_generators_seed() -> None:
    """The config's seed; 0 when the config leaves it to the data (gpt2's None) or has none."""

    class Config:
        def __init__(self, seed: object) -> None:
            self.seed = seed

    class Gen:
        def __init__(self, config: object) -> None:
            self.config = config

    assert data_seed(Gen(Config(3))) == 3
    assert data_seed(Gen(Config(None))) == 0
    assert data_seed(Gen(object())) == 0 and data_seed(object()) == 0
    assert data_seed(Gen({"seed": 2})) == 2 and data_seed(Gen({})) == 0  # a plugin keeping its config as a dict


def test_a_tagger_share_needs_the_real_gold_tagger() -> None:
    params = {"machine_annotated": {"m": {"corpus": "raw_p", "tagger": "synthetic-x", "tagger_share": 0.5}}}
    with pytest.raises(InputError, match="so tagger must be real"):
        validate(params)
    params["machine_annotated"]["m"].update(tagger="real", tagger_share=2)
    with pytest.raises(InputError, match="tagger_share: must be less than or equal to 1"):
        validate(params)
    params["machine_annotated"]["m"]["tagger_share"] = 0.5
    assert validate(params).machine_annotated["m"].tagger_share == 0.5
