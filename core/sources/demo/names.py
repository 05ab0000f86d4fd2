"""Dutch person names: first names by generation, surnames with tussenvoegsels, and the
many written forms of one person (``Johanna de Vries``, ``J. de Vries``, ``De Vries``, ...)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from faker import Faker

OLD_FEMALE = """Johanna Maria Hendrika Cornelia Wilhelmina Geertruida Anna Elisabeth Gerda Riet Truus
Annie Bep Corrie Dina Ans Joke Tineke Greet Mies Nel Jo Wil Els Ineke Marijke Hennie Aaltje Jannie
Grietje Trijntje Klaziena Fenna Hilda Gerrie Lies Mien Betsie Dora Margaretha Catharina Petronella
Adriana Jacoba Alida Gerritje Hermina Willy Rika Leny Tonnie Sjaan Map Aafje Froukje Sietske Janke
Roelofje Gezina Berendina Antonia Francisca Theodora Thea Toos Diny Rie Lenie Mieke Annie Jopie""".split()

OLD_MALE = """Johannes Jan Hendrik Cornelis Gerrit Willem Pieter Jacobus Theo Kees Henk Piet Wim Gert Bert
Klaas Dirk Hans Ton Joop Harm Jaap Arie Evert Frans Gerard Herman Jos Nico Rinus Sjaak Teun Bart
Albert Antonius Hendrikus Wouter Sijmen Leendert Marinus Adrianus Gijs Egbert Roelof Lambertus
Bernardus Geert Hein Ruud Jo Bertus Driekus Hennie Tinus Gradus Sjoerd Douwe Jelle Hidde Wiebe
Lammert Jacob Cor Riekus Louis Harry Tjeerd Reinier Anton Huub Sjef Jozef Mattheus""".split()

MID_FEMALE = """Marieke Sandra Monique Petra Ingrid Linda Esther Wendy Anja Yvonne Hanneke Annemiek Judith
Ilse Marloes Mirjam Nicole Miranda Jolanda Karin Saskia Bianca Marjolein Ellen Astrid Carla Renate
Patricia Angela Debora Gonny Henriëtte Irma Jacqueline Margriet Nathalie Simone Tamara Wilma
Conny Brenda Chantal Danielle Manon Natasja Priscilla Sabine Sylvia Marian Gea Alie Hester""".split()

MID_MALE = """Marco Erik Peter Dennis Richard Mark Jeroen Martijn Robert Frank Patrick Edwin Ronald
Arjan Michel Rob Paul Marcel Vincent Remco Wouter Sander Jasper Maarten Ruben Niels Bas Joost
Gerben Hugo Rutger Stefan Arnold Dick Harold Jeffrey Wessel Menno Erwin Rik Roel Kevin Sjors""".split()

MIGRANT_FEMALE = "Fatima Samira Khadija Hatice Ayse Naima Yasmina Priya Dewi Gloria Zeynep Nadia Soraya".split()
MIGRANT_MALE = "Mohamed Ahmet Yusuf Rachid Mustafa Soufiane Rajesh Anil Sergio Hasan Karim Mehmet Driss".split()
MIGRANT_LAST = """El Amrani|Yilmaz|Kaya|Demir|Bouzid|Ramdin|Sewnath|Martina|Chen|Nguyen|Öztürk|Aydin|
Bakkali|El Idrissi|Ramcharan|Doorson|Kartosen|Çelik|Şahin|Haddou|Oudhof|Tahiri""".replace("\n", "").split("|")

COMMON_LAST = """Jansen|de Jong|de Vries|van den Berg|van Dijk|Bakker|Janssen|Visser|Smit|Meijer|de Boer|
Mulder|de Groot|Bos|Vos|Peters|Hendriks|van Leeuwen|Dekker|Brouwer|de Wit|Dijkstra|Smits|de Graaf|
van der Meer|van der Linden|Kok|Jacobs|de Haan|Vermeulen|van den Heuvel|van der Veen|van den Broek|
de Bruijn|de Bruin|van der Heijden|Schouten|van Beek|Willems|van Vliet|van de Ven|Hoekstra|Maas|
Verhoeven|Koster|van Dam|van der Wal|Prins|Blom|Huisman|Peeters|de Kort|Kuipers|van Wijk|Post|
Kuiper|Veenstra|Kramer|van den Brink|Scholten|Hofman|Postma|Timmermans|Boer|Evers|van Rijn|Wolters|
ter Horst|ten Brink|Zwart|Groen|van Es|Hermans|Aalbers|Koning|Snijders|van Os|Verbeek|Claassen|
Wouters|van Veen|Sanders|Gerritsen|Bosman|van der Laan|Stam|Heijnen|Kroon|Ooms|in 't Veld|
van 't Hof|Mol|Pronk|Schipper|Bruins|Jonker|Vink|Molenaar|Lammers|Hoogendoorn|Wijnands""".replace("\n", "").split("|")

