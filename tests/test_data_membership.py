"""The data-only membership inference (Meeus et al. 2025) and low-false-positive reporting: the
TPR-at-FPR math on hand-computed cases, the attacker's n-gram model against ``nltk.lm``, drawing
and inserting the data canaries, the attack on toy corpora where member canaries are copied
verbatim (caught) or never seen (chance), and the ``train_lm`` stage writing the record."""

from __future__ import annotations

import json
import math
import random

import pytest

from synthdeid import Document, SynthdeidError
from synthdeid.api import PrivacyInput
from synthdeid.corpus.inline import decode
from synthdeid.errors import InputError
from synthdeid.plugins import registry
from synthdeid.privacy.audit.membership import (
    attack_summary,
    bootstrap_tpr_at_fpr,
    tpr_at_fpr,
)
from synthdeid.privacy.audit.ngram_lm import LaplaceNgramLM
from synthdeid.privacy.data_canaries import (
    DataCanaryConfig,
    add_data_canaries,
    draw_data_canaries,
    prefix_of,
    read_data_canaries,
    suffix_pool,
    write_data_canaries,
)
from synthdeid.spec import Study
from synthdeid.toolkit import load_settings

WORDS = [f"woord{i}" for i in range(500)]


def notes(n: int, seed: int) -> list[str]:
    """Inline notes with a structured start, a PHI span and words from a 500-word vocabulary."""
    rnd = random.Random(seed)
    return [
        f"Rapportage dag {i % 7} : <NameSTART> {rnd.choice(['Jan', 'Anna', 'Kees'])} <NameEND> "
        + " ".join(rnd.choices(WORDS, k=rnd.randint(15, 30)))
        + " . <PAR> gr . <EOD>"
        for i in range(n)
    ]


def tokenize(text: str) -> list[tuple[int, int]]:
    import re

    return [m.span() for m in re.finditer(r"\S+", text)]


# TPR at a low false-positive rate ---------------------------------------------------------------


def test_tpr_at_fpr_by_hand_with_ties():
    nonmembers = list(range(100))  # 0..99: at 1% FPR one non-member (99) may pass, so the bar is 98
    assert tpr_at_fpr([99, 98.5, 98, 50], nonmembers, 0.01) == 0.5  # 99 and 98.5 pass; 98 ties the bar
    assert tpr_at_fpr([100, 99], nonmembers, 0.02) == 1.0  # two may pass: the bar is 97
    assert tpr_at_fpr([100], nonmembers, 0.001) is None  # 100 non-members cannot measure 0.1%
    assert tpr_at_fpr([5.0], [1.0] * 1000, 0.001) == 1.0
    assert tpr_at_fpr([1.0], [1.0] * 1000, 0.001) == 0.0  # a tie with every non-member is no detection
    with pytest.raises(ValueError):
        tpr_at_fpr([1.0], [0.0], 1.5)


def test_bootstrap_of_the_tpr_is_seeded_and_brackets_it():
    rng = random.Random(0)
    members = [rng.gauss(2, 1) for _ in range(50)]
    nonmembers = [rng.gauss(0, 1) for _ in range(1000)]
    low, high = bootstrap_tpr_at_fpr(members, nonmembers, 0.01, 200, seed=3)
    assert low <= tpr_at_fpr(members, nonmembers, 0.01) <= high
    assert (low, high) == bootstrap_tpr_at_fpr(members, nonmembers, 0.01, 200, seed=3)
    assert bootstrap_tpr_at_fpr(members, nonmembers[:50], 0.001, 200, seed=3) is None
    summary = attack_summary(members, nonmembers, 100, 0)
    assert summary["members"] == 50 and summary["tpr_at_fpr_0_1pct"] is not None
    assert summary["auc_ci95"][0] <= summary["auc"] <= summary["auc_ci95"][1]
    assert attack_summary(members, nonmembers[:50], 0, 0)["tpr_at_fpr_0_1pct"] is None


# the attacker's model ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3])
def test_laplace_ngram_equals_nltk(n):
    lm_module = pytest.importorskip("nltk.lm")
    from nltk.lm.preprocessing import padded_everygram_pipeline

    sents = [["a", "b", "c", "a"], ["b", "c", "d"], ["a", "a", "b"]]
    ours = LaplaceNgramLM(sents, n)
    train, vocab = padded_everygram_pipeline(n, sents)
    ref = lm_module.Laplace(n)
    ref.fit(train, vocab)
    for word, context in [
        ("b", ["c", "a"]),
        ("c", ["a", "b"]),
        ("zz", ["a", "a"]),
        ("a", ["<s>", "<s>"]),
        ("d", ["q", "c"]),
        ("</s>", ["c", "d"]),
    ]:
        expected = ref.score(word, context[len(context) - (n - 1) :] if n > 1 else None)
        assert math.exp(ours.logprob(word, context)) == pytest.approx(expected, rel=1e-12)
    # the start of a note is padded as in training
    assert ours.logprob("a", []) == ours.logprob("a", ["<s>"] * (n - 1))
    assert ours.mean_logprob(["a", "b"], 1) == ours.logprob("b", ["a"])


