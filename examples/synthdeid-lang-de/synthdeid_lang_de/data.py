"""German word lists: abbreviations, names, dates, places, institutions and professions."""

from __future__ import annotations

from functools import lru_cache

from synthdeid.toolkit import DateLocale, NameLocale, PhoneRules, SurrogateData, clean_names, name_input

ABBREVIATIONS: tuple[str, ...] = (
    "hr.", "fr.", "dr.", "med.", "prof.", "dipl.", "z.b.", "u.a.", "bzw.", "ca.", "ggf.", "v.a.",
    "z.n.", "st.p.", "usw.", "etc.", "tel.", "str.", "nr.", "i.v.", "p.o.", "s.c.", "i.m.", "tgl.",
    "pat.", "geb.", "evtl.", "inkl.", "max.", "min.", "mind.", "d.h.", "o.g.", "s.o.", "s.u.",
    "vgl.", "zzgl.", "abt.", "std.", "wo.", "mo.", "di.", "mi.", "do.", "fr.", "sa.", "so.", "jan.",
    "feb.", "mär.", "apr.", "jun.", "jul.", "aug.", "sep.", "sept.", "okt.", "nov.", "dez.", "z.zt.",
    "zzt.", "bds.", "li.", "re.", "j.", "mg.", "ml.",
)
SENTENCE_FINAL_ABBREVIATIONS = frozenset({"usw.", "etc.", "u.a.", "s.o.", "s.u."})

TITLES = frozenset({"herr", "hr.", "hr", "frau", "fr.", "fr", "dr.", "dr", "med.", "prof.", "dipl.-med.",
                    "pd", "schwester", "pfleger", "oa", "ca", "pat."})
PARTICLES = frozenset({"von", "van", "zu", "vom", "zum", "de", "der", "den"})
NEW_PARTICLES = ("von", "von der", "zu")

MONTHS = ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
          "Oktober", "November", "Dezember")
MONTH_ABBR = ("Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez")
WEEKDAYS = ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag")
WEEKDAY_ABBR = ("Mo", "Di", "Mi", "Do", "Fr", "Sa", "So")
# "12.3." and "12.03." (day and month with the closing period)
EXTRA_DATE_PATTERNS = (r"(?P<d>\d{1,2})(?P<s>\.)(?P<m>\d{1,2})\.",)

HOSPITAL_FORMS = ("Klinikum {city}", "Universitätsklinikum {city}", "Kreiskrankenhaus {city}",
                  "Städtisches Klinikum {city}", "Krankenhaus {city}", "Helios Klinikum {city}")
HOSPITAL_SAINTS = ("St. Marien-Krankenhaus", "St. Josef-Hospital", "Evangelisches Krankenhaus",
                   "St. Elisabeth-Klinik", "Marienhospital", "Klinikum St. Georg")
CARE_KINDS = ("Pflegeheim", "Seniorenzentrum", "Sozialstation", "Pflegedienst", "Tagesklinik",
              "Wohnstift", "Hospiz", "Reha-Zentrum")
CARE_NAMES = ("Am Park", "Sonnenhof", "Lindenhof", "Haus Abendrot", "Rosengarten", "Am Mühlbach",
              "Waldblick", "Haus Elisabeth", "Kastanienhof", "Birkenhain")
ORG_PREFIXES = ("Stadtverwaltung", "Landratsamt", "Jobcenter", "Gemeinde", "Stadtwerke")
ORG_FORMS = ("GmbH", "GmbH & Co. KG", "AG", "KG", "e.V.", "und Söhne")

STREET_SUFFIXES = ("straße", "strasse", "str.", "weg", "allee", "platz", "gasse", "ring", "damm",
                   "ufer", "chaussee", "steig", "pfad", "markt", "graben", "berg", "hof", "wall")
LOCATION_KEYWORDS = ("Station", "Zimmer", "Raum", "Ebene", "Etage", "Haus", "Bereich", "Bett", "Stat.")
LOCATION_WORDS = ("Nord", "Süd", "Ost", "West", "Blau", "Grün", "Gelb", "Rot", "Linde", "Eiche")
LOCATION_ACRONYMS = ("ITS", "IMC", "ZNA", "OP", "KIS", "PACU", "NIS", "SIS")

EMAIL_DOMAINS = ("gmx.de", "web.de", "t-online.de", "gmail.com", "freenet.de", "yahoo.de", "outlook.de",
                 "posteo.de")
PROFESSIONS = (
    "Ärztin", "Arzt", "Krankenschwester", "Pfleger", "Altenpflegerin", "Lehrer", "Lehrerin",
    "Schreiner", "Installateur", "Elektriker", "Maler", "Maurer", "Mechaniker", "Lkw-Fahrer",
    "Busfahrer", "Taxifahrer", "Landwirt", "Bäcker", "Metzger", "Koch", "Kellnerin", "Verkäuferin",
    "Friseurin", "Bürokauffrau", "Buchhalter", "Rechtsanwalt", "Apothekerin", "Zahnarzt",
    "Physiotherapeutin", "Psychologin", "Ingenieur", "Architekt", "Programmierer", "Journalistin",
    "Polizist", "Feuerwehrmann", "Soldat", "Pilot", "Sekretärin", "Reinigungskraft", "Lagerarbeiter",
    "Schweißer", "Erzieherin", "Hausmeister", "Briefträger", "Tierarzt", "Rentner", "Student",
)
SWAP_GROUPS = (
    ("männlich", "weiblich"), ("Mann", "Frau"), ("Junge", "Mädchen"),
    ("Mutter", "Vater", "Tante", "Onkel", "Schwester", "Bruder", "Tochter", "Sohn", "Großmutter",
     "Großvater", "Ehefrau", "Ehemann"),
    ("Eltern", "Geschwister", "Kinder", "Angehörige"),
)


@lru_cache(maxsize=1)
def name_lists() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(male first names, female first names, surnames) from Faker de_DE, single names only."""
    from faker.providers.person.de_DE import Provider

    word = r"[A-ZÄÖÜ][a-zäöüß]+"
    first = rf"^{word}(?:-{word})?$"
    return (clean_names(Provider.first_names_male, first), clean_names(Provider.first_names_female, first),
            clean_names(Provider.last_names, rf"^{word}$"))


@lru_cache(maxsize=1)
def surrogate_data() -> SurrogateData:
    """The German word lists for synthdeid's shared surrogate generators."""
    male, female, surnames = name_lists()
    names = NameLocale(male, female, surnames, titles=TITLES, particles=PARTICLES,
                       new_particles=NEW_PARTICLES, particle_share=0.03)
    dates = DateLocale(
        MONTHS, MONTH_ABBR, WEEKDAYS, WEEKDAY_ABBR,
        month_input=name_input(MONTHS, MONTH_ABBR, {"Maerz": 3, "Mrz": 3, "Sept": 9}),
        day_suffix=r"\.", day_month=r"[\s./-]*", time_prefix="um", time_suffix="Uhr|h",
        extra_patterns=EXTRA_DATE_PATTERNS,
    )
    return SurrogateData(
        names=names, dates=dates, professions=PROFESSIONS, email_domains=EMAIL_DOMAINS,
        domain_words=("praxis", "klinik", "pflege", "gesundheit", "med"), default_tld="de",
        phone=PhoneRules(country_code_len=2, trunk="0", mobile_digits="1", mobile_min_rest=9),
        swap_groups=SWAP_GROUPS,
    )
