"""``synthdeid check``: read the configured corpus and params before any training and say what the
study will see (size, labels after mapping, splits, the test split's entities), what the ``auto``
and budget settings resolve to on this corpus, and everything that will not work, each with its fix.

Lengths here are whitespace tokens of the inline training text (words, PHI tags and ``<EOD>``),
what the word-level LSTM counts; a BPE generator counts more tokens for the same notes, so its
resolved lengths and epochs (printed by the stages) are somewhat larger."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from synthdeid.api import LanguagePack
from synthdeid.cli_help import examples
from synthdeid.corpus.accounting import Counts
from synthdeid.corpus.rare_words import rare_word_share
from synthdeid.corpus.records import Document, label_counts
from synthdeid.corpus.split import prepare_splits
from synthdeid.corpus.tags import TagSet
from synthdeid.errors import InputError, SynthdeidError
from synthdeid.generation.note_lengths import AUTO, MAX_QUANTILE, MIN_QUANTILE, quantile
from synthdeid.privacy.canaries import line_budget, numeric_pool
from synthdeid.sources.loader import load_corpus, load_test_set

if TYPE_CHECKING:
    from synthdeid.spec import Study

FEW_TEST_ENTITIES = 200
"""Below this many test entities, the 95% interval of an entity F1 near 0.8 is wider than +-0.055."""
FEW_DEV_DOCUMENTS = 20

WARN_LINE_SHARE = 0.1
"""Canary lines above this share of the training notes get a warning (the cap, ``max_line_share``, is 25%)."""


@dataclass
class CheckReport:
    """What ``check`` found: facts (name -> value), resolved settings, warnings and problems
    (each problem with its fix; any problem means the study will not run as configured)."""

    facts: dict[str, Any] = field(default_factory=dict)
    labels: dict[str, int] = field(default_factory=dict)
    resolved: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def problem(self, what: str, fix: str) -> None:
        self.problems.append(f"{what}\n  fix: {fix}")


SHOWN_PLACES = 5
"""How many records a grouped problem names."""


def grouped_errors(errors: list[InputError]) -> list[str]:
    """One problem per distinct (problem, fix) of ``errors``, in order of first appearance: a problem
    many records share is said once, with how many and where the first few are."""
    groups: dict[tuple[str, str | None], list[InputError]] = {}
    for err in errors:
        groups.setdefault((err.problem, err.fix), []).append(err)
    out = []
    for (problem, fix), errs in groups.items():
        if len(errs) == 1:
            out.append(str(errs[0]))
            continue
        places = "; ".join(e.where() for e in errs[:SHOWN_PLACES] if e.where())
        more = f"; and {len(errs) - SHOWN_PLACES} more" if len(errs) > SHOWN_PLACES else ""
        out.append(f"{len(errs)} records: {problem} ({places}{more})" + (f"\n  fix: {fix}" if fix else ""))
    return out


def inline_length(doc: Document) -> int:
    """The note's whitespace tokens in the inline text: words, a START and END tag per span, <EOD>."""
    return len(doc.text.split()) + 2 * len(doc.spans) + 1


def f1_halfwidth(n: int, f1: float = 0.8) -> float:
    """The normal-approximation 95% half-width of a proportion ``f1`` over ``n`` entities."""
    return 1.96 * math.sqrt(f1 * (1 - f1) / max(n, 1))


