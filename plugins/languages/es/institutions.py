"""Spanish words for type-aware institution surrogates (``synthdeid.language_kit.institutions``).

Written for synthdeid: the type words are ordinary Spanish words for kinds of institutions; the
names are made of ordinary Spanish words and the saints' names of ``data.py``, in the forms Spanish
institutions take (``Hospital Universitario Santa Lucía``, ``Complejo Hospitalario de Huelva``,
``Laboratorios Alameda``). None comes from a corpus; a few may coincide with real names.
"""

from __future__ import annotations

from synthdeid.toolkit import InstitutionWords

from .data import CARE_KINDS, HOSPITAL_KINDS, ORG_FORMS, ORG_PREFIXES, SAINTS

HOSPITAL_TYPES = HOSPITAL_KINDS + (
    "Hospital",
    "Hospitales",
    "Complejo",
    "Hospitalario",
    "Clínica",
    "Policlínica",
    "Sanatorio",
    "Centro",
    "Médico",
    "Materno",
    "Infantil",
    "Materno-Infantil",
    "Universitaria",
    "General",
    "Alta Resolución",
    "Fundación",
    "Instituto",
    "y",
)
CARE_TYPES = CARE_KINDS + ("Centro", "Salud", "Residencia", "Geriátrica", "Ambulatorio", "Unidad", "Mayores")
ORG_TYPES = (
    tuple(w for p in ORG_PREFIXES for w in p.split() if w != "de")
    + tuple(f for f in ORG_FORMS if f[0].isalpha() and f[0].isupper())
    + (
        "Universidad",
        "Ayuntamiento",
        "Instituto",
        "Colegio",
        "Diputación",
        "Facultad",
        "Consejería",
        "Ministerio",
        "Servicio",
        "Agencia",
        "Escuela",
        "Sociedad",
        "Asociación",
        "Federación",
        "Centro",
        "Penitenciario",
        "Juzgado",
        "Juzgados",
        "Edificio",
        "Grupo",
        "Empresa",
        "Farmacia",
        "Laboratorio",
        "Laboratorios",
        "S.L.",
        "S.A.",
        "Cooperativa",
        "Mutua",
        "Seguros",
        "Banco",
    )
)
ORG_NAMES = (
    "Alameda",
    "Iberlab",
    "Farmalia",
    "Grupo Alcázar",
    "Solana",
    "Meridiana",
    "Vitalia",
    "Nexalud",
    "Almenara",
    "Serrania",
    "Torreblanca",
    "Medilab",
    "Aldaba",
    "Albora",
    "Portalia",
    "Brisamar",
    "Levantia",
    "Castellana",
    "Mirador",
    "Horizonte",
    "Quercus",
    "Atalaya",
    "Navarra Salud",
    "Biofarma",
    "Candela",
    "Lucero",
    "Olivar",
    "Ribera",
    "Sierra Verde",
    "Vegamar",
)
ORG_ACRONYMS = (
    "ASEM",
    "FEDAP",
    "CESAL",
    "ADEMA",
    "SEMFA",
    "AMPA",
    "INSAL",
    "FAMSA",
    "UNESP",
    "CODEM",
    "SAPAL",
    "AESAL",
)


def _initials(name: str) -> str:
    return "".join(w[0].upper() for w in name.split() if w[0].isalpha() and w not in ("de", "del", "la", "los"))


HOSPITAL_ACRONYMS = tuple(sorted({head + _initials(s) for s in SAINTS for head in ("H", "HU", "HG", "CHU")}))
"""A hospital's kind and a saint's initials (``HUSL``, ``HGVC``): the acronyms of hospital names
this pack would write."""

SPANISH_INSTITUTIONS = InstitutionWords(
    types={"hospital": HOSPITAL_TYPES, "care": CARE_TYPES, "organization": ORG_TYPES},
    name_templates={
        "hospital": ("{saint}", "{saint}", "{city}"),
        "care": ("{care_name}",),
        "organization": ("{org_name}",),
    },
    part_templates={
        "hospital": ("{saint}", "de {city}"),
        "care": ("{care_name}", "de {city}", "{city}"),
        "organization": ("de {city}", "{org_name}"),
    },
    type_parts={"ayuntamiento": ("de {city}",), "diputación": ("de {city}",), "universidad": ("de {city}",)},
    acronyms={"hospital": HOSPITAL_ACRONYMS, "organization": ORG_ACRONYMS},
    place_words=("de", "del"),
    saint_words=("San", "Santa", "Santo", "Virgen", "Nuestra", "Ntra.", "Sta.", "Sto."),
    saints=SAINTS,
)
