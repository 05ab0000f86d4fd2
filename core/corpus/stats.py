"""Corpus statistics as in the Libbi paper: Table 4 (size), Table 5 (tag well-formedness) and
Figure 5 (PHI distribution against the real corpus)."""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from synthdeid.corpus.inline import TAG_KINDS
from synthdeid.corpus.records import Document

if TYPE_CHECKING:
    from synthdeid.corpus.tokens import Tokenize


def size_stats(docs: Sequence[Document], tokenize: Tokenize, split_sentences: Tokenize) -> dict[str, Any]:
    """Documents, tokens, vocabulary, PHI instances, sentences and tokens per sentence (Table 4)."""
    vocab: set[str] = set()
    n_tokens = n_sentences = 0
    for d in docs:
        toks = [d.text[a:b] for a, b in tokenize(d.text)]
        vocab.update(toks)
        n_tokens += len(toks)
        n_sentences += len(split_sentences(d.text))
    return {
        "documents": len(docs),
        "tokens": n_tokens,
        "vocabulary": len(vocab),
        "phi_instances": sum(len(d.spans) for d in docs),
        "sentences": n_sentences,
        "tokens_per_sentence": round(n_tokens / n_sentences, 2) if n_sentences else 0.0,
        "tokens_per_document": round(n_tokens / len(docs), 2) if docs else 0.0,
    }


def tag_stats(counts: Iterable[Mapping[str, Mapping[str, int]]]) -> dict[str, Any]:
    """Well-formed and malformed tags per kind, summed over documents (Table 5)."""
    total: Counter[str] = Counter()
    per_label: dict[str, Counter[str]] = {}
    for doc_counts in counts:
        for label, kinds in doc_counts.items():
            per_label.setdefault(label, Counter()).update(kinds)
            total.update(kinds)
    n = sum(total.values())
    malformed = n - total["well_formed"]
    return {
        "tags": n,
        **{k: total[k] for k in TAG_KINDS},
        "malformed": malformed,
        "malformed_share": round(malformed / n, 4) if n else 0.0,
        "per_label": {label: dict(sorted(c.items())) for label, c in sorted(per_label.items())},
    }


def phi_distribution(
    real: Sequence[Document], synthetic: Sequence[Document], tags: Sequence[str]
) -> list[dict[str, Any]]:
    """Share of each tag among PHI in the real and the synthetic corpus, and the difference in
    percentage points (the paper's Figure 5), one row per tag."""
    rc = Counter(s.label for d in real for s in d.spans)
    sc = Counter(s.label for d in synthetic for s in d.spans)
    rn, sn = sum(rc.values()) or 1, sum(sc.values()) or 1
    labels = list(tags) + sorted((set(rc) | set(sc)) - set(tags))
    return [
        {
            "tag": t,
            "real_pct": round(100 * rc[t] / rn, 3),
            "synthetic_pct": round(100 * sc[t] / sn, 3),
            "difference_pct": round(100 * (sc[t] / sn - rc[t] / rn), 3),
        }
        for t in labels
    ]


def write_phi_distribution(
    real: Sequence[Document], synthetic: Sequence[Document], tags: Sequence[str], path: str | Path
) -> Path:
    """:func:`phi_distribution` as a CSV plot file (``tag,real_pct,synthetic_pct,difference_pct``)."""
    rows = phi_distribution(real, synthetic, tags)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return path