def check(
    study: Study,
    pack: LanguagePack,
    tagset: TagSet,
    generators: Mapping[str, Any],
    taggers: Mapping[str, Any],
    leakage: Any = None,
) -> CheckReport:
    """Check the corpus of ``study`` (a checked study spec) and what its settings resolve to on it;
    never trains anything. ``generators`` and ``taggers`` are the built plugins by name, ``leakage``
    the leakage metric's config (None: not configured)."""
    report = CheckReport()
    errors: list[InputError] = []
    listing = study.corpus.model_copy(update={"on_invalid": "reject"})  # list every invalid record, do not stop
    try:
        docs = load_corpus(listing, tagset, errors)
        test_docs = load_test_set(listing, tagset, errors)
    except SynthdeidError as e:
        report.problem(
            f"the corpus cannot be read: {e}", "see the message; `synthdeid validate PATH` lists every record"
        )
        return report
    grouped = grouped_errors(errors)
    report.problems.extend(grouped[:20])
    if len(grouped) > 20:
        report.problems.append(
            f"... and {len(grouped) - 20} more kinds of invalid record (`synthdeid validate` lists them)"
        )
    if errors and study.corpus.on_invalid != "reject":
        report.warnings.append(
            f"{len(errors)} invalid record(s): with corpus.on_invalid: fail the corpus stage stops; "
            "`reject` leaves them out, counted"
        )
    _corpus_facts(report, docs, test_docs)
    try:
        parts = prepare_splits(
            docs, test_docs, study.prepare.split, study.prepare.seed, Counts("check"), study.prepare.min_dev_notes
        )
    except SynthdeidError as e:
        report.problem(
            f"the split does not work: {e.problem if isinstance(e, InputError) else e}",
            e.fix if isinstance(e, InputError) and e.fix else "change prepare.split",
        )
        return report
    _split_facts(report, parts)
    if parts["train"]:
        _resolve(report, study, pack, generators, taggers, parts["train"])
        if leakage is not None:  # labels dominating the raw PHI leakage
            from synthdeid.privacy.audit.identifying import leakage_warnings

            report.warnings.extend(
                leakage_warnings(
                    parts["train"], pack.tokenize, leakage.rule(), leakage.multi_token_min, leakage.paragraph_token
                )
            )
    return report


def _corpus_facts(report: CheckReport, docs: list[Document], test_docs: list[Document]) -> None:
    lengths = [len(d.text.split()) for d in docs] or [0]
    report.facts.update(
        {
            "documents": len(docs),
            "whitespace tokens": sum(lengths),
            "tokens per note (10th / median / 99th percentile)": f"{quantile(lengths, 0.1)} / {quantile(lengths, 0.5)} / {quantile(lengths, 0.99)}",
            "PHI spans": sum(len(d.spans) for d in docs),
        }
    )
    if test_docs:
        report.facts["separate test set (corpus.test_path)"] = f"{len(test_docs)} documents"
    report.labels = label_counts(docs + test_docs)
    if docs and not report.labels:
        report.problem(
            "the corpus holds no PHI spans after mapping",
            "annotate it (annotate.annotator, e.g. deduce for Dutch) or check corpus.format and tags.mapping",
        )


def _split_facts(report: CheckReport, parts: dict[str, list[Document]]) -> None:
    for name in ("train", "dev", "test"):
        docs = parts[name]
        report.facts[f"{name} split"] = f"{len(docs)} documents, {sum(len(d.spans) for d in docs)} PHI spans"
    if parts["train"]:
        once = rare_word_share(parts["train"], 1)
        report.facts["words seen once in the training notes"] = (
            f"{once.rare / max(1, once.words):.1%} of {once.words} words, {once.share:.1%} of them PHI: a word-level LM "
            "writes these as <unk>, which postprocess fills with ordinary words (generate.unknown_words); the "
            "report's rare-word table holds each synthetic corpus against this share"
        )
    test_entities = sum(len(d.spans) for d in parts["test"])
    if not parts["test"]:
        report.problem(
            "the test split is empty: utility cannot be measured",
            "give prepare.split a test share (e.g. [0.8, 0.1, 0.1]) or set corpus.test_path",
        )
    elif test_entities < FEW_TEST_ENTITIES:
        report.warnings.append(
            f"the test split holds {test_entities} PHI entities: an entity F1 near 0.8 has a 95% interval of about "
            f"+-{f1_halfwidth(test_entities):.2f}, so differences between settings smaller than that are noise "
            "(a larger test share or corpus.test_path narrows it)"
        )
    if len(parts["dev"]) < FEW_DEV_DOCUMENTS:
        report.warnings.append(
            f"the dev split holds {len(parts['dev'])} documents: early stopping and prompts rest on "
            "few notes (raise prepare.split's dev share)"
        )
    rare = [label for label, n in report.labels.items() if n < 5]
    if rare:
        report.warnings.append(
            f"labels with fewer than 5 spans ({', '.join(rare)}): their per-tag F1 will be 0 or "
            "noise; consider mapping them onto a related tag"
        )


def _epochs(config: Any, stream: int) -> int | None:
    """The epochs a config's token budget allows over ``stream`` tokens (None: no budget)."""
    budget = getattr(config, "max_train_tokens", None)
    cap = getattr(config, "max_epochs", None)
    if not isinstance(budget, int) or isinstance(budget, bool) or budget <= 0 or not stream:
        return None
    return min(cap, math.ceil(budget / stream)) if isinstance(cap, int) else math.ceil(budget / stream)


