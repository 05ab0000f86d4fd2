"""``synthdeid`` misused: bad arguments, missing or malformed files, wrong types and wrong params
values. Every invocation fails (exit code != 0) with an error that names the file or key (and its
fix, for an ``InputError``), never with a traceback or the last-resort "this is a bug" line of
``synthdeid.cli.main``, and writes nothing: the working folder is byte-identical afterwards.

Each case runs in-process in its own ``tmp_path`` (the current folder), with small input files
built below."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from synthdeid.cli import main

ROOT = Path(__file__).resolve().parents[1]
DELETE = object()
"""A params change that removes the key."""
NOTE = {"id": "n1", "text": "Mw. Jansen belde op 12-03.", "spans": [{"start": 4, "end": 10, "label": "Name"}]}
PAIR = {"pair_id": "p1", "synthetic_text": "Mw. Jansen belde.", "real_text": "Mw. Jansen belde op 12-03."}
BUG = "this is a bug in synthdeid"  # the last-resort guard's line


@dataclass(frozen=True)
class Case:
    id: str
    argv: str
    expect: tuple[str, ...]
    """Fragments the error names (the file, the key, the value)."""
    fix: bool = True
    """An ``InputError``: the message carries a ``fix:`` line."""
    params: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Params files to write: name -> {dotted key: value} changes of the repository's params.yaml."""
    stream: str = "err"
    """Where the message goes: ``err``; ``out`` for the problems ``check`` and ``validate`` list."""
    env: dict[str, str] = field(default_factory=dict)


def usage(id: str, argv: str, *expect: str) -> Case:
    """An argparse error: usage and the complaint on stderr, exit code 2."""
    return Case(id, argv, ("usage: synthdeid", *expect), fix=False)


P = "p.yaml"  # a params file of the repository's values with one changed


def check(id: str, changes: dict[str, Any], *expect: str, fix: bool = True, stream: str = "err") -> Case:
    """``check`` of a params file with ``changes``: an ``InputError`` names that file (not params.yaml)."""
    return Case(id, f"check --params {P}", (P, *expect) if fix else expect, fix=fix, params={P: changes}, stream=stream)


