"""Evaluation math: entity and token P/R/F1, the randomization test, learning-curve summaries."""

from __future__ import annotations

import itertools
import json
import math
import random
import re

import numpy as np
import pytest

from synthdeid import Document, InputError, Span
from synthdeid.evaluation.metrics import (
    MARK_BETTER,
    MARK_NONE,
    MARK_WORSE,
    CountTable,
    compare_systems,
    curve_rows,
    entity_counts,
    entity_scores,
    exact_randomization_test,
    prf,
    randomization_test,
    significance,
    summarize,
    token_labels,
    token_scores,
    write_curve_csv,
)


def ws_tokenize(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(r"\S+", text)]


def span(text: str, surface: str, label: str, nth: int = 0) -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(surface, start + 1)
    return Span(start, start + len(surface), label)


T1 = "Jan Jansen zag Piet op 12-03 in Utrecht"
T2 = "Bel 06-1234 of mail a@b.nl"
DOC1 = Document.create(
    "d1",
    T1,
    [
        span(T1, "Jan Jansen", "Name"),
        span(T1, "Piet", "Name"),
        span(T1, "12-03", "Date"),
        span(T1, "Utrecht", "Address"),
    ],
)
DOC2 = Document.create("d2", T2, [span(T2, "06-1234", "Phone_fax"), span(T2, "a@b.nl", "Email")])


# ---------------------------------------------------------------- entity level, hand-computed


def test_perfect_prediction():
    out = entity_scores([DOC1, DOC2], [list(DOC1.spans), list(DOC2.spans)])
    assert out["micro"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "tp": 6, "fp": 0, "fn": 0, "support": 6}
    assert out["gold_entities"] == 6 and out["documents"] == 2
    assert all(v["f1"] == 1.0 for v in out["per_tag"].values())


def test_partial_overlap_is_a_false_positive_and_a_false_negative():
    out = entity_scores([DOC1], [[span(T1, "Jan", "Name")]])
    m = out["micro"]
    assert (m["tp"], m["fp"], m["fn"]) == (0, 1, 4)
    assert m["precision"] == 0.0 and m["recall"] == 0.0 and m["f1"] == 0.0


def test_right_span_wrong_tag():
    out = entity_scores([DOC2], [[span(T2, "06-1234", "Date"), span(T2, "a@b.nl", "Email")]])
    assert (out["micro"]["tp"], out["micro"]["fp"], out["micro"]["fn"]) == (1, 1, 1)
    assert out["per_tag"]["Date"] == prf(0, 1, 0)
    assert out["per_tag"]["Phone_fax"] == prf(0, 0, 1)
    assert out["per_tag"]["Email"]["f1"] == 1.0


def test_duplicate_prediction_counts_once_as_tp_and_once_as_fp():
    dup = span(T2, "a@b.nl", "Email")
    out = entity_scores([DOC2], [[dup, dup]])
    m = out["micro"]
    assert (m["tp"], m["fp"], m["fn"]) == (1, 1, 1)
    assert out["per_tag"]["Email"]["precision"] == 0.5
    assert out["per_tag"]["Email"]["recall"] == 1.0
    assert out["per_tag"]["Email"]["f1"] == pytest.approx(2 / 3)
    assert out["predicted_entities"] == 2 and out["gold_entities"] == 2


def test_empty_predictions_have_precision_zero():
    out = entity_scores([DOC1, DOC2], [[], []])
    assert out["micro"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "tp": 0, "fp": 0, "fn": 6, "support": 6}
    assert out["gold_entities"] == 6


def test_no_gold_entities_recall_zero():
    doc = Document.create("e", "geen PHI hier")
    out = entity_scores([doc], [[Span(0, 4, "Name")]])
    assert out["micro"]["precision"] == 0.0 and out["micro"]["recall"] == 0.0
    assert out["micro"]["support"] == 0 and out["gold_entities"] == 0
    assert entity_scores([doc], [[]])["micro"]["f1"] == 0.0