def _resolve(
    report: CheckReport,
    study: Study,
    pack: LanguagePack,
    generators: Mapping[str, Any],
    taggers: Mapping[str, Any],
    train: list[Document],
) -> None:
    lengths = [inline_length(d) for d in train]
    stream = sum(lengths)
    words = sum(len(d.text.split()) for d in train)
    report.facts["training stream (LSTM tokens: words, tags, <EOD>)"] = stream
    lines = [" ".join(pack.tokens(d.text)) for d in train]  # as the inline stage tokenizes (tags aside)
    for name in study.generators:
        _resolve_generator(report, study, name, getattr(generators[name], "config", None), stream, train, lines)
    for corpus, spec in study.corpora.items():
        g = study.generation(corpus)
        # where the corpus's min_tokens comes from: its own section or generate
        min_key = "corpora.{corpus}.min_tokens" if "min_tokens" in spec.model_fields_set else "generate.min_tokens"

        lo = quantile(lengths, MIN_QUANTILE) if g.min_tokens == AUTO else g.min_tokens
        hi = quantile(lengths, MAX_QUANTILE) if g.max_tokens == AUTO else g.max_tokens
        ratio = f" ({g.target_tokens / words:.1f}x the real training notes)" if words else ""
        report.resolved[f"corpora.{corpus}"] = f"notes of {lo}-{hi} tokens, {g.target_tokens} tokens in all{ratio}"
        median = quantile(lengths, 0.5)
        if g.min_tokens != AUTO and int(lo) > median:
            report.warnings.append(
                f"{min_key.format(corpus=corpus)}: {lo} is above the median training note ({median} "
                "tokens): every generated note is longer than most real ones (min_tokens: auto)"
            )
    for name in study.taggers:
        config = getattr(taggers[name], "config", None)
        epochs = _epochs(config, words)
        if epochs is not None and config is not None:
            report.resolved[f"taggers.{name} (real)"] = (
                f"at most {epochs} epochs (budget {config.max_train_tokens} tokens over {words}), fewer by patience"
            )


def _resolve_generator(
    report: CheckReport, study: Study, name: str, config: Any, stream: int, train: list[Document], lines: list[str]
) -> None:
    spec = study.generators[name]
    epochs = _epochs(config, stream)
    if epochs is not None:
        report.resolved[f"generators.{name}"] = (
            f"at most {epochs} epochs by its token budget over the {stream}-token "
            "stream, fewer by patience (a subword model counts more tokens)"
        )
    floor = getattr(config, "min_count", 1)  # a word-level model's <unk> threshold
    floor = floor if isinstance(floor, int) and not isinstance(floor, bool) else 1
    canaries = spec.canaries
    if canaries is not None:
        try:
            pool, threshold = numeric_pool(lines, canaries.pool_size, max(canaries.min_count, floor), floor)
        except InputError as e:
            report.problem(f"generators.{name}.{e.problem}", e.fix or "")
        else:
            if len(pool) < canaries.pool_size or threshold < canaries.min_count:
                report.resolved[f"generators.{name}.canaries"] = (
                    f"a pool of {len(pool)} numbers seen {threshold}+ times (asked: {canaries.pool_size} seen "
                    f"{canaries.min_count}+ times)"
                )
    for key, c in (("canaries", canaries), ("data_canaries", spec.data_canaries)):
        if c is None:
            continue
        budget = line_budget(c.repetitions, c.per_repetition, len(train), c.max_line_share)
        share = budget["lines"] / max(len(train), 1)
        if budget["capped"]:
            report.resolved[f"generators.{name}.{key}"] = (
                f"{budget['lines']} lines (repetitions {list(budget['repetitions'])}, {budget['per_repetition']} per "
                f"count) of the {budget['lines_asked']} asked: capped at {c.max_line_share:.0%} of the "
                f"{len(train)} training notes (max_line_share)"
            )
        elif share > WARN_LINE_SHARE:
            report.warnings.append(
                f"generators.{name}.{key} add {budget['lines']} lines to {len(train)} training notes "
                f"({share:.0%}): on a corpus this small they change what the model learns "
                f"(max_line_share: {WARN_LINE_SHARE}, per_repetition: 1, or null)"
            )


