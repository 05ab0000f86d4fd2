"""Dutch word lists: abbreviations, name particles, dates, institutions and professions."""

from __future__ import annotations

import re
from functools import lru_cache

from ..common.dates import DateLocale
from ..common.names import NameLocale, clean_names
from ..common.surrogates import PhoneRules, SurrogateData

# Abbreviations written with periods that never end a token early ("mw." is one token).
ABBREVIATIONS: tuple[str, ...] = (
    "mw.", "mevr.", "mej.", "dhr.", "hr.", "dr.", "drs.", "prof.", "ir.", "ing.", "mr.", "zr.",
    "br.", "st.", "sr.", "jr.", "i.v.m.", "o.a.", "z.s.m.", "d.d.", "b.v.", "evt.", "ca.", "t.a.v.",
    "m.b.t.", "etc.", "enz.", "bijv.", "bv.", "resp.", "ivm.", "mbt.", "nl.", "vnl.", "pt.", "pat.",
    "nr.", "tel.", "fax.", "afd.", "max.", "min.", "gem.", "i.o.m.", "i.o.v.", "i.c.m.", "a.s.",
    "j.l.", "jl.", "n.a.v.", "m.n.", "d.w.z.", "o.b.v.", "i.p.v.", "t.z.t.", "z.n.", "a.n.",
    "s.c.", "i.m.", "i.v.", "p.o.", "d.m.v.", "e.d.", "e.a.", "o.i.d.", "e.v.", "vlg.", "zgn.",
    "m.u.v.", "mbv.", "m.b.v.", "incl.", "excl.", "ong.", "str.", "wk.", "mnd.", "dgn.",
    "dd.", "vg.", "vlgs.", "vs.", "cf.", "vgl.", "dec.", "feb.", "mrt.", "apr.", "jun.", "jul.",
    "aug.", "sep.", "sept.", "okt.", "nov.", "di.", "wo.", "do.", "vr.", "za.", "Ph.D.",
    "a.u.b.", "s.v.p.", "o.v.v.", "p.m.", "i.o.", "t/m", "m.i.v.",
)

# Abbreviations that may also end a sentence (a capitalised word after them starts a new one).
SENTENCE_FINAL_ABBREVIATIONS: frozenset[str] = frozenset(
    {"etc.", "enz.", "e.d.", "e.a.", "o.i.d.", "e.v.", "a.s.", "j.l.", "jl."}
)

# Name particles (tussenvoegsels), longest first where they share a prefix.
TUSSENVOEGSELS: tuple[str, ...] = (
    "van der", "van den", "van de", "van het", "van 't", "in 't", "in de", "op de", "op den",
    "uit de", "uit den", "de la", "van", "de", "der", "den", "het", "ter", "ten", "te", "'t", "in",
    "op", "la", "le", "du", "da", "von", "d'",
)
# Particles that start a surname, including common non-Dutch ones ("El Amrani", "dos Santos").
TUSSEN_WORDS: frozenset[str] = frozenset(
    [w for tv in TUSSENVOEGSELS for w in tv.split()] + ["el", "al", "ibn", "bin", "abu", "dos", "di", "del", "della"]
)
NEW_TUSSENVOEGSELS: tuple[str, ...] = (
    "van", "de", "van der", "van den", "van de", "ter", "ten", "van 't", "in 't", "op de", "den",
)

TITLES: frozenset[str] = frozenset(
    {"dhr.", "dhr", "mw.", "mw", "mevr.", "mevr", "mej.", "hr.", "dr.", "dr", "drs.", "prof.",
     "ir.", "ing.", "mr.", "zr.", "br.", "mevrouw", "meneer", "heer", "dokter", "zuster", "collega"}
)

EXTRA_FIRST_NAMES: tuple[str, ...] = (
    "Piet", "Kees", "Henk", "Klaas", "Wim", "Gert", "Bert", "Joop", "Sjaak", "Harm", "Geert",
    "Marie", "Els", "Truus", "Ria", "Annie", "Corrie", "Gerda", "Ineke", "Marijke", "Willemijn",
)

MONTHS: tuple[str, ...] = (
    "januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september",
    "oktober", "november", "december",
)
MONTH_ABBR: tuple[str, ...] = (
    "jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec",
)
MONTH_INPUT: dict[str, tuple[int, bool]] = {
    **{m: (i + 1, False) for i, m in enumerate(MONTHS)},
    **{m: (i + 1, True) for i, m in enumerate(MONTH_ABBR) if m != "mei"},
    "sept": (9, True), "maa": (3, True), "mar": (3, True), "okto": (10, True),
}
WEEKDAYS: tuple[str, ...] = (
    "maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag",
)
WEEKDAY_ABBR: tuple[str, ...] = ("ma", "di", "wo", "do", "vr", "za", "zo")
WEEKDAY_INPUT: dict[str, tuple[int, bool]] = {
    **{w: (i, False) for i, w in enumerate(WEEKDAYS)},
    **{w: (i, True) for i, w in enumerate(WEEKDAY_ABBR)},
}

