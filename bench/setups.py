"""``--add NAME=BASE`` and ``--set NAME.KEY=VALUE`` for the benchmarks that compare named setups
(``bench/lm.py``, ``bench/tagger.py``): a setup is (plugin, config)."""

from __future__ import annotations

import sys
from typing import Any

import yaml

Setups = dict[str, tuple[str, dict[str, Any]]]


def add_arguments(ap: Any, base: str, what: str, example: str) -> None:
    """The two options; ``base`` names ``--add``'s right-hand side and ``what`` says what it adds."""
    ap.add_argument("--add", nargs="*", default=[], metavar=f"NAME={base}",
                    help=f"another setup: {what}, changed with --set")
    ap.add_argument("--set", nargs="*", default=[], metavar="NAME.KEY=VALUE",
                    help=f"override a setting of one setup (e.g. {example}; YAML values)")


def apply(table: Setups, add: list[str], changes: list[str], base: Any) -> Setups:
    """``table`` with the added setups (``base(right-hand side)`` gives their (plugin, config)) and
    the changed settings; exits with a message naming the setups on a name it does not know."""
    table = dict(table)
    for item in add:
        name, source = item.split("=", 1)
        table[name] = base(source)
    for item in changes:
        key, value = item.split("=", 1)
        name = next((n for n in sorted(table, key=len, reverse=True) if key.startswith(n + ".")), None)
        if name is None:
            sys.exit(f"--set {item}: no setup {key.split('.')[0]!r}; setups: {', '.join(table)}")
        plugin, config = table[name]
        table[name] = (plugin, {**config, key[len(name) + 1 :]: yaml.safe_load(value)})
    return table
