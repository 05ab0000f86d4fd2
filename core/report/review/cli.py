"""``synthdeid review page`` and ``synthdeid review analyze``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from synthdeid.report.review.analyze import analyze
from synthdeid.report.review.page import read_pairs, write_review_page

DEFAULT_TITLE = "synthdeid privacy review"


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}g}" if abs(value) < 1e-3 and value != 0 else f"{value:.{digits}f}"
    return str(value)


def _stats_table(title: str, questions: dict[str, dict[str, Any]], texts: dict[str, str]) -> Table:
    table = Table(title=title)
    table.add_column("question")
    for col in ("kappa", "weighted kappa", "Spearman rho", "p-value", "agreement", "n"):
        table.add_column(col, justify="right")
    table.add_column("note")
    for key, s in questions.items():
        table.add_row(
            f"{key.upper()} {texts.get(key, '')}",
            _fmt(s["kappa"]),
            _fmt(s["weighted_kappa"]),
            _fmt(s["spearman_rho"]),
            _fmt(s["spearman_p"]),
            _fmt(s["agreement"]),
            str(s["n"]),
            s.get("note", ""),
        )
    return table


def cmd_review_analyze(args: argparse.Namespace, out: Console) -> int:
    """Print agreement statistics of two or more reviewers' answer files."""
    result = analyze([Path(f) for f in args.files])
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return 0
    texts = result["questions"]
    for c in result["comparisons"]:
        a, b = c["reviewers"]
        out.print(_stats_table(f"{a} vs {b}: {c['shared_pairs']} shared pairs", c["questions"], texts))
    if len(result["comparisons"]) > 1:
        out.print(_stats_table("pooled over all reviewer pairs", result["pooled"], texts))
    means = Table(title="mean score per reviewer (Yes=5 ... No=1)")
    means.add_column("reviewer")
    for key in texts:
        means.add_column(f"{key.upper()} mean", justify="right")
        means.add_column("n", justify="right")
    for name, per_q in result["means"].items():
        row = [name]
        for key in texts:
            row += [_fmt(per_q[key]["mean"], 2), str(per_q[key]["n"])]
        means.add_row(*row)
    out.print(means)
    for w in result["warnings"]:
        out.print(f"[yellow]warning:[/yellow] {w}", markup=True, highlight=False)
    return 0


def cmd_review_page(args: argparse.Namespace, out: Console) -> int:
    """Build the review page from a JSONL file of pairs."""
    pairs = read_pairs(args.pairs)
    path = write_review_page(pairs, args.output, args.title)
    out.print(f"wrote review page with {len(pairs)} pairs to {path}")
    return 0


def add_review_commands(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``review page`` and ``review analyze`` to the CLI's subparsers; returns the parser."""
    from synthdeid.cli_help import examples  # the CLI's, not the stages': not a stage dependency

    review = subparsers.add_parser(
        "review",
        help="human review of high-risk real/synthetic pairs",
        **examples(
            "synthdeid review page data/privacy/lstm_p/pairs.jsonl review-lstm_p.html",
            "synthdeid review analyze review-anna.json review-ben.json",
        ),
    )
    sub = review.add_subparsers(dest="review_command", required=True)
    sp = sub.add_parser(
        "page",
        help="build the self-contained HTML review page from a JSONL of pairs",
        **examples("synthdeid review page data/privacy/lstm_p/pairs.jsonl review-lstm_p.html"),
    )
    sp.add_argument(
        "pairs", help="JSONL: pair_id, synthetic_id, synthetic_text, real_id, real_text, shared_ngrams, scores"
    )
    sp.add_argument("output", help="the HTML file to write")
    sp.add_argument("--title", default=DEFAULT_TITLE, help=f"page title (default: {DEFAULT_TITLE!r})")
    sp.set_defaults(run=cmd_review_page)
    sa = sub.add_parser(
        "analyze",
        help="inter-reviewer agreement (Cohen's kappa, Spearman) per question",
        **examples("synthdeid review analyze review-anna.json review-ben.json --json"),
    )
    sa.add_argument("files", nargs="+", metavar="FILE", help="review-<name>.json files, two or more")
    sa.add_argument("--json", action="store_true", help="machine-readable output")
    sa.set_defaults(run=cmd_review_analyze)
    return review