def test_two_documents_micro_and_per_tag_by_hand():
    pred1 = [
        span(T1, "Jan Jansen", "Name"),
        span(T1, "Piet op", "Name"),
        span(T1, "12-03", "Date"),
        span(T1, "Utrecht", "Name"),
    ]
    pred2 = list(DOC2.spans)
    out = entity_scores([DOC1, DOC2], [pred1, pred2])
    # tp: Jan Jansen, 12-03, 06-1234, a@b.nl; fp: "Piet op", Utrecht/Name; fn: Piet, Utrecht
    assert out["micro"] == {"precision": 4 / 6, "recall": 4 / 6, "f1": 4 / 6, "tp": 4, "fp": 2, "fn": 2, "support": 6}
    name = out["per_tag"]["Name"]
    assert (name["tp"], name["fp"], name["fn"], name["support"]) == (1, 2, 1, 2)
    assert name["precision"] == pytest.approx(1 / 3)
    assert name["recall"] == 0.5
    assert name["f1"] == pytest.approx(0.4)  # 2PR/(P+R) = (1/3)/(5/6)
    assert out["per_tag"]["Address"] == prf(0, 0, 1)
    assert out["per_tag"]["Date"]["f1"] == 1.0
    assert list(out["per_tag"]) == sorted(out["per_tag"])
    assert out["gold_entities"] == 6 == sum(len(d.spans) for d in (DOC1, DOC2))
    json.dumps(out)

    table = entity_counts([DOC1, DOC2], [pred1, pred2])
    assert table.per_document() == [{"id": "d1", "tp": 2, "fp": 2, "fn": 2}, {"id": "d2", "tp": 2, "fp": 0, "fn": 0}]
    assert table.counts.shape == (2, len(table.tags), 3)


def test_predictions_may_be_documents():
    pred = Document("d2", T2, (span(T2, "a@b.nl", "Email"),))
    out = entity_scores([DOC2], [pred])
    assert (out["micro"]["tp"], out["micro"]["fn"]) == (1, 1)


# ---------------------------------------------------------------- input errors


def test_fewer_predictions_than_documents_names_the_document():
    with pytest.raises(InputError, match="'d2'") as e:
        entity_scores([DOC1, DOC2], [[]])
    assert "fix:" in str(e.value)


def test_more_predictions_than_documents():
    with pytest.raises(InputError, match="position 1 has no gold document"):
        entity_scores([DOC1], [[], []])


def test_prediction_for_another_document_names_both():
    with pytest.raises(InputError) as e:
        entity_scores([DOC1, DOC2], [DOC2, DOC1])
    assert "'d1'" in str(e.value) and "'d2'" in str(e.value)


def test_prediction_text_must_match():
    with pytest.raises(InputError, match="text differs"):
        entity_scores([DOC2], [Document("d2", T2 + " extra", ())])


def test_predicted_span_outside_text_names_the_document():
    with pytest.raises(InputError, match="outside the text") as e:
        entity_scores([DOC1, DOC2], [[], [Span(20, 99, "Email")]])
    assert "'d2'" in str(e.value)


def test_repeated_document_id():
    with pytest.raises(InputError, match="repeats"):
        entity_scores([DOC1, DOC1], [[], []])


def test_unvalidated_overlapping_gold_is_rejected():
    bad = Document("g", T2, (Span(0, 5, "ID"), Span(4, 8, "ID")))
    with pytest.raises(InputError, match="overlap") as e:
        entity_scores([bad], [[]])
    assert "'g'" in str(e.value)


# ---------------------------------------------------------------- seqeval agreement


def _bio(tokens: list[tuple[int, int]], spans: list[Span]) -> list[str]:
    by_start = {s.start: s for s in spans}
    out, current = [], None
    for a, _b in tokens:
        if a in by_start:
            current = by_start[a]
            out.append(f"B-{current.label}")
        elif current is not None and current.start < a < current.end:
            out.append(f"I-{current.label}")
        else:
            current = None
            out.append("O")
    return out


def _conlleval_chunks(seq: list[str]) -> set[tuple[int, int, str]]:
    """seqeval's default (conlleval) chunking, for when seqeval is not installed."""
    chunks, start, typ = set(), None, None
    for i, tag in enumerate([*seq, "O"]):
        prefix, label = (tag.split("-", 1) + [""])[:2] if tag != "O" else ("O", "")
        ends = start is not None and (prefix in ("O", "B") or label != typ)
        if ends:
            chunks.add((start, i, typ))
            start = None
        if prefix == "B" or (prefix == "I" and start is None):
            start, typ = i, label
    return chunks


