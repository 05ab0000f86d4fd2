"""The report's rare-word table (synthdeid.report.tables.rare_word_table) from postprocess metrics."""

from __future__ import annotations

from synthdeid.report.tables import rare_word_table


def share(k: int, phi: float) -> dict[str, float | int]:
    return {"k": k, "words": 1000, "rare": 100, "rare_in_phi": round(100 * phi), "phi_share": phi}


def test_each_corpus_beside_the_real_notes_and_an_untagged_one_without_a_figure() -> None:
    real = share(1, 0.142)
    post = {
        "lstm_p": {
            "tags": {"tags": 900},
            "unknown_words": {"filled": 24689},
            "rare_words": {
                "real": real,
                "synthetic_singletons": share(1, 0.065),
                "synthetic_scaled": share(10, 0.21),
                "gap_points": 6.8,
            },
        },
        "lstm_raw_p": {
            "tags": {"tags": 0},
            "rare_words": {
                "real": real,
                "synthetic_singletons": share(1, 0.0),
                "synthetic_scaled": share(1, 0.0),
                "gap_points": -14.2,
            },
        },
    }
    rows = rare_word_table(post).splitlines()
    assert rows[2] == "| real training notes | 14.20% | 14.20% (k = 1) |  |  |"
    assert rows[3] == "| lstm_p | 6.50% | 21.00% (k = 10) | +6.8 | 24,689 |"
    assert rows[4].startswith("| lstm_raw_p | untagged |") and "-14.2" not in rows[4]
    assert "before this release" in rare_word_table({"x": {"tags": {"tags": 3}}})
