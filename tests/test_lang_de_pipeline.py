"""The third-party German pack (examples/synthdeid-lang-de, installed as its own package) through the
pipeline's first stages: German notes with inline PHI tags (the corpus) and standoff PHI (a
separate test set) go corpus -> prepare -> annotate -> pseudonymize -> inline with ``language: de``."""

from __future__ import annotations

import json
import re
from importlib import metadata
from pathlib import Path

import pytest
from stage_runner import FIRST_STAGES, repo_params, run_stages, stage_metrics

from synthdeid import Document, Span
from synthdeid.corpus.formats import read_jsonl, write_inline, write_jsonl


def _installed() -> bool:
    try:
        metadata.distribution("synthdeid-lang-de")
    except metadata.PackageNotFoundError:
        return False
    return True


pytestmark = pytest.mark.skipif(
    not _installed(),
    reason="synthdeid-lang-de is not installed (pip install -e examples/synthdeid-lang-de --no-deps; `make test` does it)",
)

NOTES = [
    (
        "Herr Hans Müller (83 Jahre) wurde am 12. März 2019 um 14.30 Uhr in der ZNA aufgenommen. "
        "Z.n. Sturz, z.B. Prellung. Tel. 0171 1234567.",
        [
            ("Hans Müller", "Name"),
            ("83 Jahre", "Age"),
            ("12. März 2019", "Date"),
            ("ZNA", "Internal_Location"),
            ("0171 1234567", "Phone_fax"),
        ],
    ),
    (
        "Frau Dr. Anna Schmidt, Klinikum Augsburg, bittet um Rückruf. E-Mail: a.schmidt@klinikum-augsburg.de.",
        [("Anna Schmidt", "Name"), ("Klinikum Augsburg", "Hospital"), ("a.schmidt@klinikum-augsburg.de", "Email")],
    ),
    (
        "Pat. wohnt Hauptstraße 12a, 10115 Berlin. Steuer-ID 86 095 742 719. Beruf: Bäcker.",
        [("Hauptstraße 12a, 10115 Berlin", "Address"), ("86 095 742 719", "SSN"), ("Bäcker", "Profession")],
    ),
    (
        "Verlegung am 03.04.2019 in das Pflegeheim Sonnenhof (Station 4B). Angehörige: Tochter Maria Weber.",
        [
            ("03.04.2019", "Date"),
            ("Pflegeheim Sonnenhof", "Care_Institute"),
            ("Station 4B", "Internal_Location"),
            ("Tochter", "Other"),
            ("Maria Weber", "Name"),
        ],
    ),
    (
        "Arbeitgeber Siemens AG, Fallnummer KH-12345. Befunde unter www.klinikum-augsburg.de abrufbar.",
        [("Siemens AG", "Organization_Company"), ("KH-12345", "ID"), ("www.klinikum-augsburg.de", "URL_IP")],
    ),
    (
        "Hr. Müller ist heute ruhig. Visite durch Dr. Schmidt am 13.03.2019. Keine Schmerzen.",
        [("Müller", "Name"), ("Schmidt", "Name"), ("13.03.2019", "Date")],
    ),
    (
        "Die 79-jährige Patientin Erika Becker kam aus Hamburg. Hausarzt: Dr. med. Peter Wolf.",
        [("79-jährige", "Age"), ("Erika Becker", "Name"), ("Hamburg", "Address"), ("Peter Wolf", "Name")],
    ),
    (
        "Kontrolle am 2. Mai 2019. Rückfragen an 089 12345678 oder E.B. selbst.",
        [("2. Mai 2019", "Date"), ("089 12345678", "Phone_fax"), ("E.B.", "Initials")],
    ),
    (
        "Entlassung nach Hause, Lindenweg 3, 86150 Augsburg. Weiterbehandlung durch den Pflegedienst Am Park.",
        [("Lindenweg 3, 86150 Augsburg", "Address"), ("Pflegedienst Am Park", "Care_Institute")],
    ),
    (
        "Sohn Thomas Becker (Tel. +49 821 1234567) informiert. Patient männlich, 79 Jahre.",
        [
            ("Sohn", "Other"),
            ("Thomas Becker", "Name"),
            ("+49 821 1234567", "Phone_fax"),
            ("männlich", "Other"),
            ("79 Jahre", "Age"),
        ],
    ),
]
TEST_NOTES = [
    (
        "Frau Greta Kuhn, geb. 01.02.1940, Sophienstraße 5, 80333 München.",
        [("Greta Kuhn", "Name"), ("01.02.1940", "Date"), ("Sophienstraße 5, 80333 München", "Address")],
    ),
    (
        "Aufnahme im Krankenhaus Rosenheim am 5. Juni 2019.",
        [("Krankenhaus Rosenheim", "Hospital"), ("5. Juni 2019", "Date")],
    ),
]


