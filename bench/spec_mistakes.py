"""Typical params.yaml mistakes (tests/spec_mistakes.py), each put into the demo's params.yaml
alone and run through ``synthdeid check`` and through a stage (``prepare``), in-process: prints
per mistake whether each refused it, the exit codes and the message (check's first line). The
issue #29 experiment; ``python bench/spec_mistakes.py [--full]`` (--full: whole messages).

Not a timing benchmark: it counts outcomes (refused with the key named / "ready" / traceback)."""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import os
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from spec_mistakes import MISTAKES  # noqa: E402

from synthdeid.cli import main as cli  # noqa: E402
from synthdeid.stages import common  # noqa: E402


def _run(fn) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            code = fn()
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        except Exception as e:  # noqa: BLE001 - a traceback is what we count
            return -1, f"TRACEBACK {type(e).__name__}: {e}"
    return int(code or 0), err.getvalue() + out.getvalue()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--full", action="store_true", help="print whole messages")
    args = ap.parse_args()
    base = yaml.safe_load((ROOT / "params.yaml").read_text(encoding="utf-8"))
    refused = named = 0
    print("| mistake | key | check | stage | same message | message (check) |")
    print("|---|---|---|---|---|---|")
    for name, edit, key in MISTAKES:
        params = copy.deepcopy(base)
        edit(params)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "params.yaml"
            path.write_text(yaml.safe_dump(params, sort_keys=False), encoding="utf-8")
            old = os.getcwd()
            os.chdir(tmp)
            try:
                code_check, from_check = _run(lambda: cli(["check", "--params", "params.yaml"]))
                from synthdeid.stages import prepare

                common._STUDY.clear()
                code_stage, from_stage = _run(prepare.main)
            finally:
                os.chdir(old)
        first = " ".join(from_check.split())
        ok = code_check == 1 and code_stage == 1 and key in from_check and key in from_stage
        same = from_check.split("error: ", 1)[-1].strip() == from_stage.split("error: ", 1)[-1].strip()
        refused += code_check == 1 and code_stage == 1
        named += ok
        shown = first if args.full else first[:160] + ("..." if len(first) > 160 else "")
        print(f"| {name} | `{key}` | exit {code_check} | exit {code_stage} | {'yes' if same else 'no'} | "
              f"{shown.replace('|', '/')} |")
    print(f"\n{len(MISTAKES)} mistakes: {refused} refused by both check and the stage, {named} naming the key; "
          f"none 'ready', none a traceback" if refused == named == len(MISTAKES) else
          f"\n{len(MISTAKES)} mistakes: {refused} refused by both, {named} naming the key")


if __name__ == "__main__":
    main()
