"""``synthdeid deidentify``: the one command that writes real notes meant to leave the building.

It refuses to destroy or replace anything (output == input, an existing output without
``--force``, any two paths it writes at one place or one inside the other, a link, device or FIFO
as a target: ``write_targets``), keys surrogates and public ids by a secret (``surrogate_key``,
``public_ids``), writes files only their owner can read, sends bad notes to a rejects file with
their reasons (``--strict`` stops at the first), refuses counts out of bounds, and runs torch's
threads so that a busy machine slows it in proportion (``threads``)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from synthdeid.cli_help import examples
from synthdeid.corpus.output_guard import check_output
from synthdeid.errors import InputError
from synthdeid.phi.deid_job import DeidJob, rejects_path
from synthdeid.phi.surrogate_key import SurrogateKey, load_or_create_key
from synthdeid.phi.write_targets import Target, check_input_links, check_targets


def job_from_args(args: argparse.Namespace) -> DeidJob:
    from synthdeid.language_choice import command_language
    from synthdeid.phi.deidentify import default_max_note_chars, input_format
    from synthdeid.phi.threads import default_threads

    if args.seed is not None:
        raise InputError(
            "--seed is gone: a seed anyone can read lets anyone undo the surrogates",
            fix="leave it out (each run draws a secret key), or pass --key-file PATH to keep one key across runs",
        )
    if args.mode == "annotate" and args.key_file:
        raise InputError(
            "--key-file keys surrogates and the public ids; annotate keeps the text and the ids as they are",
            fix="use it with --mode surrogate or redact, or leave it out",
        )
    if args.id_map and (args.mode == "annotate" or args.keep_ids):
        raise InputError(
            "--id-map maps public ids to the notes' own; "
            + ("--keep-ids keeps" if args.keep_ids else "annotate keeps")
            + " the ids as they are",
            fix="leave --id-map out, or use --mode surrogate/redact without --keep-ids",
        )
    check_counts(args)
    from synthdeid.phi.note_sources import is_parquet
    from synthdeid.phi.shards import read_manifest

    rejects = Path(args.rejects) if args.rejects else rejects_path(args.output)
    key_file = Path(args.key_file) if args.key_file else None
    id_map = Path(args.id_map) if args.id_map else None
    keys = (key_file,) if key_file else ()
    resuming = args.engine == "ray" and Path(args.output).is_dir() and read_manifest(Path(args.output)) is not None
    check_output(args.output, (args.input, *keys), force=args.force, existing_ok=resuming)
    check_targets(write_targets(args, rejects, key_file, id_map), args.input)
    check_input_links(args.input)
    check_output(rejects, (args.input, args.output, *keys), force=args.force, existing_ok=resuming)
    if id_map is not None:
        check_output(id_map, (args.input, args.output, *keys), force=args.force, existing_ok=resuming)
    fmt = args.from_format or ("parquet" if is_parquet(args.input) else input_format(args.input))
    if fmt == "parquet" and args.engine != "ray":
        raise InputError(
            "Parquet notes are read by the Ray engine", path=args.input, fix="add --engine ray (a local Ray by default)"
        )
    if key_file is not None:
        check_output(key_file, (args.input, args.output), force=True)
    language = command_language(args.language)
    key = None
    if args.mode == "surrogate" or (args.mode == "redact" and not args.keep_ids):  # redact: the ids' key
        key = load_or_create_key(key_file) if key_file else SurrogateKey.fresh()
    if args.keep_ids and args.mode != "annotate":
        print(
            "warning: --keep-ids writes the notes' own ids (and, for a folder output, file names) unchanged: "
            "if they hold names, dates or numbers, the de-identified notes carry them out",
            file=sys.stderr,
        )
    return DeidJob(
        input=Path(args.input),
        input_format=fmt,
        output=Path(args.output),
        output_format=args.to_format,
        mode=args.mode,
        language=language,
        model=args.model,
        annotator=args.annotator,
        min_confidence=args.min_confidence,
        trust_model=args.trust_model,
        key=key,
        mask=args.mask,
        strict=args.strict,
        rejects=rejects,
        threads=args.threads if args.threads is not None else default_threads(),
        keep_ids=args.keep_ids,
        id_map=id_map,
        max_note_chars=args.max_note_chars if args.max_note_chars is not None else default_max_note_chars(),
    )


MAX_WORKERS = 1024
"""More Ray workers than this is a typo, not a cluster (each loads its own model)."""


def thread_cap() -> int:
    """The most ``--threads`` a run may ask for: four per core of this machine (more only queue;
    torch crashed at 100,000)."""
    return 4 * (os.cpu_count() or 1)


def check_counts(args: argparse.Namespace) -> None:
    """Refuse ``--threads``, ``--workers`` and ``--block-notes`` out of bounds (never a silent
    default), and the Ray engine's settings without ``--engine ray``."""
    if args.engine != "ray":
        for flag, value in (
            ("--workers", args.workers),
            ("--block-notes", args.block_notes),
            ("--address", args.address),
        ):
            if value is not None:
                raise InputError(
                    f"{flag} is a Ray engine setting, and this run uses the local engine",
                    fix=f"add --engine ray, or leave {flag} out",
                )
    bounds = (
        (
            "--threads",
            args.threads,
            thread_cap(),
            f"e.g. --threads {min(4, thread_cap())} (this machine has {os.cpu_count()} cores)",
        ),
        ("--workers", args.workers, MAX_WORKERS, "e.g. --workers 2, or leave it out: one per CPU Ray offers"),
        ("--block-notes", args.block_notes, None, "e.g. --block-notes 1000 (the default)"),
        ("--max-note-chars", args.max_note_chars, None, "leave it out: notes that fit in half the memory"),
    )
    for flag, value, cap, fix in bounds:
        if value is None:
            continue
        if value < 1:
            raise InputError(f"{flag} {value}: at least one is needed", fix=fix)
        if cap is not None and value > cap:
            raise InputError(f"{flag} {value}: more than {cap:,}, the most a run may ask for", fix=fix)


