"""Vocabulary anonymization (Verkijk & Vossen, MedRoBERTa.nl, section 4.3): the vocabulary entries
that are PHI of the training notes are replaced by random ``<unk_N>`` tokens, so the model cannot
write them, whatever it memorised.

A token counts as PHI when at least ``min_share`` of its occurrences in the training text are
inside spans of the chosen labels (``Name`` by default): "Jansen" is, "de" (from "de Vries") and
"mei" (from dates) are not. The replaced strings are written nowhere. Supported: word-level
generators (``lstm``). A byte-level BPE (``gpt2``) is refused: a name there is a sequence of
subwords shared with ordinary words, and renaming entries would break the merges.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from synthdeid import paths
from synthdeid.api import Generator, VocabAnonymizer
from synthdeid.errors import InputError, SynthdeidError
from synthdeid.spec.vocab_anonymization import VocabAnonymization

_START = re.compile(r"<([A-Za-z][A-Za-z0-9_]*?)START>")
_END = re.compile(r"<([A-Za-z][A-Za-z0-9_]*?)END>")
UNK_PATTERN = re.compile(r"<unk_\d+>")
"""What replaced entries look like; generators never emit a token that matches it."""
REPORT = "vocab_anonymization.json"


def phi_tokens(lines: Iterable[str], labels: Sequence[str] | None = ("Name",), min_share: float = 0.5) -> set[str]:
    """The tokens of inline LM lines (space-separated, tags as tokens) that occur inside spans of
    ``labels`` (None: any) at least ``min_share`` of the time."""
    inside: Counter[str] = Counter()
    total: Counter[str] = Counter()
    wanted = None if labels is None else set(labels)
    for line in lines:
        open_label: str | None = None
        for tok in line.split():
            if (m := _START.fullmatch(tok)) is not None:
                open_label = m.group(1)
            elif _END.fullmatch(tok) is not None:
                open_label = None
            elif not tok.startswith("<") or not tok.endswith(">"):
                total[tok] += 1
                if open_label is not None and (wanted is None or open_label in wanted):
                    inside[tok] += 1
    return {t for t, n in inside.items() if n / total[t] >= min_share}


def unk_tokens(n: int, seed: int, taken: Iterable[str] = ()) -> list[str]:
    """``n`` distinct random ``<unk_N>`` strings (seeded), none of them in ``taken``."""
    rng = random.Random(seed)
    used = set(taken)
    out: list[str] = []
    while len(out) < n:
        tok = f"<unk_{rng.randrange(10**9, 10**10)}>"
        if tok not in used:
            used.add(tok)
            out.append(tok)
    return out


def anonymize_model_dir(
    generator: Generator, model_dir: Path, lines: Sequence[str], settings: VocabAnonymization
) -> dict[str, Any]:
    """Anonymize the vocabulary of the model ``generator`` trained in ``model_dir`` with the PHI
    tokens of its training text ``lines``; returns (and writes to ``vocab_anonymization.json``) the
    counts. The generator must declare the capability (``synthdeid.api.VocabAnonymizer``)."""
    if not isinstance(generator, VocabAnonymizer):
        raise SynthdeidError(
            f"{model_dir}: vocabulary anonymization is not supported for the {generator.name!r} generator (it "
            "declares no anonymize_vocab): a byte-level BPE writes a name as subwords shared with ordinary words, "
            "and renaming vocabulary entries would break the merges; use a word-level generator (lstm), or fresh "
            "surrogates after generation"
        )
    model_dir = Path(model_dir)
    tokens = phi_tokens(lines, settings.labels, settings.min_share)
    replaced = generator.anonymize_vocab(model_dir, tokens, settings.seed)
    report = {
        "labels": list(settings.labels) if settings.labels else None,
        "min_share": settings.min_share,
        "phi_tokens_found": len(tokens),
        "replaced": replaced,
    }
    from synthdeid.corpus.accounting import write_json

    write_json(report, model_dir / REPORT)
    return report


def add_anonymize_command(sub: Any, create_generator: Callable[[str], Generator]) -> None:
    """``synthdeid anonymize-vocab MODEL_DIR [--text data/inline/train.txt] [--labels Name ...]``;
    ``create_generator(name)`` builds the generator plugin ``--generator`` names (the CLI's registry)."""
    from synthdeid.cli_help import examples  # the CLI's, not the stages': not a stage dependency

    p = sub.add_parser(
        "anonymize-vocab",
        help="replace the PHI tokens of a trained generator's vocabulary by random <unk_N> tokens (Verkijk & Vossen)",
        **examples(
            "synthdeid anonymize-vocab data/models/lstm",
            "synthdeid anonymize-vocab data/models/gpt2 --labels all",
        ),
    )
    p.add_argument("model_dir", type=Path)
    p.add_argument(
        "--text",
        type=Path,
        default=Path(paths.inline_text("train")),
        help="the inline training text the model learned from (default: data/inline/train.txt)",
    )
    p.add_argument(
        "--labels", nargs="+", default=["Name"], help="PHI labels to remove (default: Name); 'all' for every label"
    )
    p.add_argument(
        "--min-share",
        type=float,
        default=0.5,
        help="remove a token when at least this share of its occurrences is inside such spans",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--generator",
        default="lstm",
        help="the generator plugin that trained MODEL_DIR (default: lstm; generators.NAME.plugin in params)",
    )
    p.set_defaults(run=partial(_cmd_anonymize, create_generator=create_generator))


def _cmd_anonymize(args: Any, out: Any, create_generator: Callable[[str], Generator]) -> int:
    if not args.text.exists():
        raise InputError(
            "the training text is missing", path=args.text, fix="run the inline stage (dvc repro inline) or pass --text"
        )
    if args.text.is_dir():
        raise InputError(
            "--text is a folder, not the inline training text",
            path=args.text,
            fix="name the file, e.g. --text data/inline/train.txt",
        )
    from synthdeid.corpus.formats.textfile import read_text  # not UTF-8: an error naming the file and line

    lines = [x for x in read_text(args.text).split("\n") if x.strip()]
    labels = None if args.labels == ["all"] else tuple(args.labels)
    try:
        settings = VocabAnonymization(labels=labels, min_share=args.min_share, seed=args.seed)
    except ValidationError as e:
        from synthdeid.plugin_system.config import problems_of

        raise InputError(
            "anonymize-vocab: " + "; ".join(problems_of(e, VocabAnonymization)), fix="change the option"
        ) from None
    generator = create_generator(args.generator)
    report = anonymize_model_dir(generator, args.model_dir, lines, settings)
    out.print(
        f"{args.model_dir}: {report['replaced']} vocabulary entries replaced by <unk_N> "
        f"({report['phi_tokens_found']} PHI tokens in the training text); see {REPORT}"
    )
    return 0
