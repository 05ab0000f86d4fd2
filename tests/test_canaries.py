"""Canaries and the model-based privacy metrics: exposure and membership-inference math on
hand-computed values, canary insertion, a tiny LSTM that memorises a canary inserted 20 times,
and the ``train_lm`` / ``audit_lm`` stages with an in-test bigram generator."""

from __future__ import annotations

import json
import math
import random
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from synthdeid import CANONICAL_TAGS, Document, SynthdeidError, hookimpl
from synthdeid.api import PrivacyInput, TrainingData
from synthdeid.cli import main as cli
from synthdeid.corpus.inline import special_tokens
from synthdeid.corpus_io import write_documents
from synthdeid.errors import InputError
from synthdeid.generation.toy_lm import BigramLM
from synthdeid.plugins import registry
from synthdeid.privacy.audit.exposure import (
    exposure_from_rank,
    extrapolated_exposure,
    lower_or_equal,
    sampled_exposure,
)
from synthdeid.privacy.audit.membership import auc, best_advantage, bootstrap_auc
from synthdeid.privacy.canaries import (
    CANARY_FILE,
    CanaryConfig,
    CanarySpace,
    add_canaries,
    insert_canaries,
    line_budget,
    numeric_pool,
    read_canaries,
    write_canaries,
)

TEMPLATE = "Nummer : <Phone_faxSTART> {} {} {} {} <Phone_faxEND> <EOD>"
LABELS = ["Name", "Date", "Phone_fax"]


def notes(n: int, seed: int) -> list[str]:
    """Toy inline notes with numbers (the canaries' slot tokens) and one rare word each."""
    rnd = random.Random(seed)
    return [
        f"Gesprek met <NameSTART> {rnd.choice(['Jan', 'Anna', 'Kees'])} <NameEND> op <DateSTART> "
        f"{rnd.randint(1, 12)} mei <DateEND> . <PAR> Kamer {rnd.randint(1, 12)} , "
        f"{rnd.choice(['goed geslapen', 'wond verzorgd', 'familie belde'])} zeldzaam{seed}x{i} . <EOD>"
        for i in range(n)
    ]


# exposure math ----------------------------------------------------------------------------------


def test_exposure_from_rank_by_hand():
    assert exposure_from_rank(1, 1024) == 10.0  # the model's favourite: log2 |R|
    assert exposure_from_rank(4, 1024) == 8.0
    assert exposure_from_rank(1024, 1024) == 0.0
    with pytest.raises(ValueError):
        exposure_from_rank(0, 8)


def test_sampled_exposure_by_hand_with_ties():
    ref = [1.0, 2.0, 6.0, 7.0, 8.0, 9.0, 10.0]
    assert lower_or_equal(5.0, ref) == 2
    assert sampled_exposure(5.0, ref) == pytest.approx(3 - math.log2(3))  # (1 + 2) / (1 + 7)
    assert sampled_exposure(0.5, ref) == 3.0  # below every candidate: log2(n + 1)
    assert sampled_exposure(2.0, [2.0, 2.0, 3.0]) == pytest.approx(2 - math.log2(3))  # ties count against


def test_sampled_exposure_over_the_whole_space_is_the_exact_exposure():
    lps = [3.0, 1.0, 4.0, 1.5, 9.0, 2.6, 5.0, 3.5]  # all |R| = 8 candidates
    for i, lp in enumerate(lps):
        others = lps[:i] + lps[i + 1 :]
        rank = 1 + sum(o <= lp for o in others)
        assert sampled_exposure(lp, others) == pytest.approx(exposure_from_rank(rank, 8))


def test_extrapolated_exposure_goes_past_the_sample_and_stops_at_the_space():
    rnd = random.Random(0)
    ref = [rnd.gauss(50, 5) for _ in range(2000)]
    middle = extrapolated_exposure(50.0, ref, 1e9)
    assert middle == pytest.approx(1.0, abs=0.15)  # half the candidates are below the median
    far = extrapolated_exposure(20.0, ref, 1e9)
    assert math.log2(len(ref) + 1) < far <= math.log2(1e9)
    assert extrapolated_exposure(-1e6, ref, 1e9) == pytest.approx(math.log2(1e9))
    assert extrapolated_exposure(1.0, [1.0] * 50, 100) is None


# membership-inference math ----------------------------------------------------------------------


