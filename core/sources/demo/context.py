"""Who a note is about and by whom: the client with family, GP, carers and address, and the
template slots that write them (consistently within a note) into a ``TextBuilder``."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from synthdeid.sources.demo.builder import TextBuilder
from synthdeid.sources.demo.names import NameSampler, Person
from synthdeid.sources.demo.phi import PhiSampler

SETTINGS = ("vvt", "vvt", "vvt", "wijk", "ggz", "ggz", "vg", "vg")
AGES = {"vvt": (68, 101), "wijk": (55, 96), "ggz": (18, 72), "vg": (6, 78)}
CARER_ROLE = {
    "vvt": ("verzorgende IG", "verpleegkundige", "EVV", "helpende", "zorgmedewerker", "leerling-verzorgende"),
    "wijk": ("wijkverpleegkundige", "verzorgende", "wijkziekenverzorgende", "thuiszorgmedewerker"),
    "ggz": ("SPV", "verpleegkundige", "ambulant begeleider", "casemanager", "woonbegeleider", "ervaringsdeskundige"),
    "vg": ("begeleider", "persoonlijk begeleider", "woonbegeleider", "groepsbegeleider", "dagbestedingsbegeleider"),
}
DOCTOR_ROLE = {
    "vvt": ("SO", "specialist ouderengeneeskunde", "SOG", "arts"),
    "wijk": ("huisarts", "POH", "geriater"),
    "ggz": ("psychiater", "arts", "verpleegkundig specialist"),
    "vg": ("AVG", "AVG-arts", "arts VG"),
}


@dataclass
class Client:
    """A client and the people and places around them (shared by all notes about them)."""

    person: Person
    setting: str
    age: int
    birth: dt.date
    street: str
    postcode: str
    city: str
    phone: str
    email: str
    bsn: str
    number: str
    relatives: list[tuple[str, Person]]
    gp: Person
    doctor: Person
    specialist: Person
    carers: list[Person]
    institute: str
    ward: str
    room: str
    hospital: str
    pharmacy: str
    insurer: str
    profession: str
    pet: tuple[str, str]
    birthplace: str


def _relatives(ns: NameSampler, p: Person, setting: str, rng: random.Random) -> list[tuple[str, Person]]:
    if setting in ("vvt", "wijk"):
        pool = [
            "dochter",
            "zoon",
            "dochter",
            "zoon",
            "echtgenoot",
            "schoondochter",
            "kleindochter",
            "zus",
            "broer",
            "nicht",
            "neef",
            "buurvrouw",
            "schoonzoon",
            "kleinzoon",
            "mentor",
        ]
    elif setting == "ggz":
        pool = ["moeder", "vader", "partner", "zus", "broer", "vriendin", "vriend", "dochter", "zoon", "ex-partner"]
    else:
        pool = ["moeder", "vader", "moeder", "zus", "broer", "mentor", "oom", "tante", "vader"]
    out = []
    for rel in rng.sample(pool, rng.randint(1, 3)):
        female = rel in (
            "dochter",
            "schoondochter",
            "kleindochter",
            "zus",
            "nicht",
            "buurvrouw",
            "moeder",
            "vriendin",
            "tante",
        ) or (rel in ("partner", "ex-partner", "mentor") and rng.random() < 0.5)
        if rel == "echtgenoot":
            rel = "echtgenote" if not p.female else "echtgenoot"
            female = not p.female
        same = rel in ("zoon", "kleinzoon", "broer", "vader") or (rel in ("dochter", "zus") and rng.random() < 0.5)
        gen = "old" if rel in ("echtgenoot", "echtgenote", "zus", "broer") and setting in ("vvt", "wijk") else "mid"
        if setting != "vvt" and rel in ("moeder", "vader", "oom", "tante"):
            gen = "old" if rng.random() < 0.5 else "mid"
        out.append((rel, ns.person(gen, female, p.surname if same and not p.maiden else None)))
    return out


def make_client(ns: NameSampler, ps: PhiSampler, rng: random.Random, ref: dt.date) -> Client:
    """A new client with their family, carers and places."""
    setting = rng.choice(SETTINGS)
    lo, hi = AGES[setting]
    age = rng.randint(lo, hi)
    person = ns.person("old" if age > 68 else ("mid" if age > 35 else "young"))
    carers = [ns.person(rng.choice(("mid", "young")), rng.random() < 0.8) for _ in range(rng.randint(3, 7))]
    return Client(
        person=person,
        setting=setting,
        age=age,
        birth=ps.birth_date(age, ref),
        street=ps.street_address(),
        postcode=ps.postcode(),
        city=ps.city(),
        phone=ps.phone(),
        email=ps.email(person),
        bsn=ps.bsn(),
        number=ps.client_number(),
        relatives=_relatives(ns, person, setting, rng),
        gp=ns.person("mid"),
        doctor=ns.person("mid"),
        specialist=ns.person("mid"),
        carers=carers,
        institute=ps.care_institute(),
        ward=ps.internal_location(),
        room=str(rng.randint(1, 60)),
        hospital=ps.hospital(),
        pharmacy=ps.pharmacy(),
        insurer=ps.organisation("insurer"),
        profession=ps.profession(),
        pet=ps.other(),
        birthplace=ps.city() if rng.random() < 0.85 else ps.country(),
    )


@dataclass
class NoteContext:
    """Per-note state: which people were already mentioned, the note's writing habits."""

    client: Client
    date: dt.date
    rng: random.Random
    ps: PhiSampler
    ns: NameSampler
    author: Person
    name_rate: float = 0.5
    mentioned: set[int] = field(default_factory=set)
    title_style: int = 0
    cap_tussen: bool = True
    short: dict[int, str] = field(default_factory=dict)
    extras: dict[str, Person] = field(default_factory=dict)

    @classmethod
    def create(cls, client: Client, date: dt.date, rng: random.Random, ps: PhiSampler, ns: NameSampler) -> NoteContext:
        return cls(
            client,
            date,
            rng,
            ps,
            ns,
            rng.choice(client.carers),
            name_rate=rng.uniform(0.65, 1.0),
            title_style=rng.randrange(4),
            cap_tussen=rng.random() < 0.6,
        )

    # -- people ----------------------------------------------------------------------
    @property
    def female(self) -> bool:
        return self.client.person.female

    def title(self, p: Person) -> str:
        opts = (("mw.", "dhr."), ("mevr.", "dhr."), ("mevrouw", "meneer"), ("mw", "dhr"))[self.title_style]
        return opts[0] if p.female else opts[1]

    def _surname(self, p: Person) -> str:
        return p.cap_surname() if self.cap_tussen else p.surname

    def mention(self, b: TextBuilder, p: Person, titled: bool = True, formal: bool = False) -> None:
        """Write a reference to ``p``: a fuller form the first time, then the note's short form."""
        rng = self.rng
        key = id(p)
        first = key not in self.mentioned
        self.mentioned.add(key)
        if key not in self.short:
            w = (
                (0.95, 0.05, 0.0)
                if formal
                else (0.55, 0.3, 0.1)
                if self.client.setting in ("vvt", "wijk")
                else (0.2, 0.64, 0.12)
            )
            x = rng.random()
            self.short[key] = (
                "title"
                if x < w[0]
                else "first"
                if x < w[0] + w[1]
                else ("initials" if x < w[0] + w[1] + w[2] else "full")
            )
        form = self.short[key]
        if form == "initials" and p is not self.client.person:
            form = "first"
        if first:
            x = rng.random()
            form = "full" if x < 0.4 else "initials_name" if x < 0.5 else ("reversed" if x < 0.51 else form)
        if form == "title" and not titled:
            form = "full"
        if form == "title":
            t = self.title(p)
            b.text((t[0].upper() + t[1:] if b.at_sentence_start() else t) + " ")
            b.phi(self._surname(p), "Name")
        elif form == "first":
            b.phi(p.first, "Name")
        elif form == "initials":
            if titled and rng.random() < 0.5:
                t = self.title(p)
                b.text((t[0].upper() + t[1:] if b.at_sentence_start() else t) + " ")
            b.phi(p.initials(rng.randrange(2)), "Initials")
        elif form == "initials_name":
            b.phi(p.initials_name(rng), "Name")
        elif form == "reversed":
            b.phi(p.reversed(rng), "Name")
        else:
            if titled and rng.random() < 0.3:
                t = self.title(p)
                b.text((t[0].upper() + t[1:] if b.at_sentence_start() else t) + " ")
            b.phi(p.full(), "Name")

    def generic(self, b: TextBuilder) -> None:
        """The client without a name: ``cl.``, ``mw.``, ``cliënt``, ``meneer``, ``pt.``."""
        s = self.client.setting
        f = self.female
        pool = {
            "vvt": (
                "mw." if f else "dhr.",
                "mevrouw" if f else "meneer",
                "cliënt",
                "cl.",
                "bewoonster" if f else "bewoner",
                "mw." if f else "dhr.",
            ),
            "wijk": ("mw." if f else "dhr.", "mevrouw" if f else "meneer", "cliënt", "cl."),
            "ggz": ("cliënt", "cl.", "pt.", "patiënt", "betrokkene", "cliënte" if f else "cliënt"),
            "vg": ("cliënt", "cl.", "cliënt", "bewoner" if not f else "bewoonster"),
        }[s]
        w = self.rng.choice(pool)
        b.text(w[0].upper() + w[1:] if b.at_sentence_start() else w)

    def relative(self, i: int = 0) -> tuple[str, Person]:
        rels = self.client.relatives
        return rels[i % len(rels)]

    def extra(self, key: str, gen: str = "mid", female: bool | None = None) -> Person:
        """A person who only appears in this note (a co-resident, a caller)."""
        if key not in self.extras:
            self.extras[key] = self.ns.person(gen, female)
        return self.extras[key]

    def date_near(self, lo: int = -10, hi: int = 14) -> dt.date:
        return self.ps.near_date(self.date, lo, hi)
