"""The privacy-audit math (synthdeid.privacy.audit) against rouge_score, rank_bm25, brute force and hand
counts, and the privacy-metric plugins' configs and results."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from rank_bm25 import BM25Okapi
from rouge_score import rouge_scorer

from synthdeid import Document, Span, SynthdeidError
from synthdeid.api import PrivacyInput
from synthdeid.privacy.audit import (
    AuditCorpus,
    BM25Index,
    exact_duplicates,
    high_risk_pairs,
    longest_common_run,
    ngram_recall,
    pair_scores,
    phi_leakage,
    phi_token_mask,
    real_phi_strings,
    rouge_best,
    tokenize_text,
)

_TOKEN = re.compile(r"<[A-Za-z]+>|\w+|[^\w\s]")


def tokenize(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _TOKEN.finditer(text)]


class SameTokens:
    """Gives rouge_score exactly the audit's tokens."""

    def tokenize(self, text: str) -> list[str]:
        return tokenize_text(text, tokenize).tokens


def toy_docs(rng: random.Random, n: int, prefix: str, vocab: int = 12, max_len: int = 40) -> list[Document]:
    words = [f"W{i}" for i in range(vocab)] + [".", ",", "\n"]
    docs = []
    for i in range(n):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, max_len)))
        docs.append(Document(f"{prefix}{i}", text))
    return docs