def test_auc_by_hand_with_ties():
    members, nonmembers = [0.9, 0.8, 0.4], [0.7, 0.4, 0.1]
    # pairs won: 0.9 and 0.8 beat all three (6); 0.4 beats 0.1 (1) and ties 0.4 (0.5): 7.5 / 9
    assert auc(members, nonmembers) == pytest.approx(7.5 / 9)
    assert auc([1.0], [1.0]) == 0.5 and auc([0.0], [1.0]) == 0.0


def test_best_advantage_by_hand():
    best = best_advantage([0.9, 0.8, 0.4], [0.7, 0.4, 0.1])
    assert (best.threshold, best.tpr, best.fpr) == (0.8, pytest.approx(2 / 3), 0.0)
    assert best.advantage == pytest.approx(2 / 3)
    assert best_advantage([0.1], [0.5]).threshold is None  # nothing beats guessing


def test_bootstrap_interval_is_seeded_and_brackets_the_auc():
    rnd = random.Random(1)
    a, b = [rnd.gauss(1, 1) for _ in range(80)], [rnd.gauss(0, 1) for _ in range(80)]
    low, high = bootstrap_auc(a, b, 300, seed=3)
    assert low < auc(a, b) < high and (low, high) == bootstrap_auc(a, b, 300, seed=3)


# canaries ---------------------------------------------------------------------------------------


def test_space_text_size_and_sampling():
    space = CanarySpace("X {} {} <EOD>", ("1", "2", "3"))
    assert (space.slots, space.size) == (2, 9) and space.text((2, 0)) == "X 3 1 <EOD>"
    secrets, every = space.sample(5, seed=0, exclude=[(0, 0)])
    assert not every and len(set(secrets)) == 5 and (0, 0) not in secrets
    assert secrets == space.sample(5, seed=0, exclude=[(0, 0)])[0]
    secrets, every = space.sample(8, seed=0, exclude=[(0, 0)])  # the rest of R: enumerated
    assert every and len(secrets) == 8 and (0, 0) not in secrets


def test_insertion_keeps_counts_ids_and_order_and_leaves_the_inputs_alone():
    lines, ids = notes(50, 0), [f"doc-{i}" for i in range(50)]
    before = (list(lines), list(ids))
    config = CanaryConfig(
        repetitions=(1, 5, 20), per_repetition=2, template=TEMPLATE, min_count=2, max_line_share=None
    )  # uncapped: 52 lines into 50
    new_lines, new_ids, record = add_canaries(config, lines, ids, LABELS)
    assert (lines, ids) == before
    assert len(new_lines) == len(new_ids) == 50 + 2 * 26 and record["lines_inserted"] == 52
    assert [i for i in new_ids if not i.startswith("canary-")] == ids  # real lines keep their order
    assert [x for x in new_lines if x in set(lines)] == lines
    assert len(set(new_ids)) == len(new_ids)
    for c in record["canaries"]:
        copies = [i for i, x in zip(new_ids, new_lines) if x == c["text"]]
        assert len(copies) == c["repetitions"] and all(i.startswith(c["id"] + "-copy-") for i in copies)
    assert sorted(c["repetitions"] for c in record["canaries"]) == [1, 1, 5, 5, 20, 20]
    assert record["space_size"] == len(record["pool"]) ** 4 == 10**4
    assert all(t in " ".join(lines).split() for t in record["pool"])
    assert add_canaries(config, lines, ids, LABELS) == (new_lines, new_ids, record)  # seeded
    assert insert_canaries(lines, ids, [], seed=0) == (lines, ids)


