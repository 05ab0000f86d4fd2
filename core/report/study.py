"""The study report's text: ``report.md`` assembled from the stages' metrics (the equivalents of
Libbi et al. (2021) Tables 4-8, Figure 5, the learning curve, the privacy summary with links to
the review pages) and each synthetic corpus's datasheet inputs (recipe, source), from the study
spec (``synthdeid.spec.Study``, here ``spec``). ``load_study`` reads the metrics files; the
``report`` stage draws the figures and writes the files."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from synthdeid.corpus.accounting import read_json
from synthdeid.evaluation.utility import setting_name

from .. import paths
from .attacker import attacker_section
from .construction import fresh_table, generator_table
from .datasheet import datasheet
from .tables import (
    corpus_table,
    model_privacy_table,
    ngram_recall_table,
    privacy_table,
    rare_word_table,
    realism_table,
    tag_table,
)

if TYPE_CHECKING:
    from synthdeid.spec import Study as StudySpec

Metrics = dict[str, dict[str, Any]]


def read_csv(path: str | Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def existing(template: Any, names: Any) -> Metrics:
    """The metrics JSON ``template(name)`` of each name that has one."""
    return {n: read_json(template(n)) for n in names if Path(template(n)).exists()}


@dataclass
class Study:
    """What the report shows, read from the stages' metrics."""

    corpora: list[str]
    machine: list[str]
    audited: list[str]
    curves: list[str]
    post: Metrics
    privacy: Metrics
    utility: Metrics
    lm_metrics: Metrics
    audits: Metrics


def load_study(spec: StudySpec) -> Study:
    """The corpora, audited corpora and learning curves of the study ``spec`` with their metrics."""
    corpora = list(spec.corpora)
    audited = list(spec.privacy.corpora)
    return Study(
        corpora=corpora,
        machine=list(spec.machine_annotated),
        audited=audited,
        curves=list(spec.utility.learning_curve.corpora),
        post={c: read_json(paths.stage_metrics("postprocess", c)) for c in corpora},
        privacy={c: read_json(paths.stage_metrics("privacy", c)) for c in audited},
        utility=read_json(paths.UTILITY_SUMMARY)["settings"],
        lm_metrics=existing(lambda n: paths.stage_metrics("train_lm", n), spec.generators),
        audits=existing(lambda n: paths.stage_metrics("privacy_model", n), spec.generators),
    )


def demote(markdown: str) -> str:
    """The Markdown with its title dropped and every heading one level deeper."""
    lines = markdown.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return "\n".join(re.sub(r"^(#+) ", r"#\1 ", line) for line in lines).strip() + "\n"


def recipe(spec: StudySpec, corpus: str) -> dict[str, Any]:
    """How a synthetic corpus was made, for its datasheet."""
    if corpus in spec.machine_annotated:
        machine = spec.machine_annotated[corpus]
        return {
            "kind": "machine-annotated (Vakili et al. 2025): raw generated notes tagged by a tagger trained "
            "on the real gold notes",
            "from_corpus": machine.corpus,
            "tagger": machine.tagger,
        }
    made = spec.corpora[corpus]
    gen = spec.generators[made.generator]
    g = spec.generation(corpus)
    generated = paths.stage_metrics("generate", corpus)  # the lengths generation used (auto resolved)
    used = read_json(generated) if Path(generated).exists() else {}
    lengths = {k: used.get(k, getattr(g, k)) for k in ("min_tokens", "max_tokens")}  # auto: as generation resolved it
    kind = (
        "generated with inline PHI tags"
        if gen.tags
        else "generated without PHI tags (raw notes for machine annotation: its spans are empty)"
    )
    return {
        "kind": kind,
        "generator": made.generator,
        "generator_plugin": gen.plugin,
        "generator_config": gen.config,
        "decoder": made.decoder,
        "decoder_config": made.config,
        "generation": {
            "seed": spec.generate.seed,
            "target_tokens": g.target_tokens,
            **{k: (f"{v} (auto)" if getattr(g, k) == "auto" else v) for k, v in lengths.items()},
            "batch_size": g.batch_size,
            "tag_safe": g.tag_safe,
            "tag_distribution": g.tag_distribution,
        },
    }


def source(spec: StudySpec) -> dict[str, Any]:
    """The real corpus and the seeds, for the report and the datasheets."""
    corpus = spec.corpus
    what = (
        f"the embedded demo corpus ({corpus.demo.n_docs} notes, seed {corpus.demo.seed})"
        if corpus.source == "demo"
        else f"`{corpus.path}` ({corpus.format})"
    )
    return {
        "corpus": what,
        "language": spec.language,
        "split_seed": spec.prepare.seed,
        "pseudonymize_seed": spec.pseudonymize.seed,
    }


def untagged(spec: StudySpec) -> set[str]:
    """The corpora of generators trained without tags (no PHI to compare)."""
    return {c for c, made in spec.corpora.items() if not spec.generators[made.generator].tags}


