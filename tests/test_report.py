"""The study report: tables from the stages' metrics, byte-stable figures, datasheets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from synthdeid.report import (
    corpus_table,
    datasheet,
    learning_curve_figure,
    ngram_recall_table,
    package_versions,
    phi_distribution_figure,
    privacy_table,
    tag_table,
)

POST = {
    "a": {
        "documents_rejected": 2,
        "rejected_reasons": {"empty note": 2},
        "real": {
            "documents": 10,
            "tokens": 1200,
            "vocabulary": 300,
            "phi_instances": 40,
            "sentences": 100,
            "tokens_per_sentence": 12.0,
            "tokens_per_document": 120.0,
        },
        "synthetic": {
            "documents": 5,
            "tokens": 700,
            "vocabulary": 150,
            "phi_instances": 20,
            "sentences": 50,
            "tokens_per_sentence": 14.0,
            "tokens_per_document": 140.0,
        },
        "tags": {
            "tags": 25,
            "well_formed": 20,
            "malformed": 5,
            "malformed_share": 0.2,
            "unclosed": 3,
            "unopened": 2,
            "nested": 0,
            "crossing": 0,
            "empty": 0,
            "unknown": 0,
        },
    },
}
STATS = {"mean": 0.1, "median": 0.09, "min": 0.0, "max": 0.5, "count": 5}
PRIVACY = {
    "a": {
        "rouge": {"rouge3": {"recall": STATS, "precision": STATS}, "real_notes": 10},
        "high_risk_pairs": {"pairs": 2, "rouge3_recall": {**STATS, "mean": 0.3}},
        "bm25": {"score": {**STATS, "max": 42.0}},
        "leakage": {
            "exact_duplicates": 1,
            "longest_run": {**STATS, "max": 31.0},
            "phi": {
                "rate": 0.125,
                "multi_token_rate": 0.05,
                "identifying_rate": 0.1,
                "identifying_multi_token_rate": 0.02,
                "identifying_rule": "every real PHI string except X",
            },
        },
        "ngram_recall": {
            "n3": {"recall": 0.2, "phi_recall": 0.01, "shared_ngrams": 20, "real_ngrams": 100},
            "n10": {"recall": 0.0, "phi_recall": 0.0, "shared_ngrams": 0, "real_ngrams": 90},
        },
        "gate": {"passed": False, "overridden": False, "failures": ["synthetic notes identical to a real note: 1 > 0"]},
    },
}


def rows(table: str) -> dict[str, list[str]]:
    out = {}
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        out[cells[0] if cells[0] != "a" else " ".join(cells[:2])] = cells[1:]
    return out


def test_corpus_table_puts_real_next_to_each_corpus() -> None:
    t = rows(corpus_table(POST))
    assert t["Tokens"] == ["1,200", "700"]
    assert t["Avg. tokens per sentence"] == ["12.00", "14.00"]
    assert corpus_table(POST).splitlines()[0] == "|  | real | a |"


def test_tag_table_shares_and_kinds() -> None:
    t = rows(tag_table(POST))
    assert t["Well-formed PHI tags"] == ["80.00%"] and t["Malformed PHI tags"] == ["20.00%"]
    assert t["… unclosed (count)"] == ["3"] and t["Notes dropped"] == ["2"]


def test_privacy_tables_show_table8_leakage_and_gate() -> None:
    text = privacy_table(PRIVACY)
    assert "| a | rouge3 recall, all notes | 0.100 | 0.090 | 0.000 | 0.500 |" in text
    assert "| a | rouge3 recall, 2 high-risk pairs | 0.300 |" in text
    assert "| a | longest verbatim run (tokens) | 0.100 | 0.090 | 0.000 | 31.000 |" in text
    assert "| a | 1 | 12.50% | 5.00% | 2.00% | failed |" in text and "… identifying, 2+ tokens (gated)" in text
    ngram = ngram_recall_table(PRIVACY).splitlines()
    assert ngram[2].startswith("| a | 3 | 20.00% | 1.00% |") and ngram[3].startswith("| a | 10 |")  # numeric order


def test_figures_are_byte_stable(tmp_path: Path) -> None:
    dist = {
        "a": [{"tag": "Name", "difference_pct": "4.5"}, {"tag": "Date", "difference_pct": "-2"}],
        "b": [{"tag": "Name", "difference_pct": "-1"}, {"tag": "Date", "difference_pct": "1"}],
    }
    curve = {
        "a": [
            {"fraction": "0.5", "mean": "0.3", "ci_low": "0.2", "ci_high": "0.4"},
            {"fraction": "1.0", "mean": "0.5", "ci_low": "", "ci_high": ""},
        ]
    }
    one = phi_distribution_figure(dist, tmp_path / "1.png").read_bytes()
    two = phi_distribution_figure(dist, tmp_path / "2.png").read_bytes()
    assert one == two and one[:8] == b"\x89PNG\r\n\x1a\n"
    assert (
        learning_curve_figure(curve, tmp_path / "c1.png").read_bytes()
        == learning_curve_figure(curve, tmp_path / "c2.png").read_bytes()
    )
    assert b"matplotlib" not in one  # no version stamp


def test_datasheet_states_recipe_privacy_utility_and_versions() -> None:
    sheet = datasheet(
        "a",
        recipe={
            "kind": "k",
            "generator": "lstm",
            "generator_plugin": "lstm",
            "generator_config": {"max_epochs": 4},
            "decoder": "nucleus",
            "decoder_config": {"top_p": 0.95},
            "generation": {"seed": 3},
        },
        source={"corpus": "demo", "language": "nl", "split_seed": 0, "pseudonymize_seed": 0},
        lm={"val_perplexity": 7.5},
        postprocess=POST["a"],
        privacy=PRIVACY["a"],
        utility={"precision": 0.5, "recall": 0.25, "f1": 0.333, "f1_mark": "▼"},
        versions={"torch": "2.13.0"},
    )
    for expected in [
        '`nucleus` `{"top_p": 0.95}`',
        '{"seed": 3}',
        "val_perplexity 7.5",
        "**Notes:** 5 (2 generated notes dropped",
        "5 of 25 (20.00%)",
        "NOT passed (synthetic notes identical",
        "F1 0.333 ▼",
        "**torch:** 2.13.0",
        "data/reports/review/a.html",
        "**Identifying real PHI strings reappearing (the gate's figure):** 0.1 (2+ tokens: 0.02; identifying: "
        "every real PHI string except X)",
    ]:
        assert expected in sheet, expected
    bare = datasheet(
        "b", recipe={"kind": "k"}, source={}, lm=None, postprocess={}, privacy=None, utility=None, versions={}
    )
    assert "Not audited" in bare and "Not evaluated" in bare


def test_package_versions_names_missing_packages() -> None:
    v = package_versions(["pyyaml", "surely-not-a-package-xyz"])
    assert v["pyyaml"] == yaml.__version__ and v["surely-not-a-package-xyz"] == "not installed"


def test_report_stage_writes_report_figures_and_datasheets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from synthdeid.stages import report

    params = {
        "corpus": {"source": "demo", "demo": {"n_docs": 10, "seed": 0}},
        "language": "nl",
        "prepare": {"seed": 0},
        "pseudonymize": {"seed": 0},
        "generators": {"g": {"plugin": "lstm", "config": {}}},
        "generate": {
            "seed": 0,
            "min_tokens": 5,
            "max_tokens": 50,
            "target_tokens": 100,
            "batch_size": 4,
            "tag_safe": True,
        },
        "corpora": {"a": {"generator": "g", "decoder": "nucleus", "config": {"top_p": 0.9}}},
        "taggers": {"bilstm_crf": {"plugin": "torch_bilstm_crf"}},
        "utility": {"synthetic": ["a"]},
        "privacy": {"corpora": ["a"], "metrics": {"leakage": {}}},
    }
    monkeypatch.chdir(tmp_path)
    Path("params.yaml").write_text(yaml.safe_dump(params))
    files = {
        "data/metrics/postprocess/a.json": POST["a"],
        "data/metrics/privacy/a.json": PRIVACY["a"],
        "data/metrics/train_lm/g.json": {"val_perplexity": 9.0},
        "data/metrics/utility_summary.json": {
            "settings": {"synthetic-a": {"precision": 0.1, "recall": 0.2, "f1": 0.13}}
        },
    }
    for path, data in files.items():
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(data))
    Path("data/reports").mkdir(parents=True)
    Path("data/reports/utility.md").write_text("# Utility\n\n## Table 6\n\n| x |\n")
    Path("data/plots/phi_distribution").mkdir(parents=True)
    Path("data/plots/phi_distribution/a.csv").write_text("tag,real_pct,synthetic_pct,difference_pct\nName,50,60,10\n")
    report.main()
    text = Path("data/reports/report.md").read_text()
    assert "## Synthetic corpora (Table 4)" in text and "### Table 6" in text and "\n# Utility\n" not in text
    assert "[a](review/a.html): 2 pairs" in text and "[a](datasheets/a.md)" in text
    assert Path("data/reports/figures/phi_distribution.png").stat().st_size > 1000
    assert "val_perplexity 9" in Path("data/reports/datasheets/a.md").read_text()


def test_model_privacy_table_shows_exposure_by_insertions_and_membership_auc() -> None:
    from synthdeid.report import model_privacy_table

    audit = {
        "lstm": {
            "canary_exposure": {
                "by_repetition": {
                    "1": {"exposure_mean": 6.5, "exposure_extrapolated_mean": 6.6},
                    "20": {"exposure_mean": 11.0, "exposure_extrapolated_mean": 26.6},
                    "5": {"exposure_mean": 9.0, "exposure_extrapolated_mean": 9.5},
                },
                "max_measurable_exposure": 11.0,
                "log2_space_size": 26.6,
            },
            "membership_inference": {"auc": 0.707, "auc_ci95": [0.661, 0.76], "advantage": 0.32},
        },
        "raw": {"canary_exposure": {"skipped": "no canaries"}},
    }
    lines = model_privacy_table(audit).splitlines()
    assert lines[2] == (
        "| lstm | 1x: 6.50 (6.60); 5x: 9.00 (9.50); 20x: 11.00 (26.60) | 11.00 / 26.60 | 0.71 [0.66, 0.76] | 0.32 |"
    )
    assert lines[3] == "| raw | no canaries |  | not run |  |"
    from synthdeid.report import datasheet

    sheet = datasheet(
        "c",
        recipe={},
        source={},
        lm={"dp": {"epsilon": 9.995, "delta": 6.25e-5, "noise_multiplier": 0.63}},
        postprocess={},
        privacy=None,
        utility=None,
        versions={},
    )
    assert "epsilon 9.995 at delta 6.25e-05" in sheet


def test_attacker_section_reads_each_attack_at_low_fpr_next_to_dp() -> None:
    from synthdeid.report import attacker_section

    found = {
        "auc": 0.81,
        "auc_ci95": [0.7, 0.9],
        "tpr_at_fpr_1pct": 0.4,
        "tpr_at_fpr_1pct_ci95": [0.2, 0.6],
        "tpr_at_fpr_0_1pct": 0.2,
        "tpr_at_fpr_0_1pct_ci95": [0.07, 0.4],
        "suffixes_verbatim": 3,
    }
    chance = {
        "auc": 0.52,
        "auc_ci95": [0.4, 0.63],
        "tpr_at_fpr_1pct": 0.0,
        "tpr_at_fpr_1pct_ci95": [0.0, 0.07],
        "tpr_at_fpr_0_1pct": 0.0,
        "tpr_at_fpr_0_1pct_ci95": [0.0, 0.0],
        "suffixes_verbatim": 0,
    }
    privacy = {
        "p": {
            "data_membership_inference": {
                "all": found,
                "by_repetition": {"1": {"auc": 0.6}, "20": {"auc": 0.99}, "5": {"auc": 0.7}},
                "nonmember_suffixes_verbatim": 0,
            }
        },
        "dp_p": {
            "data_membership_inference": {
                "all": chance,
                "by_repetition": {"20": {"auc": 0.5}},
                "nonmember_suffixes_verbatim": 0,
            }
        },
        "m": {"data_membership_inference": {"skipped": "no data canaries"}},
    }
    audits = {
        "lstm": {
            "membership_inference": {**found, "zlib_calibrated": chance, "tpr_at_fpr_0_1pct": None},
            "canary_exposure": {"by_repetition": {"20": {"tpr_at_fpr_1pct": 1.0, "tpr_at_fpr_0_1pct": 0.5}}},
        },
        "lstm_dp": {"membership_inference": {**chance, "zlib_calibrated": chance}},
    }
    text = attacker_section(
        privacy, audits, {"p": "lstm", "dp_p": "lstm_dp", "m": None}, {"lstm": False, "lstm_dp": True}
    )
    assert text.startswith("\n## What an attacker can learn\n") and "0.1% FPR" in text
    table = rows(text.split("### From the synthetic corpus alone")[1].split("###")[0].strip())
    assert table["p"][:6] == [
        "lstm (non-DP)",
        "0.81 [0.70, 0.90]",
        "0.40 [0.20, 0.60]",
        "0.20 [0.07, 0.40]",
        "1x: 0.60; 5x: 0.70; 20x: 0.99",
        "3 / 0",
    ]
    assert table["p"][6].startswith("members are told apart")
    assert table["dp_p"][0] == "lstm_dp (DP)" and table["dp_p"][6].startswith("no membership signal")
    assert table["m"][:2] == ["n/a", "no data canaries"]
    models = rows(text.split("### From the model")[1].strip())
    assert models["lstm"][:6] == [
        "non-DP",
        "0.81 [0.70, 0.90]",
        "0.40 [0.20, 0.60]",
        "0.52 [0.40, 0.63]",
        "0.00 [0.00, 0.07]",
        "20x: 1.00 / 0.50",
    ]
    assert models["lstm"][6].startswith("the model tells") and models["lstm_dp"][6].startswith("no membership")