def test_canary_settings_and_pool_errors():
    from synthdeid.spec.study import GeneratorSection
    from synthdeid.toolkit import load_settings

    assert GeneratorSection.model_validate({"plugin": "lstm", "canaries": None}).canaries is None
    spec = GeneratorSection.model_validate({"plugin": "lstm", "canaries": {"repetitions": [2]}})
    assert spec.canaries == CanaryConfig(repetitions=(2,))  # the spec holds the built settings
    for bad in (
        {"repetitions": []},
        {"repetitions": [0]},
        {"template": "no slot <EOD>"},
        {"template": "{} without end"},
        {"pool_size": 1},
        {"repetitonz": [1]},
    ):
        with pytest.raises(SynthdeidError, match="canaries"):
            load_settings(CanaryConfig, bad, "canaries")
    # the study spec checks what a bound cannot express too, each at its dotted key, when params.yaml is read
    from synthdeid.spec.load import validate

    with pytest.raises(InputError) as err:
        validate(
            {
                "generators": {
                    "lstm": {"plugin": "lstm", "canaries": {"template": "no slot <EOD>", "repetitions": [1, 0]}}
                }
            }
        )
    assert "generators.lstm.canaries.template: must be single-space separated tokens with at least one {} slot" in str(
        err.value
    )
    assert "generators.lstm.canaries.repetitions: must be a list of whole numbers >= 1 (got [1, 0])" in str(err.value)
    # a small corpus: the pool takes what there is, down to the generator's min_count, and says so
    lines = ["a 1 2 3 1 2 3 4 4 4 5 <EOD>"]
    assert numeric_pool(lines, size=4, min_count=3) == (("4", "1", "2", "3"), 2)
    assert numeric_pool(lines, size=4, min_count=3, floor=1) == (("4", "1", "2", "3"), 2)
    assert numeric_pool(lines, size=9, min_count=3, floor=1) == (("4", "1", "2", "3", "5"), 1)
    assert numeric_pool(lines, size=9, min_count=3, floor=2) == (("4", "1", "2", "3"), 2)
    assert numeric_pool(lines, size=1, min_count=3) == (("4",), 3)
    with pytest.raises(SynthdeidError, match="canaries to null"):
        numeric_pool(["a 1 2 3 1 <EOD>"], size=4, min_count=3, floor=2)
    with pytest.raises(SynthdeidError, match="canaries to null"):  # the generator's min_count is a floor
        add_canaries(
            CanaryConfig(template=TEMPLATE, min_count=2), notes(50, 0), ["d"] * 50, LABELS, min_count_floor=1000
        )
    with pytest.raises(SynthdeidError, match="no template"):
        add_canaries(CanaryConfig(min_count=2), notes(50, 0), ["d"] * 50, LABELS)
    with pytest.raises(SynthdeidError, match="malformed or unknown"):
        add_canaries(CanaryConfig(template="<EmailSTART> {} <EOD>", min_count=2), notes(50, 0), ["d"] * 50, LABELS)


# the model-based metrics ------------------------------------------------------------------------


def test_canary_exposure_without_canaries_is_skipped(tmp_path):
    result = (
        registry("privacy_metric")
        .create("canary_exposure", {})
        .compute(PrivacyInput([], [], str.split, model_dir=tmp_path, extra={"lm": None}))
    )
    assert result.summary == {
        "skipped": "no canaries: the generator was trained without them (set generators.NAME.canaries)"
    }


