"""docs/cli.md is every command's ``--help`` as the parser prints it (``synthdeid.cli_reference``)."""

from __future__ import annotations

from pathlib import Path

from synthdeid.cli_reference import reference

REPO = Path(__file__).resolve().parents[1]


def test_the_cli_reference_is_the_parsers_help() -> None:
    page = reference()
    assert (REPO / "docs/cli.md").read_text(encoding="utf-8") == page, (
        "docs/cli.md is stale: run `python -m synthdeid.cli_reference > docs/cli.md`"
    )
    for command in ("check", "schema", "deidentify", "validate", "new-plugin language", "review page"):
        assert f"synthdeid {command}\n" in page