def with_copies(rng: random.Random, syn: list[Document], real: list[Document]) -> list[Document]:
    out = list(syn)
    out[0] = Document("s_copy", real[1].text)
    out[1] = Document("s_part", real[2].text[: len(real[2].text) // 2] + " W1 W2")
    return out


@pytest.mark.parametrize("n", [3, 5])
def test_rouge_equals_rouge_score_on_random_pairs(n: int) -> None:
    rng = random.Random(n)
    real = toy_docs(rng, 60, "r")
    syn = with_copies(rng, toy_docs(rng, 40, "s"), real)
    corpus = AuditCorpus(real, syn, tokenize)
    scorer = rouge_scorer.RougeScorer([f"rouge{n}"], tokenizer=SameTokens())
    s_idx = np.array([rng.randrange(len(syn)) for _ in range(200)])
    r_idx = np.array([rng.randrange(len(real)) for _ in range(200)])
    recall, precision, f = pair_scores(*corpus.counts(n), s_idx, r_idx)
    for k, (s, r) in enumerate(zip(s_idx, r_idx)):
        # the synthetic note is the target (reference), the real note the prediction
        ref = scorer.score(syn[s].text, real[r].text)[f"rouge{n}"]
        assert (recall[k], precision[k], f[k]) == (ref.recall, ref.precision, ref.fmeasure)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("chunk_cells", [1, 7, 10_000_000])
def test_best_match_equals_brute_force(seed: int, chunk_cells: int) -> None:
    rng = random.Random(seed)
    real = toy_docs(rng, 15, "r", vocab=5, max_len=15)
    real.append(Document("r_dup", real[3].text))  # a tie: the lower index must win
    syn = with_copies(rng, toy_docs(rng, 9, "s", vocab=5, max_len=15), real) + [Document("s_short", "W1 W2")]
    corpus = AuditCorpus(real, syn, tokenize)
    for n in (3, 5):
        scorer = rouge_scorer.RougeScorer([f"rouge{n}"], tokenizer=SameTokens())
        best = rouge_best(*corpus.counts(n), n, chunk_cells=chunk_cells)
        for s, doc in enumerate(syn):
            scores = [scorer.score(doc.text, r.text)[f"rouge{n}"] for r in real]
            recalls = [x.recall for x in scores]
            j = recalls.index(max(recalls))  # first (lowest) index among ties
            assert best.index[s] == j
            assert (best.recall[s], best.precision[s], best.fmeasure[s]) == (
                scores[j].recall,
                scores[j].precision,
                scores[j].fmeasure,
            )
    assert corpus.rouge(3).recall[0] == 1.0  # the copied note
    assert corpus.rouge(3).recall[-1] == 0.0  # fewer than n tokens


def test_bm25_equals_rank_bm25() -> None:
    rng = random.Random(7)
    real = toy_docs(rng, 50, "r", vocab=30)
    # "common" is in every real note: negative idf, floored at epsilon x mean idf
    real = [Document(d.id, d.text + " common") for d in real]
    syn = toy_docs(rng, 20, "s", vocab=35) + [Document("s_unknown", "nowhere common W1 W1")]
    corpus = AuditCorpus(real, syn, tokenize)
    index, queries, best = corpus.bm25(1.2, 0.75, 0.25)
    ref = BM25Okapi([t.tokens for t in corpus.real_notes], k1=1.2, b=0.75, epsilon=0.25)
    ours = index.scores(queries)
    for i, note in enumerate(corpus.synthetic_notes):
        expected = ref.get_scores(note.tokens)
        np.testing.assert_allclose(ours[i], expected, rtol=0, atol=1e-9)
        assert best.index[i] == int(np.argmax(expected))
        assert best.score[i] == pytest.approx(expected.max(), abs=1e-9)
    common = corpus.vocab.ids["common"]
    assert index.idf[common] == pytest.approx(ref.idf["common"], abs=1e-15) and index.idf[common] > 0
    score, rank = index.pair_score_rank(queries, np.array([0, 0]), np.array([best.index[0], 1]))
    assert rank[0] == 1 and score[0] == best.score[0]
    assert rank[1] == 1 + int((ours[0] > ours[0][1]).sum())


def test_bm25_index_needs_real_notes() -> None:
    with pytest.raises(ValueError):
        BM25Index([], 3)


def test_ngram_recall_hand_computed() -> None:
    real = [Document.create("r0", "a b c d", [Span(2, 3, "Name")]), Document("r1", "e f g")]
    syn = [Document("s0", "a b c x"), Document("s1", "f g e f g")]
    corpus = AuditCorpus(real, syn, tokenize)
    phi = [phi_token_mask(t.offsets, d) for t, d in zip(corpus.real_notes, real)]
    assert phi[0].tolist() == [False, True, False, False]
    two = ngram_recall(corpus.real_ids, corpus.synthetic_ids, phi, 2)
    # R = {ab, bc, cd, ef, fg}; S = {ab, bc, cx, fg, ge, ef}; R* = {ab, bc}
    assert (two.real, two.synthetic, two.shared, two.recall) == (5, 6, 4, 0.8)
    assert (two.phi_real, two.phi_shared, two.phi_recall) == (2, 2, 1.0)
    assert two.shared_per_note.tolist() == [2, 2] and two.phi_shared_per_note.tolist() == [2, 0]
    three = ngram_recall(corpus.real_ids, corpus.synthetic_ids, phi, 3)
    # R = {abc, bcd, efg}; S ∩ R = {abc, efg}; R* = {abc, bcd}, shared {abc}
    assert (three.real, three.shared, three.recall) == (3, 2, 2 / 3)
    assert (three.phi_real, three.phi_shared, three.phi_recall) == (2, 1, 0.5)
    ten = ngram_recall(corpus.real_ids, corpus.synthetic_ids, phi, 10)
    assert ten.real == 0 and ten.recall is None and ten.phi_recall is None


def test_phi_token_mask_partial_overlap() -> None:
    doc = Document.create("d", "Jan Jansen-Smit kwam", [Span(4, 10, "Name")])
    tokens = tokenize_text(doc.text, tokenize)
    assert tokens.tokens == ["jan", "jansen", "-", "smit", "kwam"]
    assert phi_token_mask(tokens.offsets, doc).tolist() == [False, True, False, False, False]


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ([1, 2, 3, 4, 5], [9, 3, 4, 5, 1], (3, 2, 1)),
        ([1, 2, 3], [4, 5, 6], (0, 0, 0)),
        ([], [1], (0, 0, 0)),
        ([7, 7, 7], [7, 7], (2, 0, 0)),
        (list("abcab"), list("xabcabz"), (5, 0, 1)),
        ([1, 2, 9, 1, 2, 3], [1, 2, 3], (3, 3, 0)),
    ],
)
def test_longest_common_run(a: list, b: list, expected: tuple[int, int, int]) -> None:
    assert longest_common_run(a, b) == expected