CASES = [
    # ---- check: the params file itself -----------------------------------------------------------
    Case("check-params-not-utf8", "check --params latin.yaml", ("latin.yaml:2", "not UTF-8")),
    Case("check-params-folder", "check --params adir.yaml", ("adir.yaml", "is a folder")),
    Case("check-params-missing", "check --params missing.yaml", ("missing.yaml", "not found")),
    Case("check-no-params-here", "check", ("params.yaml", "not found", "project folder")),
    Case("check-params-not-yaml", "check --params bad.yaml", ("bad.yaml:2", "invalid YAML")),
    Case("check-params-a-list", "check --params list.yaml", ("list.yaml", "must be a mapping")),
    usage("check-unknown-flag", "check --nope", "unrecognized arguments: --nope"),
    # ---- check: params values --------------------------------------------------------------------
    check("check-seed-abc", {"prepare.seed": "abc"}, "prepare.seed", "'abc'", "whole number"),
    check("check-split-abc", {"prepare.split": "abc"}, "prepare.split", "'abc'", "must be a list"),
    check("check-split-not-summing", {"prepare.split": [0.5, 0.5, 0.5]}, "prepare.split", "summing to 1"),
    check(
        "check-tagger-epochs-ten",
        {"taggers.bilstm_crf.config.max_epochs": "ten"},
        "taggers.bilstm_crf.config.max_epochs",
        "'ten'",
        "whole number",
    ),
    check(
        "check-n-docs-negative", {"corpus.demo.n_docs": -5}, "corpus.demo.n_docs", "-5", "greater than or equal to 1"
    ),
    check("check-n-docs-text", {"corpus.demo.n_docs": "many"}, "corpus.demo.n_docs", "'many'"),
    check("check-demo-seed-list", {"corpus.demo.seed": [1]}, "corpus.demo.seed", "[1]"),
    check("check-corpus-not-mapping", {"corpus": "demo"}, "corpus", "mapping", "'demo'"),
    check(
        "check-lstm-budget-text",
        {"generators.lstm.config.max_train_tokens": "lots"},
        "generators.lstm.config.max_train_tokens",
        "'lots'",
    ),
    check("check-generator-not-mapping", {"generators.gpt2": "gpt2"}, "generators.gpt2", "mapping"),
    check("check-tagger-config-list", {"taggers.flair.config": [1, 2]}, "taggers.flair.config", "mapping"),
    check("check-target-tokens-exponent", {"generate.target_tokens": "1e6"}, "generate.target_tokens", "'1e6'"),
    check(
        "check-corpus-min-tokens",
        {"corpora.lstm_p.min_tokens": "short"},
        "corpora.lstm_p.min_tokens",
        "a whole number >= 0 or auto",
    ),
    check(
        "check-data-canaries-text",
        {"generators.lstm.data_canaries.per_repetition": "two"},
        "generators.lstm.data_canaries",
        "per_repetition",
        "'two'",
        fix=False,
    ),
    check("check-unknown-language", {"language": "xx"}, "language: 'xx'", "en, es, nl, sv"),
    check("check-test-path-number", {"corpus.test_path": 5}, "corpus.test_path", "must be text"),
    check("check-missing-key", {"generators.lstm_raw.plugin": DELETE}, "generators.lstm_raw.plugin", "missing"),
    check("check-privacy-metric-config", {"privacy.metrics.leakage": "all"}, "privacy.metrics.leakage", "mapping"),
    Case(
        "check-corpus-file-missing",
        f"check --params {P}",
        ("missing.jsonl", "not found"),
        stream="out",
        params={P: {"corpus.source": "files", "corpus.path": "missing.jsonl"}},
    ),  # a problem check lists
    # ---- validate -------------------------------------------------------------------------------
    Case("validate-missing", "validate missing.jsonl", ("missing.jsonl", "not found"), stream="out"),
    Case("validate-not-utf8", "validate latin.jsonl", ("latin.jsonl:1", "not UTF-8"), stream="out"),
    Case("validate-mapping-not-utf8", "validate good.jsonl --mapping latin.yaml", ("latin.yaml", "not UTF-8")),
    Case("validate-mapping-a-list", "validate good.jsonl --mapping list.yaml", ("list.yaml", "not a mapping")),
    Case("validate-mapping-folder", "validate good.jsonl --mapping adir", ("adir", "is a folder")),
    Case("validate-mapping-unknown", "validate good.jsonl --mapping nosuch", ("'nosuch'", "built-in")),
    Case("validate-params-missing", "validate good.jsonl --params missing.yaml", ("missing.yaml", "not found")),
    Case("validate-params-not-utf8", "validate good.jsonl --params latin.yaml", ("latin.yaml:2", "not UTF-8")),
    Case("validate-format-option", "validate good.jsonl --format-option novalue", ("'novalue'", "KEY=VALUE")),
    usage("validate-unknown-format", "validate good.jsonl --format nosuch", "invalid choice: 'nosuch'"),
    # ---- convert --------------------------------------------------------------------------------
    Case("convert-missing", "convert missing.jsonl out.jsonl", ("missing.jsonl", "not found")),
    Case("convert-unknown-extension", "convert good.jsonl out.xyz", ("out.xyz", "cannot tell the format")),
    Case("convert-upper-case-unknown", "convert good.jsonl OUT.XYZ", ("OUT.XYZ", "cannot tell the format")),
    Case("convert-not-utf8", "convert latin.jsonl out.jsonl", ("latin.jsonl:1", "not UTF-8")),
    Case("convert-onto-cwd", "convert good.jsonl . --to brat", (".", "the output is the input good.jsonl")),
    Case("convert-onto-full-folder", "convert good.jsonl full --to brat", ("full", "not empty")),
    Case("convert-wrong-reader", "convert notes.txt out.jsonl --from jsonl", ("notes.txt:1", "JSON")),
    Case("convert-empty", "convert empty.jsonl out.jsonl", ("empty.jsonl", "no documents")),
    usage("convert-unknown-writer", "convert good.jsonl out.jsonl --to nosuch", "invalid choice: 'nosuch'"),
    # ---- deidentify -----------------------------------------------------------------------------
    Case(
        "deid-unknown-language",
        "deidentify good.jsonl out.jsonl --annotator deduce --language xx",
        ("--language 'xx'", "not an installed language pack", "en, es, nl, sv"),
    ),
    Case(
        "deid-deduce-swedish",
        "deidentify good.jsonl out.jsonl --annotator deduce --language sv",
        ("'deduce'", "nl notes only", "'sv'"),
    ),
    Case(
        "deid-params-language-unknown",
        "deidentify good.jsonl out.jsonl --annotator deduce",
        ("params.yaml", "language 'xx'", "not an installed language pack"),
        params={"params.yaml": {"language": "xx"}},
    ),
    Case(
        "deid-params-without-language",
        "deidentify good.jsonl out.jsonl --annotator deduce",
        ("params.yaml", "sets no `language`"),
        params={"params.yaml": {"language": DELETE}},
    ),
    Case("deid-no-language", "deidentify good.jsonl out.jsonl --annotator deduce", ("which language", "--language")),
    Case(
        "deid-unknown-annotator",
        "deidentify good.jsonl out.jsonl --annotator nosuch --language nl",
        ("annotator 'nosuch'", "deduce"),
        fix=False,
    ),
    Case(
        "deid-missing-input",
        "deidentify missing.jsonl out.jsonl --annotator deduce --language nl",
        ("missing.jsonl", "not found"),
    ),
    Case(
        "deid-model-missing",
        "deidentify good.jsonl out.jsonl --model nodir --language nl",
        ("nodir", "no such tagger directory"),
    ),
    Case(
        "deid-model-broken-json",
        "deidentify good.jsonl out.jsonl --model m_json --language nl",
        ("m_json/tagger.json", "JSON"),
    ),
    Case(
        "deid-model-json-list",
        "deidentify good.jsonl out.jsonl --model m_list --language nl",
        ("m_list/tagger.json", "JSON object"),
    ),
    Case(
        "deid-min-confidence-rules",
        "deidentify good.jsonl out.jsonl --annotator deduce --language nl --min-confidence 0.3",
        ("--min-confidence", "--model"),
    ),
    Case(
        "deid-unknown-extension",
        "deidentify good.jsonl out.xyz --annotator deduce --language nl",
        ("out.xyz", "cannot tell the format"),
    ),
    Case("deid-onto-cwd", "deidentify good.jsonl . --annotator deduce --language nl", (".", "the output is the input")),
    Case(
        "deid-annotate-as-text",
        "deidentify good.jsonl out.txt --annotator deduce --language nl --to text",
        ("out.txt", "plain text"),
    ),
    usage(
        "deid-confidence-not-number",
        "deidentify good.jsonl out.jsonl --annotator deduce --min-confidence abc",
        "invalid float value: 'abc'",
    ),
    usage(
        "deid-model-and-annotator",
        "deidentify good.jsonl out.jsonl --annotator deduce --model m_json",
        "not allowed with argument",
    ),
    # ---- export ---------------------------------------------------------------------------------
    Case("export-unknown-corpus", "export nosuch out.jsonl --to jsonl --language nl", ("no corpus 'nosuch'",)),
    Case(
        "export-unknown-language",
        "export good.jsonl out.jsonl --to jsonl --language xx",
        ("--language 'xx'", "not an installed language pack"),
    ),
    Case("export-no-language", "export good.jsonl out.jsonl --to jsonl", ("which language",)),
    Case("export-not-utf8", "export latin.jsonl out.jsonl --to jsonl --language nl", ("latin.jsonl:1", "not UTF-8")),
    Case("export-empty", "export empty.jsonl out.jsonl --to jsonl --language nl", ("empty.jsonl", "no documents")),
    Case("export-file-format-onto-folder", "export good.jsonl full --to conll --language nl", ("full", "folder")),
    usage("export-unknown-format", "export good.jsonl out --to nosuch", "invalid choice: 'nosuch'"),
    # ---- preset ---------------------------------------------------------------------------------
    Case("preset-unknown", "preset nosuch", ("no preset 'nosuch'", "broken, latin, listy")),
    Case("preset-a-path", "preset ../params", ("no preset '../params'",)),
    Case("preset-params-missing", "preset ok --params missing.yaml", ("missing.yaml", "not found")),
    Case("preset-params-not-utf8", "preset ok --params latin.yaml", ("latin.yaml:2", "not UTF-8")),
    Case("preset-params-not-yaml", "preset ok --params bad.yaml", ("bad.yaml:2", "not valid YAML")),
    Case("preset-params-a-list", "preset ok --params list.yaml", ("list.yaml", "mapping", "not a list")),
    Case("preset-params-folder", "preset ok --params adir.yaml", ("adir.yaml", "is a folder")),
    Case("preset-file-not-yaml", "preset broken", ("presets/broken.yaml:2", "not valid YAML")),
    Case("preset-file-a-list", "preset listy", ("presets/listy.yaml", "not a list")),
    Case("preset-file-not-utf8", "preset latin", ("presets/latin.yaml:1", "not UTF-8")),
    Case(
        "preset-remove-not-a-list",
        "preset badremove",
        ("'badremove'", "list of dotted keys"),
        params={"params.yaml": {}},
    ),
    # ---- new-plugin -----------------------------------------------------------------------------
    Case(
        "new-plugin-bad-code",
        "new-plugin language 'bad code' --language X --faker-locale nl_NL --out newp",
        ("'bad code'", "language code"),
    ),
    Case("new-plugin-bad-locale", "new-plugin language xx --language X --faker-locale zz_ZZ --out newp", ("'zz_ZZ'",)),
    Case(
        "new-plugin-out-is-a-file",
        "new-plugin language xx --language X --faker-locale nl_NL --out good.jsonl",
        ("good.jsonl", "is a file"),
    ),
    Case(
        "new-plugin-built-in-code",
        "new-plugin language nl --language Dutch --faker-locale nl_NL --out newp",
        ("'nl'", "built-in"),
    ),
    Case(
        "new-plugin-exists",
        "new-plugin language xx --language X --faker-locale nl_NL --out packs",
        ("packs/synthdeid-lang-xx", "already exists"),
    ),
    usage("new-plugin-no-locale", "new-plugin language xx --language X", "--faker-locale"),
    usage("new-plugin-no-kind", "new-plugin", "required"),
    # ---- plugins --------------------------------------------------------------------------------
    usage("plugins-unknown-flag", "plugins --xml", "unrecognized arguments: --xml"),
    Case(
        "plugins-unknown-distribution",
        "plugins",
        ("no-such-dist", "not installed"),
        fix=False,
        env={"SYNTHDEID_LOAD_PLUGINS": "no-such-dist"},
    ),
    # ---- anonymize-vocab ------------------------------------------------------------------------
    Case("vocab-no-training-text", "anonymize-vocab adir", ("data/inline/train.txt", "missing")),
    Case("vocab-no-model", "anonymize-vocab adir --text notes.txt", ("adir", "vocab.json")),
    Case("vocab-text-folder", "anonymize-vocab adir --text adir", ("adir", "is a folder")),
    Case("vocab-text-not-utf8", "anonymize-vocab adir --text latin.jsonl", ("latin.jsonl:1", "not UTF-8")),
    Case("vocab-min-share", "anonymize-vocab adir --text notes.txt --min-share 5", ("min_share", "(0, 1]"), fix=False),
    Case(
        "vocab-unknown-generator",
        "anonymize-vocab adir --text notes.txt --generator nosuch",
        ("generator 'nosuch'",),
        fix=False,
    ),
    usage("vocab-min-share-text", "anonymize-vocab adir --min-share abc", "invalid float value: 'abc'"),
    # ---- review ---------------------------------------------------------------------------------
    Case("review-page-missing", "review page missing.jsonl out.html", ("missing.jsonl", "not found")),
    Case("review-page-not-json", "review page notes.txt out.html", ("notes.txt:1", "invalid JSON")),
    Case("review-page-not-utf8", "review page latin.jsonl out.html", ("latin.jsonl", "not UTF-8")),
    Case("review-page-not-pairs", "review page good.jsonl out.html", ("good.jsonl:1", "lacks pair_id")),
    Case("review-page-onto-folder", "review page pairs.jsonl adir", ("adir", "is a folder")),
    Case("review-page-under-a-file", "review page pairs.jsonl good.jsonl/out.html", ("good.jsonl", "is a file")),
    Case("review-analyze-one-file", "review analyze review-a.json", ("at least 2",)),
    Case("review-analyze-no-reviewer", "review analyze review-a.json review-b.json", ("review-a.json", "reviewer")),
    Case("review-analyze-missing", "review analyze missing1.json missing2.json", ("missing1.json", "not found")),
    Case("review-analyze-not-utf8", "review analyze latin.jsonl review-a.json", ("latin.jsonl", "not UTF-8")),
    usage("review-no-subcommand", "review", "required"),
]


