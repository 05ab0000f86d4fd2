"""docs/cli.md: every ``synthdeid`` command's ``--help``, generated from the argparse parser that
runs it (``python -m synthdeid.cli_reference > docs/cli.md``; a test holds the page to it)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator

HEADER = """# Command-line reference

Generated from the `synthdeid` command's own parser (`python -m synthdeid.cli_reference >
docs/cli.md`); a test fails when this page and `--help` differ. A command that reads params.yaml
checks it through the study spec first ([params reference](params.md)).
"""


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps its subparsers only here
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _help(parser: argparse.ArgumentParser) -> str:
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"  # the same wrapping on any terminal
    try:
        return parser.format_help().rstrip()
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old


@contextlib.contextmanager
def _builtin_plugins_only() -> Iterator[None]:
    """The plugin manager without third-party plugins, whose formats would join the choices."""
    from synthdeid.plugin_system.manager import LOAD_ENV, get_plugin_manager

    old = os.environ.get(LOAD_ENV)
    os.environ[LOAD_ENV] = ""
    get_plugin_manager.cache_clear()
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(LOAD_ENV, None)
        else:
            os.environ[LOAD_ENV] = old
        get_plugin_manager.cache_clear()


def reference() -> str:
    """The page: ``synthdeid --help``, then each command's (and each sub-command's) help, with the
    built-in plugins only (a third-party format would add a choice)."""
    from synthdeid.cli import build_parser

    with _builtin_plugins_only():
        parser = build_parser()
    parts = [HEADER, "## synthdeid", "", "```text", _help(parser), "```"]

    def add(name: str, sub: argparse.ArgumentParser, level: int) -> None:
        parts.extend(["", f"{'#' * level} synthdeid {name}", "", "```text", _help(sub), "```"])
        for child, subsub in _subcommands(sub).items():
            add(f"{name} {child}", subsub, level + 1)

    for name, sub in _subcommands(parser).items():
        add(name, sub, 2)
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    sys.stdout.write(reference())