def test_longest_common_run_long_notes_use_the_row_dp(monkeypatch: pytest.MonkeyPatch) -> None:
    import synthdeid.privacy.audit.leakage as leakage

    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 4, 300), rng.integers(0, 4, 200)
    fast = longest_common_run(a, b)
    monkeypatch.setattr(leakage, "_MAX_CELLS", 0)
    slow = longest_common_run(a, b)
    assert fast[0] == slow[0]
    for length, i, j in (fast, slow):
        assert a[i : i + length].tolist() == b[j : j + length].tolist()


def test_exact_duplicates_ignore_whitespace_only() -> None:
    real = ["Mevr. slaapt.\nGoed  gegeten.", "iets anders"]
    syn = ["Mevr. slaapt. Goed gegeten. ", "mevr. slaapt. goed gegeten.", "iets anders", "nieuw"]
    assert exact_duplicates(syn, real) == [0, None, 1, None]


def test_phi_leakage_hand_case() -> None:
    real = [
        Document.create(
            "r0",
            "Jan Jansen belde Piet over Utrecht Centraal.",
            [Span(0, 10, "Name"), Span(17, 21, "Name"), Span(27, 43, "Address")],
        ),
        Document.create("r1", "Piet kwam.", [Span(0, 4, "Name")]),
    ]
    syn = [
        "Gisteren   belde JAN  jansen.",  # the 2-token string, outside any span, other case/spacing
        "Piet at goed in januari.",  # the 1-token string
        "Utrecht is ver.",  # only part of a 2-token string: no leak
    ]
    phi = real_phi_strings(real, tokenize)
    assert [(p.text, p.real_count) for p in phi] == [("jan jansen", 1), ("piet", 2), ("utrecht centraal", 1)]
    assert [p.real_notes for p in phi] == [1, 2, 1]
    result = phi_leakage(phi, [tokenize_text(t, tokenize).tokens for t in syn], min_tokens=2)
    rates = result.rates()
    assert (rates["phi_strings"], rates["leaked"], rates["rate"]) == (3, 2, 2 / 3)
    assert (rates["multi_token_strings"], rates["multi_token_leaked"], rates["multi_token_rate"]) == (2, 1, 0.5)
    assert result.per_note.tolist() == [1, 1, 0] and result.per_note_multi.tolist() == [1, 0, 0]
    top = result.top(20)
    assert [t["text"] for t in top] == ["piet", "jan jansen"]  # tie on notes: more real spans first
    assert top[0] == {"text": "piet", "labels": ["Name"], "tokens": 1, "synthetic_notes": 1, "real_spans": 2}
    # "jan" inside "januari" is not a token match
    assert phi_leakage(phi, [["januari"]]).rates()["leaked"] == 0