def _reference_prf(y_true: list[list[str]], y_pred: list[list[str]], reference: str):
    if reference == "seqeval":
        seqeval = pytest.importorskip("seqeval.metrics")
        return (
            seqeval.precision_score(y_true, y_pred),
            seqeval.recall_score(y_true, y_pred),
            seqeval.f1_score(y_true, y_pred),
        )
    gold = {(d, *c) for d, s in enumerate(y_true) for c in _conlleval_chunks(s)}
    pred = {(d, *c) for d, s in enumerate(y_pred) for c in _conlleval_chunks(s)}
    tp = len(gold & pred)
    p = tp / len(pred) if pred else 0.0
    r = tp / len(gold) if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def _random_spans(rng: random.Random, tokens, labels, rate: float) -> list[Span]:
    spans, i = [], 0
    while i < len(tokens):
        if rng.random() < rate:
            j = min(len(tokens), i + rng.randint(1, 3))
            spans.append(Span(tokens[i][0], tokens[j - 1][1], rng.choice(labels)))
            i = j  # spans may touch: B-X B-X must split them
        else:
            i += 1
    return spans


def _perturb(rng: random.Random, gold: list[Span], tokens, labels) -> list[Span]:
    starts = [a for a, _ in tokens]
    out = []
    for s in gold:
        r = rng.random()
        if r < 0.5:
            out.append(s)
        elif r < 0.65:
            out.append(Span(s.start, s.end, rng.choice(labels)))
        elif r < 0.8:
            i = starts.index(s.start)
            if i + 1 < len(tokens) and tokens[i][1] < s.end:
                out.append(Span(tokens[i + 1][0], s.end, s.label))  # shifted start
    out += _random_spans(rng, tokens, labels, 0.05)
    flat, end = [], -1
    for s in sorted(out):
        if s.start >= end:
            flat.append(s)
            end = s.end
    return flat


@pytest.mark.parametrize("reference", ["seqeval", "conlleval-oracle"])
@pytest.mark.parametrize("seed", range(8))
def test_entity_metrics_equal_seqeval_on_token_aligned_spans(reference, seed):
    rng = random.Random(seed)
    labels = ["Name", "Date", "Address"]
    gold, pred, y_true, y_pred = [], [], [], []
    for d in range(rng.randint(1, 6)):
        words = [rng.choice(["jan", "op", "12", "de", "x"]) for _ in range(rng.randint(3, 30))]
        text = " ".join(words)
        tokens = ws_tokenize(text)
        g = _random_spans(rng, tokens, labels, 0.25)
        p = _perturb(rng, g, tokens, labels)
        gold.append(Document.create(f"doc{d}", text, g))
        pred.append(p)
        y_true.append(_bio(tokens, g))
        y_pred.append(_bio(tokens, p))
    ours = entity_scores(gold, pred)["micro"]
    ref = _reference_prf(y_true, y_pred, reference)
    assert (ours["precision"], ours["recall"], ours["f1"]) == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_every_gold_and_predicted_entity_is_counted_once(seed):
    rng = random.Random(100 + seed)
    text = " ".join("w" for _ in range(40))
    tokens = ws_tokenize(text)
    gold = [Document.create(f"d{i}", text, _random_spans(rng, tokens, ["A", "B"], 0.3)) for i in range(4)]
    pred = [_random_spans(rng, tokens, ["A", "B"], 0.3) * rng.randint(1, 2) for _ in gold]
    out = entity_scores(gold, pred)
    m = out["micro"]
    assert m["tp"] + m["fn"] == out["gold_entities"] == sum(len(d.spans) for d in gold)
    assert m["tp"] + m["fp"] == sum(len(p) for p in pred)
    assert sum(v["support"] for v in out["per_tag"].values()) == out["gold_entities"]


# ---------------------------------------------------------------- token level