def _doc(doc_id: str, text: str, phi: list[tuple[str, str]]) -> Document:
    spans, pos = [], 0
    for surface, label in phi:
        start = text.index(surface, pos)
        spans.append(Span(start, start + len(surface), label))
        pos = start + len(surface)
    return Document.create(doc_id, text, sorted(spans, key=lambda s: s.start))


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = tmp_path_factory.mktemp("de")
    (ws / "raw").mkdir()
    write_inline([_doc(f"de-{i}", t, p) for i, (t, p) in enumerate(NOTES)], ws / "raw" / "notes.inline")
    write_jsonl([_doc(f"de-test-{i}", t, p) for i, (t, p) in enumerate(TEST_NOTES)], ws / "raw" / "test.jsonl")
    params = repo_params()
    params["corpus"].update(source="files", path="raw/notes.inline", format="auto", test_path="raw/test.jsonl")
    params["language"] = "de"
    params["tags"]["mapping"] = {}
    params["prepare"]["split"] = [0.8, 0.2, 0.0]
    params["prepare"]["min_dev_notes"] = 0  # 10 notes: the 2 dev notes the split gives
    params["annotate"]["annotator"] = "gold"
    params["utility"]["rule_baseline"] = None  # deduce reads Dutch notes only
    run_stages(ws, params)
    return ws


def test_the_raw_notes_carry_inline_and_standoff_phi(workspace: Path) -> None:
    assert "<NameSTART> Hans Müller <NameEND>" in (workspace / "raw/notes.inline").read_text(encoding="utf-8")
    assert json.loads((workspace / "raw/test.jsonl").read_text(encoding="utf-8").splitlines()[0])["spans"]


def test_every_stage_accounts_for_every_note(workspace: Path) -> None:
    for stage in FIRST_STAGES:
        m = stage_metrics(workspace, stage)
        assert m["documents_in"] == m["documents_out"] + m["documents_rejected"], stage
        if stage in ("corpus", "prepare"):
            assert m["documents_in"] == len(NOTES) + len(TEST_NOTES)
        else:
            assert m["documents_in"] == len(NOTES)
    assert stage_metrics(workspace, "pseudonymize")["language"] == "de"
    assert [d.id for d in read_jsonl(workspace / "data/prepared/test.jsonl")] == ["de-test-0", "de-test-1"]


def test_german_surrogates_replace_every_phi_string(workspace: Path) -> None:
    before = {d.id: d for split in ("train", "dev") for d in read_jsonl(workspace / f"data/annotated/{split}.jsonl")}
    after = {d.id: d for split in ("train", "dev") for d in read_jsonl(workspace / f"data/pseudonymized/{split}.jsonl")}
    assert before.keys() == after.keys() and len(after) == len(NOTES)
    for doc_id, doc in after.items():
        for old, new in zip(before[doc_id].spans, doc.spans):
            assert old.label == new.label
            assert doc.surface(new) != before[doc_id].surface(old)
        for surface in ("Hans Müller", "0171 1234567", "86 095 742 719", "Hauptstraße", "a.schmidt@", "KH-12345"):
            assert surface not in doc.text
    ssn = [doc.surface(s) for doc in after.values() for s in doc.spans if s.label == "SSN"]
    from synthdeid_lang_de.surrogates import is_valid_steuer_id

    assert ssn and all(re.fullmatch(r"\d\d \d{3} \d{3} \d{3}", x) and is_valid_steuer_id(x) for x in ssn)


def test_inline_text_uses_the_german_tokenizer(workspace: Path) -> None:
    lines = [
        line
        for split in ("train", "dev")
        for line in (workspace / f"data/inline/{split}.txt").read_text(encoding="utf-8").splitlines()
    ]
    assert len(lines) == len(NOTES)
    tokens = [t for line in lines for t in line.split()]
    assert {"z.B.", "Z.n.", "Tel.", "<NameSTART>", "<DateEND>", "<EOD>"} <= set(tokens)
    assert all(line.endswith("<EOD>") for line in lines)
