"""The ``synthdeid`` command: plugins, convert, validate, check, deidentify, export, realism, preset, new-plugin."""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import shutil
import sys
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from synthdeid.cli_help import examples
from synthdeid.corpus.records import Document, label_counts
from synthdeid.corpus.tags import CANONICAL_TAGS, TagSet, label_mapping
from synthdeid.corpus_io import format_names, guess_format, read_documents, writable_formats, write_documents

from .errors import InputError, InputWarning, SynthdeidError
from .language_choice import command_language


def cmd_plugins(args: argparse.Namespace, out: Console) -> int:
    from synthdeid.plugin_system.manager import all_entries

    entries = [
        {"name": e.name, "kind": e.kind, "package": e.package, "version": e.version, "plugin": e.plugin}
        for e in all_entries()
    ]
    if args.json:
        print(json.dumps(entries, indent=2))
        return 0
    table = Table(title="synthdeid plugins")
    for col in ("kind", "name", "package", "version", "plugin"):
        table.add_column(col)
    for e in entries:
        table.add_row(e["kind"], e["name"], e["package"], e["version"], e["plugin"])
    out.print(table)
    return 0


def _format_options(args: argparse.Namespace) -> dict:
    """``--format-option KEY=VALUE`` pairs (VALUE read as YAML: ``labels=[First_Name, Date]``)."""
    import yaml

    options = {}
    for pair in getattr(args, "format_option", None) or []:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise InputError(f"--format-option {pair!r} is not KEY=VALUE", fix="e.g. --format-option labels=Name,Date")
        try:
            options[key.strip()] = yaml.safe_load(value)
        except yaml.YAMLError:
            options[key.strip()] = value
    return options