def test_token_level_by_hand():
    text = "Jan Jansen's zag Piet op 12-03"
    gold = Document.create("t", text, [Span(0, 10, "Name"), span(text, "Piet", "Name"), span(text, "12-03", "Date")])
    pred = [
        span(text, "Jan", "Name"),
        span(text, "zag", "Name"),
        span(text, "Piet", "Date"),
        span(text, "12-03", "Date"),
    ]
    tokens = ws_tokenize(text)
    # a token partly covered by a span takes its label: "Jansen's" is Name in gold
    assert token_labels(gold.spans, tokens) == ["Name", "Name", "O", "Name", "O", "Date"]
    assert token_labels(pred, tokens) == ["Name", "O", "Name", "Date", "O", "Date"]
    out = token_scores([gold], [pred], ws_tokenize)
    assert out["per_tag"]["Name"] == prf(1, 1, 2)  # tp Jan; fp zag; fn Jansen's, Piet
    assert out["per_tag"]["Date"] == prf(1, 1, 0)  # tp 12-03; fp Piet
    assert out["micro"] == prf(2, 2, 2)
    assert out["micro"]["f1"] == 0.5
    assert (out["gold_tokens"], out["tokens"], out["documents"]) == (4, 6, 1)
    assert out["gold_spans_without_tokens"] == 0
    json.dumps(out)


def test_token_overlapping_two_spans_takes_the_larger_overlap_then_the_first():
    tokens = [(0, 4)]
    assert token_labels([Span(0, 1, "Name"), Span(1, 4, "Date")], tokens) == ["Date"]
    assert token_labels([Span(2, 4, "Date"), Span(0, 2, "ID")], tokens) == ["ID"]
    assert token_labels([Span(5, 8, "Date")], tokens) == ["O"]


def test_gold_span_without_tokens_is_counted():
    doc = Document.create("w", "a   b", [Span(1, 4, "Other")])
    out = token_scores([doc], [[]], ws_tokenize)
    assert out["gold_spans_without_tokens"] == 1 and out["gold_tokens"] == 0


def test_bad_tokenizer_output_names_the_document():
    with pytest.raises(InputError, match="tokenizer") as e:
        token_scores([DOC2], [[]], lambda text: [(0, len(text) + 5)])
    assert "'d2'" in str(e.value)


# ---------------------------------------------------------------- randomization test


def _hand_case() -> tuple[np.ndarray, np.ndarray]:
    # [tp, fp, fn] per document; each document has the same gold count in A and B
    a = np.array([[2, 0, 0], [2, 0, 0], [1, 0, 1], [1, 1, 0]])
    b = np.array([[1, 0, 1], [1, 0, 1], [1, 0, 1], [1, 0, 0]])
    return a, b


def test_exact_distribution_of_a_four_document_case_by_hand():
    # A: tp 6 fp 1 fn 1 -> F1 12/14; B: tp 4 fp 0 fn 3 -> F1 8/11; observed |diff| = 10/77.
    # Let k = number of swapped documents among 1-2 and s = 1 if document 4 is swapped
    # (document 3 is the same in both systems: swapping it changes nothing and doubles every
    # case). Then F1(A') = (12-2k)/(14-k-s) and F1(B') = (8+2k)/(11+k+s):
    #   k=0 (1 way): s=0 |12/14-8/11| = 10/77 (the observed one), s=1 |12/13-8/12| = 0.256
    #   k=1 (2 ways): s=0 |10/13-10/12| = 0.064, s=1 |10/12-10/13| = 0.064  (below 10/77)
    #   k=2 (1 way): s=0 |8/12-12/13| = 0.256, s=1 |8/11-12/14| = 10/77
    # Extreme patterns: (1 + 1) ways * 2 values of s * 2 for document 3 = 8 of 16: p = 0.5.
    a, b = _hand_case()
    exact = exact_randomization_test(a, b)
    assert exact.p_value == 0.5 and exact.trials == 16 and exact.exact
    assert exact.score_a == pytest.approx(12 / 14) and exact.score_b == pytest.approx(8 / 11)
    assert exact.difference == pytest.approx(10 / 77)

    # the same by brute force in plain Python, one pattern at a time
    def f1(rows):
        tp, fp, fn = (sum(col) for col in zip(*rows))
        return prf(tp, fp, fn)["f1"]

    observed = abs(f1(a.tolist()) - f1(b.tolist()))
    hits = 0
    for swaps in itertools.product([0, 1], repeat=4):
        pa = [b[i].tolist() if s else a[i].tolist() for i, s in enumerate(swaps)]
        pb = [a[i].tolist() if s else b[i].tolist() for i, s in enumerate(swaps)]
        hits += abs(f1(pa) - f1(pb)) >= observed - 1e-12
    assert hits == 8

    approx = randomization_test(a, b, trials=100_000, seed=7)
    assert abs(approx.p_value - exact.p_value) < 0.01
    assert not approx.significant and approx.marker == MARK_NONE