def test_the_identifying_rule_leaves_out_young_ages_and_common_quasi_identifiers_never_names() -> None:
    from synthdeid.privacy.audit import PhiString
    from synthdeid.privacy.audit.identifying import IdentifyingRule

    def phi(text: str, labels: list[str], notes: int) -> PhiString:
        return PhiString(tuple(text.split()), text, tuple(labels), notes, notes)

    rule = IdentifyingRule()  # the leakage metric's defaults: Age < 90, common in 3+ notes
    assert rule.reason(phi("60 år", ["Age"], 1)) == "age"
    assert rule.reason(phi("46-jarige", ["Age"], 1)) == "age"
    assert rule.reason(phi("92 år", ["Age"], 9)) is None  # over 89: identifying however common (HIPAA)
    assert rule.reason(phi("tre år", ["Age"], 3)) == "common"  # no digits: judged by commonness only
    assert rule.reason(phi("elleve år", ["Age"], 2)) is None
    assert rule.reason(phi("kari nordmann", ["Name"], 30)) is None  # a direct identifier: never excused
    assert rule.reason(phi("40", ["Age", "Internal_Location"], 3)) == "common"
    assert rule.reason(phi("40", ["Age", "Internal_Location"], 2)) is None
    assert rule.reason(phi("de wit", ["Hospital", "Name"], 9)) is None  # one direct-identifier label is enough
    assert rule.reason(phi("afdeling 3", ["WARD"], 9)) is None  # a label of its own: not excused unless listed
    assert IdentifyingRule(common_labels=frozenset({"WARD"})).reason(phi("afdeling 3", ["WARD"], 9)) == "common"
    off = IdentifyingRule(common_notes=None, age_below=None)
    assert off.reason(phi("60 år", ["Age"], 9)) is None and off.describe() == "every real PHI string (no exclusion)"
    assert rule.identifying([phi("60 år", ["Age"], 1), phi("kari nordmann", ["Name"], 1)]).tolist() == [False, True]


def _norwegian(leaked_names: int, config: dict | None = None) -> dict:
    from norwegian_notes import real_notes, synthetic_notes
    from norwegian_notes import tokenize as nb_tokenize

    from synthdeid.plugin_system.manager import registry

    data = PrivacyInput(real_notes(), synthetic_notes(leaked_names), nb_tokenize)
    return registry("privacy_metric").create("leakage", config or {}).compute(data).summary


def test_common_ages_dominate_the_raw_figure_not_the_identifying_one() -> None:
    """42 Norwegian-like notes, an age and a name each; the synthetic notes reuse every age (24
    distinct, most in several notes) and copy one name: the raw multi-token figure is 25/66 = 0.38,
    the identifying one 3/44 (the name, "92 år" and "elleve år", an age in words in one note)."""
    leak = _norwegian(leaked_names=1)
    phi = leak["phi"]
    assert (phi["multi_token_strings"], phi["multi_token_leaked"], phi["multi_token_rate"]) == (66, 25, 25 / 66)
    assert (phi["identifying_multi_token_strings"], phi["identifying_multi_token_leaked"]) == (44, 3)
    assert phi["identifying_multi_token_rate"] == 3 / 44 and phi["identifying_rate"] == 3 / 44
    assert phi["not_identifying"] == {"age": 19, "common": 3}  # 20 digit ages but "92 år"; tre år, to år, fire måneder
    assert phi["identifying_rule"] == (
        "every real PHI string except Age strings whose numbers are all below 90 (HIPAA Safe Harbor) and strings of "
        "Age, Care_Institute, Date, Hospital, Internal_Location, Organization_Company, Other, Profession found in 3+ "
        "real notes (common values)"
    )
    assert leak["phi_by_label"]["Age"] == {
        "strings": 24,
        "leaked": 24,
        "identifying_strings": 2,
        "identifying_leaked": 2,
        "multi_token_strings": 24,
        "multi_token_leaked": 24,
        "identifying_multi_token_strings": 2,
        "identifying_multi_token_leaked": 2,
    }
    assert leak["phi_by_label"]["Name"]["identifying_multi_token_leaked"] == 1
    assert [t["text"] for t in leak["phi_top_leaked_identifying"]] == ["92 år", "elleve år", "kari nordmann"]
    assert len(leak["phi_top_leaked"]) == 20  # the raw list as before: every leaked string
    # without the rule the identifying figures are the raw ones
    off = _norwegian(1, {"common_notes": None, "age_below": None})["phi"]
    assert off["identifying_multi_token_rate"] == off["multi_token_rate"] and off["not_identifying"] == {
        "age": 0,
        "common": 0,
    }
    assert _norwegian(1, {"common_notes": 5})["phi"]["not_identifying"] == {"age": 19, "common": 0}


