"""The reviewer page (highlighting, escaping, embedded data) and the agreement analysis."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from synthdeid import InputError
from synthdeid.report.review import analyze, cohen_kappa, write_review_page
from synthdeid.report.review.analyze import spearman
from synthdeid.report.review.cli import add_review_commands
from synthdeid.report.review.highlight import find_ranges, render_marked
from synthdeid.report.review.page import build_review_html, read_pairs

PAIRS = [
    {
        "pair_id": "s1-rouge3",
        "synthetic_id": "s1",
        "real_id": "r7",
        "synthetic_text": "Mevr. was rustig.\nMw. heeft Goed Gegeten en gedronken. <script>alert(1)</script>",
        "real_text": "Mw. heeft vanavond goed gegeten en gedronken.\nZoon Jan belde om 12-03.",
        "shared_ngrams": [["goed", "gegeten", "en"]],
        "rouge3": 0.4,
        "rouge5": 0.125,
        "bm25_rank": 1,
    },
    {
        "pair_id": "s2-bm25",
        "synthetic_id": "s2",
        "real_id": "r9",
        "synthetic_text": "Dhr. naar bed. </script><!--<script> & meer",
        "real_text": "Dhr. is naar bed geholpen.",
        "shared_ngrams": [["dhr", ".", "naar"]],
        "scores": {"bm25": 12.5},
    },
]


def _data_block(page: str) -> dict:
    start = page.index('<script type="application/json" id="review-data">')
    body = page[page.index(">", start) + 1 : page.index("</script>", start)]
    return json.loads(body)


def _div(page: str, testid: str) -> str:
    m = re.search(rf'data-testid="{testid}">(.*?)</div>', page, re.S)
    assert m, testid
    return m.group(1)


# --- highlighting ----------------------------------------------------------------------------


def test_shared_trigram_is_marked_in_both_texts_case_insensitively():
    page = build_review_html(PAIRS, "t")
    assert "<mark>goed gegeten en</mark>" in _div(page, "pair-0-real")
    assert "<mark>Goed Gegeten en</mark>" in _div(page, "pair-0-synthetic")
    assert "<mark>Dhr. naar</mark>" in _div(page, "pair-1-synthetic")
    assert "<mark>" not in _div(page, "pair-1-real")  # "Dhr. is naar": not the 3-gram


def test_ngram_matching_rules():
    text = "Mw. belde om 12-03 en den haag.\nZoon komt."
    assert find_ranges(text, [["12", "-", "03"]]) == [(13, 18)]
    assert find_ranges(text, [["de", "n"]]) == []  # no match inside a word
    assert find_ranges(text, [["haag", ".", "<PAR>", "zoon"]]) == [(26, 36)]  # <PAR> = newline
    # overlapping 3-grams of one copied passage become one range
    assert find_ranges(text, [["belde", "om", "12"], ["om", "12", "-"]]) == [(4, 16)]
    # overlapping occurrences of one n-gram are all found
    assert find_ranges("a a a a", [["a", "a", "a"]]) == [(0, 7)]
    assert find_ranges(text, [[], ["nergens", "te", "vinden"]]) == []


def test_text_is_escaped_with_line_breaks():
    out = render_marked("a <b> & c\nd", [(0, 1)])
    assert out == "<mark>a</mark> &lt;b&gt; &amp; c<br>\nd"
    page = build_review_html(PAIRS, "<i>title</i>")
    synthetic = _div(page, "pair-0-synthetic")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in synthetic and "<script>alert" not in page
    assert "Mevr. was rustig.<br>" in synthetic
    assert "<title>&lt;i&gt;title&lt;/i&gt;</title>" in page


def test_embedded_json_is_valid_and_notes_cannot_break_out(tmp_path):
    path = write_review_page(PAIRS, tmp_path / "sub" / "page.html", "Review")
    page = path.read_text(encoding="utf-8")
    assert len(re.findall(r"<script\b", page, re.I)) == 2  # the data block and the page script
    assert len(re.findall(r"</script", page, re.I)) == 2
    data = _data_block(page)
    assert [p["synthetic_text"] for p in data["pairs"]] == [p["synthetic_text"] for p in PAIRS]
    assert data["pairs"][0]["highlights"]["real"] == [[19, 34]]
    assert data["likert_keys"] == ["q1", "q2", "q3"] and data["scale"]["5"] == "Yes"
    assert "http" not in page.replace("http-equiv", "")  # nothing loads from the network


def test_page_has_questions_labels_scores_and_testids():
    page = build_review_html(PAIRS, "t")
    assert "Do you think the real doc provides enough information to identify a person?" in page
    assert "Please motivate your answer for Q3." in page
    radio_ids = re.findall(r'<input type="radio" id="([^"]+)"', page)
    assert len(radio_ids) == 2 * 3 * 5
    assert all(f'<label for="{i}">' in page for i in radio_ids)
    for testid in ("reviewer-name", "save-answers", "pair-1-q3-1", "pair-0-q4", "pair-0-comment"):
        assert f'data-testid="{testid}"' in page
    assert "<dt>rouge3</dt><dd>0.400</dd>" in page and "<dt>bm25_rank</dt><dd>1</dd>" in page
    assert "<dt>bm25</dt><dd>12.500</dd>" in page


def test_bad_pairs_are_reported():
    with pytest.raises(InputError, match="lacks real_text"):
        build_review_html([{"pair_id": "x", "synthetic_text": "a"}], "t")
    with pytest.raises(InputError, match="duplicate pair_id"):
        build_review_html([PAIRS[0], PAIRS[0]], "t")
    with pytest.raises(InputError, match="shared_ngrams"):
        build_review_html([{**PAIRS[0], "shared_ngrams": ["goed gegeten en"]}], "t")
    empty = build_review_html([], "t <x>")
    assert "No pairs to review" in empty and "t &lt;x&gt;" in empty and "<script" not in empty


def test_read_pairs_names_file_and_line(tmp_path):
    f = tmp_path / "pairs.jsonl"
    f.write_text(json.dumps(PAIRS[0]) + "\n\n{oops\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"pairs.jsonl:3: invalid JSON"):
        read_pairs(f)
    f.write_text(json.dumps(PAIRS[0]) + "\n" + json.dumps({"pair_id": "y"}) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"pairs.jsonl:2.*lacks synthetic_text, real_text"):
        read_pairs(f)


# --- statistics ------------------------------------------------------------------------------


def test_kappa_by_hand():
    assert cohen_kappa([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]) == 1.0
    # po = 3/4, pe = .5*.25 + .5*.75 = .5 -> (.75 - .5) / .5
    assert cohen_kappa([1, 1, 2, 2], [1, 2, 2, 2]) == pytest.approx(0.5)
    # quadratic: sum w*O = 1/3, sum w*E = 5/3 -> 1 - 1/5
    assert cohen_kappa([1, 2, 3], [1, 3, 3], "quadratic") == pytest.approx(0.8)
    assert cohen_kappa([1, 2, 3], [3, 2, 1], "quadratic") == pytest.approx(-1.0)
    assert cohen_kappa([3, 3], [3, 3]) is None  # undefined, not a silent 0 or 1
    assert cohen_kappa([], []) is None


def test_kappa_matches_sklearn_with_the_scale_as_labels():
    metrics = pytest.importorskip("sklearn.metrics")
    a = [5, 4, 4, 1, 2, 3, 5, 1, 2, 2]
    b = [5, 5, 3, 1, 1, 3, 4, 2, 2, 1]
    for weights in (None, "linear", "quadratic"):
        expected = metrics.cohen_kappa_score(a, b, labels=[1, 2, 3, 4, 5], weights=weights)
        assert cohen_kappa(a, b, weights) == pytest.approx(expected)


def test_spearman_matches_scipy():
    from scipy.stats import spearmanr

    a, b = [1, 2, 3, 4, 5, 3, 2], [2, 1, 4, 3, 5, 3, 3]
    rho, p = spearman(a, b)
    ref = spearmanr(a, b)
    assert rho == pytest.approx(ref.statistic) and p == pytest.approx(ref.pvalue)
    assert spearman([3, 3, 3], [1, 2, 3]) == (None, None)


def _answers(tmp_path: Path, reviewer: str, rows: dict[str, tuple], name: str | None = None) -> Path:
    answers = [
        {
            "pair_id": pid,
            "q1": q[0],
            "q2": q[1],
            "q3": q[2],
            "q1_text": "",
            "q2_text": "",
            "q3_text": "",
            "q4": "motivation",
            "comment": "",
        }
        for pid, q in rows.items()
    ]
    path = tmp_path / (name or f"review-{reviewer}.json")
    path.write_text(json.dumps({"reviewer": reviewer, "page": "t", "answers": answers}), encoding="utf-8")
    return path


def test_analyze_two_reviewers(tmp_path):
    a = _answers(tmp_path, "ann", {"p1": (1, 1, 5), "p2": (1, 2, 4), "p3": (2, 3, 3), "p4": (2, None, 2)})
    b = _answers(tmp_path, "bob", {"p1": (1, 1, 5), "p2": (2, 2, 4), "p3": (2, 3, 3), "p4": (2, 5, 2)})
    res = analyze([a, b])
    [c] = res["comparisons"]
    assert c["reviewers"] == ["ann", "bob"] and c["shared_pairs"] == 4
    q1, q2, q3 = (c["questions"][k] for k in ("q1", "q2", "q3"))
    assert q1["kappa"] == pytest.approx(0.5) and q1["n"] == 4 and q1["agreement"] == 0.75
    assert q2["n"] == 3 and q2["kappa"] == 1.0  # a null answer leaves the pair out of that question
    assert q3["kappa"] == q3["weighted_kappa"] == 1.0 and q3["spearman_rho"] == pytest.approx(1.0)
    assert res["pooled"] == c["questions"]
    assert res["means"]["ann"]["q2"] == {"mean": 2.0, "n": 3}
    assert res["means"]["bob"]["q1"] == {"mean": 1.75, "n": 4}
    assert res["warnings"] == []
    json.dumps(res)  # JSON-able (no NaN)


def test_analyze_mismatched_pairs_uses_the_intersection(tmp_path):
    a = _answers(tmp_path, "ann", {"p1": (1, 1, 1), "p2": (2, 2, 2), "p3": (3, 3, 3)})
    b = _answers(tmp_path, "bob", {"p2": (2, 2, 2), "p3": (3, 3, 3), "p9": (5, 5, 5)})
    res = analyze([a, b])
    [c] = res["comparisons"]
    assert c["shared_pairs"] == 2 and c["only_in"] == {"ann": ["p1"], "bob": ["p9"]}
    assert c["questions"]["q1"]["n"] == 2 and c["questions"]["q1"]["kappa"] == 1.0
    assert any("only in ann's file" in w and "p1" in w for w in res["warnings"])
    assert any("only in bob's file" in w and "p9" in w for w in res["warnings"])


def test_analyze_three_reviewers_pairwise_and_pooled(tmp_path):
    rows = {"p1": (1, 1, 1), "p2": (3, 3, 3), "p3": (5, 5, 5)}
    files = [_answers(tmp_path, n, rows) for n in ("ann", "bob", "cas")]
    res = analyze(files)
    assert [c["reviewers"] for c in res["comparisons"]] == [["ann", "bob"], ["ann", "cas"], ["bob", "cas"]]
    assert res["pooled"]["q3"]["n"] == 9 and res["pooled"]["q3"]["kappa"] == 1.0


@pytest.mark.parametrize(
    "content, problem",
    [
        ("{not json", "invalid JSON"),
        ("[]", "expected a JSON object"),
        ('{"answers": []}', "no reviewer name"),
        ('{"reviewer": "x"}', '"answers" is missing'),
        ('{"reviewer": "x", "answers": [{"q1": 1}]}', "answer 1 is not an object with a pair_id"),
        ('{"reviewer": "x", "answers": [{"pair_id": "p1", "q1": 7}]}', "pair 'p1': q1 is 7"),
        ('{"reviewer": "x", "answers": [{"pair_id": "p1", "q2": "Yes"}]}', "q2 is 'Yes'"),
        ('{"reviewer": "x", "answers": [{"pair_id": "p1"}, {"pair_id": "p1"}]}', "answered twice"),
    ],
)
def test_analyze_malformed_file_names_file_and_problem(tmp_path, content, problem):
    good = _answers(tmp_path, "ann", {"p1": (1, 1, 1)})
    bad = tmp_path / "broken.json"
    bad.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as e:
        analyze([good, bad])
    assert "broken.json" in str(e.value) and problem in str(e.value)


def test_analyze_needs_two_reviewers_sharing_pairs(tmp_path):
    a = _answers(tmp_path, "ann", {"p1": (1, 1, 1)})
    with pytest.raises(InputError, match="at least 2 reviewers"):
        analyze([a])
    with pytest.raises(InputError, match="'ann' has two files"):
        analyze([a, _answers(tmp_path, "ann", {"p1": (1, 1, 1)}, name="again.json")])
    with pytest.raises(InputError, match="no pair_id in common"):
        analyze([a, _answers(tmp_path, "bob", {"p2": (1, 1, 1)})])
    with pytest.raises(InputError, match="missing.json: file not found"):
        analyze([a, tmp_path / "missing.json"])


# --- CLI -------------------------------------------------------------------------------------


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="synthdeid")
    add_review_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.run(args, Console(soft_wrap=True, width=200))


def test_cli_page(tmp_path, capsys):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps(p) + "\n" for p in PAIRS), encoding="utf-8")
    out = tmp_path / "review.html"
    assert _run(["review", "page", str(pairs), str(out), "--title", "Batch 1"]) == 0
    assert "wrote review page with 2 pairs" in capsys.readouterr().out
    assert _data_block(out.read_text(encoding="utf-8"))["title"] == "Batch 1"


def test_cli_analyze_table_and_json(tmp_path, capsys):
    a = _answers(tmp_path, "ann", {"p1": (1, 1, 5), "p2": (1, 2, 4), "p3": (2, 3, 3), "p5": (1, 1, 1)})
    b = _answers(tmp_path, "bob", {"p1": (1, 1, 5), "p2": (2, 2, 4), "p3": (2, 3, 3)})
    assert _run(["review", "analyze", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "ann vs bob: 3 shared pairs" in out and "weighted kappa" in out and "Spearman rho" in out
    assert "only in ann's file" in out and "p5" in out
    assert _run(["review", "analyze", str(a), str(b), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["comparisons"][0]["questions"]["q3"]["kappa"] == 1.0


def test_cli_errors_are_synthdeid_errors(tmp_path):
    a = _answers(tmp_path, "ann", {"p1": (1, 1, 1)})
    with pytest.raises(InputError, match="at least 2 reviewers"):
        _run(["review", "analyze", str(a)])
    with pytest.raises(InputError, match="file not found"):
        _run(["review", "page", str(tmp_path / "nope.jsonl"), str(tmp_path / "x.html")])


def test_the_page_holds_real_notes_and_is_private(tmp_path):
    """The page quotes real notes: mode 600 (folders made for it 700), whatever the umask, and an
    existing page is replaced by a new private file, never rewritten in place with its old mode."""
    import os
    import stat

    old = os.umask(0o022)
    try:
        path = write_review_page(PAIRS, tmp_path / "sub" / "page.html", "Review")
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE((tmp_path / "sub").stat().st_mode) == 0o700
        path.chmod(0o644)
        write_review_page(PAIRS, path, "Review")
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_read_pairs_splits_on_newlines_only(tmp_path):
    """U+2028, U+2029 and U+0085 are characters inside a JSON string, not line breaks."""
    f = tmp_path / "pairs.jsonl"
    pair = {**PAIRS[1], "real_text": "Dhr.\u2028is\u2029naar\x85bed."}
    f.write_text(json.dumps(pair, ensure_ascii=False) + "\n", encoding="utf-8")
    [read] = read_pairs(f)
    assert read["real_text"] == pair["real_text"]