HOSPITAL_PREFIXES = ("Ziekenhuis", "Medisch Centrum", "Streekziekenhuis", "Ziekenhuisgroep",
                     "Algemeen Ziekenhuis", "Zorggroep", "Ziekenhuis De")
HOSPITAL_SAINTS = ("St. Antonius", "Sint Jansdal", "St. Elisabeth", "Sint Franciscus", "St. Anna",
                   "Sint Maartens", "St. Jozef", "Sint Lucas", "St. Radboud", "Sint Catharina",
                   "St. Bavo", "Sint Willibrord")
HOSPITAL_SUFFIXES = ("Ziekenhuis", "Gasthuis", "Kliniek", "Medisch Centrum")
HOSPITAL_REGIONS = ("Rivierenland", "Gelderse Vallei", "Noordwest", "Zuidoost", "Amstelland",
                    "Waterland", "De Kempen", "Twente", "Westfriesland", "Zeeuws-Vlaanderen",
                    "Rijnmond", "Bernhoven", "Tjongerschans", "Rijnstate", "Gelre", "Nij Smellinghe",
                    "Het Baken", "Oosterschelde", "Holland Midden", "De Lichtenberg", "Kennemerland",
                    "Veluwezoom", "Midden-Brabant", "Hart van Drenthe", "IJsselland", "Flevoland")
HOSPITAL_ACRONYM_TAILS = ("MC", "Z", "ZH", "UMC", "G", "MCZ")

CARE_TYPES = ("Zorgcentrum", "Woonzorgcentrum", "Verpleeghuis", "Revalidatiecentrum", "Hospice",
              "Verzorgingshuis", "Thuiszorg", "Zorgvilla", "Woonzorggroep", "Dagbehandeling",
              "Zorgboerderij", "Psychiatrisch Centrum", "Huisartsenpraktijk", "Gezondheidscentrum",
              "Kinderdagverblijf", "Woonvoorziening", "Zorgorganisatie", "Verpleegcentrum")
CARE_NAMES = ("De Linde", "Het Anker", "De Wilgenhof", "Het Baken", "De Zonnebloem", "Avondrood",
              "De Eikenhorst", "Het Lindelicht", "De Meerwaarde", "Rustoord", "De Horst",
              "Het Spectrum", "De Beukenhof", "Huize Vredenburg", "De Vlinder", "Het Kompas",
              "De Kastanjehof", "De Schutse", "Overwaard", "De Bloemenhof", "Het Hooge Veld",
              "De Regenboog", "Nieuw Rijnhove", "De Berkenhof", "Sonnevanck", "Het Zonnehuis")
CARE_ACRONYMS = ("GGZ", "GGD", "RIBW", "VVT", "MEE", "SDW")

ORG_FORMS = ("BV", "B.V.", "NV", "V.O.F.", "& Zonen", "Groep", "Holding", "Nederland", "Adviesgroep",
             "Installatietechniek", "Transport", "Bouw", "Schoonmaak", "Logistiek", "Accountants")
ORG_PREFIXES = ("Gemeente", "Stichting", "Bouwbedrijf", "Transportbedrijf", "Autobedrijf",
                "Hoveniersbedrijf", "Schildersbedrijf", "Kinderopvang", "Uitzendbureau",
                "Taxicentrale", "Vereniging", "Woningcorporatie", "Bakkerij", "Tandartspraktijk")

LOCATION_KEYWORDS = ("afdeling", "afd.", "kamer", "unit", "locatie", "vleugel", "etage",
                     "verdieping", "paviljoen", "poli", "polikliniek", "gang", "zaal", "bed",
                     "gebouw", "route", "balie", "box", "suite", "team", "verpleegafdeling")
LOCATION_ACRONYMS = ("SEH", "IC", "CCU", "MC", "HDC", "OK", "NICU", "PICU", "EHH", "KNO", "MDL", "CAD",
                     "ICK", "AOA", "VPA", "KBC", "PAAZ", "SPV", "DBC", "NCU")
LOCATION_WORDS = ("Noord", "Zuid", "Oost", "West", "De Linde", "De Eik", "Het Atrium", "De Beuk",
                  "Hoofdgebouw", "Centrum", "Rood", "Blauw", "Geel", "Groen", "De Berk",
                  "Het Hof", "De Tuin", "Dijkzicht", "Parkzicht", "De Lelie", "Het Plein")