def test_identical_systems_give_p_one():
    a, _ = _hand_case()
    result = randomization_test(a, a.copy(), trials=1000, seed=1)
    assert result.p_value == 1.0  # every shuffle ties: (1000 + 1) / (1000 + 1)
    assert result.difference == 0.0 and result.marker == MARK_NONE
    assert exact_randomization_test(a, a.copy()).p_value == 1.0


def test_clearly_better_system_is_significant():
    docs = 50
    a = np.tile([3, 0, 0], (docs, 1))
    b = np.tile([2, 1, 1], (docs, 1))
    b[:10] = a[:10]  # equal on ten documents
    result = randomization_test(a, b, trials=10_000, seed=0)
    assert result.p_value < 0.01
    assert result.p_value == pytest.approx(1 / 10_001)  # only the identity (or full swap) ties
    assert result.significant and result.marker == MARK_BETTER
    worse = randomization_test(b, a, trials=2000, seed=0)
    assert worse.significant and worse.marker == MARK_WORSE and worse.difference < 0


def test_seeded_runs_are_reproducible_and_independent_of_chunking(monkeypatch):
    rng = np.random.default_rng(3)
    a = rng.integers(0, 5, (30, 3))
    b = rng.integers(0, 5, (30, 3))
    first = randomization_test(a, b, trials=5000, seed=42)
    assert randomization_test(a, b, trials=5000, seed=42) == first
    monkeypatch.setattr(significance, "_MAX_CELLS", 30 * 7)  # chunks of 7 shuffles
    assert randomization_test(a, b, trials=5000, seed=42).p_value == first.p_value
    assert randomization_test(a, b, trials=5000, seed=43).p_value != first.p_value


def test_p_value_formula_and_alpha():
    a, b = _hand_case()
    result = randomization_test(a, b, trials=99, seed=0)
    assert (result.p_value * 100) == pytest.approx(round(result.p_value * 100))  # (r + 1) / 100
    strict = randomization_test(a, b, trials=99, seed=0, alpha=0.6)
    assert strict.significant and strict.marker == MARK_BETTER
    json.dumps(result.to_dict())


def test_other_metrics_and_callables():
    a, b = _hand_case()
    recall = exact_randomization_test(a, b, "recall")
    # recall differences: swaps of docs 1, 2 move tp by 1 each: |6-4| = 2 reached by k in {0, 2}
    assert recall.p_value == pytest.approx(8 / 16)
    assert recall.score_a == pytest.approx(6 / 7)

    def tp_total(totals):
        return totals[..., 0]

    custom = exact_randomization_test(a, b, tp_total)
    assert custom.metric == "tp_total" and custom.difference == 2.0


def test_compare_systems_on_documents_and_per_tag():
    docs = [Document.create(f"n{i}", T1, DOC1.spans) for i in range(30)]
    good = [list(d.spans) for d in docs]
    bad = [[s for s in d.spans if s.label != "Name"] for d in docs]
    result = compare_systems(docs, good, bad, trials=2000, seed=0)
    assert result.marker == MARK_BETTER and result.p_value < 0.01
    assert result.score_a == 1.0 and result.score_b == pytest.approx(4 / 6)
    per_tag = compare_systems(docs, good, bad, tag="Date", trials=500, seed=0)
    assert per_tag.p_value == 1.0 and per_tag.marker == MARK_NONE
    tok = compare_systems(docs, good, bad, level="token", tokenize=ws_tokenize, trials=500)
    assert tok.marker == MARK_BETTER


