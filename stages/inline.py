"""Stage ``inline``: the language-model text, one pseudonymized note per line with inline PHI tags,
``<PAR>`` for newlines and ``<EOD>`` at the end; plus the generation prompts, the first tokens of
the held-out (dev) notes, taken after pseudonymization so no real PHI can reach a prompt."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from synthdeid import paths
from synthdeid.corpus.accounting import Counts
from synthdeid.corpus.formats import read_jsonl
from synthdeid.corpus.inline import EOD, encode
from synthdeid.generation.lm_text import LM_SPLITS
from synthdeid.spec.packs import language_pack
from synthdeid.stages.common import stage_main, study

METRICS = paths.metrics("inline")


@stage_main
def main() -> None:
    s = study()
    pack = language_pack(s)
    tokenize = pack.tokenize if s.inline.tokenize else None
    n_prompt = s.inline.prompt_tokens
    counts = Counts("inline")
    Path(paths.PROMPTS).parent.mkdir(parents=True, exist_ok=True)
    for split in LM_SPLITS:
        docs = list(read_jsonl(paths.pseudonymized(split)))
        counts.took(len(docs))
        lines = [encode(d, tokenize) for d in docs]
        Path(paths.inline_text(split)).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        counts.kept(len(lines))
        tokens = [t for line in lines for t in line.split()]
        counts.extra[split] = {
            "tokens": len(tokens),
            "types": len(set(tokens)),
            "tags": dict(sorted(Counter(t for t in tokens if t.endswith("START>")).items())),
        }
        if split == "dev":
            with open(paths.PROMPTS, "w", encoding="utf-8", newline="\n") as f:
                for d, line in zip(docs, lines):
                    prompt = " ".join([t for t in line.split() if t != EOD][:n_prompt])
                    f.write(json.dumps({"id": d.id, "prompt": prompt}, ensure_ascii=False) + "\n")
    counts.extra["tokenized"] = tokenize is not None
    counts.write(METRICS)


if __name__ == "__main__":
    main()
