"""Export a corpus the study wrote to the tools people train with: a Hugging Face ``datasets``
DatasetDict saved to disk (with a dataset card), a spaCy ``DocBin``, or CoNLL, BRAT, JSONL.

``datasets`` and ``spacy`` are optional (``pip install synthdeid[export]``): they are imported
only here, when an export to them is asked for."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from synthdeid import paths
from synthdeid.corpus.formats.conll import to_bio
from synthdeid.corpus.formats.outpaths import check_folder_name, make_private
from synthdeid.corpus.formats.textfile import atomic_folder, atomic_write_bytes, write_new
from synthdeid.corpus.records import Document, label_counts
from synthdeid.corpus_io import write_documents
from synthdeid.errors import InputError

if TYPE_CHECKING:
    from spacy.tokens import Span as SpacySpan

    from synthdeid.corpus.tokens import Tokenize

TARGETS = ("hf", "spacy", "conll", "brat", "jsonl")


def _need(module: str) -> Any:
    try:
        return __import__(module)
    except ImportError:
        raise InputError(f"exporting needs the {module!r} package", fix="pip install 'synthdeid[export]'") from None


def bio_labels(docs: Sequence[Document]) -> list[str]:
    """``O`` then ``B-``/``I-`` of every label of ``docs``, sorted: the ClassLabel names."""
    labels = sorted({s.label for d in docs for s in d.spans})
    return ["O"] + [f"{p}-{label}" for label in labels for p in ("B", "I")]


def hf_rows(docs: Sequence[Document], tokenize: Tokenize) -> dict[str, list[Any]]:
    """Columns ``id``, ``text``, ``tokens``, ``ner_tags`` (BIO strings) and ``spans``; tokens are the
    pack's, split at span edges (as the CoNLL export)."""
    rows: dict[str, list[Any]] = {"id": [], "text": [], "tokens": [], "ner_tags": [], "spans": []}
    for doc in docs:
        pairs = [pair for sentence in to_bio(doc, tokenize) for pair in sentence]
        rows["id"].append(doc.id)
        rows["text"].append(doc.text)
        rows["tokens"].append([t for t, _ in pairs])
        rows["ner_tags"].append([tag for _, tag in pairs])
        rows["spans"].append([s.to_dict() for s in doc.spans])
    return rows


def export_hf(docs: Sequence[Document], output: Path, tokenize: Tokenize, card: str, split: str = "train") -> None:
    """A DatasetDict with one split, saved with ``save_to_disk``, and ``card`` as its README.md."""
    datasets = _need("datasets")
    from synthdeid.progress import interactive

    if not interactive():
        datasets.disable_progress_bars()
    names = bio_labels(docs)
    features = datasets.Features(
        {
            "id": datasets.Value("string"),
            "text": datasets.Value("string"),
            "tokens": datasets.Sequence(datasets.Value("string")),
            "ner_tags": datasets.Sequence(datasets.ClassLabel(names=names)),
            "spans": [
                {"start": datasets.Value("int32"), "end": datasets.Value("int32"), "label": datasets.Value("string")}
            ],
        }
    )
    rows = hf_rows(docs, tokenize)
    index = {name: i for i, name in enumerate(names)}
    rows["ner_tags"] = [[index[t] for t in tags] for tags in rows["ner_tags"]]
    dataset = datasets.DatasetDict({split: datasets.Dataset.from_dict(rows, features=features)})
    with atomic_folder(output) as tmp:  # 0o700: what datasets writes in it is no one else's to read
        dataset.save_to_disk(str(tmp))
        write_new(tmp / "README.md", card)
        make_private(tmp)


def spacy_words(doc: Document) -> tuple[list[str], list[bool]]:
    """spaCy ``words`` and ``spaces`` that rebuild the text exactly, with a token edge at every
    span edge (so each span is a whole number of tokens)."""
    cuts = sorted({0, len(doc.text)} | {x for s in doc.spans for x in (s.start, s.end)})
    words: list[str] = []
    spaces: list[bool] = []
    for a, b in pairwise(cuts):
        for m in re.finditer(r"\S+|\s+", doc.text[a:b]):
            piece = m.group()
            if piece == " " and words and not spaces[-1] and not words[-1].isspace() and m.start() > 0:
                spaces[-1] = True  # one space after a word, inside the same piece: spaCy's whitespace flag
            else:
                words.append(piece)
                spaces.append(False)
    return words, spaces


