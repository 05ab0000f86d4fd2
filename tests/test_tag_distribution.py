"""``generate.tag_distribution``: the START-tag offsets it resolves to, and the label shares of a
generated corpus moving toward the requested ones on a toy bigram model."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
import torch

from synthdeid import InputError
from synthdeid.api import GenerationSettings
from synthdeid.generation.generate import generate_corpus
from synthdeid.generation.tag_distribution import (
    expected_shares,
    label_shares,
    start_bias,
)
from synthdeid.generation.tagmask import TagMask
from synthdeid.generation.toy_lm import BigramLM
from synthdeid.plugins import registry

SHARES = {"Date": 0.1, "Name": 0.9}


def test_label_shares_count_start_tags() -> None:
    lines = ["a <NameSTART> b <NameEND> c <DateSTART> d <DateEND>", "<NameSTART> e <NameEND>", "geen"]
    assert label_shares(lines) == {"Date": pytest.approx(1 / 3), "Name": pytest.approx(2 / 3)}
    assert label_shares(["geen tags"]) == {}


def test_real_is_no_change_and_uniform_equalises() -> None:
    assert start_bias("real", SHARES) == () and start_bias(None, SHARES) == ()
    bias = start_bias("uniform", SHARES)
    assert dict(bias) == {
        "Date": pytest.approx(math.log(5.0), abs=1e-5),
        "Name": pytest.approx(math.log(5 / 9), abs=1e-5),
    }
    assert expected_shares(SHARES, bias) == pytest.approx({"Date": 0.5, "Name": 0.5})


def test_factors_multiply_the_real_shares_and_keep_the_total() -> None:
    bias = dict(start_bias({"Date": 3}, SHARES))
    assert expected_shares(SHARES, bias.items()) == pytest.approx({"Date": 0.3 / 1.2, "Name": 0.9 / 1.2})
    # renormalised: the shares weighted by the factors sum to 1, so as many spans open in all
    assert sum(s * math.exp(bias[k]) for k, s in SHARES.items()) == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize(
    "setting, message",
    [
        ({"Phone": 2}, "Phone that the training notes do not hold"),
        ({"Date": 0}, "factor of Date must be a positive number"),
        ({"Date": float("nan")}, "factor of Date must be a positive number"),
        ({"Date": True}, "factor of Date must be a positive number"),
        ("uniformly", "must be real, uniform or a mapping"),
    ],
)
def test_bad_settings_are_clear_errors(setting: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        start_bias(setting, SHARES)


def test_untagged_training_notes_refuse_a_distribution() -> None:
    with pytest.raises(InputError, match="hold no PHI tags"):
        start_bias("uniform", {})


def test_the_mask_shifts_only_where_a_span_may_open() -> None:
    lm = BigramLM(["w"], ("Name", "Date"))
    mask = TagMask(lm.vocab, lm.eod_id, start_bias={"Date": 1.5})
    start_name, start_date = lm.index["<NameSTART>"], lm.index["<DateSTART>"]
    mask.reset([[lm.index["w"]], [start_name, lm.index["w"]]])  # row 1 is inside a Name span
    out = mask.apply(torch.zeros(2, len(lm.vocab)), 5, 0, 100)
    assert float(out[0, start_date]) == 1.5 and float(out[0, start_name]) == 0.0
    assert out[1, start_date] == float("-inf")  # tag-safe: no span opens inside another


def _toy_lines(n: int, seed: int) -> list[str]:
    """Notes where, after ``door``, a Name span opens 9 times as often as a Date span."""
    rng = random.Random(seed)
    lines = []
    for _ in range(n):
        parts = []
        for _ in range(rng.randint(2, 4)):
            if rng.random() < 0.9:
                parts.append(f"gezien door <NameSTART> {rng.choice(['jansen', 'bakker', 'smit'])} <NameEND> .")
            else:
                parts.append(f"gezien door <DateSTART> {rng.choice(['maandag', 'dinsdag'])} <DateEND> .")
        lines.append(" ".join(parts) + " <EOD>")
    return lines


def _generated_shares(lm: BigramLM, lines: list[str], setting: object) -> dict[str, float]:
    settings = GenerationSettings(
        min_tokens=5, max_tokens=60, batch_size=32, start_bias=start_bias(setting, label_shares(lines))
    )
    notes = generate_corpus(
        lm,
        registry("decoder").create("temperature", {"temperature": 1.0}),
        ["gezien"],
        settings,
        target_tokens=6000,
        seed=0,
    )
    counts = Counter(tok[1:-6] for _, text in notes for tok in text.split() if tok.endswith("START>"))
    total = sum(counts.values())
    return {label: counts[label] / total for label in ("Date", "Name")}


def test_generated_label_shares_move_toward_the_requested_ones() -> None:
    lines = _toy_lines(300, seed=0)
    lm = BigramLM.fit(lines, smoothing=0.01)
    real = _generated_shares(lm, lines, "real")
    uniform = _generated_shares(lm, lines, "uniform")
    boosted = _generated_shares(lm, lines, {"Date": 3})
    assert 0.05 < real["Date"] < 0.15  # the model as trained: about the training share (0.1)
    assert 0.4 < uniform["Date"] < 0.6  # asked for 0.5
    target = expected_shares(label_shares(lines), start_bias({"Date": 3}, label_shares(lines)))["Date"]
    assert abs(boosted["Date"] - target) < 0.06 and boosted["Date"] > real["Date"] + 0.1
