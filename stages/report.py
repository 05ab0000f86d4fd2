"""Stage ``report``: the study's report, ``data/reports/report.md``, with the equivalents of Libbi
et al. (2021) Tables 4-8, Figure 5 and the learning curve as PNG, the privacy summary with links
to the review pages, and a datasheet per synthetic corpus in ``data/reports/datasheets/``."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

from synthdeid.lm import uses_tags
from synthdeid.params import corpus_generator, generation_params, get, load_params
from synthdeid.report import (attacker_section, corpus_table, datasheet, fresh_table, generator_table, learning_curve_figure,
                              model_privacy_table, ngram_recall_table, package_versions, phi_distribution_figure, privacy_table, tag_table)
from synthdeid.stages.common import stage_main
from synthdeid.utility import setting_name

REPORTS = Path("data/reports")
REPORT = REPORTS / "report.md"
FIGURES = REPORTS / "figures"
DATASHEETS = REPORTS / "datasheets"
POSTPROCESS = "data/metrics/postprocess/{corpus}.json"
PRIVACY = "data/metrics/privacy/{corpus}.json"
TRAIN_LM = "data/metrics/train_lm/{name}.json"
AUDIT_LM = "data/metrics/privacy_model/{name}.json"
PHI_PLOT = "data/plots/phi_distribution/{corpus}.csv"
CURVE = "data/plots/learning_curve/{corpus}.csv"
UTILITY_MD = "data/reports/utility.md"
UTILITY = "data/metrics/utility_summary.json"
MACHINE = "data/metrics/machine_annotate/{corpus}.json"
GENERATED = "data/metrics/generate/{corpus}.json"  # the lengths generation used (auto resolved)


def read_json(path: str | Path) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def read_csv(path: str | Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def demote(markdown: str) -> str:
    """The Markdown with its title dropped and every heading one level deeper."""
    lines = markdown.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return "\n".join(re.sub(r"^(#+) ", r"#\1 ", line) for line in lines).strip() + "\n"


def recipe(params: dict[str, Any], corpus: str) -> dict[str, Any]:
    if corpus in (params.get("machine_annotated") or {}):
        spec = params["machine_annotated"][corpus]
        return {"kind": "machine-annotated (Vakili et al. 2025): raw generated notes tagged by a tagger trained "
                        "on the real gold notes", "from_corpus": spec["corpus"], "tagger": spec["tagger"]}
    spec = get(params, f"corpora.{corpus}")
    gen = get(params, f"generators.{spec['generator']}")
    g = generation_params(params, corpus)
    used = read_json(GENERATED.format(corpus=corpus)) if Path(GENERATED.format(corpus=corpus)).exists() else {}
    lengths = {k: used.get(k, g[k]) for k in ("min_tokens", "max_tokens")}  # auto: as generation resolved it
    kind = ("generated with inline PHI tags" if uses_tags(gen, spec['generator']) else
            "generated without PHI tags (raw notes for machine annotation: its spans are empty)")
    return {"kind": kind, "generator": spec["generator"], "generator_plugin": gen["plugin"],
            "generator_config": gen.get("config") or {}, "decoder": spec["decoder"],
            "decoder_config": spec.get("config") or {},
            "generation": {"seed": get(params, "generate.seed"), "target_tokens": int(g["target_tokens"]),
                           **{k: (f"{v} (auto)" if g[k] == "auto" else v) for k, v in lengths.items()},
                           "batch_size": int(g["batch_size"]), "tag_safe": bool(g["tag_safe"]),
                           "tag_distribution": g.get("tag_distribution", "real")}}


def source(params: dict[str, Any]) -> dict[str, Any]:
    corpus = get(params, "corpus")
    what = (f"the embedded demo corpus ({corpus['demo']['n_docs']} notes, seed {corpus['demo']['seed']})"
            if corpus.get("source") == "demo" else f"`{corpus.get('path')}` ({corpus.get('format')})")
    return {"corpus": what, "language": get(params, "language"), "split_seed": get(params, "prepare.seed"),
            "pseudonymize_seed": get(params, "pseudonymize.seed")}


def existing(template: str, names: Any) -> dict[str, dict[str, Any]]:
    """The metrics JSON ``template.format(name=...)`` of each name that has one."""
    return {n: read_json(template.format(name=n)) for n in names if Path(template.format(name=n)).exists()}


def untagged(params: dict[str, Any]) -> set[str]:
    """The corpora of generators trained without tags (no PHI to compare)."""
    return {c for c, spec in get(params, "corpora").items()
            if not uses_tags(get(params, f"generators.{spec['generator']}"), spec["generator"])}


def machine_sizes(metrics: dict[str, Any]) -> dict[str, Any]:
    """A machine-annotated corpus's metrics in the shape of the postprocess metrics (notes, spans)."""
    return {"synthetic": {"documents": metrics.get("documents_out"), "phi_instances": metrics.get("spans")},
            "documents_rejected": metrics.get("documents_rejected"),
            "rejected_reasons": metrics.get("rejected_reasons", {})}


