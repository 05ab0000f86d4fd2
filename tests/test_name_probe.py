"""The ``name_probe`` privacy metric: START tags of held-out notes as probes, k continuations up to
the END tag, matched against the training PHI strings. A bigram model (deterministic) and a tiny LSTM."""

from __future__ import annotations

import random

import pytest

from synthdeid.api import PrivacyInput
from synthdeid.corpus.formats.conll import default_tokenize
from synthdeid.corpus.inline import decode, strip_tags
from synthdeid.generation.toy_lm import BigramLM
from synthdeid.plugins import registry
from synthdeid.privacy.probe import Probe, predict, probes_in

FIRST = ["Jan", "Piet", "Anna"]
LAST = ["Jansen", "Bakker", "Smit"]


def lines(n: int, seed: int, first: list[str] = FIRST, last: list[str] = LAST) -> list[str]:
    rnd = random.Random(seed)
    return [
        f"Gesprek met <NameSTART> {rnd.choice(first)} {rnd.choice(last)} <NameEND> op <DateSTART> "
        f"{rnd.randint(1, 9)} mei <DateEND> . <PAR> Goed geslapen . <EOD>"
        for _ in range(n)
    ]


def data_for(lm, train: list[str], dev: list[str], real_lines: list[str] | None = None) -> PrivacyInput:
    real = [decode(line, f"t{i}").document for i, line in enumerate(real_lines or train)]
    return PrivacyInput(
        real=real, synthetic=[], tokenize=default_tokenize, extra={"lm": lm, "lm_text": {"train": train, "dev": dev}}
    )


def probe_metric(**config):
    return registry("privacy_metric").create("name_probe", config)


def test_probes_are_the_start_tags_with_their_context() -> None:
    line = "a b <NameSTART> Jan <NameEND> c <DateSTART> 3 mei <DateEND> <EOD>"
    assert probes_in(line, None, 2) == [Probe("a b <NameSTART>", "Name"), Probe("<NameEND> c <DateSTART>", "Date")]
    assert probes_in(line, {"Date"}, 1) == [Probe("c <DateSTART>", "Date")]


def test_a_memorising_model_predicts_training_names() -> None:
    train = lines(200, 1)
    lm = BigramLM.fit(train)
    probes = [Probe("Gesprek met <NameSTART>", "Name")]
    preds = predict(lm, probes, k=3, max_tokens=4)
    assert [p.rank for p in preds] == [0, 1, 2]
    assert {p.text.split()[0] for p in preds} == set(FIRST)  # the three names' first words
    assert all(p.finished and p.text.split()[1] in LAST for p in preds)
    result = probe_metric(k=3, labels=["Name"]).compute(data_for(lm, train, lines(20, 2)))
    s = result.summary
    assert s["probes"] == 20 and s["predictions"] == 60 and s["finished"] == 60
    assert s["train_phi_rate"] == s["train_phi_same_label_rate"] == 1.0
    assert s["train_phi_multi_token_rate"] == 1.0
    assert set(s["per_label"]) == {"Name"}
    assert {t["text"].split()[0] for t in s["top_predicted"]} <= {f.lower() for f in FIRST}


def test_no_match_when_the_training_notes_had_other_names() -> None:
    train = lines(200, 1)
    lm = BigramLM.fit(train)
    other = lines(50, 3, first=["Kees"], last=["Visser"])
    s = probe_metric(k=3, labels=["Name"]).compute(data_for(lm, train, lines(10, 2), real_lines=other)).summary
    assert s["train_phi_rate"] == 0.0 and s["distinct_train_phi_predicted"] == 0 and s["top_predicted"] == []


def test_every_label_is_probed_by_default_and_the_sample_is_seeded() -> None:
    train = lines(100, 1)
    lm = BigramLM.fit(train)
    a = probe_metric(k=2, max_probes=15).compute(data_for(lm, train, lines(20, 2))).summary
    b = probe_metric(k=2, max_probes=15).compute(data_for(lm, train, lines(20, 2))).summary
    assert a == b and a["probes"] == 15 and set(a["per_label"]) == {"Name", "Date"}


def test_a_model_without_tags_is_skipped() -> None:
    train = [strip_tags(x) for x in lines(50, 1)]
    lm = BigramLM.fit(train, labels=())
    s = probe_metric().compute(data_for(lm, train, [strip_tags(x) for x in lines(5, 2)], lines(5, 1))).summary
    assert "skipped" in s


def test_the_probe_drives_a_trained_lstm(tmp_path) -> None:
    from test_lstm import generator, toy_data

    data = toy_data(120, 20)
    gen = generator(max_epochs=2)
    gen.train(data, tmp_path)
    lm = gen.load(tmp_path)
    s = probe_metric(k=4, max_tokens=5).compute(data_for(lm, data.train, data.dev)).summary
    assert s["predictions"] == 4 * s["probes"] > 0
    assert 0.0 <= s["train_phi_rate"] <= 1.0


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"k": 0}, "setting 'k' must be >= 1, got 0; set it to 1 or more"),
        ({"top": -1}, "setting 'top' must be >= 0, got -1"),
        ({"context": 2.5}, "setting 'context' must be a whole number >= 1, got 2.5"),
        ({"labels": []}, "labels must be a list of tags or null"),
        ({"labels": ["Name", 3]}, "labels must be a list of tags or null"),
        ({"max_tokens": "x"}, "setting 'max_tokens' must be a whole number >= 1, got 'x'"),
    ],
)
def test_bad_settings(config, message) -> None:
    from synthdeid import SynthdeidError

    with pytest.raises(SynthdeidError, match=f"privacy metric 'name_probe': {message}"):
        probe_metric(**config)