@contextlib.contextmanager
def _input_warnings() -> Iterator[None]:
    """``InputWarning``s (files not read, offsets in doubt) as ``warning:`` lines on stderr, each once."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", InputWarning)
        try:
            yield
        finally:
            shown: set[str] = set()
            for w in caught:
                if not issubclass(w.category, InputWarning):
                    warnings.showwarning(w.message, w.category, w.filename, w.lineno)
                elif str(w.message) not in shown:
                    shown.add(str(w.message))
                    print(f"warning: {w.message}", file=sys.stderr)


def _remove_output(path: Path, was_folder: bool) -> None:
    """Take away what a failed conversion wrote (an existing folder is emptied, not removed)."""
    if not path.is_dir():
        path.unlink(missing_ok=True)
        return
    for child in list(path.iterdir()) if was_folder else [path]:
        if child.is_dir():
            shutil.rmtree(child)
        else:
            child.unlink()


def cmd_convert(args: argparse.Namespace, out: Console) -> int:
    with _input_warnings():
        return _convert(args, out)


def _convert(args: argparse.Namespace, out: Console) -> int:
    from synthdeid.corpus.output_guard import check_output

    check_output(args.output, (args.input,), force=args.force)
    docs = list(read_documents(args.input, args.from_format, options=_format_options(args)))
    to = args.to_format or guess_format(args.output, for_writing=True)
    was_folder = Path(args.output).is_dir()
    write_documents(docs, args.output, to)
    try:
        back = list(read_documents(args.output, to))  # report what the output holds, not what went in
    except InputError as e:  # the writer wrote what its reader refuses: a failed command leaves nothing
        _remove_output(Path(args.output), was_folder)
        raise InputError(
            f"synthdeid wrote this {to} output but cannot read it back ({e.problem}), so removed it: "
            f"a bug of its {to} writer",
            path=e.path,
            line=e.line,
            doc_id=e.doc_id,
            fix="please report it; meanwhile convert to jsonl, which holds any document",
        ) from None
    n_in, n_out = sum(len(d.spans) for d in docs), sum(len(d.spans) for d in back)
    out.print(
        f"read {len(docs)} documents, {n_in} spans from {args.input}; "
        f"wrote {len(back)} documents, {n_out} spans to {args.output}",
        highlight=False,
    )
    if (len(back), n_out) != (len(docs), n_in):
        print(
            f"warning: {args.output} reads back with {len(back)} documents and {n_out} spans, not "
            f"{len(docs)} and {n_in} (CoNLL keeps tokens: spans that touch without a space merge)",
            file=sys.stderr,
        )
    return 0


def _read_all(
    path: Path, fmt: str | None, tagset: TagSet | None, options: dict | None = None
) -> tuple[list[Document], list[str]]:
    """Every valid document and every problem of the corpus (invalid records are collected)."""
    errors: list[InputError] = []
    try:
        docs = list(read_documents(path, fmt, tagset=tagset, errors=errors, options=options))
    except InputError as e:  # the file itself is unusable (missing, not UTF-8, ...)
        return [], _grouped(errors) + [str(e)]
    return docs, _grouped(errors)


def _grouped(errors: list[InputError]) -> list[str]:
    """Every problem, with one line per unknown label instead of one per span or record."""
    lines: list[str] = []
    unknown: dict[str, list[InputError]] = {}
    for e in errors:
        m = re.match(r"unknown label ('.*')$", e.problem)
        if m:
            unknown.setdefault(m.group(1), []).append(e)
        else:
            lines.append(str(e))
    for label, es in sorted(unknown.items()):
        lines.append(
            f"unknown label {label} in {len(es)} record(s), first at {es[0].where()}\n"
            f"  fix: map it onto a canonical tag in params.yaml (tags.mapping), then validate with "
            f"--mapping or --params; or check with --any-labels"
        )
    return lines


def _validation_tagset(args: argparse.Namespace) -> TagSet | None:
    if args.any_labels:
        return None
    if args.params:
        from synthdeid.spec import build, validate

        from .params import load_params

        return build.tagset(validate(load_params(args.params), args.params))
    return TagSet(CANONICAL_TAGS, label_mapping(_mapping_file(args.mapping)))


def _mapping_file(value: str | None) -> object:
    """``--mapping``: a YAML file's mapping when ``value`` names a file, else the name as it is."""
    if value and Path(value).is_file():
        import yaml

        try:
            mapping = yaml.safe_load(Path(value).read_text(encoding="utf-8")) or {}
        except UnicodeDecodeError as e:
            raise InputError(
                f"--mapping: not UTF-8 text (byte {e.object[e.start]:#04x} at offset {e.start})",
                path=value,
                fix="save the file as UTF-8",
            ) from None
        except yaml.YAMLError as e:
            raise InputError(f"not a YAML mapping ({e})", path=value, fix="write one `label: Tag` per line") from None
        if not isinstance(mapping, dict):
            raise InputError(
                f"--mapping: the file holds a {type(mapping).__name__}, not a mapping of labels",
                path=value,
                fix="write one `label: Tag` per line",
            )
        return mapping
    if value and Path(value).is_dir():
        raise InputError(
            "--mapping: is a folder, not a YAML file or a built-in mapping",
            path=value,
            fix="name a YAML file of `label: Tag` lines, or a built-in mapping (meddocan, sepr, i2b2_2014, i2b2_2006)",
        )
    return value


def _validation_source(args: argparse.Namespace) -> tuple[Path, str | None, dict]:
    """The corpus to validate, its format and reader options. With ``--params``, as the corpus
    stage reads it: ``corpus.path`` (unless a path is given), ``corpus.format`` and
    ``corpus.format_options``; a ``--format``/``--format-option`` that differs is refused."""
    fmt, options = args.format, _format_options(args)
    if not args.params:
        if args.path is None:
            raise InputError(
                "no corpus to validate",
                fix="name a file or folder, or pass --params params.yaml to validate its corpus.path",
            )
        return Path(args.path), fmt, options
    from synthdeid.spec import validate

    from .params import load_params

    params = load_params(args.params)
    spec = validate(params, args.params).corpus  # a params file may hold tags only: the rest has defaults
    corpus = params.get("corpus") or {}
    path = args.path or corpus.get("path")
    if not path:
        raise InputError(
            "no corpus to validate: no path given and corpus.path is not set",
            path=args.params,
            fix="name the corpus, or set corpus.path (with corpus.source: files)",
        )
    stage_fmt = None if spec.format == "auto" else spec.format
    stage_options = spec.format_options
    for flag, given, stage, key in (
        ("--format", fmt, stage_fmt, "format"),
        ("--format-option", options, stage_options, "format_options"),
    ):
        if given and stage and given != stage:
            raise InputError(
                f"{flag} gives {given!r} but corpus.{key} is {stage!r}",
                path=args.params,
                fix=f"validate --params reads the corpus as the corpus stage does: leave out {flag}, "
                f"or change corpus.{key}",
            )
    return Path(path), fmt or stage_fmt, options or stage_options


