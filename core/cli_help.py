"""Examples under a command's ``--help``: ``sub.add_parser(name, help=..., **examples(...))``."""

from __future__ import annotations

import argparse
from typing import Any


def examples(*lines: str) -> dict[str, Any]:
    """``add_parser`` keywords that end the command's ``--help`` with these example command lines,
    each on its own line as written (a line starting with ``#`` explains the next)."""
    body = "\n".join(f"  {line}" for line in lines)
    return {
        "epilog": f"example{'s' if len(lines) > 1 else ''}:\n{body}",
        "formatter_class": argparse.RawDescriptionHelpFormatter,
    }
