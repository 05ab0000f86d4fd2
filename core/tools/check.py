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
from typing import Any

from synthdeid.corpus.accounting import Counts
from synthdeid.corpus.records import Document, label_counts
from synthdeid.corpus.split import check_ratios, prepare_splits
from synthdeid.errors import InputError, SynthdeidError
from synthdeid.generation.note_lengths import AUTO, MAX_QUANTILE, MIN_QUANTILE, check_length, quantile
from synthdeid.params import PARAMS_FILE, as_int, as_mapping, generation_params, get, get_int, get_mapping
from synthdeid.plugin_system.manager import registry
from synthdeid.privacy.canaries import CanaryConfig, numeric_pool
from synthdeid.privacy.data_canaries import DataCanaryConfig
from synthdeid.sources.loader import load_corpus, load_test_set

FEW_TEST_ENTITIES = 200
"""Below this many test entities, the 95% interval of an entity F1 near 0.8 is wider than +-0.055."""
FEW_DEV_DOCUMENTS = 20


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


def inline_length(doc: Document) -> int:
    """The note's whitespace tokens in the inline text: words, a START and END tag per span, <EOD>."""
    return len(doc.text.split()) + 2 * len(doc.spans) + 1


def f1_halfwidth(n: int, f1: float = 0.8) -> float:
    """The normal-approximation 95% half-width of a proportion ``f1`` over ``n`` entities."""
    return 1.96 * math.sqrt(f1 * (1 - f1) / max(n, 1))


def check(params: Mapping[str, Any]) -> CheckReport:
    """Check ``params`` (a loaded params.yaml) and its corpus; never trains anything."""
    report = CheckReport()
    errors: list[InputError] = []
    params = dict(params)
    strict = dict(params, corpus={**get_mapping(params, "corpus"), "on_invalid": "reject"})  # list, do not stop
    try:
        docs = load_corpus(strict, errors)
        test_docs = load_test_set(strict, errors)
    except SynthdeidError as e:
        if isinstance(e, InputError) and e.path == PARAMS_FILE:
            raise  # a wrong params value (named with its fix), not a finding about the corpus
        report.problem(f"the corpus cannot be read: {e}", "see the message; `synthdeid validate PATH` lists every record")
        return report
    for e in errors[:20]:
        report.problems.append(str(e))
    if len(errors) > 20:
        report.problems.append(f"... and {len(errors) - 20} more invalid records (`synthdeid validate` lists them)")
    if errors and get(params, "corpus.on_invalid") != "reject":
        report.warnings.append(f"{len(errors)} invalid record(s): with corpus.on_invalid: fail the corpus stage stops; "
                               "`reject` leaves them out, counted")
    _corpus_facts(report, docs, test_docs)
    ratios, seed = get(params, "prepare.split"), get_int(params, "prepare.seed")
    check_ratios(ratios)
    try:
        parts = prepare_splits(docs, test_docs, ratios, seed, Counts("check"))
    except SynthdeidError as e:
        report.problem(f"the split does not work: {e.problem if isinstance(e, InputError) else e}",
                       e.fix if isinstance(e, InputError) and e.fix else "change prepare.split")
        return report
    _split_facts(report, parts)
    if parts["train"]:
        _resolve(report, params, parts["train"])
        from synthdeid.privacy.audit.identifying import check_warnings  # labels dominating the raw PHI leakage
        report.warnings.extend(check_warnings(params, parts["train"]))
    return report


def _corpus_facts(report: CheckReport, docs: list[Document], test_docs: list[Document]) -> None:
    lengths = [len(d.text.split()) for d in docs] or [0]
    report.facts.update({
        "documents": len(docs), "whitespace tokens": sum(lengths),
        "tokens per note (10th / median / 99th percentile)":
            f"{quantile(lengths, 0.1)} / {quantile(lengths, 0.5)} / {quantile(lengths, 0.99)}",
        "PHI spans": sum(len(d.spans) for d in docs),
    })
    if test_docs:
        report.facts["separate test set (corpus.test_path)"] = f"{len(test_docs)} documents"
    report.labels = label_counts(docs + test_docs)
    if docs and not report.labels:
        report.problem("the corpus holds no PHI spans after mapping",
                       "annotate it (annotate.annotator, e.g. deduce for Dutch) or check corpus.format and tags.mapping")