def cmd_validate(args: argparse.Namespace, out: Console) -> int:
    with _input_warnings():
        return _validate(args, out)


def _validate(args: argparse.Namespace, out: Console) -> int:
    path, fmt, options = _validation_source(args)
    docs, problems = _read_all(path, fmt, _validation_tagset(args), options)
    table = Table(title=f"{path}: {len(docs)} documents, {sum(len(d.spans) for d in docs)} spans")
    table.add_column("label")
    table.add_column("spans", justify="right")
    for label, n in label_counts(docs).items():
        table.add_row(label, str(n))
    out.print(table)
    for p in problems:
        out.print(f"[red]problem:[/red] {escape(str(p))}", markup=True, highlight=False)
    if problems:
        out.print(f"[red]{len(problems)} problem(s) found[/red]")
        return 1
    out.print("[green]valid[/green]")
    return 0


def cmd_export(args: argparse.Namespace, out: Console) -> int:
    from synthdeid.corpus.output_guard import check_output
    from synthdeid.corpus.release import refuse_real_notes
    from synthdeid.corpus_io.export import export_corpus, resolve_corpus
    from synthdeid.plugin_system.manager import registry

    path, name, datasheet = resolve_corpus(args.corpus)
    refuse_real_notes(path)
    check_output(args.output, (path,), force=args.force)
    language = command_language(args.language)
    docs = list(read_documents(path))
    n = export_corpus(
        docs,
        args.output,
        args.to,
        name=name,
        language=language,
        tokenize=registry("language").create(language).tokenize,
        datasheet=datasheet,
    )
    out.print(
        f"exported {n} notes, {sum(len(d.spans) for d in docs)} spans of {name} ({path}) as {args.to} to "
        f"{args.output}" + ("" if datasheet or args.to != "hf" else "; no datasheet found for the card"),
        highlight=False,
    )
    return 0


def cmd_realism(args: argparse.Namespace, out: Console) -> int:
    from synthdeid.privacy.audit.realism import realism

    real, surrogates = list(read_documents(args.real)), list(read_documents(args.surrogates))
    table = realism(real, surrogates, context_words=args.context_words, folds=args.folds, seed=args.seed)
    if args.json:
        out.print_json(json.dumps(table))
        return 0
    view = Table(title=f"surrogate realism: {args.surrogates} against {args.real} (ROC AUC, 0.5: not told apart)")
    for column in ("label", "real strings", "surrogates", "AUC", "AUC in context", "copied"):
        view.add_column(column, justify="left" if column == "label" else "right")
    shown = lambda v: "-" if v is None else f"{v:.3f}"  # noqa: E731
    for label, row in table.items():
        view.add_row(
            label,
            str(row["real_strings"]),
            str(row["surrogate_strings"]),
            shown(row["auc"]),
            shown(row["auc_context"]),
            shown(row["copied_share"]),
        )
    out.print(view)
    return 0


def cmd_preset(args: argparse.Namespace, out: Console) -> int:
    from synthdeid.tools.presets import apply_preset, available

    if args.name is None:
        out.print("presets: " + ", ".join(available()))
        return 0
    changed = apply_preset(args.name, args.params)
    out.print(f"params.yaml: preset {args.name!r} set {len(changed)} keys: " + ", ".join(changed))
    from .params import load_params

    params = load_params(args.params)
    if ((params.get("privacy") or {}).get("gate") or {}).get("override"):
        from synthdeid.privacy.gate import OVERRIDE_WARNING

        print(f"warning: {OVERRIDE_WARNING}", file=sys.stderr)
    return 0