@stage_main
def main() -> None:
    params = load_params()
    corpora = list(get(params, "corpora"))
    machine = list(params.get("machine_annotated") or {})
    audited = list(get(params, "privacy.corpora"))
    curves = list((get(params, "utility").get("learning_curve") or {}).get("corpora") or [])
    post = {c: read_json(POSTPROCESS.format(corpus=c)) for c in corpora}
    privacy = {c: read_json(PRIVACY.format(corpus=c)) for c in audited}
    utility = read_json(UTILITY)["settings"]
    lm_metrics = existing(TRAIN_LM, get(params, "generators"))
    audits = existing(AUDIT_LM, get(params, "generators"))
    FIGURES.mkdir(parents=True, exist_ok=True)
    raw = untagged(params)
    phi_distribution_figure({c: read_csv(PHI_PLOT.format(corpus=c)) for c in corpora + machine if c not in raw},
                            FIGURES / "phi_distribution.png")
    parts = [
        "# synthdeid study report\n\n",
        f"Real corpus: {source(params)['corpus']}, language `{get(params, 'language')}`. Every figure below comes "
        "from `dvc repro` with the committed `params.yaml`; `dvc metrics show` lists the same numbers.\n\n",
        "## Synthetic corpora (Table 4)\n\n", corpus_table(post),
        "\n## PHI tag quality (Table 5)\n\nTags the generators wrote that the parser had to remove; their words "
        "stay in the note, unannotated.\n\n", tag_table(post),
        "\n## PHI distribution (Figure 5)\n\n![PHI distribution](figures/phi_distribution.png)\n\n",
        "## Utility (Tables 6 and 7)\n\n", demote(Path(UTILITY_MD).read_text(encoding="utf-8")),
    ]
    if curves:
        learning_curve_figure({c: read_csv(CURVE.format(corpus=c)) for c in curves}, FIGURES / "learning_curve.png")
        parts.append("\n## Learning curve (Appendix E)\n\n![learning curve](figures/learning_curve.png)\n")
    parts += ["\n## Privacy (Table 8)\n\nROUGE-N recall of each synthetic note against its best-matching real "
              "training note; the high-risk pairs are those shown to reviewers.\n\n", privacy_table(privacy),
              "\n### Corpus n-gram recall\n\n", ngram_recall_table(privacy),
              "\n### Privacy by construction\n\nDifferentially private training (epsilon at delta per training "
              "note) and the name probe: the share of the generator's top-k span texts at held-out PHI tags that "
              "are PHI strings of its training notes.\n\n", generator_table(lm_metrics, audits),
              "\nFresh surrogates after generation, before -> after (after: the language pack's chance "
              "level).\n\n", fresh_table(post),
              "\n### Memorization by the generators\n\nCanary exposure: fake-PHI canaries inserted 1, 5 or 20 "
              "times into the training text; exposure near log2 |R| means the model singles the canary out of "
              "all possible ones. Membership inference: how well a note's loss tells training notes from "
              "held-out ones.\n\n", model_privacy_table(audits),
              "\n### Review pages\n\n",
              "".join(f"- [{c}](review/{c}.html): {privacy[c].get('high_risk_pairs', {}).get('pairs', 0)} pairs\n" for c in audited),
              attacker_section(privacy, audits, {c: corpus_generator(params, c) for c in audited},
                               {n: bool((g.get("config") or {}).get("dp")) for n, g in get(params, "generators").items()}),
              "\n## Datasheets\n\n", "".join(f"- [{c}](datasheets/{c}.md)\n" for c in corpora + machine)]
    REPORT.write_text("".join(parts), encoding="utf-8")
    versions = package_versions()
    for c in corpora + machine:
        lm = lm_metrics.get(get(params, f"corpora.{c}.generator")) if c in corpora else None
        sheet = datasheet(c, recipe=recipe(params, c), source=source(params), lm=lm,
                          postprocess=post[c] if c in corpora else machine_sizes(read_json(MACHINE.format(corpus=c))),
                          privacy=privacy.get(c), utility=utility.get(setting_name("synthetic", c)), versions=versions)
        (DATASHEETS / f"{c}.md").parent.mkdir(parents=True, exist_ok=True)
        (DATASHEETS / f"{c}.md").write_text(sheet, encoding="utf-8")
    print(f"report: {REPORT} ({len(corpora)} corpora, {len(audited)} audited)")


if __name__ == "__main__":
    main()