def _split_facts(report: CheckReport, parts: dict[str, list[Document]]) -> None:
    for name in ("train", "dev", "test"):
        docs = parts[name]
        report.facts[f"{name} split"] = f"{len(docs)} documents, {sum(len(d.spans) for d in docs)} PHI spans"
    test_entities = sum(len(d.spans) for d in parts["test"])
    if not parts["test"]:
        report.problem("the test split is empty: utility cannot be measured",
                       "give prepare.split a test share (e.g. [0.8, 0.1, 0.1]) or set corpus.test_path")
    elif test_entities < FEW_TEST_ENTITIES:
        report.warnings.append(
            f"the test split holds {test_entities} PHI entities: an entity F1 near 0.8 has a 95% interval of about "
            f"+-{f1_halfwidth(test_entities):.2f}, so differences between settings smaller than that are noise "
            "(a larger test share or corpus.test_path narrows it)")
    if len(parts["dev"]) < FEW_DEV_DOCUMENTS:
        report.warnings.append(f"the dev split holds {len(parts['dev'])} documents: early stopping and prompts rest on "
                               "few notes (raise prepare.split's dev share)")
    rare = [label for label, n in report.labels.items() if n < 5]
    if rare:
        report.warnings.append(f"labels with fewer than 5 spans ({', '.join(rare)}): their per-tag F1 will be 0 or "
                               "noise; consider mapping them onto a related tag")


def _resolve(report: CheckReport, params: dict[str, Any], train: list[Document]) -> None:
    lengths = [inline_length(d) for d in train]
    stream = sum(lengths)
    words = sum(len(d.text.split()) for d in train)
    report.facts["training stream (LSTM tokens: words, tags, <EOD>)"] = stream
    language, packs = get(params, "language"), registry("language")
    if not isinstance(language, str) or language not in packs:
        raise InputError(f"language {language!r} is not an installed language pack", path=PARAMS_FILE,
                         fix=f"set `language` to one of {', '.join(packs.names())} (`synthdeid plugins` lists them), "
                         "or install the pack's package")
    pack = packs.create(language)
    lines = [" ".join(pack.tokens(d.text)) for d in train]  # as the inline stage tokenizes (tags aside)
    metrics = as_mapping(as_mapping(params.get("privacy"), "privacy").get("metrics"), "privacy.metrics")
    for metric, config in metrics.items():  # read after this (the leakage rule's warnings)
        as_mapping(config, f"privacy.metrics.{metric}")
    for name, spec in as_mapping(params.get("generators"), "generators").items():
        _resolve_generator(report, name, as_mapping(spec, f"generators.{name}"), stream, train, lines)
    for corpus in as_mapping(params.get("corpora"), "corpora"):
        g = generation_params(params, corpus)
        spec = get_mapping(params, f"corpora.{corpus}")

        def key(setting: str) -> str:  # where the corpus's value of ``setting`` comes from
            return f"corpora.{corpus}.{setting}" if setting in spec else f"generate.{setting}"

        lo = check_length(g.get("min_tokens"), key("min_tokens"))
        hi = check_length(g.get("max_tokens"), key("max_tokens"))
        lo = quantile(lengths, MIN_QUANTILE) if lo == AUTO else lo
        hi = quantile(lengths, MAX_QUANTILE) if hi == AUTO else hi
        target = as_int(g.get("target_tokens"), key("target_tokens"), minimum=1)
        ratio = f" ({target / words:.1f}x the real training notes)" if words else ""
        report.resolved[f"corpora.{corpus}"] = f"notes of {lo}-{hi} tokens, {target} tokens in all{ratio}"
        median = quantile(lengths, 0.5)
        if isinstance(lo, int) and g.get("min_tokens") != AUTO and lo > median:
            report.warnings.append(f"corpora.{corpus}: min_tokens {lo} is above the median training note ({median} "
                                   "tokens): every generated note is longer than most real ones (min_tokens: auto)")
    for name, spec in as_mapping(params.get("taggers"), "taggers").items():
        cfg = as_mapping(as_mapping(spec, f"taggers.{name}").get("config"), f"taggers.{name}.config")
        budget = as_int(cfg.get("max_train_tokens", 0), f"taggers.{name}.config.max_train_tokens", minimum=0)
        cap = as_int(cfg.get("max_epochs", 40), f"taggers.{name}.config.max_epochs", minimum=1)
        if budget and words:
            report.resolved[f"taggers.{name} (real)"] = (f"at most {min(cap, math.ceil(budget / words))} epochs "
                                                       f"(budget {budget} tokens over {words}), fewer by patience")


