"""Toy Dutch notes with Name and Date spans, shared by the tagger tests."""

from __future__ import annotations

import random

from synthdeid import Document, Span
from synthdeid.corpus.formats.conll import default_tokenize

NAMES = ["Jansen", "de Vries", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "Bos", "Vos"]
DATES = ["12 maart", "3 januari", "1 mei 2020", "24-12-2019", "8 juni", "15 augustus 2021"]
TITLES = ["Mw.", "Dhr.", "Mevrouw", "Meneer"]
FILL = (
    "de patiënt werd opgenomen met koorts en pijn zij kreeg paracetamol volgens afspraak "
    "controle over twee weken bij de huisarts goed geslapen vandaag rustig"
).split()


def toy_sentence(rng: random.Random) -> list[tuple[str, str | None]]:
    kind = rng.random()
    if kind < 0.4:
        return [
            (rng.choice(TITLES) + " ", None),
            (rng.choice(NAMES), "Name"),
            (" kwam op ", None),
            (rng.choice(DATES), "Date"),
            (".", None),
        ]
    if kind < 0.7:
        return [
            ("Op ", None),
            (rng.choice(DATES), "Date"),
            (" belde ", None),
            (rng.choice(NAMES), "Name"),
            (" over de medicatie.", None),
        ]
    return [(" ".join(rng.sample(FILL, rng.randint(4, 9))).capitalize() + ".", None)]


def toy_doc(doc_id: str, rng: random.Random, n_sentences: int, newlines: bool = True) -> Document:
    text, spans = "", []
    for k in range(n_sentences):
        if k:
            text += "\n" if newlines and rng.random() < 0.5 else " "
        for piece, label in toy_sentence(rng):
            if label:
                spans.append(Span(len(text), len(text) + len(piece), label))
            text += piece
    return Document.create(doc_id, text, spans)


def toy_docs(n: int, seed: int = 0) -> list[Document]:
    rng = random.Random(seed)
    return [toy_doc(f"d{seed}-{i}", rng, rng.randint(2, 5)) for i in range(n)]


def long_doc(min_words: int = 400, newlines: bool = False) -> Document:
    """A document of more than ``min_words`` words (one line unless ``newlines``)."""
    rng = random.Random(7)
    n = 10
    while True:
        doc = toy_doc("long", rng, n, newlines=newlines)
        if len(default_tokenize(doc.text)) >= min_words:
            return doc
        n += 10