def test_leakage_warnings_name_a_label_whose_common_values_dominate() -> None:
    from norwegian_notes import real_notes
    from norwegian_notes import tokenize as nb_tokenize

    from synthdeid.privacy.audit.identifying import IdentifyingRule, leakage_warnings

    warnings = leakage_warnings(real_notes(), nb_tokenize)
    assert len(warnings) == 1 and warnings[0].startswith(
        "Age: 22 of the 66 distinct PHI strings of 2+ tokens in the training notes (33%) are ages under 90 or "
        "common Age values (in 3+ notes) that identify no one (e.g. '60 år', 'tre år', '3 måneder')"
    )
    assert "leaves them out" in warnings[0] and "corpora.NAME.fresh_surrogates: {labels: [Age]}" in warnings[0]
    off = leakage_warnings(real_notes(), nb_tokenize, IdentifyingRule(None, frozenset(), None))
    assert len(off) == 1 and "the identifying figure the privacy gate limits counts 22 of them" in off[0]
    names_only = [Document.create(d.id, d.text, [s for s in d.spans if s.label == "Name"]) for d in real_notes()]
    assert leakage_warnings(names_only, nb_tokenize) == []


def _pairs_corpus() -> tuple[list[Document], list[Document]]:
    long_text = "De patient is vandaag gezien door de arts. " * 30
    real = [
        Document("r_long", long_text),
        Document("r_struct", ". , . , . ; woord"),
        Document("r_plain", "De cliënt werd gezien door dokter Bakker op de afdeling. Verder rustig."),
        Document("r_other", "Geen bijzonderheden vannacht"),
    ]
    syn = [
        Document("s_long", long_text),
        Document("s_struct", "anders . , . , . heel anders"),
        Document("s_plain", "Vandaag werd gezien door dokter Bakker op de afdeling en zo."),
        Document("s_plain_again", "Vandaag  werd gezien door dokter Bakker op de afdeling en zo."),
    ]
    return real, syn


def test_high_risk_pairs_drop_long_and_structure_only_pairs() -> None:
    real, syn = _pairs_corpus()
    result = high_risk_pairs(AuditCorpus(real, syn, tokenize), k=10)
    assert [(r["synthetic_id"], r["real_id"]) for r in result.rows] == [("s_plain", "r_plain")]
    row = result.rows[0]
    assert row["method"] == "rouge3+rouge5+bm25" and row["bm25_rank"] == 1
    assert list(row)[:3] == ["synthetic_id", "real_id", "method"]
    assert ["gezien", "door", "dokter"] in row["shared_ngrams"]
    assert all(any(t.isalnum() for t in g) for g in row["shared_ngrams"])  # no structure-only n-gram
    s_text, r_text = syn[2].text, real[2].text
    assert [s_text[a:b] for a, b in row["synthetic_spans"]] == ["werd gezien door dokter Bakker op de afdeling"]
    assert [r_text[a:b] for a, b in row["real_spans"]] == ["werd gezien door dokter Bakker op de afdeling"]
    summary = result.summary
    assert summary["dropped_long"] >= 1 and summary["dropped_structure_only"] >= 1
    assert summary["pairs"] == 1 and summary["rouge3_recall"]["count"] == 1
    # s_plain_again only differs in whitespace: deduplicated
    assert "s_plain_again" not in {r["synthetic_id"] for r in result.rows}


def test_high_risk_pairs_structure_token_only_overlap_with_par() -> None:
    real = [Document("r0", "aap\n\n\nnoot"), Document("r1", "mies wim zus jet")]
    syn = [Document("s0", "kees\n\n\nteun"), Document("s1", "mies wim zus gijs")]
    result = high_risk_pairs(AuditCorpus(real, syn, tokenize), k=5, ns=(2, 3))
    assert [(r["synthetic_id"], r["real_id"]) for r in result.rows] == [("s1", "r1")]
    assert result.summary["dropped_structure_only"] == 1


