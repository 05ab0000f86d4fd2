"""Tables 4, 5 and 8 of Libbi et al. (2021) from the postprocess and privacy metrics.

Each function takes ``{corpus: metrics dict}`` (the JSON the stages wrote) and returns a Markdown
table with one column per corpus, so a reader compares corpora side by side as in the paper."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synthdeid.evaluation.utility import markdown_table

Metrics = Mapping[str, Mapping[str, Any]]

_SIZE_ROWS = (
    ("Documents", "documents"),
    ("Tokens", "tokens"),
    ("Vocabulary", "vocabulary"),
    ("PHI instances", "phi_instances"),
    ("Sentences", "sentences"),
    ("Avg. tokens per sentence", "tokens_per_sentence"),
    ("Avg. tokens per document", "tokens_per_document"),
)


def _num(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:,.2f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.2f}%"


def corpus_table(postprocess: Metrics, real_name: str = "real") -> str:
    """Table 4: size statistics of each synthetic corpus next to the real training corpus."""
    corpora = list(postprocess)
    real: Mapping[str, Any] = next((m["real"] for m in postprocess.values() if "real" in m), {})
    rows = [
        [label, _num(real.get(key)), *(_num(postprocess[c].get("synthetic", {}).get(key)) for c in corpora)]
        for label, key in _SIZE_ROWS
    ]
    return markdown_table(["", real_name, *corpora], rows)


def rare_word_table(postprocess: Metrics) -> str:
    """The PHI share of each corpus's rare words beside the real training notes' (``rare_words`` of
    the postprocess metrics, ``synthdeid.corpus.rare_words``), and the ``<unk>`` postprocess filled."""
    corpora = [c for c in postprocess if "rare_words" in postprocess[c]]
    if not corpora:
        return "No corpus has rare-word figures (postprocess metrics before this release).\n"
    rare = {c: postprocess[c]["rare_words"] for c in corpora}
    real = rare[corpora[0]]["real"]

    def cell(c: str) -> list[str]:
        if not (postprocess[c].get("tags") or {}).get("tags"):  # an untagged generator's notes: no spans yet
            return [c, "untagged", "(machine_annotate adds its spans)", "", ""]
        s, k = rare[c]["synthetic_singletons"], rare[c]["synthetic_scaled"]
        filled = (postprocess[c].get("unknown_words") or {}).get("filled")
        return [
            c,
            _pct(s["phi_share"]),
            f"{_pct(k['phi_share'])} (k = {k['k']})",
            f"{rare[c]['gap_points']:+.1f}",
            _num(filled) if filled is not None else "not filled",
        ]

    rows = [["real training notes", _pct(real["phi_share"]), _pct(real["phi_share"]) + " (k = 1)", "", ""]]
    rows += [cell(c) for c in corpora]
    header = ["corpus", "singletons in PHI", "words seen <= k times in PHI", "points off real", "<unk> filled"]
    return markdown_table(header, rows)


def realism_table(privacy: Metrics) -> str:
    """Per label: the surrogate realism AUC (and the copy share) of the pseudonymized training notes
    and of each audited corpus against the real PHI (``surrogate_realism`` of the privacy metrics)."""
    corpora = [c for c in privacy if "surrogate_realism" in privacy[c]]
    if not corpora:
        return "No corpus has realism figures (`surrogate_realism` is not in privacy.metrics).\n"
    tables = {c: privacy[c]["surrogate_realism"] for c in corpora}
    pseudonymized = tables[corpora[0]]["pseudonymized"]["labels"]

    def cell(row: Mapping[str, Any] | None) -> str:
        if not row or row.get("auc") is None:
            return "n/a"
        return f"{row['auc']:.2f} ({_pct(row['copied_share'])})"

    labels = sorted({label for c in corpora for label in tables[c]["corpus"]["labels"]} | set(pseudonymized))
    rows = [
        [
            label,
            _num((pseudonymized.get(label) or {}).get("real_strings", 0)),
            cell(pseudonymized.get(label)),
            *(cell(tables[c]["corpus"]["labels"].get(label)) for c in corpora),
        ]
        for label in labels
    ]
    worst = lambda w: "n/a" if w["auc"] is None else f"{w['auc']:.2f} ({w['label']})"  # noqa: E731
    rows.append(
        [
            f"**worst label with >= {tables[corpora[0]]['pseudonymized']['worst']['min_real_strings']} real strings**",
            "",
            worst(tables[corpora[0]]["pseudonymized"]["worst"]),
            *(worst(tables[c]["corpus"]["worst"]) for c in corpora),
        ]
    )
    return markdown_table(["label", "real strings", "pseudonymized notes", *corpora], rows)


def tag_table(postprocess: Metrics) -> str:
    """Table 5: the share of well-formed and malformed PHI tags in each generated corpus, with the
    kinds of malformation (counts) and the notes dropped by a counted rule."""
    corpora = [c for c in postprocess if "tags" in postprocess[c]]

    def tags(c: str) -> Mapping[str, Any]:
        return postprocess[c]["tags"]

    def share(c: str) -> float | None:
        return 1 - tags(c)["malformed_share"] if tags(c).get("tags") else None

    rows = [
        ["Well-formed PHI tags", *(_pct(share(c)) for c in corpora)],
        ["Malformed PHI tags", *(_pct(tags(c)["malformed_share"] if tags(c).get("tags") else None) for c in corpora)],
    ]
    for kind in ("unclosed", "unopened", "nested", "crossing", "empty", "unknown"):
        rows.append([f"… {kind} (count)", *(_num(tags(c).get(kind, 0)) for c in corpora)])
    rows.append(["Tags in total", *(_num(tags(c).get("tags")) for c in corpora)])
    rows.append(["Notes dropped", *(_num(postprocess[c].get("documents_rejected")) for c in corpora)])
    return markdown_table(["", *corpora], rows)


def _stats(summary: Mapping[str, Any] | None) -> list[Any]:
    summary = summary or {}
    return [summary.get(k) for k in ("mean", "median", "min", "max")]


def privacy_table(privacy: Metrics) -> str:
    """Table 8 and the leakage figures: ROUGE-N recall of each synthetic note's best real match
    (mean, median, min, max) over all notes and over the high-risk pairs, the longest verbatim
    run, exact copies, PHI leakage and the gate's verdict, one row per corpus and figure."""
    rows: list[list[Any]] = []
    for corpus, m in privacy.items():
        rouge = m.get("rouge", {})
        for key in sorted(k for k in rouge if k.startswith("rouge") and isinstance(rouge[k], Mapping)):
            rows.append([corpus, f"{key} recall, all notes", *_stats(rouge[key].get("recall"))])
        pairs = m.get("high_risk_pairs", {})
        for key in sorted(k for k in pairs if k.startswith("rouge")):
            rows.append(
                [
                    corpus,
                    f"{key.replace('_recall', '')} recall, {pairs.get('pairs', 0)} high-risk pairs",
                    *_stats(pairs[key]),
                ]
            )
        if "bm25" in m:
            rows.append([corpus, "BM25 score of the best real match", *_stats(m["bm25"].get("score"))])
        leak = m.get("leakage", {})
        if leak:
            rows.append([corpus, "longest verbatim run (tokens)", *_stats(leak.get("longest_run"))])
    table = markdown_table(["corpus", "figure", "mean", "median", "min", "max"], rows)
    verdicts = []
    for corpus, m in privacy.items():
        leak, gate = m.get("leakage", {}), m.get("gate", {})
        phi = leak.get("phi", {})
        verdict = (
            "passed"
            if gate.get("passed")
            else ("over the gate, published by override" if gate.get("overridden") else "failed")
        )
        verdicts.append(
            [
                corpus,
                _num(leak.get("exact_duplicates")),
                _pct(phi.get("rate")),
                _pct(phi.get("multi_token_rate")),
                _pct(phi.get("identifying_multi_token_rate")),
                verdict,
            ]
        )
    return (
        table
        + "\n"
        + markdown_table(
            [
                "corpus",
                "exact copies of real notes",
                "real PHI strings reappearing",
                "… of 2+ tokens",
                "… identifying, 2+ tokens (gated)",
                "privacy gate",
            ],
            verdicts,
        )
    )


