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


def test_every_command_shows_an_example_that_its_parser_accepts() -> None:
    """The first documentation is ``--help``: every leaf command ends with example command lines,
    and each example parses (a renamed option would make it fail here)."""
    import shlex

    from synthdeid.cli import build_parser
    from synthdeid.cli_reference import _subcommands

    root = build_parser()
    leaves: list[tuple[str, object]] = []

    def walk(prefix: str, parser) -> None:
        subs = _subcommands(parser)
        if not subs:
            leaves.append((prefix, parser))
        for name, sub in subs.items():
            walk(f"{prefix} {name}".strip(), sub)

    walk("", root)
    assert len(leaves) >= 12
    for command, parser in leaves:
        epilog = parser.epilog or ""  # type: ignore[attr-defined]
        lines = [line.strip() for line in epilog.splitlines()[1:] if line.strip().startswith("synthdeid ")]
        assert epilog.startswith("example") and lines, f"synthdeid {command} --help shows no example"
        for line in lines:
            args = shlex.split(line, comments=True)[1:]
            assert " ".join(args[: len(command.split())]) == command, line
            root.parse_args(args)  # exits (SystemExit) on an option the parser does not know