def write_targets(
    args: argparse.Namespace, rejects: Path, key_file: Path | None, id_map: Path | None = None
) -> list[Target]:
    """What the run may write: the output (a folder for the Ray engine and folder formats), the
    rejects file, the key file when given (written when it does not exist yet), the id map."""
    found = [
        Target("the output", Path(args.output), folder=True),
        Target("the rejects file" + (" (--rejects)" if args.rejects else ""), rejects),
    ]
    if key_file is not None:
        found.append(Target("the key file (--key-file)", key_file))
    if id_map is not None:
        found.append(Target("the id map (--id-map)", id_map))
    return found


def cmd_deidentify(args: argparse.Namespace, out: Console) -> int:
    job = job_from_args(args)
    if args.engine == "ray":
        from synthdeid.phi.ray_engine import run_on_ray

        return run_on_ray(
            job,
            out,
            address=args.address,
            workers=args.workers,
            force=args.force,
            threads=args.threads,
            block_notes=args.block_notes,
        )
    from synthdeid.phi.deidentify_local import run_local

    return run_local(job, out)


def add_deidentify_command(sub: Any, formats: list[str], writers: list[str]) -> None:
    """``synthdeid deidentify INPUT OUTPUT (--model DIR | --annotator NAME) ...``."""
    sd = sub.add_parser(
        "deidentify",
        help="find PHI in notes with a trained tagger or an annotator, and annotate, replace (surrogate) or redact it",
        **examples(
            "synthdeid deidentify notes/ found.jsonl --model data/taggers/augmented-lstm_p",
            "synthdeid deidentify notes/ clean/ --model data/taggers/real --mode surrogate --to text",
            "synthdeid deidentify notes/ clean/ --model data/taggers/real --mode surrogate --key-file ~/.deid.key",
            "synthdeid deidentify notes.jsonl redacted.jsonl --model data/taggers/real --mode redact --min-confidence 0.2",
            "synthdeid deidentify notes/ found.jsonl --annotator deduce   # Dutch rules, no training",
            "synthdeid deidentify export.parquet out/ --model data/taggers/real --mode surrogate --engine ray",
        ),
    )
    sd.add_argument(
        "input", help="a .jsonl, .conll, .inline, .txt or .parquet file, a BRAT folder or a folder of .txt notes"
    )
    sd.add_argument("output", help="a .jsonl, .conll or .inline file, or a folder (BRAT: .txt notes with .ann spans)")
    who = sd.add_mutually_exclusive_group(required=True)
    who.add_argument(
        "--model",
        help="a trained tagger directory (its tagger.json names the plugin), e.g. data/taggers/augmented-lstm_p",
    )
    who.add_argument("--annotator", help="an annotator plugin, e.g. deduce (Dutch rules)")
    sd.add_argument(
        "--trust-model",
        action="store_true",
        help="RISK: also load a --model folder that holds "
        "only a pickle (a flair best-model.pt of an older synthdeid or of flair itself); unpickling "
        "runs whatever code the file holds, so use it only for a folder you made or whose maker you "
        "trust. Without it such a folder is refused; taggers this version trains are safetensors",
    )
    sd.add_argument(
        "--mode",
        choices=("annotate", "surrogate", "redact"),
        default="annotate",
        help="annotate: keep the text, add the spans; surrogate: replace PHI by surrogates from the "
        "language pack; redact: replace PHI by [LABEL] (or --mask)",
    )
    sd.add_argument("--language", help="the language pack (tokenizer, surrogates); default: params.yaml's")
    sd.add_argument(
        "--min-confidence",
        type=float,
        help="favour recall: a token is PHI when the tagger's "
        "probability of PHI reaches this (e.g. 0.2; torch_bilstm_crf taggers); default: the best path",
    )
    sd.add_argument(
        "--key-file",
        metavar="PATH",
        help="surrogate, redact: keep one secret key across runs (the same notes get the same surrogates and "
        "public ids); created "
        "with mode 600 when missing, refused when others can read it. Default: a fresh key per run, never written",
    )
    sd.add_argument("--seed", type=int, help=argparse.SUPPRESS)  # refused with a message: see job_from_args
    sd.add_argument("--mask", help="redact with this string instead of [LABEL]")
    sd.add_argument(
        "--from",
        dest="from_format",
        choices=sorted([*formats, "parquet"]),
        help="input format (default: from the name; parquet: columns id and text, with --engine ray)",
    )
    sd.add_argument(
        "--to",
        dest="to_format",
        choices=sorted([*writers, "text"]),
        help="output format (default: from the name); text: .txt notes only (surrogate, redact)",
    )
    sd.add_argument("--force", action="store_true", help="replace an existing output (never the input itself)")
    sd.add_argument(
        "--strict", action="store_true", help="stop at the first bad note instead of listing it in the rejects file"
    )
    sd.add_argument(
        "--rejects", metavar="PATH", help="where to list the notes left out (default: OUTPUT.rejects.jsonl)"
    )
    sd.add_argument(
        "--keep-ids",
        action="store_true",
        help="surrogate, redact: write the notes' own ids and file names (warned: they often hold names or "
        "dates). Default: each id becomes a keyed hash (16 hex digits, stable under one --key-file)",
    )
    sd.add_argument(
        "--id-map",
        metavar="PATH",
        help="surrogate, redact: also write which public id is which note (JSONL, mode 600); keep it with "
        "the originals, never with the release. Default: the mapping is written nowhere",
    )
    sd.add_argument(
        "--max-note-chars",
        type=int,
        metavar="N",
        help="reject (with its reason) a note longer than N characters before it is tagged: memory grows "
        "with a note's length, up to about 400 bytes a character. Default: what fits in half this "
        "machine's memory",
    )
    sd.add_argument(
        "--threads",
        type=int,
        help="torch threads of the tagger (default: the cores this process may use, or 1 per Ray worker; threads "
        "wait passively, so another job on the machine slows the run in proportion)",
    )
    sd.add_argument(
        "--engine",
        choices=("local", "ray"),
        default="local",
        help="local: this process; ray: Ray Data workers (pip install 'synthdeid[ray]'), resumable shards",
    )
    sd.add_argument("--address", help="ray: a cluster's address (default: a local Ray on this machine's cores)")
    sd.add_argument("--workers", type=int, help="ray: model workers (default: one per CPU Ray offers)")
    sd.add_argument(
        "--block-notes",
        type=int,
        metavar="N",
        help="ray: notes per shard (default 1000): a killed run redoes at most the shards under way",
    )
    sd.set_defaults(run=cmd_deidentify)