def _resolve_generator(report: CheckReport, name: str, spec: Mapping[str, Any], stream: int,
                       train: list[Document], lines: list[str]) -> None:
    cfg = as_mapping(spec.get("config"), f"generators.{name}.config")
    plugin = spec.get("plugin")

    def setting(key: str, default: int, minimum: int) -> int:
        return as_int(cfg.get(key, default), f"generators.{name}.config.{key}", minimum=minimum)

    if plugin == "lstm" and setting("max_train_tokens", 0, 0):
        epochs = min(setting("max_epochs", 6, 1), math.ceil(setting("max_train_tokens", 0, 0) / max(stream, 1)))
        report.resolved[f"generators.{name}"] = f"at most {epochs} epochs, fewer by patience"
    elif plugin == "gpt2" and setting("max_train_tokens", 0, 0):
        cap = setting("max_epochs", 3, 1) if "max_epochs" in cfg else setting("epochs", 3, 1)  # its former name
        epochs = min(cap, math.ceil(setting("max_train_tokens", 0, 0) / max(stream, 1)))
        report.resolved[f"generators.{name}"] = f"about {epochs} epochs (fewer: BPE counts more tokens)"
    floor = setting("min_count", 2, 1) if plugin == "lstm" else 1  # a word-level model's <unk> threshold
    canaries = spec.get("canaries")
    if canaries:
        config = CanaryConfig.from_params(canaries, f"generators.{name}.canaries")
        assert config is not None
        try:
            pool, threshold = numeric_pool(lines, config.pool_size, max(config.min_count, floor), floor)
        except InputError as e:
            report.problem(f"generators.{name}.{e.problem}", e.fix or "")
        else:
            if len(pool) < config.pool_size or threshold < config.min_count:
                report.resolved[f"generators.{name}.canaries"] = (
                    f"a pool of {len(pool)} numbers seen {threshold}+ times (asked: {config.pool_size} seen "
                    f"{config.min_count}+ times)")
    data_canaries = DataCanaryConfig.from_params(spec.get("data_canaries") or None,
                                                 f"generators.{name}.data_canaries")
    if data_canaries:
        per = as_int(data_canaries.per_repetition, f"generators.{name}.data_canaries.per_repetition", minimum=1)
        members = sum(data_canaries.repetitions) * per
        share = members / max(len(train), 1)
        if share > 0.1:
            report.warnings.append(f"generators.{name}.data_canaries add {members} lines to {len(train)} training notes "
                                   f"({share:.0%}): on a corpus this small they change what the model learns "
                                   "(per_repetition: 1, or null)")


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


def cmd_check(args: Any, out: Any) -> int:
    from synthdeid.params import load_params

    params = load_params(args.params)
    try:
        report = check(params)
    except InputError as e:
        if e.path != PARAMS_FILE or args.params == PARAMS_FILE:
            raise
        # a wrong value of the params file checked: name that file, not the default params.yaml
        fix = None if e.fix is None else e.fix.replace(PARAMS_FILE, str(args.params))
        raise InputError(e.problem, path=args.params, line=e.line, doc_id=e.doc_id, fix=fix) from None
    render(report, out)
    return 1 if report.problems else 0


def add_check_command(sub: Any) -> None:
    """``synthdeid check [--params FILE]``."""
    sc = sub.add_parser("check", help="read the configured corpus and params before any training: size, labels, "
                        "splits, what auto resolves to, and what will not work (exit 1)")
    sc.add_argument("--params", default="params.yaml")
    sc.set_defaults(run=cmd_check)