def ngram_recall_table(privacy: Metrics) -> str:
    """Corpus n-gram recall |R ∩ S| / |R| (Vakili et al. 2025, Eq. 1) over all real n-grams and
    over the real n-grams that overlap PHI, one row per corpus and n."""
    rows = []
    for corpus, m in privacy.items():
        rec = m.get("ngram_recall", {})
        for key in sorted((k for k in rec if k.startswith("n") and k[1:].isdigit()), key=lambda k: int(k[1:])):
            r = rec[key]
            rows.append(
                [
                    corpus,
                    int(key[1:]),
                    _pct(r.get("recall")),
                    _pct(r.get("phi_recall")),
                    _num(r.get("shared_ngrams")),
                    _num(r.get("real_ngrams")),
                ]
            )
    return markdown_table(
        ["corpus", "n", "recall (all n-grams)", "recall (PHI n-grams)", "shared", "real n-grams"], rows
    )


def model_privacy_table(audit: Metrics) -> str:
    """Per generator: canary exposure (Carlini et al.) by number of insertions, sampled and
    extrapolated, against the most a sample can show; and the loss-based membership-inference AUC
    (0.5 = no better than chance) with its bootstrap interval and the best-threshold advantage."""
    rows = []
    for name, m in sorted(audit.items()):
        canary, mia = m.get("canary_exposure") or {}, m.get("membership_inference") or {}
        if canary.get("by_repetition"):
            exposure = "; ".join(
                f"{reps}x: {_num(g.get('exposure_mean'))} ({_num(g.get('exposure_extrapolated_mean'))})"
                for reps, g in sorted(canary["by_repetition"].items(), key=lambda kv: int(kv[0]))
            )
            cap = f"{_num(canary.get('max_measurable_exposure'))} / {_num(canary.get('log2_space_size'))}"
        else:
            exposure, cap = "no canaries" if canary else "not run", ""
        ci = mia.get("auc_ci95")
        auc = f"{_num(mia.get('auc'))} [{_num(ci[0])}, {_num(ci[1])}]" if ci else _num(mia.get("auc"))
        rows.append([name, exposure, cap, auc if mia else "not run", _num(mia.get("advantage")) if mia else ""])
    return markdown_table(
        [
            "generator",
            "canary exposure in bits by insertions: sampled (extrapolated)",
            "max by sampling / log2 |R|",
            "membership AUC [95% CI]",
            "advantage",
        ],
        rows,
    )