TUSSEN = ("van", "de", "van de", "van der", "van den", "den", "ter", "ten", "in 't", "van 't", "'t", "op de", "te")
_OK_LAST = re.compile(r"^[A-Za-zÀ-ÿ' -]+$")


def faker_surnames(fake: Faker) -> list[str]:
    """Faker's nl_NL surnames without the historical oddities (``Bourgondië, van``)."""
    out = []
    for name in fake.provider("faker.providers.person").last_names:
        words = name.split()
        if not _OK_LAST.match(name) or len(name) > 22 or len(words) > 3:
            continue
        if len(words) > 1 and " ".join(words[:-1]) not in TUSSEN:
            continue
        out.append(name)
    return sorted(set(out))


def split_surname(full: str) -> tuple[str, str]:
    """``"van der Meer"`` -> ``("van der", "Meer")``."""
    words = full.split()
    for k in range(len(words) - 1, 0, -1):
        if " ".join(words[:k]).lower() in TUSSEN:
            return " ".join(words[:k]).lower(), " ".join(words[k:])
    return "", full


@dataclass
class Person:
    """One person with the written forms of their name."""

    first: str
    tussen: str
    last: str
    female: bool
    second: str = ""  # second given name, for initials like "J.P."
    maiden: str = ""  # "de Vries" in "Jansen-de Vries"
    short_form: str = "surname"  # how the note refers to them after the first mention
    mentioned: bool = field(default=False, compare=False)

    @property
    def surname(self) -> str:
        base = f"{self.tussen} {self.last}".strip()
        return f"{base}-{self.maiden}" if self.maiden else base

    def cap_surname(self) -> str:
        """Surname written without first name: tussenvoegsel capitalised (``De Vries``)."""
        s = self.surname
        return s[0].upper() + s[1:]

    def initials(self, style: int = 0) -> str:
        letters = self.first[0] + (self.second[0] if self.second else "")
        if style == 1:
            return letters
        return "".join(c + "." for c in letters)

    def full(self) -> str:
        return f"{self.first} {self.surname}"

    def initials_name(self, rng: random.Random) -> str:
        sep = rng.choice(("", " ")) if self.second else ""
        ini = self.initials(0) if rng.random() < 0.85 else self.initials(1)
        if sep:
            ini = ini.replace(".", ". ").strip()
        return f"{ini} {self.surname}"

    def reversed(self, rng: random.Random) -> str:
        """Archive style: ``Vries, J. de`` or ``Meer, van der``."""
        tail = f" {self.tussen}" if self.tussen else ""
        if rng.random() < 0.6:
            return f"{self.last}, {self.initials(0)}{tail}"
        return f"{self.last},{tail}" if tail else f"{self.last}, {self.first}"

    def signature(self, rng: random.Random) -> str:
        """Initials a carer signs with: ``MK``, ``AvdB``, ``J.d.V.``, ``mk``."""
        tus = "".join(w[0] for w in self.tussen.replace("'t", "t").split())
        r = rng.random()
        if r < 0.55:
            return self.first[0] + tus + self.last[0]
        if r < 0.7:
            return (self.first[0] + self.last[0]).lower()
        if r < 0.85:
            return ".".join(self.first[0] + tus + self.last[0]) + "."
        return self.first[0] + (self.second[:1] or "") + self.last[0]


def _pick_first(rng: random.Random, female: bool, gen: str, fake_first: tuple[list[str], list[str]]) -> str:
    if rng.random() < 0.07:
        return rng.choice(MIGRANT_FEMALE if female else MIGRANT_MALE)
    if gen == "old":
        return rng.choice(OLD_FEMALE if female else OLD_MALE)
    if gen == "mid":
        return (
            rng.choice(MID_FEMALE if female else MID_MALE)
            if rng.random() < 0.7
            else rng.choice(fake_first[0] if female else fake_first[1])
        )
    return rng.choice(fake_first[0] if female else fake_first[1])


class NameSampler:
    """Samples people of a generation (``old`` clients, ``mid`` relatives/staff, ``young``)."""

    def __init__(self, rng: random.Random, fake: Faker) -> None:
        self.rng = rng
        prov = fake.provider("faker.providers.person")
        self.fake_first = (list(prov.first_names_female), list(prov.first_names_male))
        self.surnames = faker_surnames(fake)

    def surname(self) -> str:
        r = self.rng.random()
        if r < 0.45:
            return self.rng.choice(COMMON_LAST)
        if r < 0.93:
            return self.rng.choice(self.surnames)
        return self.rng.choice(MIGRANT_LAST)

    def person(self, gen: str = "mid", female: bool | None = None, surname: str | None = None) -> Person:
        rng = self.rng
        if female is None:
            female = rng.random() < 0.6
        first = _pick_first(rng, female, gen, self.fake_first)
        tussen, last = split_surname(surname or self.surname())
        second = ""
        if rng.random() < 0.3:
            second = _pick_first(rng, female, gen, self.fake_first)
        maiden = ""
        if female and gen == "old" and rng.random() < 0.25:
            maiden = self.surname()
        return Person(first, tussen, last, female, second, maiden)