def render(report: CheckReport, out: Any) -> None:
    """Print the report on a rich console."""
    from rich.markup import escape
    from rich.table import Table

    facts = Table(title="corpus", show_header=False)
    for key, value in report.facts.items():
        facts.add_row(key, str(value))
    out.print(facts)
    labels = Table(title="labels after mapping")
    labels.add_column("label")
    labels.add_column("spans", justify="right")
    for label, n in report.labels.items():
        labels.add_row(label, str(n))
    out.print(labels)
    if report.resolved:
        resolved = Table(title="settings on this corpus (auto and budgets resolved)", show_header=False)
        for key, value in report.resolved.items():
            resolved.add_row(key, str(value))
        out.print(resolved)
    for w in report.warnings:
        out.print(f"[yellow]warning:[/yellow] {escape(w)}", highlight=False)
    for p in report.problems:
        out.print(f"[red]problem:[/red] {escape(p)}", highlight=False)
    if report.problems:
        out.print(f"[red]{len(report.problems)} problem(s): the study will not run as configured[/red]")
    else:
        out.print("[green]ready: `dvc repro` runs the study[/green]")


def untracked_params(params: Mapping[str, Any], dvc_yaml: str | Path = "dvc.yaml") -> dict[str, list[str]]:
    """The keys ``dvc.yaml``'s stages declare as params deps that ``params`` (the file's mapping)
    lacks, each with the stages declaring it: the study spec fills them with defaults, but DVC
    stops on a tracked key the file does not hold. Templated keys (``${...}``) are left out."""
    import yaml

    path = Path(dvc_yaml)
    if not path.is_file():
        return {}
    stages = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("stages") or {}
    missing: dict[str, list[str]] = {}
    for stage, spec in stages.items():
        for entry in (spec or {}).get("params") or []:
            for key in [entry] if isinstance(entry, str) else [k for keys in entry.values() for k in keys or []]:
                node: Any = params
                for part in key.split("."):
                    node = node.get(part, KeyError) if isinstance(node, Mapping) else KeyError
                if "${" not in key and node is KeyError:
                    missing.setdefault(key, []).append(stage)
    return missing


def check_file(path: str | Path) -> CheckReport:
    """``check`` of the params file ``path``: every mistake in it is an ``InputError`` naming the key
    and its fix (the study spec's, as every stage's), then the corpus and the resolved settings."""
    from synthdeid.params import load_params, require_settings
    from synthdeid.spec import build, load_study

    params = require_settings(load_params(path), path)
    study = load_study(path)
    missing = untracked_params(params)
    if missing:
        raise InputError(
            "; ".join(
                f"missing key {k}, which dvc.yaml's stage {', '.join(v)} tracks (`dvc repro` stops without it)"
                for k, v in missing.items()
            ),
            path=path,
            fix="add the key(s) to the params file (docs/params.md gives each default), or `synthdeid "
            "preset demo` to restore the defaults",
        )
    pack = build.language_pack(study)
    generators = {name: build.generator(study, name) for name in study.generators}
    taggers = {name: build.tagger(study, name=name) for name in study.taggers}
    leakage = None
    if "leakage" in study.privacy.metrics:
        leakage = study.privacy.metric_settings()["leakage"]  # the leakage metric's settings, as the spec built them
    report = check(study, pack, build.tagset(study, pack), generators, taggers, leakage)
    annotator_problem(report, study)
    return report


def annotator_problem(report: CheckReport, study: Study) -> None:
    """The annotator of ``annotate.annotator`` built as the annotate stage builds it (the study spec
    checks its settings without building it): a tagger annotator whose model folder holds no trained
    tagger, say, is a problem here, not when the stage starts."""
    from synthdeid.plugin_system.manager import registry

    name = study.annotate.annotator
    if name == "gold":
        return
    try:
        registry("annotator").create(name, study.annotate.settings)
    except SynthdeidError as e:
        report.problem(f"annotate.annotator: {name!r} cannot be built: {e}", "fix annotate.config as the message says")


def cmd_check(args: Any, out: Any) -> int:
    report = check_file(args.params)
    render(report, out)
    return 1 if report.problems else 0


def add_check_command(sub: Any) -> None:
    """``synthdeid check [--params FILE]``."""
    sc = sub.add_parser(
        "check",
        help="read the configured corpus and params before any training: size, labels, "
        "splits, what auto resolves to, and what will not work (exit 1)",
        **examples("synthdeid check", "synthdeid check --params my-study.yaml"),
    )
    sc.add_argument("--params", default="params.yaml")
    sc.set_defaults(run=cmd_check)