def cmd_new_plugin(args: argparse.Namespace, out: Console) -> int:
    from synthdeid.tools.scaffold import new_language_pack

    path = new_language_pack(args.code, Path(args.out), args.language, args.faker_locale)
    out.print(f"created the {args.language} language pack {args.code!r} in {path}", highlight=False)
    out.print(
        "next steps:\n"
        f"  cd {path}\n"
        "  pip install -e .        # synthdeid finds the pack through its entry point\n"
        "  python -m pytest        # the test_todo_* tests fail until their TODO lists are filled\n"
        "  then work through the checklist in README.md (every TODO in the code)",
        highlight=False,
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="synthdeid", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    sp = sub.add_parser(
        "plugins",
        help="list installed plugins (name, kind, package)",
        **examples("synthdeid plugins", "synthdeid plugins --json"),
    )
    sp.add_argument("--json", action="store_true", help="machine-readable output")
    sp.set_defaults(run=cmd_plugins)
    formats, writers = sorted(format_names()), sorted(writable_formats())  # the registered ones (register_formats)
    sc = sub.add_parser(
        "convert",
        help="convert a corpus between formats",
        **examples(
            "synthdeid convert notes/ notes.jsonl          # a BRAT folder (.txt + .ann) to JSONL",
            "synthdeid convert notes.jsonl notes.conll",
            "synthdeid convert xml/ notes.jsonl --from xml_inline --format-option labels=First_Name,Date",
        ),
    )
    sc.add_argument("input")
    sc.add_argument("output")
    sc.add_argument(
        "--from",
        dest="from_format",
        choices=formats,
        help="input format (default: from the name; `synthdeid plugins` lists the formats)",
    )
    sc.add_argument("--to", dest="to_format", choices=writers, help="output format (default: from the name)")
    sc.add_argument(
        "--format-option",
        action="append",
        metavar="KEY=VALUE",
        help="a reader option, as corpus.format_options (e.g. labels=First_Name,Date for xml_inline)",
    )
    sc.add_argument("--force", action="store_true", help="replace an existing output (never the input itself)")
    sc.set_defaults(run=cmd_convert)
    sv = sub.add_parser(
        "validate",
        help="check a corpus; exit 1 on any problem",
        **examples(
            "synthdeid validate --params params.yaml        # the corpus as the pipeline will read it",
            "synthdeid validate notes/ --mapping meddocan   # a BRAT folder with MEDDOCAN's labels",
            "synthdeid validate notes.jsonl --any-labels",
        ),
    )
    sv.add_argument("path", nargs="?", help="a corpus file or folder (default with --params: its corpus.path)")
    sv.add_argument("--format", choices=formats)
    sv.add_argument(
        "--format-option",
        action="append",
        metavar="KEY=VALUE",
        help="a reader option, as corpus.format_options (e.g. labels=First_Name,Date for xml_inline)",
    )
    labels = sv.add_mutually_exclusive_group()
    labels.add_argument(
        "--any-labels",
        action="store_true",
        help="accept labels outside the canonical tag set (e.g. before mapping them)",
    )
    labels.add_argument(
        "--mapping",
        metavar="NAME|FILE",
        help="map labels with a built-in mapping first (meddocan, "
        "sepr, i2b2_2014, i2b2_2006) or a YAML file of label: Tag lines",
    )
    labels.add_argument(
        "--params",
        metavar="FILE",
        help="read and map the corpus as the pipeline will: FILE's "
        "corpus.path (unless a path is given), corpus.format, corpus.format_options, tags.mapping "
        "and tags.keep_unmapped (e.g. params.yaml)",
    )
    sv.set_defaults(run=cmd_validate)
    from synthdeid.phi.deidentify_command import add_deidentify_command

    add_deidentify_command(sub, formats, writers)
    se = sub.add_parser(
        "export",
        help="export a corpus the study wrote to Hugging Face datasets, spaCy, CoNLL, BRAT or JSONL",
        **examples(
            "synthdeid export lstm_p exports/lstm_p --to hf",
            "synthdeid export lstm_m exports/lstm_m.spacy --to spacy",
            "synthdeid export data/synthetic/lstm_m/documents.jsonl exports/lstm_m --to brat",
        ),
    )
    se.add_argument(
        "corpus", help="a synthetic corpus of the study (lstm_p, lstm_m, ...) or a corpus path (not the real notes)"
    )
    se.add_argument("output")
    se.add_argument(
        "--to",
        required=True,
        choices=("hf", "spacy", "conll", "brat", "jsonl"),
        help="hf: a datasets DatasetDict saved to disk, with a dataset card; spacy: a DocBin",
    )
    se.add_argument("--language", help="the language pack (tokens for hf, spaCy's language); default: params.yaml's")
    se.add_argument("--force", action="store_true", help="replace an existing output (never the corpus itself)")
    se.set_defaults(run=cmd_export)
    sre = sub.add_parser(
        "realism",
        help="per label, how well a classifier tells surrogates from the real PHI (ROC AUC) and how many are copies",
        **examples(
            "synthdeid realism data/annotated/train.jsonl data/pseudonymized/train.jsonl",
            "synthdeid realism data/annotated/train.jsonl data/synthetic/lstm_p/documents.jsonl --json",
        ),
    )
    sre.add_argument("real", help="notes with their real PHI spans (any corpus format)")
    sre.add_argument("surrogates", help="notes whose PHI spans are surrogates (pseudonymized or synthetic)")
    sre.add_argument("--context-words", type=int, default=3, help="words either side in the context variant (0: none)")
    sre.add_argument("--folds", type=int, default=5, help="cross-validation folds")
    sre.add_argument("--seed", type=int, default=0, help="seed of the folds and samples")
    sre.add_argument("--json", action="store_true", help="machine-readable output")
    sre.set_defaults(run=cmd_realism)
    spr = sub.add_parser(
        "preset",
        help="switch params.yaml to a preset (demo, paper, smoke); no name lists them",
        **examples(
            "synthdeid preset            # list the presets", "synthdeid preset meddocan", "synthdeid preset demo"
        ),
    )
    spr.add_argument("name", nargs="?")
    spr.add_argument("--params", default="params.yaml")
    spr.set_defaults(run=cmd_preset)
    snp = sub.add_parser(
        "new-plugin",
        help="write a new plugin package from a template",
        **examples('synthdeid new-plugin language no --language "Norwegian" --faker-locale no_NO'),
    )
    kinds = snp.add_subparsers(dest="kind", required=True)
    snl = kinds.add_parser(
        "language",
        help="a language pack synthdeid-lang-CODE that passes its own tests",
        **examples('synthdeid new-plugin language no --language "Norwegian" --faker-locale no_NO --out ..'),
    )
    snl.add_argument("code", help="the language code the pack registers (e.g. no, fr, pt_br)")
    snl.add_argument("--language", required=True, help='the language\'s name (e.g. "Norwegian")')
    snl.add_argument("--faker-locale", required=True, help="the Faker locale for names and places (e.g. no_NO)")
    snl.add_argument("--out", default=".", help="the folder to create the package in (default: the current one)")
    snl.set_defaults(run=cmd_new_plugin)
    from synthdeid.generation.vocab_anonymize import add_anonymize_command
    from synthdeid.report.review.cli import add_review_commands
    from synthdeid.tools.check import add_check_command

    ssc = sub.add_parser(
        "schema",
        help="print the JSON Schema of params.yaml (or, with --markdown, the params "
        "reference); an editor's YAML language server checks params.yaml against it",
        **examples(
            "synthdeid schema --output docs/params.schema.json",
            "synthdeid schema --markdown --output docs/params.md",
        ),
    )
    ssc.add_argument("--markdown", action="store_true", help="the params reference page instead (docs/params.md)")
    ssc.add_argument("--output", help="write to this file instead of printing")
    ssc.set_defaults(run=cmd_schema)

    add_check_command(sub)
    add_review_commands(sub)
    add_anonymize_command(sub, _generator_plugin)
    return p


DEBUG_ENV = "SYNTHDEID_DEBUG"
"""Set (to anything but empty or 0) to get the traceback of an unexpected error instead of its one line."""


def _file_error(e: OSError) -> str:
    """An ``OSError`` as one line naming its file."""
    name = e.filename if e.filename is not None else e.filename2
    what = {
        FileNotFoundError: "not found (check the path)",
        IsADirectoryError: "is a folder, not a file (name the file itself)",
        NotADirectoryError: "is not a folder (a part of the path is a file)",
        PermissionError: "permission denied (check the file's permissions or choose another path)",
        FileExistsError: "already exists (choose another path or move it away)",
    }.get(type(e), e.strerror.lower() if e.strerror else str(e))
    return f"{name}: {what}" if name is not None else what


def _is_file(value: object) -> bool:
    try:
        return Path(value).is_file()  # type: ignore[arg-type]
    except (OSError, ValueError):
        return False


def _decoding_error(e: UnicodeDecodeError) -> str:
    """A ``UnicodeDecodeError`` as one line naming the file being read (found in the traceback)."""
    from os import PathLike

    path = None
    tb = e.__traceback__
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):  # the innermost frame that holds a path: the file being decoded
        candidates = [frame.f_locals.get(k) for k in ("self", "path", "p", "file", "filename", "fname", "name")]
        path = next((c for c in candidates if isinstance(c, (str, PathLike)) and _is_file(c)), None)
        if path is not None:
            break
    data = e.object if isinstance(e.object, bytes) else b""
    byte = f"byte {data[e.start]:#04x} at offset {e.start}" if e.start < len(data) else f"offset {e.start}"
    line = data[: e.start].count(b"\n") + 1 if data else None
    what = f"not {e.encoding.upper()} text ({byte}); re-save it as UTF-8"
    if path is None:
        return f"a file is {what}"
    return f"{path}{'' if line is None else f':{line}'}: {what}"