def test_a_canary_seen_20_times_is_exposed_and_unseen_candidates_are_not(tmp_path):
    lines = notes(300, 1)
    config = CanaryConfig(repetitions=(20,), template=TEMPLATE, min_count=2)
    train, _, record = add_canaries(config, lines, [f"d{i}" for i in range(300)], LABELS)
    tiny = {
        "layers": 1,
        "embedding_size": 24,
        "hidden_size": 24,
        "batch_size": 8,
        "seq_len": 12,
        "eval_batch_size": 4,
        "min_count": 2,
        "learning_rate": 5.0,
        "dropout": 0.1,
        "max_epochs": 4,
        "seed": 3,
        "threads": 1,
    }
    gen = registry("generator").create("lstm", tiny)
    gen.train(TrainingData(train, notes(40, 2), special_tokens(LABELS)), tmp_path)
    write_canaries(record, tmp_path)
    lm = gen.load(tmp_path)
    data = PrivacyInput([], [], str.split, model_dir=tmp_path, extra={"lm": lm})
    summary = registry("privacy_metric").create("canary_exposure", {"candidates": 500}).compute(data).summary
    assert (summary["space_size"], summary["candidates"], summary["exhaustive"]) == (10**4, 500, False)
    (canary,) = summary["canaries"]
    assert canary["exposure"] >= 7.0  # at most log2(501) = 8.97 can be shown with 500 candidates
    assert summary["by_repetition"]["20"]["exposure_max"] == canary["exposure"]
    # as a membership attack: the canary beats all but 1% (and 0.1%) of the 500 candidates
    assert summary["by_repetition"]["20"]["tpr_at_fpr_1pct"] == 1.0
    assert summary["by_repetition"]["20"]["tpr_at_fpr_0_1pct"] is None  # 500 candidates cannot show 0.1%
    # the same measurement for candidates the model never saw: near the 1.44 bits of chance
    space, _ = read_canaries(tmp_path)
    unseen = [space.text(s) for s in space.sample(20, seed=99, exclude=[tuple(canary_secret(record))])[0]]
    record["canaries"] = [{**record["canaries"][0], "id": f"u{i}", "text": t} for i, t in enumerate(unseen)]
    write_canaries(record, tmp_path)
    others = registry("privacy_metric").create("canary_exposure", {"candidates": 500}).compute(data).summary
    exposures = sorted(r["exposure"] for r in others["canaries"])
    assert exposures[len(exposures) // 2] < 3.0 < canary["exposure"] - 4
    assert others["by_repetition"]["20"]["tpr_at_fpr_1pct"] <= 0.1  # 20 unseen candidates: about 1% of them


def canary_secret(record: dict) -> list[int]:
    return record["canaries"][0]["secret"]


def test_membership_inference_separates_a_memorising_model(tmp_path):
    train, dev = notes(120, 1), notes(120, 2)
    lm = BigramLM.fit(train, labels=CANONICAL_TAGS)  # every rare training word is known, no dev one
    data = PrivacyInput([], [], str.split, extra={"lm": lm, "lm_text": {"train": train, "dev": dev}})
    metric = registry("privacy_metric").create("membership_inference", {"max_notes": 60, "bootstrap": 200})
    summary = metric.compute(data).summary
    assert (summary["members"], summary["nonmembers"]) == (60, 60)
    assert summary["auc"] > 0.9 and summary["auc_ci95"][0] <= summary["auc"] <= summary["auc_ci95"][1]
    assert summary["advantage"] > 0.5 and summary["mean_nll"]["members"] < summary["mean_nll"]["nonmembers"]
    assert summary["tpr_at_fpr_1pct"] is None  # 60 non-members cannot show a 1% false-positive rate
    calibrated = summary["zlib_calibrated"]
    assert calibrated["auc"] > 0.9 and calibrated["members"] == 60 and calibrated["tpr_at_fpr_1pct"] is None
    assert summary == metric.compute(data).summary
    every = registry("privacy_metric").create("membership_inference", {"max_notes": 120, "bootstrap": 50})
    summary = every.compute(data).summary  # 120 a side: one false positive in 100 can be shown
    assert summary["tpr_at_fpr_1pct"] > 0.5 and summary["tpr_at_fpr_0_1pct"] is None
    assert summary["zlib_calibrated"]["tpr_at_fpr_1pct"] > 0.5
    assert summary["lowest_loss_members"][0]["id"].startswith("train-")


def test_model_metrics_are_listed_as_privacy_metric_plugins(capsys):
    assert cli(["plugins", "--json"]) == 0
    listed = {(e["kind"], e["name"]) for e in json.loads(capsys.readouterr().out)}
    assert {("privacy_metric", "canary_exposure"), ("privacy_metric", "membership_inference")} <= listed


# the stages -------------------------------------------------------------------------------------


class ToyGenerator:
    """A bigram 'generator' that remembers what it was trained on."""

    name = "toy_bigram"

    def __init__(self, config: dict) -> None:
        self.config = config

    def train(self, data: TrainingData, out_dir: Path) -> dict:
        (out_dir / "train.json").write_text(json.dumps({"lines": data.train, "ids": data.extra["train_ids"]}))
        return {"lines": len(data.train)}

    def load(self, out_dir: Path) -> BigramLM:
        return BigramLM.fit(json.loads((out_dir / "train.json").read_text())["lines"], labels=CANONICAL_TAGS)


class ToyPlugin:
    @hookimpl
    def register_generators(self, register):
        register("toy_bigram", ToyGenerator, config=None)  # takes no settings


def run_stage(module: str, monkeypatch, name: str = "toy") -> None:
    import importlib

    monkeypatch.setattr(sys, "argv", [module, name])
    importlib.import_module(f"synthdeid.stages.{module}").main()


def write_project(root: Path, lines: Callable[[int, int], list[str]], generator: dict, **params) -> None:
    """A project for the train_lm and audit_lm stages: inline train (80) and dev (30) notes from
    ``lines(n, seed)``, their documents, and params with the generator ``toy``."""
    for split, n, seed in (("train", 80, 1), ("dev", 30, 2)):
        (root / "data/inline").mkdir(parents=True, exist_ok=True)
        (root / f"data/inline/{split}.txt").write_text("\n".join(lines(n, seed)) + "\n", encoding="utf-8")
        write_documents(
            [Document(f"{split}-doc-{i}", f"note {i}", ()) for i in range(n)],
            root / f"data/pseudonymized/{split}.jsonl",
        )
    (root / "params.yaml").write_text(
        json.dumps(
            {
                "language": "nl",
                "inline": {"tokenize": True},
                "tags": {"mapping": {}},
                "generators": {"toy": generator},
                **params,
            }
        )
    )


@pytest.fixture
def project(tmp_path, monkeypatch, register_plugin):
    register_plugin(ToyPlugin, "toy-bigram-plugin")
    write_project(
        tmp_path,
        notes,
        {
            "plugin": "toy_bigram",
            "config": {},
            "canaries": {
                "repetitions": [1, 4],
                "per_repetition": 2,
                "template": TEMPLATE,
                "min_count": 2,
                "max_line_share": None,  # 10 lines into 80 notes, above the default cap
            },
        },
        privacy={
            "model_metrics": {
                "canary_exposure": {"candidates": 300},
                "membership_inference": {"max_notes": 20, "bootstrap": 50},
            }
        },
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_train_lm_and_audit_lm_stages_with_canaries(project, monkeypatch):
    inputs = {p: p.read_bytes() for p in (project / "data").rglob("*") if p.is_file()}
    run_stage("train_lm", monkeypatch)
    assert all(p.read_bytes() == b for p, b in inputs.items())  # canaries never reach the input files
    trained = json.loads((project / "data/models/toy/train.json").read_text())
    metrics = json.loads((project / "data/metrics/train_lm/toy.json").read_text())
    assert (metrics["train_lines_real"], metrics["canaries"], metrics["canary_lines"]) == (80, 4, 10)
    assert metrics["train_lines"] == len(trained["lines"]) == len(trained["ids"]) == 90
    assert [i for i in trained["ids"] if not i.startswith("canary-")] == [f"train-doc-{i}" for i in range(80)]
    saved = json.loads((project / "data/models/toy" / CANARY_FILE).read_text())
    assert [c["repetitions"] for c in saved["canaries"]] == [1, 1, 4, 4]

    run_stage("audit_lm", monkeypatch)
    out = project / "data/metrics/privacy_model/toy.json"
    audit = json.loads(out.read_text())
    assert audit["canary_exposure"]["candidates"] == 300 and set(audit["canary_exposure"]["by_repetition"]) == {
        "1",
        "4",
    }
    assert 0 <= audit["membership_inference"]["auc"] <= 1 and audit["membership_inference"]["members"] == 20
    first = out.read_bytes()
    run_stage("audit_lm", monkeypatch)
    assert out.read_bytes() == first  # byte-identical for the same params


def test_stages_without_canaries_say_so(project, monkeypatch):
    run_stage("train_lm", monkeypatch)
    params = json.loads((project / "params.yaml").read_text())
    params["generators"]["toy"]["canaries"] = None
    (project / "params.yaml").write_text(json.dumps(params))
    run_stage("train_lm", monkeypatch)  # a stale canaries.json goes
    assert not (project / "data/models/toy" / CANARY_FILE).exists()
    assert json.loads((project / "data/metrics/train_lm/toy.json").read_text())["canaries"] == 0
    run_stage("audit_lm", monkeypatch)
    audit = json.loads((project / "data/metrics/privacy_model/toy.json").read_text())
    assert audit["canary_exposure"]["skipped"].startswith("no canaries")


def test_canary_lines_are_capped_to_a_share_of_a_small_corpus():
    # 50 notes, 10%: 5 lines; the 20 and 5 repetitions go first, then per count: 1 canary, once
    budget = line_budget((1, 5, 20), 2, 50, 0.1)
    assert budget["repetitions"] == (1,) and budget["per_repetition"] == 2 and budget["lines"] == 2
    assert budget["capped"] and budget["lines_asked"] == 52
    assert line_budget((1, 5, 20), 2, 800, 0.1)["lines"] == 52  # the demo: 6.5%, untouched
    assert line_budget((1, 5, 20), 2, 300, 0.1)["repetitions"] == (1, 5)  # 30 lines: 12 fit
    assert line_budget((1, 5, 20), 2, 50, None)["lines"] == 52  # null: no cap
    assert line_budget((5,), 3, 10, 0.1) == {
        "repetitions": (1,),
        "per_repetition": 1,
        "lines_asked": 15,
        "lines": 1,
        "capped": True,
        "max_line_share": 0.1,
    }
    lines, ids = notes(50, 0), [f"doc-{i}" for i in range(50)]
    config = CanaryConfig(repetitions=(1, 5, 20), per_repetition=2, template=TEMPLATE, min_count=2)
    new_lines, _, record = add_canaries(config, lines, ids, LABELS)  # the default cap, 25%: 12 of 50
    assert len(new_lines) == 62 and record["lines_inserted"] == 12 and record["line_budget"]["capped"]
    assert record["line_budget"]["repetitions"] == [1, 5]