def spacy_docs(docs: Sequence[Document], language: str) -> list[Any]:
    """spaCy Docs of ``docs`` with the spans as entities (``doc.ents``), ids in ``user_data``."""
    spacy = _need("spacy")
    from spacy.tokens import Doc

    try:
        nlp = spacy.blank(language)
    except Exception:  # noqa: BLE001 - spaCy has no language class for this code: a multi-language vocabulary
        nlp = spacy.blank("xx")
    out = []
    for doc in docs:
        words, spaces = spacy_words(doc)
        sdoc = Doc(nlp.vocab, words=words, spaces=spaces)
        if sdoc.text != doc.text:
            raise InputError(
                "spaCy would change the note's text",
                doc_id=doc.id,
                fix="this is a bug in synthdeid's spaCy export; report it with the note",
            )
        # spacy_words puts a token edge at every span edge: no strict char_span is None
        sdoc.ents = cast(
            "list[SpacySpan]",
            [sdoc.char_span(s.start, s.end, label=s.label, alignment_mode="strict") for s in doc.spans],
        )
        sdoc.user_data["id"] = doc.id
        out.append(sdoc)
    return out


def export_spacy(docs: Sequence[Document], output: Path, language: str) -> None:
    _need("spacy")
    from spacy.tokens import DocBin

    data = DocBin(store_user_data=True, docs=spacy_docs(docs, language)).to_bytes()
    with atomic_write_bytes(output) as f:
        f.write(data)


def size_category(n: int) -> str:
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return name
    return "n>1M"


def dataset_card(name: str, docs: Sequence[Document], language: str, datasheet: str | None) -> str:
    """A Hugging Face dataset card: YAML metadata (the license is left to the user) and the
    corpus's datasheet (generator, decoder, privacy figures, gate verdict) when the study wrote one."""
    counts = label_counts(docs)
    body = datasheet or (
        f"# {name}\n\nNo datasheet: this corpus was not written by a synthdeid generate stage, so "
        "there is no generator, decoder or privacy audit to report. Check with your data "
        "protection officer before sharing.\n"
    )
    import yaml

    header = {  # dumped, not formatted: a name such as "notes: v2" or "[x]" stays a string
        "language": [language],
        "license": None,
        "task_categories": ["token-classification"],
        "task_ids": ["named-entity-recognition"],
        "size_categories": [size_category(len(docs))],
        "pretty_name": f"synthdeid {name}",
        "tags": ["synthetic", "clinical", "de-identification", "synthdeid"],
    }
    dumped = yaml.safe_dump(header, sort_keys=False, allow_unicode=True, width=10_000).rstrip("\n")
    dumped = dumped.replace(
        "\nlicense: null\n",
        "\nlicense: null  # choose one: the corpus is derived from your notes; check your data agreements\n",
    )
    meta = "---\n" + dumped + "\n---"
    summary = (
        f"\n## Contents\n\n{len(docs)} notes, {sum(counts.values())} PHI spans "
        f"({', '.join(f'{k} {v}' for k, v in counts.items()) or 'none'}); columns `id`, `text`, `tokens`, "
        "`ner_tags` (BIO, a ClassLabel), `spans` (character offsets into `text`).\n"
    )
    return meta + "\n\n" + body.rstrip() + "\n" + summary


def export_corpus(
    docs: Sequence[Document],
    output: str | Path,
    to: str,
    *,
    name: str,
    language: str,
    tokenize: Tokenize,
    datasheet: str | None = None,
) -> int:
    """Write ``docs`` as ``to`` into ``output`` (which must not exist yet); returns the count."""
    if to not in TARGETS:
        raise InputError(f"unknown export target {to!r}", fix="use one of " + ", ".join(TARGETS))
    out = Path(output)
    if to in {"hf", "spacy"} and out.exists():
        raise InputError("already exists", path=out, fix="export to a new path")
    if to in {"hf", "brat"}:  # folders
        check_folder_name(out, {"hf": "a Hugging Face dataset", "brat": "BRAT"}[to])
    if not docs:
        raise InputError("the corpus holds no documents", fix="export a corpus the study wrote")
    if to == "hf":
        export_hf(docs, out, tokenize, dataset_card(name, docs, language, datasheet))
    elif to == "spacy":
        export_spacy(docs, out, language)
    else:
        write_documents(docs, out, to)
    return len(docs)


def resolve_corpus(corpus: str) -> tuple[Path, str, str | None]:
    """(path, name, datasheet text) of a corpus named as the study names it (``lstm_p``, ``lstm_m``,
    ``pseudonymized``: the pseudonymized real training notes) or given by its path."""
    if corpus == "pseudonymized":
        path, name = Path(paths.pseudonymized("train")), corpus
    elif Path(paths.synthetic_corpus(corpus)).exists():
        path, name = Path(paths.synthetic_corpus(corpus)), corpus
    elif Path(corpus).exists():
        path = Path(corpus)
        name = path.parent.name if path.name == "documents.jsonl" else path.stem
    else:
        known = sorted(p.parent.name for p in Path().glob(paths.synthetic_corpus("*")))
        raise InputError(
            f"no corpus {corpus!r}",
            fix="name a corpus the study wrote ("
            + ", ".join(known + ["pseudonymized"])
            + ") or the path of a corpus file or folder",
        )
    sheet = Path(paths.datasheet(name))
    datasheet = (
        sheet.read_text(encoding="utf-8") if path == Path(paths.synthetic_corpus(name)) and sheet.exists() else None
    )
    return path, name, datasheet