def _params(changes: dict[str, Any]) -> str:
    params = yaml.safe_load((ROOT / "params.yaml").read_text(encoding="utf-8"))
    params["corpus"]["demo"]["n_docs"] = 60  # quick; the repository's other values as they are
    for dotted, value in changes.items():
        *parents, last = dotted.split(".")
        node = params
        for key in parents:
            node = node[key]
        if value is DELETE:
            del node[last]
        else:
            node[last] = value
    return yaml.safe_dump(params, allow_unicode=True)


def _inputs(folder: Path, case: Case) -> None:
    """The small files the cases read."""
    (folder / "good.jsonl").write_text(json.dumps(NOTE) + "\n", encoding="utf-8")
    (folder / "pairs.jsonl").write_text(json.dumps(PAIR) + "\n", encoding="utf-8")
    (folder / "latin.jsonl").write_bytes('{"id": "a", "text": "café", "spans": []}\n'.encode("latin-1"))
    (folder / "latin.yaml").write_bytes("language: nl\nname: café\n".encode("latin-1"))
    (folder / "bad.yaml").write_text("a: [1, 2\n", encoding="utf-8")
    (folder / "list.yaml").write_text("- a\n- b\n", encoding="utf-8")
    (folder / "notes.txt").write_text("Mw. Jansen belde.\n", encoding="utf-8")
    (folder / "empty.jsonl").write_text("", encoding="utf-8")
    (folder / "adir").mkdir()
    (folder / "adir.yaml").mkdir()
    (folder / "full").mkdir()
    (folder / "full" / "note.txt").write_text("a note already here\n", encoding="utf-8")
    (folder / "packs" / "synthdeid-lang-xx").mkdir(parents=True)
    (folder / "m_json").mkdir()
    (folder / "m_json" / "tagger.json").write_text("not json\n", encoding="utf-8")
    (folder / "m_list").mkdir()
    (folder / "m_list" / "tagger.json").write_text("[1]\n", encoding="utf-8")
    presets = folder / "presets"
    presets.mkdir()
    (presets / "ok.yaml").write_text("prepare: {seed: 1}\n", encoding="utf-8")
    (presets / "broken.yaml").write_text("a: [\n", encoding="utf-8")
    (presets / "listy.yaml").write_text("- a\n", encoding="utf-8")
    (presets / "latin.yaml").write_bytes("x: café\n".encode("latin-1"))
    (presets / "badremove.yaml").write_text("remove: generators.mlm\n", encoding="utf-8")
    (folder / "review-a.json").write_text("{}", encoding="utf-8")
    (folder / "review-b.json").write_text('{"reviewer": "b", "answers": []}', encoding="utf-8")
    for name, changes in case.params.items():
        (folder / name).write_text(_params(changes), encoding="utf-8")