# drawing and inserting ---------------------------------------------------------------------------


def test_prefix_never_leaves_a_span_open_and_the_pool_holds_plain_words():
    line = "Dag 1 : <NameSTART> Jan de Vries <NameEND> kwam langs . <EOD>"
    assert prefix_of(line, 3) == ["Dag", "1", ":"]
    assert prefix_of(line, 5) == ["Dag", "1", ":"]  # would cut inside the name
    assert prefix_of(line, 8) == line.split(" ")[:8]
    assert prefix_of(line, 50) == line.split(" ")[:-1]  # never the <EOD>
    pool = suffix_pool([line] * 5, 5)
    assert "<NameSTART>" not in pool and "<EOD>" not in pool and "Jan" in pool and pool == sorted(pool)


def test_canaries_are_seeded_distinct_and_only_members_are_inserted():
    lines = notes(80, 1)
    ids = [f"doc-{i}" for i in range(80)]
    config = DataCanaryConfig(
        repetitions=(1, 4),
        per_repetition=3,
        nonmembers=40,
        prefix_tokens=6,
        suffix_tokens=5,
        min_count=2,
        max_line_share=None,  # 15 lines into 80 notes: above the default cap, which has its own test
    )
    members, nonmembers, _ = draw_data_canaries(config, lines)
    assert [c.repetitions for c in members] == [1, 1, 1, 4, 4, 4] and len(nonmembers) == 40
    texts = [c.text for c in members + nonmembers]
    assert len(set(texts)) == len(texts)
    assert all(decode(t, "c").count("unclosed") == 0 for t in texts)
    assert (members, nonmembers) == draw_data_canaries(config, lines)[:2]
    new_lines, new_ids, record = add_data_canaries(config, lines, lines, ids, 2)
    assert len(new_lines) == 80 + 15 == len(new_ids) and record["lines_inserted"] == 15
    for c in members:
        assert new_lines.count(c.text) == c.repetitions
    assert not any(c.text in new_lines for c in nonmembers)
    assert [i for i in new_ids if i.startswith("doc-")] == ids  # the real lines keep their order
    with pytest.raises(InputError, match="min_count"):
        draw_data_canaries(DataCanaryConfig(min_count=10_000), lines)
    with pytest.raises(SynthdeidError, match="data_canaries: setting 'nonmembers' must be >= 1"):
        load_settings(DataCanaryConfig, {"nonmembers": 0}, "data_canaries")


def test_record_round_trip_and_a_broken_record_names_its_fix(tmp_path):
    lines = notes(60, 2)
    config = DataCanaryConfig(per_repetition=2, nonmembers=10, min_count=2, max_line_share=None)
    _, _, record = add_data_canaries(config, lines, lines, [str(i) for i in range(60)])
    path = write_data_canaries(record, "toy", tmp_path)
    canaries = read_data_canaries(path)
    assert len(canaries) == 16 and sum(c.repetitions == 0 for c in canaries) == 10
    assert all(len(c.suffix.split(" ")) == 8 for c in canaries)
    assert [f"{c.prefix} {c.suffix} <EOD>" for c in canaries] == [c["text"] for c in record["canaries"]]
    assert read_data_canaries(write_data_canaries(None, "none", tmp_path)) is None
    path.write_text('{"canaries": [{"id": "x"}]}')
    with pytest.raises(InputError, match="dvc repro train_lm"):
        read_data_canaries(path)
    with pytest.raises(InputError):
        read_data_canaries(tmp_path / "missing.json")


# the attack ---------------------------------------------------------------------------------------


def attack(tmp_path, copies: int, n_syn: int = 60):
    """The metric on a synthetic corpus of toy notes holding ``copies`` copies of each member canary."""
    lines = notes(200, 3)
    config = DataCanaryConfig(repetitions=(1, 5), per_repetition=10, nonmembers=500, min_count=2, max_line_share=None)
    _, _, record = add_data_canaries(config, lines, lines, [str(i) for i in range(200)])
    path = write_data_canaries(record, "toy", tmp_path)
    members = [c["text"] for c in record["canaries"] if c["repetitions"]]
    syn_lines = notes(n_syn, 4) + [text for text in members for _ in range(copies)]
    synthetic = [Document(f"s{i}", decode(t, f"s{i}").document.text) for i, t in enumerate(syn_lines)]
    metric = registry("privacy_metric").create("data_membership_inference", {"bootstrap": 100})
    return metric.compute(PrivacyInput(real=[], synthetic=synthetic, tokenize=tokenize, data_canaries=path)).summary


def test_members_copied_verbatim_are_all_caught(tmp_path):
    s = attack(tmp_path, copies=1)
    assert s["all"]["auc"] == 1.0 and s["all"]["tpr_at_fpr_1pct"] == 1.0 and s["all"]["tpr_at_fpr_0_1pct"] is None
    assert s["all"]["suffixes_verbatim"] == 20 and s["nonmember_suffixes_verbatim"] == 0
    assert set(s["by_repetition"]) == {"1", "5"} and s["by_repetition"]["1"]["members"] == 10


