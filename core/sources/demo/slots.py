"""The template slots of a note: ``{cl}``, ``{rel}``, ``{date}``, ``{hosp}``, ``{num:60:90}``, ...

Each slot writes plain text and/or PHI into a ``TextBuilder`` using the note's context, so the
same person is referred to consistently and every PHI surface gets an exact span."""

from __future__ import annotations

import random
from collections.abc import Callable

from synthdeid.sources.demo import lexicon as lx
from synthdeid.sources.demo.builder import Slots, TextBuilder
from synthdeid.sources.demo.context import CARER_ROLE, DOCTOR_ROLE, NoteContext
from synthdeid.sources.demo.names import Person

SPECIALISTS = (
    "cardioloog",
    "neuroloog",
    "internist",
    "longarts",
    "geriater",
    "orthopeed",
    "chirurg",
    "uroloog",
    "oogarts",
    "dermatoloog",
    "KNO-arts",
    "revalidatiearts",
    "MDL-arts",
)


def make_slots(ctx: NoteContext) -> Slots:
    """All slots for one note."""
    rng, ps, c = ctx.rng, ctx.ps, ctx.client
    f = ctx.female
    s: dict[str, Callable[[TextBuilder, tuple[str, ...]], object] | str] = {}

    def phi(label: str, value: Callable[[], str]) -> Callable[[TextBuilder, tuple[str, ...]], object]:
        return lambda b, a: b.phi(value(), label)

    # -- the client ----------------------------------------------------------------
    def cl(b: TextBuilder, a: tuple[str, ...]) -> None:
        if rng.random() < ctx.name_rate:
            ctx.mention(b, c.person)
        else:
            ctx.generic(b)

    s["cl"] = cl
    s["CL"] = lambda b, a: ctx.mention(b, c.person)
    s["clfull"] = lambda b, a: b.phi(c.person.full(), "Name")
    s["clname"] = lambda b, a: b.phi(c.person.initials_name(rng) if rng.random() < 0.4 else c.person.full(), "Name")
    s["clfirst"] = lambda b, a: b.phi(c.person.first, "Name")
    s["clsur"] = lambda b, a: b.phi(c.person.cap_surname(), "Name")
    s["clini"] = lambda b, a: b.phi(c.person.initials(rng.randrange(2)), "Initials")
    s.update(
        hij="zij" if f else "hij",
        zijn="haar" if f else "zijn",
        hem="haar" if f else "hem",
        ze="ze" if f else "hij",
        mw="mw." if f else "dhr.",
        mevrouw="mevrouw" if f else "meneer",
        bewoner="bewoonster" if f else "bewoner",
        Mw="Mw." if f else "Dhr.",
        vrouw="man" if f else "vrouw",
        e="e" if f else "",
    )

    # -- family and other people -----------------------------------------------------
    def rel(b: TextBuilder, a: tuple[str, ...]) -> None:
        relation, p = ctx.relative(int(a[0]) if a else 0)
        x = rng.random()
        if x < 0.6:
            b.word(relation + " ")
            ctx.mention(b, p, titled=relation not in ("dochter", "zoon", "zus", "broer", "kleindochter"))
        elif x < 0.8:
            ctx.mention(b, p)
            b.text(f" ({relation})")
        else:
            b.text(("Haar " if f else "Zijn ") if b.at_sentence_start() else ("haar " if f else "zijn "))
            b.text(relation + " ")
            ctx.mention(b, p, titled=False)

    s["rel"] = rel
    s["relname"] = lambda b, a: ctx.mention(b, ctx.relative(int(a[0]) if a else 0)[1])
    s["relation"] = lambda b, a: b.word(ctx.relative(int(a[0]) if a else 0)[0])

    def col(b: TextBuilder, a: tuple[str, ...]) -> None:
        others = [p for p in c.carers if p is not ctx.author] or c.carers
        p = others[rng.randrange(len(others))]
        x = rng.random()
        if x < 0.55:
            b.phi(p.first, "Name")
        elif x < 0.88:
            b.phi(p.signature(rng), "Initials")
        else:
            b.phi(p.full(), "Name")

    s["col"] = col
    s["sig"] = lambda b, a: b.phi(ctx.author.signature(rng), "Initials")
    s["ini"] = lambda b, a: b.phi(rng.choice(c.carers).signature(rng), "Initials")
    s["author"] = lambda b, a: b.phi(ctx.author.full() if rng.random() < 0.8 else ctx.author.initials_name(rng), "Name")
    s["authorfirst"] = lambda b, a: b.phi(ctx.author.first, "Name")
    s["role"] = lambda b, a: b.word(rng.choice(CARER_ROLE[c.setting]))

    def doctor(b: TextBuilder, p: Person, role: str, dr: bool = True) -> None:
        x = rng.random()
        if x < 0.4 or (x < 0.65 and not dr):
            b.word(role + " ")
            ctx.mention(b, p, formal=True)
        elif x < 0.65:
            b.word(role + " dr. ")
            b.phi(p.cap_surname(), "Name")
        elif x < 0.85:
            ctx.mention(b, p, formal=True)
            b.text(f" ({role})")
        else:
            b.text(("De " if b.at_sentence_start() else "de ") + role)

    s["ha"] = lambda b, a: doctor(b, c.gp, rng.choice(("huisarts", "huisarts", "HA", "waarnemend huisarts")))
    s["arts"] = lambda b, a: doctor(b, c.doctor, rng.choice(DOCTOR_ROLE[c.setting]))
    s["spec"] = lambda b, a: doctor(b, c.specialist, rng.choice(SPECIALISTS))
    s["gd"] = lambda b, a: doctor(
        b,
        ctx.extra("gd"),
        rng.choice(("gedragsdeskundige", "psycholoog", "orthopedagoog", "GZ-psycholoog", "gedragskundige")),
        dr=False,
    )
    s["para"] = lambda b, a: doctor(
        b,
        ctx.extra("para"),
        rng.choice(("fysiotherapeut", "fysio", "ergotherapeut", "logopedist", "diëtist", "ergo")),
        dr=False,
    )

    def mb(b: TextBuilder, a: tuple[str, ...]) -> None:
        p = ctx.extra("mb" + (a[0] if a else ""), "old" if c.setting in ("vvt", "wijk") else "mid")
        word = "medebewoner" if c.setting != "ggz" else "medecliënt"
        if rng.random() < 0.6:
            b.word(word + " ")
        ctx.mention(b, p)

    s["mb"] = mb
    s["other"] = lambda b, a: ctx.mention(b, ctx.extra("o" + (a[0] if a else "")))
    s["oname"] = lambda b, a: b.phi(ctx.extra("o" + (a[0] if a else "")).full(), "Name")

    # -- dates, ages, numbers ------------------------------------------------------
    def date(b: TextBuilder, a: tuple[str, ...]) -> None:
        style = a[0] if a and a[0] else None
        lo, hi = (int(a[1]), int(a[2])) if len(a) > 2 else (-10, 14)
        b.phi(ps.format_date(ctx.date_near(lo, hi), style), "Date")

    s["date"] = date
    s["today"] = lambda b, a: b.phi(ps.format_date(ctx.date, a[0] if a else None), "Date")
    s["dob"] = lambda b, a: b.phi(
        ps.format_date(c.birth, rng.choice(("dmy", "dmy", "dmy_slash", "d_month_y", "dmy_short"))), "Date"
    )
    s["year"] = lambda b, a: b.phi(
        str(ctx.date.year - rng.randint(int(a[0]) if a else 1, int(a[1]) if len(a) > 1 else 30)), "Date"
    )
    s["monthyear"] = lambda b, a: b.phi(
        ps.format_date(ctx.date_near(-900, -30), rng.choice(("month_year", "month"))), "Date"
    )
    s["dag"] = lambda b, a: b.phi(ps.format_date(ctx.date_near(-6, 6), "weekday"), "Date")
    s["holiday"] = lambda b, a: b.phi(ps.holiday(), "Date")
    s["age"] = lambda b, a: b.phi(ps.age_text(c.age), "Age")
    s["agenum"] = lambda b, a: b.phi(str(c.age), "Age")
    s["time"] = lambda b, a: b.text(_time(rng, a[0] if a else ""))
    s["num"] = lambda b, a: b.text(str(rng.randint(int(a[0]), int(a[1]))))
    s["dec"] = lambda b, a: b.text(
        f"{rng.uniform(float(a[0]), float(a[1])):.1f}".replace(".", "," if rng.random() < 0.8 else ".")
    )

    # -- places, organisations, contact details --------------------------------------
    s["hosp"] = phi("Hospital", lambda: c.hospital if rng.random() < 0.85 else rng.choice(lx.HOSPITAL_SHORT))
    s["ohosp"] = phi("Hospital", ps.hospital)
    s["inst"] = phi("Care_Institute", lambda: c.institute)
    s["oinst"] = phi("Care_Institute", ps.care_institute)
    s["org"] = lambda b, a: b.phi(ps.organisation(a[0] if a else ""), "Organization_Company")
    s["apo"] = phi("Organization_Company", lambda: c.pharmacy)
    s["ins"] = phi("Organization_Company", lambda: c.insurer)
    s["ward"] = phi("Internal_Location", lambda: c.ward)
    s["room"] = phi("Internal_Location", lambda: c.room)
    s["loc"] = phi("Internal_Location", ps.internal_location)
    s["city"] = phi("Address", lambda: c.city)
    s["ocity"] = phi("Address", ps.city)
    s["street"] = phi("Address", lambda: c.street)
    s["pc"] = phi("Address", lambda: f"{c.postcode} {c.city}" if rng.random() < 0.8 else f"{c.postcode}, {c.city}")
    s["addr"] = phi(
        "Address", lambda: f"{c.street}, {c.postcode} {c.city}" if rng.random() < 0.7 else f"{c.street} te {c.city}"
    )
    s["oaddr"] = phi("Address", ps.full_address)
    s["opc"] = phi("Address", lambda: f"{ps.postcode()} {ps.city()}")
    s["birthplace"] = phi("Address", lambda: c.birthplace)
    s["country"] = phi("Address", ps.country)
    s["phone"] = phi("Phone_fax", lambda: c.phone)
    s["relphone"] = phi("Phone_fax", lambda: ps.phone(True))
    s["ophone"] = phi("Phone_fax", lambda: ps.phone(False))
    s["email"] = phi("Email", lambda: c.email)
    s["relemail"] = phi("Email", lambda: ps.email(ctx.relative(0)[1]))
    s["orgemail"] = phi("Email", lambda: ps.email(org=c.institute))
    s["url"] = phi("URL_IP", lambda: ps.url(c.institute))
    s["bsn"] = phi("SSN", ps.bsn)
    s["clbsn"] = phi("SSN", lambda: c.bsn)
    s["id"] = phi("ID", lambda: c.number)
    s["oid"] = lambda b, a: b.phi(ps.ident(int(a[0]) if a else None), "ID")
    s["prof"] = phi("Profession", lambda: c.profession)
    s["oprof"] = phi("Profession", ps.profession)

    def pet(b: TextBuilder, a: tuple[str, ...]) -> None:
        kind, name = c.pet
        b.word(kind + " ")
        b.phi(name, "Other")

    s["pet"] = pet
    s["petname"] = phi("Other", lambda: c.pet[1])

    # -- plain clinical vocabulary ---------------------------------------------------
    for key, pool in (
        ("med", lx.MEDS),
        ("freq", lx.FREQ),
        ("act", lx.ACTIVITIES),
        ("food", lx.FOODS),
        ("body", lx.BODY),
    ):
        s[key] = (lambda p: lambda b, a: b.word(rng.choice(p)))(pool)
    return s


def _time(rng: random.Random, part: str = "") -> str:
    """A time of day (not PHI): ``14:30``, ``14.30 uur``, ``9 uur``; ``part`` is morn/eve or empty."""
    if part == "morn":
        h = rng.randint(6, 10)
    elif part == "day":
        h = rng.randint(8, 17)
    elif part == "eve":
        h = rng.randint(19, 23)
    else:
        h = rng.randint(6, 23) if rng.random() < 0.85 else rng.randint(0, 5)
    m = rng.choice((0, 0, 15, 30, 45, 5, 10, 20, 40, 50, 25, 35))
    x = rng.random()
    if x < 0.45:
        return f"{h:02d}:{m:02d}"
    if x < 0.75:
        return f"{h:02d}.{m:02d} uur"
    if x < 0.9:
        return f"{h}.{m:02d}"
    return f"{h} uur" if m == 0 else f"{h}:{m:02d}u"