def _generator_plugin(name: str) -> Any:
    from synthdeid.plugin_system.manager import registry

    return registry("generator").create(name)


def cmd_schema(args: argparse.Namespace, out: Any) -> int:
    from synthdeid.spec.describe import json_schema, reference

    text = (
        reference() if args.markdown else json.dumps(json_schema(), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    )
    if args.output:
        from synthdeid.corpus.formats.textfile import atomic_write

        with atomic_write(args.output) as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    import os

    from synthdeid.phi.threads import passive_waits

    passive_waits()  # before torch loads: its waiting threads sleep instead of spinning
    err = Console(stderr=True, soft_wrap=True, emoji=False)  # "params.yaml:100:" is no emoji code
    debug = os.environ.get(DEBUG_ENV, "") not in ("", "0")
    try:
        args = build_parser().parse_args(argv)
        return args.run(args, Console(soft_wrap=True, emoji=False))
    except SynthdeidError as e:
        # escaped: a message's own brackets ("synthdeid[export]", "[Name]") are text, not rich markup
        err.print(f"[red]error:[/red] {escape(str(e))}", highlight=False)
        return 1
    except KeyboardInterrupt:
        if debug:
            raise
        print("interrupted", file=sys.stderr)
        return 130
    except (OSError, UnicodeDecodeError) as e:  # a safety net: each case known has its own InputError
        if debug:
            raise
        message = _file_error(e) if isinstance(e, OSError) else _decoding_error(e)
        err.print(f"[red]error:[/red] {escape(message)}", highlight=False)
        return 1
    except Exception as e:
        if debug:
            raise
        print(
            f"error: unexpected {type(e).__name__}: {e} — this is a bug in synthdeid; rerun with "
            f"{DEBUG_ENV}=1 for the traceback and report it",
            file=sys.stderr,
        )
        return 2


if __name__ == "__main__":
    sys.exit(main())