def test_high_risk_pairs_k_and_filter_first() -> None:
    real, syn = _pairs_corpus()
    corpus = AuditCorpus(real, syn, tokenize)
    top1 = high_risk_pairs(corpus, k=1)
    assert {r["synthetic_id"] for r in top1.rows} <= {"s_long"} and top1.summary["dropped_long"] >= 1
    first = high_risk_pairs(corpus, k=1, filter_first=True)
    assert [r["synthetic_id"] for r in first.rows] == ["s_plain"]


# --- plugins -----------------------------------------------------------------------------------

NAMES = ["bm25", "high_risk_pairs", "leakage", "ngram_recall", "rouge"]


def _input() -> PrivacyInput:
    real, syn = _pairs_corpus()
    real[2] = Document.create("r_plain", real[2].text, [Span(34, 40, "Name")])
    return PrivacyInput(real, syn, tokenize)


def test_plugins_are_registered_and_compute() -> None:
    from synthdeid.plugin_system.manager import registry

    reg = registry("privacy_metric")
    assert set(NAMES) <= set(reg.names())
    data = _input()
    for name in NAMES:
        result = reg.create(name, {}).compute(data)
        assert result.summary
        for row in result.rows:
            assert next(iter(row)) == "synthetic_id"
        if name != "high_risk_pairs":
            assert [r["synthetic_id"] for r in result.rows] == [d.id for d in data.synthetic]
    rouge = reg.create("rouge", {"n": [5, 3]}).compute(data)
    assert rouge.summary["reference"] == "synthetic" and rouge.summary["rouge3"]["recall"]["max"] == 1.0
    leak = reg.create("leakage", {}).compute(data)
    assert leak.summary["exact_duplicates"] == 1
    assert leak.summary["phi"]["leaked"] == 1 and leak.summary["phi_top_leaked"][0]["text"] == "bakker"
    assert leak.rows[0]["exact_duplicate_of"] == "r_long" and leak.rows[0]["longest_run_share"] == 1.0
    recall = reg.create("ngram_recall", {"n": 3}).compute(data)
    assert set(recall.summary) == {"synthetic_notes", "real_notes", "n3"}