# Endings that mark a street rather than a town (no "dam", "burg", "hoven": Rotterdam, Eindhoven).
STREET_SUFFIXES = ("straat", "weg", "laan", "plein", "gracht", "kade", "singel", "dijk", "pad",
                   "hof", "dreef", "steeg", "park", "markt", "baan", "plantsoen", "ring", "wal",
                   "erf", "akker", "dwarsstraat", "boulevard", "allee", "lei", "gaarde", "weide")

EMAIL_DOMAINS = ("gmail.com", "hotmail.com", "ziggo.nl", "kpnmail.nl", "xs4all.nl", "planet.nl",
                 "outlook.com", "live.nl", "home.nl", "hetnet.nl", "casema.nl", "telfort.nl")

PROFESSIONS: tuple[str, ...] = (
    "huisarts", "verpleegkundige", "fysiotherapeut", "leraar", "docent", "timmerman", "loodgieter",
    "elektricien", "boekhouder", "accountant", "advocaat", "notaris", "apotheker", "tandarts",
    "kapper", "bakker", "slager", "boer", "tuinder", "vrachtwagenchauffeur", "buschauffeur",
    "taxichauffeur", "postbode", "schilder", "metselaar", "stukadoor", "lasser", "monteur",
    "automonteur", "kok", "ober", "caissière", "winkelmedewerker", "verkoper", "schoonmaker",
    "magazijnmedewerker", "programmeur", "ingenieur", "architect", "journalist", "politieagent",
    "brandweerman", "militair", "piloot", "stewardess", "secretaresse", "receptioniste",
    "administratief medewerker", "maatschappelijk werker", "psycholoog", "logopedist",
    "ergotherapeut", "verzorgende", "kraamverzorgende", "pedagogisch medewerker", "dierenarts",
    "juf", "hovenier", "visser", "havenarbeider", "bouwvakker", "glazenwasser", "huishoudster",
    "beveiliger", "conducteur", "makelaar", "bankmedewerker", "tekenaar", "fotograaf",
)


@lru_cache(maxsize=1)
def name_lists() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(male first names, female first names, surnames) from Faker nl_NL, cleaned of oddities."""
    from faker.providers.person.nl_NL import Provider

    word = r"[A-Z][a-zëéöüïäè]+"
    male = clean_names(list(Provider.first_names_male) + list(EXTRA_FIRST_NAMES[:11]), rf"^{word}$")
    female = clean_names(list(Provider.first_names_female) + list(EXTRA_FIRST_NAMES[11:]), rf"^{word}$")
    tv = "|".join(re.escape(t) for t in TUSSENVOEGSELS)
    surnames = clean_names(list(Provider.last_names), rf"^(?:(?:{tv}) )?{word}$")
    return male, female, surnames


def _number_words() -> list[str]:
    units = ["", "een", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen"]
    teens = ["tien", "elf", "twaalf", "dertien", "veertien", "vijftien", "zestien", "zeventien",
             "achttien", "negentien"]
    tens = ["", "", "twintig", "dertig", "veertig", "vijftig", "zestig", "zeventig", "tachtig", "negentig"]
    words = [""] + units[1:] + teens
    for t in range(2, 10):
        words.append(tens[t])
        for u in range(1, 10):
            words.append(units[u] + ("ën" if units[u].endswith("e") else "en") + tens[t])
    return words


@lru_cache(maxsize=1)
def surrogate_data() -> SurrogateData:
    """The Dutch word lists for the shared surrogate generators."""
    male, female, surnames = name_lists()
    names = NameLocale(male, female, surnames, titles=TITLES, title_phrases=(("de", "heer"),),
                       particles=TUSSEN_WORDS, new_particles=NEW_TUSSENVOEGSELS, particle_share=0.15)
    dates = DateLocale(MONTHS, MONTH_ABBR, WEEKDAYS, WEEKDAY_ABBR, month_input=MONTH_INPUT,
                       weekday_input=WEEKDAY_INPUT, day_suffix="e|ste|de", time_prefix="om",
                       time_suffix="u(?:ur)?", number_words=tuple(_number_words()))
    return SurrogateData(
        names=names, dates=dates, professions=PROFESSIONS, email_domains=EMAIL_DOMAINS,
        domain_words=("zorg", "ggz", "thuiszorg", "mc", "praktijk"), default_tld="nl",
        phone=PhoneRules(country_code_len=2, trunk="0", service_prefixes=("800", "900"), mobile_digits="6"),
    )
