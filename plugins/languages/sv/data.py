"""Swedish word lists: abbreviations, names, dates, places, institutions and professions."""

from __future__ import annotations

from functools import lru_cache

from synthdeid.toolkit import DateLocale, NameLocale, PhoneRules, SurrogateData, clean_names, name_input

ABBREVIATIONS: tuple[str, ...] = (
    "t.ex.",
    "bl.a.",
    "m.m.",
    "o.s.v.",
    "osv.",
    "dvs.",
    "d.v.s.",
    "ca.",
    "kl.",
    "pat.",
    "ssk.",
    "usk.",
    "dr.",
    "nr.",
    "tel.",
    "tfn.",
    "st.",
    "resp.",
    "enl.",
    "inkl.",
    "exkl.",
    "f.d.",
    "p.g.a.",
    "pga.",
    "ev.",
    "s.k.",
    "sk.",
    "fr.o.m.",
    "t.o.m.",
    "o.d.",
    "jfr.",
    "avd.",
    "v.b.",
    "vb.",
    "mån.",
    "tis.",
    "ons.",
    "tors.",
    "fre.",
    "lör.",
    "sön.",
    "jan.",
    "feb.",
    "mar.",
    "apr.",
    "jun.",
    "jul.",
    "aug.",
    "sep.",
    "sept.",
    "okt.",
    "nov.",
    "dec.",
    "iv.",
    "po.",
    "sc.",
    "im.",
    "u.a.",
    "obs.",
    "kap.",
    "m.fl.",
    "mfl.",
    "etc.",
    "ang.",
    "el.",
    "resp.",
    "enl.",
    "f.ö.",
    "fö.",
    "p.o.",
    "i.v.",
    "s.c.",
    "i.m.",
    "mg.",
    "ml.",
    "tabl.",
    "inj.",
    "mkt.",
    "ggr.",
    "dgr.",
    "tim.",
    "min.",
    "sek.",
    "v.",
    "d.",
    "hr.",
)
SENTENCE_FINAL_ABBREVIATIONS = frozenset({"osv.", "o.s.v.", "m.m.", "etc.", "m.fl.", "mfl."})

TITLES = frozenset(
    {
        "dr.",
        "dr",
        "doktor",
        "syster",
        "ssk",
        "ssk.",
        "usk",
        "usk.",
        "herr",
        "fru",
        "fröken",
        "pat.",
        "patienten",
        "läkare",
        "överläkare",
        "prof.",
        "professor",
        "leg.",
    }
)
PARTICLES = frozenset({"von", "af", "van", "de", "la", "del", "di", "el", "al"})

MONTHS = (
    "januari",
    "februari",
    "mars",
    "april",
    "maj",
    "juni",
    "juli",
    "augusti",
    "september",
    "oktober",
    "november",
    "december",
)
MONTH_ABBR = ("jan", "feb", "mar", "apr", "maj", "jun", "jul", "aug", "sep", "okt", "nov", "dec")
WEEKDAYS = ("måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag", "söndag")
WEEKDAY_ABBR = ("mån", "tis", "ons", "tors", "fre", "lör", "sön")
# Swedish numeric dates besides ISO and d/m: "12/3 2019", "12/3-19", compact "20190312", "190312"
EXTRA_DATE_PATTERNS = (
    r"(?P<d>\d{1,2})/(?P<m>\d{1,2})(?P<s>[\s-])(?P<y>\d{4}|\d{2})",
    r"(?P<y>(?:19|20)\d{2})(?P<m>[01]\d)(?P<d>[0-3]\d)",
    r"(?P<y>\d{2})(?P<m>[01]\d)(?P<d>[0-3]\d)",
)


def _number_words() -> tuple[str, ...]:
    units = ("", "ett", "två", "tre", "fyra", "fem", "sex", "sju", "åtta", "nio")
    teens = ("tio", "elva", "tolv", "tretton", "fjorton", "femton", "sexton", "sjutton", "arton", "nitton")
    tens = ("tjugo", "trettio", "fyrtio", "femtio", "sextio", "sjuttio", "åttio", "nittio")
    words = list(units) + list(teens)
    for t in tens:
        words += [t] + [t + u for u in units[1:]]
    return tuple(words)


HOSPITAL_FORMS = (
    "{city} sjukhus",
    "{city}s lasarett",
    "Universitetssjukhuset i {city}",
    "{city} universitetssjukhus",
    "Centralsjukhuset i {city}",
    "Sjukhuset i {city}",
    "{city}s närsjukhus",
)
HOSPITAL_SAINTS = (
    "Sankt Görans sjukhus",
    "Ersta sjukhus",
    "Sophiahemmet",
    "Sankt Lukas sjukhus",
    "Capio Sankt Eriks sjukhus",
    "Sankt Olofs sjukhus",
)
CARE_KINDS = (
    "Vårdcentralen",
    "Äldreboendet",
    "Hemtjänsten",
    "Psykiatriska mottagningen",
    "Barnavårdscentralen",
    "Rehabiliteringsenheten",
    "Hälsocentralen",
    "Korttidsboendet",
)
CARE_NAMES = (
    "Solgården",
    "Björkhagen",
    "Linden",
    "Ekbacken",
    "Tallgården",
    "Sjöstaden",
    "Rosengården",
    "Lärkan",
    "Vitsippan",
    "Fridhem",
    "Sörgården",
    "Strandängen",
)
ORG_FORMS = ("AB", "Bygg AB", "& Söner", "Konsult AB", "Transport AB", "Handelsbolag")
ORG_PREFIXES = ("Region", "Kommunen i", "Försäkringskassan", "Arbetsförmedlingen", "Skatteverket", "Länsstyrelsen i")

