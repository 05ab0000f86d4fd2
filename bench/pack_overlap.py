"""How many of a test split's distinct PHI strings the language packs' own word lists hold verbatim,
and how many string literals the packs share with the demo corpus's generator (issue 50's "not
allowed": nothing may come from ``core/sources/demo``).

    python bench/pack_overlap.py                      # the working tree, nl pack, data/prepared/test.jsonl
    python bench/pack_overlap.py --rev HEAD~3         # the packs as they were at a commit (git show)
    python bench/pack_overlap.py --pack es --test path/to/test.jsonl

A pack's lists are the string literals of its modules (``plugins/languages/CODE/*.py``), read with
``ast`` (no import, so an older revision is read as it was), plus its name lists (``name_lists()``
of the installed pack: Faker's names are the same before and after). Strings are compared
case-folded and whitespace-normalised; a PHI string counts when it equals a list entry.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _sources(folder: str, rev: str | None) -> dict[str, str]:
    """Path -> source of the ``.py`` files of ``folder`` (at ``rev``, or in the working tree)."""
    if rev is None:
        return {str(p): p.read_text(encoding="utf-8") for p in sorted((ROOT / folder).glob("*.py"))}
    names = subprocess.run(
        ["git", "ls-tree", "--name-only", f"{rev}:{folder}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return {
        f"{folder}/{n}": subprocess.run(
            ["git", "show", f"{rev}:{folder}/{n}"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        for n in names
        if n.endswith(".py")
    }


def literals(sources: dict[str, str]) -> set[str]:
    """The normalised string literals of the sources (docstrings and one-letter strings left out)."""
    out: set[str] = set()
    for text in sources.values():
        tree = ast.parse(text)
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                if len(node.value.strip()) > 1 and "{" not in node.value:
                    out.add(_norm(node.value))
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pack", default="nl")
    p.add_argument("--rev", help="read the pack's modules at this git revision")
    p.add_argument("--test", default="data/prepared/test.jsonl", help="the test split (JSONL)")
    args = p.parse_args()
    sys.path.insert(0, str(ROOT))
    from synthdeid.corpus.formats import read_jsonl
    from synthdeid.plugins import registry

    pack_lists = literals(_sources(f"plugins/languages/{args.pack}", args.rev))
    data = importlib_data(args.pack)
    names = {_norm(n) for group in data.name_lists() for n in group} if hasattr(data, "name_lists") else set()
    demo = literals(_sources("core/sources/demo", None)) if args.pack == "nl" else set()
    test = list(read_jsonl(ROOT / args.test if not Path(args.test).is_absolute() else args.test))
    phi = {(s.label, _norm(d.text[s.start : s.end])) for d in test for s in d.spans}
    by_label: dict[str, list[int]] = {}
    for label, text in sorted(phi):
        row = by_label.setdefault(label, [0, 0, 0])
        row[0] += 1
        row[1] += text in pack_lists
        row[2] += text in names
    registry("language").create(args.pack)  # the pack must load
    result = {
        "pack": args.pack,
        "rev": args.rev or "working tree",
        "distinct_test_phi": len(phi),
        "in_pack_lists": sum(r[1] for r in by_label.values()),
        "in_name_lists": sum(r[2] for r in by_label.values()),
        "by_label": {k: {"distinct": v[0], "in_pack_lists": v[1], "in_name_lists": v[2]} for k, v in by_label.items()},
        "literals_shared_with_demo_source": sorted(pack_lists & demo) if demo else None,
    }
    print(json.dumps(result, indent=1, ensure_ascii=False))
    return 0


def importlib_data(code: str):
    import importlib

    return importlib.import_module(f"synthdeid.plugins.languages.{code}.data")


if __name__ == "__main__":
    raise SystemExit(main())
