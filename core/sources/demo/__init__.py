"""An embedded demo corpus: realistic Dutch care notes with gold PHI spans for all 16 tags.

``generate_demo_corpus(n_docs, seed)`` writes progress notes, day reports, SOAP notes,
conversation reports, messages, handovers, phone notes, vital signs, measurement lists, care
plans, intake forms, incident reports, behavioural reports, medication notes and letters
about a pool of ``n_docs // 5`` fictitious clients in elderly care, home care, mental health
care and disability care (so a client, their family and carers recur across notes, and are
referred to consistently within one). Everything comes from one ``random.Random(seed)`` and a
``Faker("nl_NL")`` seeded with the same seed, so the output is byte-identical for the same
arguments (and the same Faker version).

Annotation conventions follow the NUT annotation guidelines (Trienes et al., the corpus whose
tags are canonical here): titles (mw., dhr., dr.) are outside Name
spans; ``J. de Vries`` is one Name; standalone initials (signatures, ``JdV``) are Initials;
Internal_Location covers the identifying part (``3B``, ``12``, ``De Linde``) and not the generic
word (``afdeling``, ``kamer``); Age includes the unit when written (``83 jaar``, ``83-jarige``);
Other is used for pet and boat names; ID covers client, dossier and policy numbers, IBANs and
licence plates; SSN is a BSN that passes the 11-proef.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from typing import Literal

from faker import Faker

from synthdeid.corpus.records import Document
from synthdeid.sources.demo.behaviour import write_behaviour, write_medication
from synthdeid.sources.demo.builder import Slots, TextBuilder
from synthdeid.sources.demo.careplans import write_careplan
from synthdeid.sources.demo.context import Client, NoteContext, make_client
from synthdeid.sources.demo.day_reports import write_day_report
from synthdeid.sources.demo.incidents import write_incident
from synthdeid.sources.demo.intake import write_intake
from synthdeid.sources.demo.letters import write_letter
from synthdeid.sources.demo.measurements import write_series, write_vitals
from synthdeid.sources.demo.mental_disability import write_conversation, write_ggz_vg
from synthdeid.sources.demo.messages import write_handover, write_message, write_phone
from synthdeid.sources.demo.names import NameSampler
from synthdeid.sources.demo.phi import PhiSampler, bsn_valid
from synthdeid.sources.demo.progress_notes import write_progress, write_soap
from synthdeid.sources.demo.slots import make_slots

__all__ = ["DOC_TYPES", "bsn_valid", "generate_demo_corpus", "generate_demo_corpus_with_types"]

Writer = Callable[[TextBuilder, NoteContext, Slots], None]

# name: (writer, weight in elderly/home care, weight in GGZ/VG)
DOC_TYPES: dict[str, tuple[Writer, float, float]] = {
    "progress_note": (write_progress, 26, 0),
    "day_report": (write_day_report, 10, 0),
    "progress_note_ggz_vg": (write_ggz_vg, 0, 26),
    "conversation_report": (write_conversation, 0, 10),
    "soap_note": (write_soap, 6, 3),
    "message": (write_message, 7, 6.5),
    "handover": (write_handover, 4, 3),
    "phone_note": (write_phone, 6, 6),
    "vital_signs": (write_vitals, 5, 2.5),
    "measurement_list": (write_series, 4, 2),
    "care_plan": (write_careplan, 4.5, 5),
    "intake_form": (write_intake, 4.5, 4.5),
    "incident_report": (write_incident, 5, 5),
    "behaviour_report": (write_behaviour, 2, 9),
    "medication_note": (write_medication, 6, 5),
    "letter": (write_letter, 4, 3.5),
}
_ANONYMOUS = {"progress_note", "progress_note_ggz_vg", "medication_note", "vital_signs", "soap_note", "message"}
_SLOPPY = {"message", "handover", "phone_note", "progress_note_ggz_vg", "progress_note"}
_START = dt.date(2016, 1, 1)
_DAYS = (dt.date(2023, 12, 31) - _START).days


def _choose_type(rng: random.Random, setting: str) -> str:
    col: Literal[1, 2] = 1 if setting in ("vvt", "wijk") else 2
    names = list(DOC_TYPES)
    weights = [DOC_TYPES[n][col] for n in names]
    return rng.choices(names, weights)[0]


def _note(i: int, client: Client, rng: random.Random, ps: PhiSampler, ns: NameSampler) -> tuple[str, Document]:
    kind = _choose_type(rng, client.setting)
    date = _START + dt.timedelta(days=rng.randrange(_DAYS))
    ctx = NoteContext.create(client, date, rng, ps, ns)
    b = TextBuilder(rng)
    if kind in _ANONYMOUS and rng.random() < 0.2:  # unsigned note about "cl." / "mw."
        ctx.name_rate, b.signed = 0.0, False
    DOC_TYPES[kind][0](b, ctx, make_slots(ctx))
    lower = kind in _SLOPPY and rng.random() < (0.4 if kind in ("message", "handover") else 0.08)
    x = rng.random()
    typo_rate = 0.0 if x < 0.45 else rng.choice((0.004, 0.008, 0.015, 0.03))
    doc = b.build(f"demo-{i:05d}", lower=lower, lower_phi=lower and rng.random() < 0.5, typo_rate=typo_rate)
    return kind, doc


def generate_demo_corpus_with_types(n_docs: int, seed: int) -> list[tuple[str, Document]]:
    """Like ``generate_demo_corpus`` but each document comes with its type name."""
    if n_docs < 0:
        raise ValueError("n_docs must be >= 0")
    rng = random.Random(seed)
    fake = Faker("nl_NL")
    fake.seed_instance(seed)
    ns, ps = NameSampler(rng, fake), PhiSampler(rng, fake)
    clients = [make_client(ns, ps, rng, dt.date(2020, 1, 1)) for _ in range(max(3, n_docs // 5))]
    return [_note(i, rng.choice(clients), rng, ps, ns) for i in range(1, n_docs + 1)]


def generate_demo_corpus(n_docs: int, seed: int) -> list[Document]:
    """``n_docs`` synthetic Dutch care notes with gold PHI spans, deterministic from ``seed``.

    Ids are ``demo-00001``, ``demo-00002``, ...; every span carries a canonical tag.
    """
    return [doc for _, doc in generate_demo_corpus_with_types(n_docs, seed)]