STREET_SUFFIXES = (
    "gatan",
    "vägen",
    "gränd",
    "torget",
    "stigen",
    "allén",
    "backen",
    "plan",
    "leden",
    "gata",
    "väg",
    "torg",
    "platsen",
    "kajen",
    "slingan",
    "stråket",
    "esplanaden",
    "parken",
    "liden",
    "gården",
    "berget",
    "udden",
    "promenaden",
    "bron",
    "gången",
)
LOCATION_KEYWORDS = (
    "avdelning",
    "avd.",
    "avd",
    "sal",
    "rum",
    "mottagning",
    "mottagningen",
    "enhet",
    "våning",
    "plan",
    "sängplats",
    "säng",
    "korridor",
    "vårdsal",
    "hus",
)
LOCATION_WORDS = ("Norr", "Söder", "Öst", "Väst", "Blå", "Gul", "Grön", "Röd", "Linden", "Eken", "Björken", "Lönnen")
LOCATION_ACRONYMS = ("IVA", "AVA", "BB", "NIVA", "HIA", "KAVA", "MAVA", "PIVA", "CIVA", "BUP")

EMAIL_DOMAINS = (
    "gmail.com",
    "hotmail.com",
    "telia.com",
    "live.se",
    "yahoo.se",
    "outlook.com",
    "hotmail.se",
    "bredband.net",
    "comhem.se",
    "spray.se",
)

PROFESSIONS = (
    "läkare",
    "sjuksköterska",
    "undersköterska",
    "lärare",
    "förskollärare",
    "snickare",
    "rörmokare",
    "elektriker",
    "målare",
    "murare",
    "mekaniker",
    "lastbilschaufför",
    "busschaufför",
    "taxichaufför",
    "lantbrukare",
    "fiskare",
    "bagare",
    "slaktare",
    "kock",
    "servitör",
    "servitris",
    "butiksbiträde",
    "frisör",
    "kontorist",
    "ekonom",
    "revisor",
    "advokat",
    "jurist",
    "apotekare",
    "tandläkare",
    "sjukgymnast",
    "fysioterapeut",
    "psykolog",
    "kurator",
    "ingenjör",
    "arkitekt",
    "programmerare",
    "journalist",
    "polis",
    "brandman",
    "militär",
    "pilot",
    "flygvärdinna",
    "sekreterare",
    "städare",
    "lagerarbetare",
    "svetsare",
    "personlig assistent",
    "barnskötare",
    "vaktmästare",
    "brevbärare",
    "veterinär",
    "präst",
    "pensionär",
    "student",
    "skogsarbetare",
    "byggnadsarbetare",
    "säljare",
)

SWAP_GROUPS = (
    ("man", "kvinna"),
    ("pojke", "flicka"),
    ("manlig", "kvinnlig"),
    (
        "mor",
        "far",
        "moster",
        "morbror",
        "faster",
        "farbror",
        "syster",
        "bror",
        "dotter",
        "son",
        "mormor",
        "morfar",
        "farmor",
        "farfar",
        "hustru",
        "make",
        "maka",
    ),
    ("mamma", "pappa"),
    ("föräldrar", "syskon", "barn", "anhöriga"),
)


@lru_cache(maxsize=1)
def name_lists() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(male first names, female first names, surnames) from Faker sv_SE."""
    from faker.providers.person.sv_SE import Provider

    word = r"[A-ZÅÄÖÉ][a-zåäöéü]+"
    first = rf"^{word}(?:-{word})?$"
    return (
        clean_names(list(Provider.first_names_male), first),
        clean_names(list(Provider.first_names_female), first),
        clean_names(list(Provider.last_names), rf"^{word}$"),
    )


@lru_cache(maxsize=1)
def surrogate_data() -> SurrogateData:
    """The Swedish word lists for the shared surrogate generators."""
    male, female, surnames = name_lists()
    names = NameLocale(male, female, surnames, titles=TITLES, particles=PARTICLES)
    dates = DateLocale(
        MONTHS,
        MONTH_ABBR,
        WEEKDAYS,
        WEEKDAY_ABBR,
        month_input=name_input(MONTHS, MONTH_ABBR, {"sept": 9}),
        day_suffix=":e|:a",
        time_prefix=r"kl\.?|klockan",
        extra_patterns=EXTRA_DATE_PATTERNS,
        number_words=_number_words(),
    )
    return SurrogateData(
        names=names,
        dates=dates,
        professions=PROFESSIONS,
        email_domains=EMAIL_DOMAINS,
        domain_words=("vard", "region", "sjukhus", "halsa", "klinik"),
        path_words=(
            "kontakt",
            "besok",
            "information",
            "nyheter",
            "mottagning",
            "vard",
            "patient",
            "om-oss",
            "tjanster",
        ),
        default_tld="se",
        phone=PhoneRules(country_code_len=2, trunk="0", mobile_digits="7"),
        swap_groups=SWAP_GROUPS,
    )