def machine_sizes(metrics: dict[str, Any]) -> dict[str, Any]:
    """A machine-annotated corpus's metrics in the shape of the postprocess metrics (notes, spans)."""
    return {
        "synthetic": {"documents": metrics.get("documents_out"), "phi_instances": metrics.get("spans")},
        "documents_rejected": metrics.get("documents_rejected"),
        "rejected_reasons": metrics.get("rejected_reasons", {}),
    }


def report_markdown(spec: StudySpec, study: Study, utility_md: str) -> str:
    """``report.md``: its figures are ``figures/phi_distribution.png`` and, with learning curves,
    ``figures/learning_curve.png``; ``utility_md`` is the utility stage's page."""
    privacy, audits = study.privacy, study.audits
    parts = [
        "# synthdeid study report\n\n",
        f"Real corpus: {source(spec)['corpus']}, language `{spec.language}`. Every figure below comes "
        "from `dvc repro` with the committed `params.yaml`; `dvc metrics show` lists the same numbers.\n\n",
        "## Synthetic corpora (Table 4)\n\n",
        corpus_table(study.post),
        "\n## Rare words that are PHI\n\nOf the word occurrences seen at most k times in a corpus, the share "
        "inside a PHI span (k scaled by the corpus's size: a singleton of the real notes is as rare as a word "
        "seen twice in a corpus twice their size). A tagger learns what an unseen word is from these; a "
        "corpus far above the real notes teaches it that an unseen word is PHI (docs/utility.md).\n\n",
        rare_word_table(study.post),
        "\n## Surrogate realism\n\nPer label, how well a character 1-4-gram classifier tells the surrogates "
        "from the real PHI of the training notes (5-fold ROC AUC over distinct strings; 0.5: it cannot), and in "
        "brackets the share of surrogates equal to a real PHI string of the label (copies reach 0.5 too, by "
        "leaking). The pseudonymized notes are what the language models learn from; each corpus column holds "
        "its fresh surrogates (docs/privacy.md).\n\n",
        realism_table(privacy),
        "\n## PHI tag quality (Table 5)\n\nTags the generators wrote that the parser had to remove; their words "
        "stay in the note, unannotated.\n\n",
        tag_table(study.post),
        "\n## PHI distribution (Figure 5)\n\n![PHI distribution](figures/phi_distribution.png)\n\n",
        "## Utility (Tables 6 and 7)\n\n",
        demote(utility_md),
    ]
    if study.curves:
        parts.append("\n## Learning curve (Appendix E)\n\n![learning curve](figures/learning_curve.png)\n")
    parts += [
        "\n## Privacy (Table 8)\n\nROUGE-N recall of each synthetic note against its best-matching real "
        "training note; the high-risk pairs are those shown to reviewers.\n\n",
        privacy_table(privacy),
        "\n### Corpus n-gram recall\n\n",
        ngram_recall_table(privacy),
        "\n### Privacy by construction\n\nDifferentially private training (epsilon at delta per training "
        "note) and the name probe: the share of the generator's top-k span texts at held-out PHI tags that "
        "are PHI strings of its training notes.\n\n",
        generator_table(study.lm_metrics, audits),
        "\nFresh surrogates after generation, before -> after (after: the language pack's chance level).\n\n",
        fresh_table(study.post),
        "\n### Memorization by the generators\n\nCanary exposure: fake-PHI canaries inserted 1, 5 or 20 "
        "times into the training text; exposure near log2 |R| means the model singles the canary out of "
        "all possible ones. Membership inference: how well a note's loss tells training notes from "
        "held-out ones.\n\n",
        model_privacy_table(audits),
        "\n### Review pages\n\n",
        "".join(
            f"- [{c}](review/{c}.html): {privacy[c].get('high_risk_pairs', {}).get('pairs', 0)} pairs\n"
            for c in study.audited
        ),
        attacker_section(
            privacy,
            audits,
            {c: spec.corpus_generator(c) for c in study.audited},
            {n: bool(g.config.get("dp")) for n, g in spec.generators.items()},
        ),
        "\n## Datasheets\n\n",
        "".join(f"- [{c}](datasheets/{c}.md)\n" for c in study.corpora + study.machine),
    ]
    return "".join(parts)


def corpus_datasheet(spec: StudySpec, study: Study, corpus: str, versions: dict[str, str]) -> str:
    """The datasheet of one synthetic corpus (generated or machine-annotated)."""
    generated = corpus in study.corpora
    lm = study.lm_metrics.get(spec.corpora[corpus].generator) if generated else None
    post = (
        study.post[corpus] if generated else machine_sizes(read_json(paths.stage_metrics("machine_annotate", corpus)))
    )
    return datasheet(
        corpus,
        recipe=recipe(spec, corpus),
        source=source(spec),
        lm=lm,
        postprocess=post,
        privacy=study.privacy.get(corpus),
        utility=study.utility.get(setting_name("synthetic", corpus)),
        versions=versions,
    )
