"""What the study spec refers to: the plugins it names are installed and accept their configs,
every corpus a tagger or audit reads exists, a machine-annotated corpus is an untagged one, and
an annotator or rule baseline fits the corpus's language. Each finding is a ``Problem`` naming
the dotted key and the fix; ``load_study`` raises them together.

This module and the stages are where plugins are looked up; core modules get built objects."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from pydantic import BaseModel, ValidationError

from synthdeid.api import LanguageSpecific
from synthdeid.corpus.tags import tag_labels
from synthdeid.corpus_io import format_names
from synthdeid.errors import SynthdeidError, UnknownPluginError
from synthdeid.plugin_system.config import model_at
from synthdeid.plugin_system.manager import registry

from .problems import Problem, problem_of
from .study import Study

KIND_WORDS = {
    "annotator": "annotator",
    "generator": "generator",
    "decoder": "decoder",
    "tagger": "tagger",
    "privacy_metric": "privacy metric",
    "language": "language pack",
    "format": "corpus format",
}


def _unknown(key: str, name: Any, kind: str, names: list[str], also: str = "") -> Problem:
    """``name`` is no installed plugin of ``kind`` (``also``: a choice that is no plugin, listed first)."""
    close = difflib.get_close_matches(str(name), names, n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return Problem(
        key,
        f"{name!r} is not an installed {KIND_WORDS[kind]}{hint}; installed: {also}{', '.join(names)}",
        "use one of them (`synthdeid plugins` lists them), or install the plugin package that provides it",
    )


def config_classes(kind: str) -> dict[str, type[BaseModel]]:
    """The settings class of each built-in plugin of ``kind`` that has settings, by name (sorted):
    what the JSON Schema and docs/params.md describe (a third party's plugin has its own docs)."""
    return {e.name: e.config for e in registry(kind) if e.package == "synthdeid" and e.config is not None}


def _where(problems: list[Problem], where: str) -> Problem:
    """One problem of a plugin config: the single one, or all of them at the config's key."""
    if len(problems) == 1:
        return problems[0]
    return Problem(
        where, "; ".join(f"{p.key.removeprefix(where + '.')}: {p.message}" for p in problems), problems[0].fix
    )


def _validated(cls: type[BaseModel], config: dict[str, Any], where: str, what: str) -> tuple[Any, list[Problem]]:
    """``config`` built by its settings class, once, or the problems, each named by its dotted key."""
    try:
        return cls.model_validate(config, context={"what": what}), []
    except ValidationError as e:
        problems = []
        for err in e.errors():
            refusal = (err.get("ctx") or {}).get("error")
            setting, problem = getattr(refusal, "setting", None), getattr(refusal, "problem", None)
            if setting and problem:  # a refusal that names its setting and fix (e.g. deduce's cache_path)
                problems.append(Problem(f"{where}.{setting}", problem, getattr(refusal, "fix", None) or "change it"))
                continue
            holder = model_at(cls, err["loc"][:-1]) or cls
            key, message, fix = problem_of({**err, "loc": (*where.split("."), *err["loc"])}, holder)
            problems.append(Problem(key, message, fix))
        return None, problems


def _plugin(
    key: str, kind: str, name: str, config: dict[str, Any] | None, config_key: str | None
) -> tuple[Any, Problem | None]:
    """The settings of plugin ``name`` built from ``config`` (without calling its factory), or the
    problem (an unknown name, a bad config). A third party's plugin registered without ``config=``
    (deprecated) is built to check its config: the plugin object is returned then."""
    reg = registry(kind)
    if name not in reg:
        return None, _unknown(key, name, kind, reg.names())
    where = config_key or key
    entry = reg.entry(name)
    what = f"{KIND_WORDS[kind]} {name!r}"
    if entry.declared and entry.config is None:
        if config:
            return None, Problem(
                where,
                f"{what} takes no settings, got: {', '.join(map(str, config))}",
                "remove them (leave its config out)",
            )
        return None, None
    try:
        if entry.config is not None:
            settings, found = _validated(entry.config, dict(config or {}), where, what)
            return settings, _where(found, where) if found else None
        return reg.create(name, config or {}), None  # registered without config= (deprecated): built
    except UnknownPluginError:
        raise
    except (SynthdeidError, ValueError, TypeError) as e:
        setting, problem = getattr(e, "setting", None), getattr(e, "problem", None)
        if setting and problem:  # a refusal that names its setting (e.g. deduce's cache_path)
            return None, Problem(f"{where}.{setting}", problem, getattr(e, "fix", None) or "change the setting")
        return None, Problem(
            where,
            f"{KIND_WORDS[kind]} {name!r} does not accept this config: {e}",
            "fix the setting the message names (its plugin declares the valid ones)",
        )


def _kept(section: Any, settings: Any, kind: str, name: str) -> Any:
    """Keep ``settings`` on ``section`` when they are settings (not a plugin built to check them)."""
    if settings is not None and registry(kind).entry(name).config is not None:
        section.keep_settings(settings)
    return settings


def _known(
    key: str, names: Iterable[str], known: list[str], unknown: Callable[[str, str], str], fix: str
) -> Iterator[Problem]:
    """A problem for each of ``names`` (at ``key``.i) not among ``known``: ``unknown(name, hint)``
    says what is wrong, ``hint`` naming the closest known one."""
    for i, name in enumerate(names):
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            yield Problem(f"{key}.{i}", unknown(repr(name), f" (did you mean {close[0]}?)" if close else ""), fix)


def _corpora(key: str, names: Iterable[str], known: list[str], what: str) -> Iterator[Problem]:
    return _known(
        key,
        names,
        known,
        lambda name, hint: f"{name} is not a {what}{hint}; the study's are: {', '.join(known) or '(none)'}",
        "use one of them, or add it under corpora (or machine_annotated)",
    )


def _tags(key: str, labels: Iterable[str], tags: list[str]) -> Iterator[Problem]:
    return _known(
        key,
        labels,
        tags,
        lambda name, hint: (
            f"{name} is not a tag of the study{hint}: no span has it, so the setting would silently "
            f"do nothing for it; the tags are: {', '.join(tags)}"
        ),
        "use one of the tags (the canonical tags and those tags.mapping maps onto)",
    )


def _label_settings(study: Study) -> Iterator[Problem]:
    """Labels named by settings that act per label (head words, fresh surrogates) against the tag
    set; with ``tags.keep_unmapped`` any label may occur, so nothing is checked."""
    if study.tags.keep_unmapped:
        return
    tags = tag_labels(study.tags.mapping)
    if study.pseudonymize.head_words is not None:
        yield from _tags("pseudonymize.head_words.labels", study.pseudonymize.head_words.labels, tags)
    for name, c in study.corpora.items():
        fresh = c.fresh_surrogates
        if fresh is not None and fresh.labels is not None:
            yield from _tags(f"corpora.{name}.fresh_surrogates.labels", fresh.labels, tags)


def _fits_language(key: str, annotator: Any, language: str) -> Problem | None:
    if isinstance(annotator, LanguageSpecific) and language not in annotator.languages:
        return Problem(
            key,
            f"works on notes in {', '.join(annotator.languages)} only, not {language!r} (it would "
            "score about 0 without a word)",
            "use an annotator for this language, or null for none",
        )
    return None


def check(study: Study) -> list[Problem]:
    """Every problem of what ``study`` refers to (empty: every stage accepts it)."""
    problems: list[Problem] = []
    add = problems.append
    languages = registry("language")
    if study.language not in languages:
        add(_unknown("language", study.language, "language", languages.names()))
    if study.corpus.format != "auto" and study.corpus.format not in format_names():
        add(
            _unknown(
                "corpus.format", study.corpus.format, "format", format_names(), "auto (guessed from corpus.path), "
            )
        )
    if study.annotate.annotator != "gold":
        annotator, p = _plugin(
            "annotate.annotator", "annotator", study.annotate.annotator, study.annotate.config, "annotate.config"
        )
        _kept(study.annotate, annotator, "annotator", study.annotate.annotator)
        problems.extend(
            x for x in (p, annotator and _fits_language("annotate.annotator", annotator, study.language)) if x
        )
    built: dict[str, Any] = {}
    for name, gen in study.generators.items():
        built[name], p = _plugin(
            f"generators.{name}.plugin", "generator", gen.plugin, gen.config, f"generators.{name}.config"
        )
        _kept(gen, built[name], "generator", gen.plugin)
        if p:
            add(p)
    for name, c in study.corpora.items():
        if c.generator not in study.generators:
            add(
                Problem(
                    f"corpora.{name}.generator",
                    f"{c.generator!r} is not a key of generators ({', '.join(study.generators) or 'none'})",
                    "name one of them, or add it under generators",
                )
            )
        decoder, p = _plugin(f"corpora.{name}.decoder", "decoder", c.decoder, c.config, f"corpora.{name}.config")
        _kept(c, decoder, "decoder", c.decoder)
        if p:
            add(p)
    for name, m in study.machine_annotated.items():
        source = study.corpora.get(m.corpus)
        if source is None:
            add(
                Problem(
                    f"machine_annotated.{name}.corpus",
                    f"{m.corpus!r} is not a key of corpora",
                    "name an untagged corpus of corpora (its generator has tags: false)",
                )
            )
        elif source.generator in study.generators and study.generators[source.generator].tags:
            add(
                Problem(
                    f"machine_annotated.{name}.corpus",
                    f"{m.corpus!r} comes from generator "
                    f"{source.generator!r}, which learns PHI tags: its notes are annotated already",
                    f"set generators.{source.generator}.tags: false, or name an untagged corpus",
                )
            )
        settings = [
            "real",
            *(f"synthetic-{c}" for c in study.utility.synthetic),
            *(f"augmented-{c}" for c in study.utility.augmented),
        ]
        if m.tagger not in settings:
            add(
                Problem(
                    f"machine_annotated.{name}.tagger",
                    f"{m.tagger!r} is not a tagger the study trains ({', '.join(settings)})",
                    "use real (the tagger trained on the real gold notes)",
                )
            )
    for name, t in study.taggers.items():
        tagger, p = _plugin(f"taggers.{name}.plugin", "tagger", t.plugin, t.config, f"taggers.{name}.config")
        _kept(t, tagger, "tagger", t.plugin)
        if p:
            add(p)
    u = study.utility
    if u.tagger not in study.taggers:
        add(
            Problem(
                "utility.tagger",
                f"{u.tagger!r} is not a key of taggers ({', '.join(study.taggers) or 'none'})",
                "name one of them",
            )
        )
    known = study.synthetic_corpora()
    problems += _corpora("utility.synthetic", u.synthetic, known, "synthetic corpus")
    problems += _corpora("utility.augmented", u.augmented, known, "synthetic corpus")
    problems += _corpora("utility.learning_curve.corpora", u.learning_curve.corpora, known, "synthetic corpus")
    for i, name in enumerate(u.learning_curve.corpora):
        if name in known and name not in u.synthetic:
            add(
                Problem(
                    f"utility.learning_curve.corpora.{i}",
                    f"{name!r} is not in utility.synthetic: a curve extends its synthetic-only setting "
                    "(the whole corpus with utility.seed is that setting's tagger, not trained again)",
                    f"add {name} to utility.synthetic, or leave it out here",
                )
            )
    problems += _corpora("privacy.corpora", study.privacy.corpora, known, "synthetic corpus")
    if u.rule_baseline is not None:
        rule, p = _plugin("utility.rule_baseline", "annotator", u.rule_baseline, None, None)
        problems.extend(x for x in (p, rule and _fits_language("utility.rule_baseline", rule, study.language)) if x)
    for section in ("metrics", "model_metrics"):
        for metric, config in getattr(study.privacy, section).items():
            metric_settings, p = _plugin(f"privacy.{section}.{metric}", "privacy_metric", metric, config, None)
            if metric_settings is not None and registry("privacy_metric").entry(metric).config is not None:
                study.privacy.keep_settings(section, metric, metric_settings)
            if p:
                add(p)
    for threshold in study.privacy.gate.build().thresholds():
        if threshold.metric not in study.privacy.metrics:
            add(
                Problem(
                    f"privacy.gate.{threshold.key}",
                    f"needs the privacy metric {threshold.metric!r}, which privacy.metrics leaves out",
                    f"add `{threshold.metric}: {{}}` to privacy.metrics, or set it to null",
                )
            )
    problems += _label_settings(study)
    for name, c in study.corpora.items():
        fresh = c.fresh_surrogates
        generator = built.get(c.generator)  # the generator, or its declared settings
        dp = getattr(getattr(generator, "config", generator), "dp", None)  # DP-SGD settings, None: off
        if fresh is not None and fresh.shapes == "training" and dp is not None:
            add(
                Problem(
                    f"corpora.{name}.fresh_surrogates",
                    "shapes: training reads the real training notes outside "
                    f"the differential privacy of generator {c.generator!r}",
                    "use fresh_surrogates: true (surrogates in the generated shapes)",
                )
            )
    return problems
