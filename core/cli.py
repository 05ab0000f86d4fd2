"""The ``synthdeid`` command: plugins, convert, validate, check, deidentify, export, preset, new-plugin."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from synthdeid.corpus.formats import (
    READERS,
    WRITERS,
    guess_format,
    read_documents,
    write_documents,
)
from synthdeid.corpus.records import Document, label_counts
from synthdeid.corpus.tags import CANONICAL_TAGS, TagSet, label_mapping

from .errors import InputError, SynthdeidError


def cmd_plugins(args: argparse.Namespace, out: Console) -> int:
    from synthdeid.plugin_system.manager import all_entries

    entries = [{"name": e.name, "kind": e.kind, "package": e.package, "version": e.version,
                "plugin": e.plugin} for e in all_entries()]
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


def cmd_convert(args: argparse.Namespace, out: Console) -> int:
    docs = list(read_documents(args.input, args.from_format, options=_format_options(args)))
    to = args.to_format or guess_format(args.output, for_writing=True)
    write_documents(docs, args.output, to)
    back = list(read_documents(args.output, to))  # report what the output holds, not what went in
    n_in, n_out = sum(len(d.spans) for d in docs), sum(len(d.spans) for d in back)
    out.print(f"read {len(docs)} documents, {n_in} spans from {args.input}; "
              f"wrote {len(back)} documents, {n_out} spans to {args.output}", highlight=False)
    if (len(back), n_out) != (len(docs), n_in):
        print(f"warning: {args.output} reads back with {len(back)} documents and {n_out} spans, not "
              f"{len(docs)} and {n_in} (CoNLL keeps tokens: spans that touch without a space merge)",
              file=sys.stderr)
    return 0


def _read_all(path: Path, fmt: str | None, tagset: TagSet | None,
              options: dict | None = None) -> tuple[list[Document], list[str]]:
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
        lines.append(f"unknown label {label} in {len(es)} record(s), first at {es[0].where()}\n"
                     f"  fix: map it onto a canonical tag in params.yaml (tags.mapping), then validate with "
                     f"--mapping or --params; or check with --any-labels")
    return lines


def _validation_tagset(args: argparse.Namespace) -> TagSet | None:
    if args.any_labels:
        return None
    if args.params:
        from synthdeid.corpus.tags import tagset_from_params

        from .params import load_params

        return tagset_from_params(load_params(args.params))
    return TagSet(CANONICAL_TAGS, label_mapping(_mapping_file(args.mapping)))


def _mapping_file(value: str | None) -> object:
    """``--mapping``: a YAML file's mapping when ``value`` names a file, else the name as it is."""
    if value and Path(value).is_file():
        import yaml

        try:
            return yaml.safe_load(Path(value).read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as e:
            raise InputError(f"not a YAML mapping ({e})", path=value, fix="write one `label: Tag` per line") from None
    return value


def cmd_validate(args: argparse.Namespace, out: Console) -> int:
    docs, problems = _read_all(Path(args.path), args.format, _validation_tagset(args), _format_options(args))
    table = Table(title=f"{args.path}: {len(docs)} documents, {sum(len(d.spans) for d in docs)} spans")
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


def _language(args: argparse.Namespace) -> str:
    if args.language:
        return args.language
    if Path("params.yaml").exists():
        from .params import load_params

        return str(load_params("params.yaml").get("language") or "")
    raise InputError("which language are the notes in?", fix="pass --language (e.g. nl, es, sv), the pack the "
                     "tagger was trained with; in a synthdeid project it is params.yaml's `language`")


def cmd_deidentify(args: argparse.Namespace, out: Console) -> int:
    from synthdeid.phi.deidentify import (
        DeidCounts,
        deidentify,
        input_format,
        load_annotator,
        write_output,
    )
    from synthdeid.plugin_system.manager import registry

    from .progress import track

    language = _language(args)
    annotator = load_annotator(args.model, args.annotator, language, min_confidence=args.min_confidence)
    pack = registry("language").create(language) if args.mode == "surrogate" else None
    fmt = args.from_format or input_format(args.input)
    counts = DeidCounts()
    notes = track(read_documents(args.input, fmt), f"de-identify ({args.mode})")
    n = write_output(deidentify(notes, annotator, args.mode, pack, args.seed, args.mask, counts),
                     args.output, args.to_format, args.mode)
    labels = ", ".join(f"{label} {k}" for label, k in sorted(counts.found.items()))
    out.print(f"{args.mode}: {counts.notes} notes in, {n} out ({counts.notes_per_second():.1f} notes/s); "
              f"{counts.spans_found} PHI spans found ({labels or 'none'}); the input had {counts.spans_in} spans "
              f"of its own; wrote {args.output}", highlight=False)
    return 0


def cmd_export(args: argparse.Namespace, out: Console) -> int:
    from synthdeid.corpus.export import export_corpus, resolve_corpus
    from synthdeid.plugin_system.manager import registry

    path, name, datasheet = resolve_corpus(args.corpus)
    language = _language(args)
    docs = list(read_documents(path))
    n = export_corpus(docs, args.output, args.to, name=name, language=language,
                      tokenize=registry("language").create(language).tokenize, datasheet=datasheet)
    out.print(f"exported {n} notes, {sum(len(d.spans) for d in docs)} spans of {name} ({path}) as {args.to} to "
              f"{args.output}" + ("" if datasheet or args.to != "hf" else "; no datasheet found for the card"),
              highlight=False)
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
    out.print("next steps:\n"
              f"  cd {path}\n"
              "  pip install -e .        # synthdeid finds the pack through its entry point\n"
              "  python -m pytest        # the test_todo_* tests fail until their TODO lists are filled\n"
              "  then work through the checklist in README.md (every TODO in the code)", highlight=False)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="synthdeid", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("plugins", help="list installed plugins (name, kind, package)")
    sp.add_argument("--json", action="store_true", help="machine-readable output")
    sp.set_defaults(run=cmd_plugins)
    formats = sorted(READERS)
    sc = sub.add_parser("convert", help="convert a corpus between formats")
    sc.add_argument("input")
    sc.add_argument("output")
    sc.add_argument("--from", dest="from_format", choices=formats, help="input format (default: from the name)")
    sc.add_argument("--to", dest="to_format", choices=sorted(WRITERS), help="output format (default: from the name)")
    sc.add_argument("--format-option", action="append", metavar="KEY=VALUE",
                    help="a reader option, as corpus.format_options (e.g. labels=First_Name,Date for xml_inline)")
    sc.set_defaults(run=cmd_convert)
    sv = sub.add_parser("validate", help="check a corpus; exit 1 on any problem")
    sv.add_argument("path")
    sv.add_argument("--format", choices=formats)
    sv.add_argument("--format-option", action="append", metavar="KEY=VALUE",
                    help="a reader option, as corpus.format_options (e.g. labels=First_Name,Date for xml_inline)")
    labels = sv.add_mutually_exclusive_group()
    labels.add_argument("--any-labels", action="store_true",
                        help="accept labels outside the canonical tag set (e.g. before mapping them)")
    labels.add_argument("--mapping", metavar="NAME|FILE", help="map labels with a built-in mapping first (meddocan, "
                        "sepr, i2b2_2014, i2b2_2006) or a YAML file of label: Tag lines")
    labels.add_argument("--params", metavar="FILE", help="map labels as the pipeline will: FILE's tags.mapping "
                        "and tags.keep_unmapped (e.g. params.yaml)")
    sv.set_defaults(run=cmd_validate)
    sd = sub.add_parser("deidentify", help="find PHI in notes with a trained tagger or an annotator, and "
                        "annotate, replace (surrogate) or redact it")
    sd.add_argument("input", help="a .jsonl, .conll, .inline or .txt file, a BRAT folder or a folder of .txt notes")
    sd.add_argument("output", help="a .jsonl, .conll or .inline file, or a folder (BRAT: .txt notes with .ann spans)")
    who = sd.add_mutually_exclusive_group(required=True)
    who.add_argument("--model", help="a trained tagger directory (its tagger.json names the plugin), e.g. "
                     "data/taggers/augmented-lstm_p")
    who.add_argument("--annotator", help="an annotator plugin, e.g. deduce (Dutch rules)")
    sd.add_argument("--mode", choices=("annotate", "surrogate", "redact"), default="annotate",
                    help="annotate: keep the text, add the spans; surrogate: replace PHI by surrogates from the "
                    "language pack; redact: replace PHI by [LABEL] (or --mask)")
    sd.add_argument("--language", help="the language pack (tokenizer, surrogates); default: params.yaml's")
    sd.add_argument("--min-confidence", type=float, help="favour recall: a token is PHI when the tagger's "
                    "probability of PHI reaches this (e.g. 0.2; torch_bilstm_crf taggers); default: the best path")
    sd.add_argument("--seed", type=int, default=0, help="seed of the surrogates (per note)")
    sd.add_argument("--mask", help="redact with this string instead of [LABEL]")
    sd.add_argument("--from", dest="from_format", choices=formats, help="input format (default: from the name)")
    sd.add_argument("--to", dest="to_format", choices=sorted([*WRITERS, "text"]),
                    help="output format (default: from the name); text: .txt notes only (surrogate, redact)")
    sd.set_defaults(run=cmd_deidentify)
    se = sub.add_parser("export", help="export a corpus the study wrote to Hugging Face datasets, spaCy, "
                        "CoNLL, BRAT or JSONL")
    se.add_argument("corpus", help="a corpus name (lstm_p, lstm_m, pseudonymized, ...) or a corpus path")
    se.add_argument("output")
    se.add_argument("--to", required=True, choices=("hf", "spacy", "conll", "brat", "jsonl"),
                    help="hf: a datasets DatasetDict saved to disk, with a dataset card; spacy: a DocBin")
    se.add_argument("--language", help="the language pack (tokens for hf, spaCy's language); default: params.yaml's")
    se.set_defaults(run=cmd_export)
    spr = sub.add_parser("preset", help="switch params.yaml to a preset (demo, paper, smoke); no name lists them")
    spr.add_argument("name", nargs="?")
    spr.add_argument("--params", default="params.yaml")
    spr.set_defaults(run=cmd_preset)
    snp = sub.add_parser("new-plugin", help="write a new plugin package from a template")
    kinds = snp.add_subparsers(dest="kind", required=True)
    snl = kinds.add_parser("language", help="a language pack synthdeid-lang-CODE that passes its own tests")
    snl.add_argument("code", help="the language code the pack registers (e.g. no, fr, pt_br)")
    snl.add_argument("--language", required=True, help='the language\'s name (e.g. "Norwegian")')
    snl.add_argument("--faker-locale", required=True, help="the Faker locale for names and places (e.g. no_NO)")
    snl.add_argument("--out", default=".", help="the folder to create the package in (default: the current one)")
    snl.set_defaults(run=cmd_new_plugin)
    from synthdeid.generation.vocab_anonymize import add_anonymize_command
    from synthdeid.report.review.cli import add_review_commands
    from synthdeid.tools.check import add_check_command

    add_check_command(sub)
    add_review_commands(sub)
    add_anonymize_command(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    out = Console(soft_wrap=True)
    try:
        return args.run(args, out)
    except SynthdeidError as e:
        # escaped: a message's own brackets ("synthdeid[export]", "[Name]") are text, not rich markup
        Console(stderr=True, soft_wrap=True).print(f"[red]error:[/red] {escape(str(e))}", highlight=False)
        return 1


if __name__ == "__main__":
    sys.exit(main())