def test_members_never_seen_are_at_chance(tmp_path):
    s = attack(tmp_path, copies=0)
    assert 0.3 < s["all"]["auc"] < 0.7 and s["all"]["tpr_at_fpr_1pct"] <= 0.1
    assert s["all"]["suffixes_verbatim"] == 0
    assert s == attack(tmp_path, copies=0)  # seeded


def test_without_canaries_the_metric_says_so(tmp_path):
    metric = registry("privacy_metric").create("data_membership_inference", {})
    data = PrivacyInput(real=[], synthetic=[Document("s", "a b")], tokenize=tokenize)
    assert metric.compute(data).summary["skipped"].startswith("no data canaries")
    data = PrivacyInput(
        real=[],
        synthetic=[Document("s", "a b")],
        tokenize=tokenize,
        data_canaries=write_data_canaries(None, "x", tmp_path),
    )
    assert "skipped" in metric.compute(data).summary
    with pytest.raises(SynthdeidError, match="'data_membership_inference': setting 'k' must be > 0, got 0.0"):
        registry("privacy_metric").create("data_membership_inference", {"k": 0})
    for bad, message in [
        ({"n": 0}, "setting 'n' must be >= 1, got 0"),
        ({"bootstrap": -1}, "setting 'bootstrap' must be >= 0, got -1"),
        ({"seed": 0.5}, "setting 'seed' must be a whole number >= 0, got 0.5"),
    ]:
        with pytest.raises(SynthdeidError, match=message):
            registry("privacy_metric").create("data_membership_inference", bad)


def test_a_corpus_is_audited_with_its_generators_canaries():
    study = Study.model_validate(
        {
            "corpora": {
                "lstm_p": {"generator": "lstm", "decoder": "nucleus"},
                "raw_p": {"generator": "lstm_raw", "decoder": "nucleus"},
            },
            "machine_annotated": {
                "lstm_m": {"corpus": "raw_p", "tagger": "real"},
                "loop": {"corpus": "loop", "tagger": "real"},
            },
        }
    )
    assert study.corpus_generator("lstm_p") == "lstm"
    assert study.corpus_generator("lstm_m") == "lstm_raw"
    assert study.corpus_generator("nothing") is None and study.corpus_generator("loop") is None


# the train_lm stage ----------------------------------------------------------------------------


def test_train_lm_writes_the_record_and_inserts_only_members(tmp_path, monkeypatch, register_plugin):
    from test_canaries import (  # the in-test bigram generator
        ToyPlugin,
        run_stage,
        write_project,
    )

    register_plugin(ToyPlugin, "toy-bigram-plugin")
    write_project(
        tmp_path,
        notes,
        {
            "plugin": "toy_bigram",
            "config": {},
            "data_canaries": {"repetitions": [1, 3], "per_repetition": 2, "nonmembers": 30, "min_count": 2},
        },
    )
    params = json.loads((tmp_path / "params.yaml").read_text())
    monkeypatch.chdir(tmp_path)
    run_stage("train_lm", monkeypatch)
    trained = json.loads((tmp_path / "data/models/toy/train.json").read_text())
    metrics = json.loads((tmp_path / "data/metrics/train_lm/toy.json").read_text())
    assert metrics["data_canary_lines"] == 8 and metrics["train_lines"] == len(trained["lines"]) == 88
    canaries = read_data_canaries(tmp_path / "data/canaries/toy.json")
    for c in canaries:
        assert trained["lines"].count(f"{c.prefix} {c.suffix} <EOD>") == c.repetitions
    first = (tmp_path / "data/canaries/toy.json").read_bytes()
    run_stage("train_lm", monkeypatch)
    assert (tmp_path / "data/canaries/toy.json").read_bytes() == first
    params["generators"]["toy"]["data_canaries"] = None
    (tmp_path / "params.yaml").write_text(json.dumps(params))
    run_stage("train_lm", monkeypatch)
    assert read_data_canaries(tmp_path / "data/canaries/toy.json") is None
    assert json.loads((tmp_path / "data/metrics/train_lm/toy.json").read_text())["data_canary_lines"] == 0


def test_members_are_capped_to_a_share_of_a_small_corpus():
    lines = notes(45, 1)
    new_lines, _, record = add_data_canaries(DataCanaryConfig(min_count=2), lines, lines, [str(i) for i in range(45)])
    # the defaults ask 52 lines (+116%); 25% of 45 notes is 11: two members, once each
    assert len(new_lines) == 47 and record["lines_inserted"] == 2
    assert record["line_budget"] == {
        "repetitions": [1],
        "per_repetition": 2,
        "lines_asked": 52,
        "lines": 2,
        "capped": True,
        "max_line_share": 0.25,
    }
    assert sum(c["repetitions"] == 1 for c in record["canaries"]) == 2
    demo = add_data_canaries(DataCanaryConfig(min_count=2), notes(250, 1), notes(250, 1), [str(i) for i in range(250)])
    assert demo[2]["lines_inserted"] == 52 and not demo[2]["line_budget"]["capped"]  # 21%: under the cap