@pytest.mark.parametrize(
    ("name", "config", "message"),
    [
        ("rouge", {"n": [3], "ngram": 3}, r"'rouge' has no setting\(s\) ngram"),
        ("rouge", {"n": [0]}, "'rouge': setting 'n' must be a list of whole numbers >= 1, got"),
        ("bm25", {"k1": -1}, "'bm25': setting 'k1' must be >= 0, got -1.0; set it to 0 or more"),
        ("bm25", {"b": 1.5}, r"'bm25': setting 'b' must be in \[0, 1\], got 1.5"),
        ("bm25", {"epsilon": "x"}, "'bm25': setting 'epsilon' must be a number >= 0, got 'x'"),
        ("ngram_recall", {"n": "3"}, "'ngram_recall': setting 'n' must be a list"),
        ("leakage", {"rouge_n": 0}, "'leakage': setting 'rouge_n' must be >= 1, got 0"),
        ("leakage", {"top": -1}, "'leakage': setting 'top' must be >= 0, got -1"),
        ("leakage", {"common_notes": 1}, "'leakage': setting 'common_notes' must be >= 2, got 1; set it to 2 or more"),
        ("leakage", {"age_below": 0}, "'leakage': setting 'age_below' must be >= 1, got 0"),
        ("leakage", {"common_labels": "Age"}, "'leakage': common_labels must be a list of labels"),
        ("leakage", {"common_labels": ["Age", "Name"]}, "'leakage': common_labels lists Name, a direct identifier"),
        ("high_risk_pairs", {"k": 0}, "'high_risk_pairs': setting 'k' must be >= 1, got 0"),
        ("high_risk_pairs", {"max_chars": 1.5}, "'high_risk_pairs': setting 'max_chars' must be a whole number >= 1"),
        ("high_risk_pairs", {"structure_pattern": "("}, "'high_risk_pairs': structure_pattern is not a regex"),
        ("rouge", {"lowercase": "yes"}, "'rouge': setting 'lowercase' must be true or false \\(unquoted\\), got 'yes'"),
        ("rouge", {"paragraph_token": ""}, "'rouge': paragraph_token must be a non-empty string or null"),
        ("rouge", {"chunk_cells": 0}, "'rouge': setting 'chunk_cells' must be >= 1, got 0"),
        ("membership_inference", {"max_notes": 0}, "'membership_inference': setting 'max_notes' must be >= 1, got 0"),
        (
            "membership_inference",
            {"top": True},
            "'membership_inference': setting 'top' must be a whole number >= 0, got True",
        ),
        ("canary_exposure", {"candidates": 0}, "'canary_exposure': setting 'candidates' must be >= 1, got 0"),
        ("canary_exposure", {"threads": 1.5}, "'canary_exposure': setting 'threads' must be a whole number >= 1"),
        (
            "canary_exposure",
            {"extrapolate": 1},
            "'canary_exposure': setting 'extrapolate' must be true or false \\(unquoted\\), got 1",
        ),
    ],
)
def test_bad_config_raises(name: str, config: dict, message: str) -> None:
    from synthdeid.plugin_system.manager import registry

    with pytest.raises(SynthdeidError, match=f"privacy metric {message}"):
        registry("privacy_metric").create(name, config)


def test_config_defaults_and_direct_construction_use_the_declared_bounds() -> None:
    from pydantic import ValidationError

    from synthdeid.plugins.privacy import (
        BM25Config,
        LeakageConfig,
        MembershipInferenceConfig,
    )
    from synthdeid.privacy.audit.rouge import DEFAULT_CHUNK_CELLS

    bm25 = BM25Config()
    assert (bm25.k1, bm25.b, bm25.epsilon, bm25.lowercase) == (1.2, 0.75, 0.25, True)
    assert bm25.chunk_cells == DEFAULT_CHUNK_CELLS
    assert (LeakageConfig().rouge_n, LeakageConfig().multi_token_min, LeakageConfig().top) == (3, 2, 20)
    with pytest.raises(ValidationError, match="b\n  Input should be less than or equal to 1"):
        BM25Config(b=2.0)
    with pytest.raises(ValidationError, match="seed\n  Input should be greater than or equal to 0"):
        MembershipInferenceConfig(seed=-1)


def test_config_is_frozen_and_lowercase_is_a_setting() -> None:
    from pydantic import ValidationError

    from synthdeid.plugin_system.manager import registry

    metric = registry("privacy_metric").create("rouge", {"lowercase": False, "n": [3]})
    with pytest.raises(ValidationError, match="frozen"):
        metric.config.n = (5,)  # type: ignore[misc]
    data = PrivacyInput([Document("r", "Een Twee Drie")], [Document("s", "een twee drie")], tokenize)
    assert metric.compute(data).rows[0]["rouge3_recall"] == 0.0
    lower = registry("privacy_metric").create("rouge", {"n": [3]}).compute(data)
    assert lower.rows[0]["rouge3_recall"] == 1.0


def test_no_real_notes_is_an_error_and_no_synthetic_notes_is_empty() -> None:
    from synthdeid.plugin_system.manager import registry

    with pytest.raises(SynthdeidError, match="real"):
        registry("privacy_metric").create("rouge", {}).compute(PrivacyInput([], [Document("s", "x")], tokenize))
    data = PrivacyInput([Document("r", "een twee drie")], [], tokenize)
    for name in NAMES:
        assert registry("privacy_metric").create(name, {}).compute(data).rows == []