def _tree(folder: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under ``folder``."""
    return {str(p.relative_to(folder)): None if p.is_dir() else p.read_bytes() for p in sorted(folder.rglob("*"))}


def test_the_table_is_large_and_covers_every_command() -> None:
    assert len(CASES) >= 45
    assert len({c.id for c in CASES}) == len(CASES)
    commands = {shlex.split(c.argv)[0] for c in CASES}
    assert commands >= {
        "check",
        "validate",
        "convert",
        "deidentify",
        "export",
        "preset",
        "new-plugin",
        "plugins",
        "anonymize-vocab",
        "review",
    }


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_misuse_fails_clearly_and_writes_nothing(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from synthdeid.plugin_system.manager import get_plugin_manager

    _inputs(tmp_path, case)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SYNTHDEID_DEBUG", raising=False)
    before = _tree(tmp_path)
    for key, value in case.env.items():
        monkeypatch.setenv(key, value)
    if case.env:
        get_plugin_manager.cache_clear()
    try:
        code = main(shlex.split(case.argv))
    except SystemExit as e:  # argparse
        code = e.code
    finally:
        if case.env:
            for key in case.env:
                monkeypatch.delenv(key)
            get_plugin_manager.cache_clear()
    out, err = capsys.readouterr()
    both = out + err
    assert code not in (0, None), both
    assert "Traceback" not in both and BUG not in both and "error: unexpected" not in both, both
    message = " ".join((err if case.stream == "err" else out).split())  # rich may wrap a long line
    for fragment in case.expect:
        assert fragment in message, (fragment, both)
    if case.fix:
        assert "fix:" in message, both
    assert _tree(tmp_path) == before, "the failed command wrote or changed files"


def test_the_guard_turns_an_unexpected_error_into_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import synthdeid.cli as cli

    def broken(args: Any, out: Any) -> int:
        raise KeyError("boom")

    monkeypatch.setattr(cli, "cmd_plugins", broken)
    monkeypatch.delenv("SYNTHDEID_DEBUG", raising=False)
    assert main(["plugins"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        "error: unexpected KeyError: 'boom' — this is a bug in synthdeid; rerun with "
        "SYNTHDEID_DEBUG=1 for the traceback and report it"
    )
    monkeypatch.setenv("SYNTHDEID_DEBUG", "1")
    with pytest.raises(KeyError):
        main(["plugins"])


def test_the_guard_names_the_file_of_an_os_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import synthdeid.cli as cli

    (tmp_path / "latin.txt").write_bytes("café\n".encode("latin-1"))

    def reads(path: Path) -> Any:
        def run(args: Any, out: Any) -> int:
            path.read_text(encoding="utf-8")
            return 0

        return run

    monkeypatch.delenv("SYNTHDEID_DEBUG", raising=False)
    for path, fragment in (
        (tmp_path / "missing.txt", "missing.txt: not found"),
        (tmp_path, f"{tmp_path}: is a folder"),
        (tmp_path / "latin.txt", "latin.txt:1: not UTF-8 text (byte 0xe9 at offset 3)"),
    ):
        monkeypatch.setattr(cli, "cmd_plugins", reads(path))
        assert main(["plugins"]) == 1
        err = capsys.readouterr().err
        assert fragment in err and len(err.strip().splitlines()) == 1 and BUG not in err, err