def test_count_tables_must_cover_the_same_documents():
    ta = entity_counts([DOC1, DOC2], [[], []])
    tb = entity_counts([DOC1], [[]])
    with pytest.raises(InputError, match="different documents"):
        randomization_test(ta, tb)
    assert isinstance(ta, CountTable)


# ---------------------------------------------------------------- learning curves


def test_curve_rows_by_hand(tmp_path):
    rows = curve_rows({"1.0": [0.8], 0.1: [0.5, 0.6, 0.7], 0.5: [0.7, 0.7]})
    assert [r["fraction"] for r in rows] == [0.1, 0.5, 1.0]
    r = rows[0]
    assert r["n"] == 3 and r["mean"] == pytest.approx(0.6) and r["std"] == pytest.approx(0.1)
    half = 4.302652729749464 * 0.1 / math.sqrt(3)  # t(0.975, df=2) = 4.3027
    assert r["ci_half_width"] == pytest.approx(half)
    assert (r["ci_low"], r["ci_high"]) == pytest.approx((0.6 - half, 0.6 + half))
    assert rows[1]["std"] == 0.0 and rows[1]["ci_half_width"] == 0.0
    assert rows[2]["std"] is None and rows[2]["ci_low"] is None and rows[2]["mean"] == 0.8
    path = write_curve_csv(rows, tmp_path / "plots" / "curve.csv")
    lines = path.read_text().splitlines()
    assert lines[0] == "fraction,n,mean,std,ci_low,ci_high,ci_half_width"
    assert lines[3] == "1.0,1,0.8,,,,"


def test_curve_interval_is_clipped_to_bounds():
    scores = [0.95, 0.99, 0.90]  # t-interval 0.947 +/- 0.112 would reach 1.06
    free = summarize(scores)
    assert free["ci_high"] > 1.0
    clipped = summarize(scores, bounds=(0.0, 1.0))
    assert clipped["ci_high"] == 1.0 and clipped["ci_low"] == pytest.approx(free["ci_low"])
    assert clipped["ci_half_width"] == pytest.approx(free["ci_half_width"])
    [row] = curve_rows({0.5: [0.01, 0.2, 0.05]}, bounds=(0.0, 1.0))
    assert row["ci_low"] == 0.0 and row["ci_high"] < 1.0


def test_curve_confidence_level_and_errors():
    assert summarize([1.0, 2.0], confidence=0.9)["ci_half_width"] == pytest.approx(
        6.313751514675043 * math.sqrt(0.5) / math.sqrt(2)
    )  # t(0.95, df=1)
    with pytest.raises(InputError, match="fraction 0.3"):
        curve_rows({0.3: []})
    with pytest.raises(InputError, match="non-finite"):
        summarize([0.5, float("nan")])
    with pytest.raises(InputError, match="twice"):
        curve_rows({"0.5": [1.0], 0.5: [1.0]})


def test_spurious_spans_are_predictions_touching_no_gold_span():
    from synthdeid.evaluation.metrics import spurious_spans

    text = "Jan Jansen kreeg Dulcolax in Utrecht op maandag"
    gold = [Document.create("d", text, [Span(0, 10, "Name"), Span(29, 36, "Address")])]
    pred = [
        [
            Span(0, 3, "Name"),  # overlaps the gold name: a boundary error, not spurious
            Span(17, 25, "Name"),  # Dulcolax: spurious
            Span(29, 36, "Organization_Company"),  # the gold address with the wrong tag: not spurious
            Span(40, 47, "Date"),  # maandag: spurious
        ]
    ]
    assert spurious_spans(gold, pred) == {"Date": 1, "Name": 1, "total": 2}
    assert spurious_spans(gold, [[]]) == {"total": 0}
    # a span ending exactly where a gold span starts, or starting where one ends, touches none
    assert spurious_spans(gold, [[Span(26, 29, "Other"), Span(10, 16, "Other")]]) == {"Other": 2, "total": 2}
