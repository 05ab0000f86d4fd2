"""Dutch words for type-aware institution surrogates (``synthdeid.language_kit.institutions``).

Written for synthdeid: the type words are ordinary Dutch words for kinds of institutions; the
names are made of ordinary Dutch words and the region names of ``data.py``, in the forms Dutch
institutions take (``De Linde``, ``Horizon``, ``Zorggroep Waterland``). None comes from a
corpus; a few may coincide with real institutions' names, as ordinary words do.
"""

from __future__ import annotations

from synthdeid.toolkit import InstitutionWords

from .data import CARE_ACRONYMS, CARE_TYPES, HOSPITAL_REGIONS, HOSPITAL_SAINTS, ORG_FORMS, ORG_PREFIXES

HOSPITAL_TYPES = (
    "Ziekenhuis",
    "Streekziekenhuis",
    "Ziekenhuisgroep",
    "Ziekenhuizen",
    "Medisch Centrum",
    "MC",
    "UMC",
    "Universitair",
    "Academisch",
    "Algemeen",
    "Gasthuis",
    "Kliniek",
    "Zorggroep",
)
CARE_TYPE_WORDS = CARE_TYPES + (
    "Huize",
    "Dagbesteding",
    "Logeerhuis",
    "Woongroep",
    "Woonzorgpark",
    "Kleinschalig",
    "Wonen",
    "Zorggroep",
    "Zorgcentra",
    "Verpleeghuizen",
    "Hospice",
    "Wijkverpleging",
    "Kraamzorg",
    "Thuiszorgorganisatie",
)
ORG_TYPE_WORDS = (
    ORG_PREFIXES
    + tuple(f for f in ORG_FORMS if f[0].isalpha())
    + (
        "Apotheek",
        "Apotheken",
        "Huisartsenpraktijk",
        "Fysiotherapie",
        "Fysiotherapiepraktijk",
        "Praktijk",
        "Thuiszorg",
        "Zorgverzekeraar",
        "Verzekeringen",
        "Bank",
        "Basisschool",
        "School",
        "Scholengemeenschap",
        "Wijkteam",
        "Loket",
        "WMO-loket",
        "Orthopedie",
        "Accountants",
        "Advocaten",
        "Notariaat",
        "Makelaardij",
        "Timmerbedrijf",
        "Installatiebedrijf",
        "Supermarkt",
        "Garage",
        "Kapsalon",
        "Restaurant",
        "Hotel",
        "Sportschool",
        "Dierenkliniek",
        "Waterschap",
        "Provincie",
    )
)
ORG_NAMES = (
    "Horizon",
    "Het Kompas",
    "Zonnestraal",
    "Noorderlicht",
    "De Schakel",
    "Samen Verder",
    "Vitalis",
    "Morgenrood",
    "Duinrand",
    "Waterweg",
    "Het Veer",
    "De Brug",
    "Ooievaar",
    "Zuiderzon",
    "De Molenwiek",
    "Lindeboom",
    "Het Baken",
    "Vlietland",
    "De Eendracht",
    "Zeester",
    "De Wissel",
    "Kroonwerk",
    "Heuvelrug",
    "Goudvink",
    "De Boog",
    "Rivierzicht",
    "Dijkgraaf",
    "Het Gilde",
    "De Vaart",
    "Stroomland",
    "Polderlicht",
    "De Kroon",
    "Veldzicht",
    "Nieuwe Haven",
    "Klaverblad",
    "Het Anker",
    "Oranjehof",
    "De Meander",
    "Wilgenrijk",
    "Zilverberk",
)
ORG_ACRONYMS = ("SVZ", "KBO", "ZVN", "RWB", "NVZ", "BVZ", "SZW", "GZN", "WBO", "KZO", "OVN", "HVW", "RZO", "VZG")


def _initials(name: str) -> str:
    return "".join(w[0].upper() for w in name.replace("-", " ").split() if w[0].isalpha())


HOSPITAL_ACRONYMS = tuple(
    sorted(a for a in {_initials(r) + tail for r in HOSPITAL_REGIONS for tail in ("Z", "MC", "G")} if len(a) >= 3)
)
"""A region's initials and a hospital's ending (``RZ``, ``GVMC``): the acronyms of hospital names
this pack would write."""

DUTCH_INSTITUTIONS = InstitutionWords(
    types={"hospital": HOSPITAL_TYPES, "care": CARE_TYPE_WORDS, "organization": ORG_TYPE_WORDS},
    type_suffixes={
        "organization": (
            "bedrijf",
            "makerij",
            "winkel",
            "praktijk",
            "handel",
            "beheer",
            "centrale",
            "bureau",
            "dienst",
            "school",
            "opvang",
            "apotheek",
            "verzekeraar",
            "corporatie",
            "vereniging",
        ),
        "care": ("centrum", "praktijk"),
    },
    name_templates={
        "hospital": ("{region}", "{saint}", "{region}"),
        "care": ("{care_name}",),
        "organization": ("{org_name}",),
    },
    part_templates={
        "hospital": ("{region}", "{city}", "{saint}"),
        "care": ("{care_name}", "{care_name}", "{city}"),
        "organization": ("{city}", "{care_name}", "{org_name}"),
    },
    type_parts={"gemeente": ("{city}",), "provincie": ("{region}",), "waterschap": ("{region}",)},
    acronyms={"hospital": HOSPITAL_ACRONYMS, "care": CARE_ACRONYMS, "organization": ORG_ACRONYMS},
    place_words=("van", "te", "in"),
    saint_words=("Sint", "St.", "St"),
    saints=HOSPITAL_SAINTS,
)
