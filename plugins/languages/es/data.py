"""Spanish word lists: abbreviations, names, dates, places, institutions and professions."""

from __future__ import annotations

from functools import lru_cache

from synthdeid.toolkit import DateLocale, NameLocale, PhoneRules, SurrogateData, clean_names, name_input

ABBREVIATIONS: tuple[str, ...] = (
    "sr.",
    "sra.",
    "srta.",
    "dr.",
    "dra.",
    "d.",
    "dña.",
    "dª.",
    "ud.",
    "uds.",
    "núm.",
    "pág.",
    "aprox.",
    "etc.",
    "p.ej.",
    "avda.",
    "av.",
    "c/",
    "izq.",
    "izqda.",
    "dcha.",
    "izda.",
    "drcha.",
    "tel.",
    "tfno.",
    "telf.",
    "fax.",
    "hosp.",
    "min.",
    "seg.",
    "a.m.",
    "p.m.",
    "ee.uu.",
    "s.a.",
    "s.l.",
    "prof.",
    "lic.",
    "ldo.",
    "lda.",
    "ctra.",
    "pza.",
    "pl.",
    "esc.",
    "dto.",
    "vs.",
    "art.",
    "apdo.",
    "dpto.",
    "sto.",
    "sta.",
    "fdo.",
    "ej.",
    "cap.",
    "vol.",
    "ref.",
    "urb.",
    "mg.",
    "ml.",
    "kg.",
    "cm.",
    "mm.",
    "gr.",
    "mmhg.",
    "lpm.",
    "rpm.",
    "hab.",
    "n.º",
    "pta.",
    "bpm.",
    "ene.",
    "feb.",
    "mar.",
    "abr.",
    "jun.",
    "jul.",
    "ago.",
    "sep.",
    "sept.",
    "oct.",
    "nov.",
    "dic.",
    "lun.",
    "mié.",
    "jue.",
    "vie.",
    "sáb.",
    "dom.",
    "cols.",
    "col.",
    "fig.",
    "máx.",
    "mín.",
    "adm.",
    "cía.",
)
SENTENCE_FINAL_ABBREVIATIONS = frozenset({"etc.", "ee.uu.", "s.a.", "s.l."})

TITLES = frozenset(
    {
        "sr.",
        "sr",
        "sra.",
        "sra",
        "srta.",
        "srta",
        "dr.",
        "dr",
        "dra.",
        "dra",
        "d.",
        "dña.",
        "dña",
        "dª",
        "don",
        "doña",
        "prof.",
        "lic.",
        "ldo.",
        "lda.",
        "doctor",
        "doctora",
        "señor",
        "señora",
    }
)
PARTICLES = frozenset({"de", "del", "la", "las", "los"})

MONTHS = (
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
)
MONTH_ABBR = ("ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic")
WEEKDAYS = ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo")
WEEKDAY_ABBR = ("lun", "mar", "mié", "jue", "vie", "sáb", "dom")


def _number_words() -> tuple[str, ...]:
    units = ("", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve")
    to_29 = (
        "diez",
        "once",
        "doce",
        "trece",
        "catorce",
        "quince",
        "dieciséis",
        "diecisiete",
        "dieciocho",
        "diecinueve",
        "veinte",
        "veintiuno",
        "veintidós",
        "veintitrés",
        "veinticuatro",
        "veinticinco",
        "veintiséis",
        "veintisiete",
        "veintiocho",
        "veintinueve",
    )
    tens = ("treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa")
    words = list(units) + list(to_29)
    for t in tens:
        words += [t] + [f"{t} y {u}" for u in units[1:]]
    return tuple(words)


HOSPITAL_KINDS = (
    "General",
    "Clínico",
    "Universitario",
    "Comarcal",
    "Provincial",
    "Regional",
    "General Universitario",
    "Clínico Universitario",
)
SAINTS = (
    "San Juan de Dios",
    "Santa Lucía",
    "Virgen de la Luz",
    "San Pedro",
    "Santa Bárbara",
    "Nuestra Señora del Prado",
    "San Rafael",
    "Santa María del Rosell",
    "Virgen de la Salud",
    "San Cecilio",
    "Virgen de la Concha",
    "Santa Marina",
    "San Jorge",
    "Virgen del Puerto",
    "Santa Cristina",
    "San Eloy",
    "Virgen de los Lirios",
    "Nuestra Señora de Sonsoles",
)
CARE_NAMES = (
    "Los Olivos",
    "San José",
    "El Pinar",
    "La Alameda",
    "Santa Teresa",
    "Las Acacias",
    "El Carmen",
    "Los Almendros",
    "La Fuensanta",
    "El Parque",
    "Las Huertas",
    "Vista Alegre",
)
CARE_KINDS = (
    "Centro de Salud",
    "Residencia",
    "Centro de Día",
    "Consultorio",
    "Centro de Especialidades",
    "Centro de Atención Primaria",
    "Residencia de Mayores",
)
ORG_PREFIXES = (
    "Universidad de",
    "Ayuntamiento de",
    "Fundación",
    "Instituto de Salud de",
    "Colegio Oficial de Médicos de",
    "Diputación de",
    "Facultad de Medicina de",
)
ORG_FORMS = ("S.L.", "S.A.", "e Hijos", "Asociados", "Consultores", "Construcciones", "Transportes", "Laboratorios")

STREET_PREFIXES = (
    "calle",
    "c/",
    "c.",
    "cl.",
    "avenida",
    "avda.",
    "avda",
    "av.",
    "paseo",
    "pº",
    "p.º",
    "plaza",
    "pza.",
    "pl.",
    "ronda",
    "travesía",
    "camino",
    "glorieta",
    "carretera",
    "ctra.",
    "urbanización",
    "urb.",
    "pasaje",
    "vía",
    "rambla",
    "callejón",
    "cuesta",
    "alameda",
    "bajada",
    "costanilla",
    "cañada",
    "polígono",
    "barrio",
    "bº",
)
ADDRESS_KEEP = frozenset(
    {
        "s/n",
        "s/n.",
        "sn",
        "sin número",
        "bajo",
        "bajos",
        "dcha",
        "dcha.",
        "izda",
        "izda.",
        "izq.",
        "izq",
        "izqda.",
        "drcha.",
        "dcho.",
        "izdo.",
        "centro",
        "ático",
        "entresuelo",
        "principal",
        "ext.",
        "int.",
    }
)
EXTRA_COUNTRIES = (
    "España",
    "Spain",
    "EE.UU.",
    "EE. UU.",
    "EEUU",
    "USA",
    "Estados Unidos",
    "England",
    "Inglaterra",
    "República Argentina",
    "Reino Unido",
    "Brasil",
)

LOCATION_KEYWORDS = (
    "planta",
    "habitación",
    "hab.",
    "sala",
    "box",
    "consulta",
    "unidad",
    "pabellón",
    "cama",
    "quirófano",
    "módulo",
    "despacho",
    "control",
    "ala",
    "bloque",
)
LOCATION_WORDS = (
    "Norte",
    "Sur",
    "Este",
    "Oeste",
    "Central",
    "Azul",
    "Verde",
    "Roja",
    "Los Pinos",
    "El Olivo",
    "La Fuente",
    "El Patio",
)
LOCATION_ACRONYMS = ("UCI", "URPA", "UCE", "UHD", "REA", "UCIP", "UCIN", "UVI", "UCO", "UCA")

EMAIL_DOMAINS = (
    "gmail.com",
    "hotmail.com",
    "yahoo.es",
    "hotmail.es",
    "telefonica.net",
    "outlook.es",
    "ono.com",
    "terra.es",
    "movistar.es",
    "orange.es",
)

PROFESSIONS = (
    "médico",
    "enfermera",
    "enfermero",
    "auxiliar de enfermería",
    "maestro",
    "maestra",
    "profesor",
    "profesora",
    "carpintero",
    "fontanero",
    "electricista",
    "albañil",
    "pintor",
    "mecánico",
    "camionero",
    "taxista",
    "conductor de autobús",
    "agricultor",
    "ganadero",
    "pescador",
    "minero",
    "panadero",
    "carnicero",
    "cocinero",
    "camarero",
    "camarera",
    "dependienta",
    "dependiente",
    "peluquera",
    "administrativo",
    "administrativa",
    "contable",
    "abogado",
    "abogada",
    "notario",
    "farmacéutico",
    "farmacéutica",
    "dentista",
    "fisioterapeuta",
    "psicólogo",
    "psicóloga",
    "ingeniero",
    "ingeniera",
    "arquitecto",
    "informático",
    "programador",
    "periodista",
    "policía",
    "bombero",
    "militar",
    "guardia civil",
    "piloto",
    "azafata",
    "secretaria",
    "limpiadora",
    "ama de casa",
    "jardinero",
    "soldador",
    "vigilante de seguridad",
    "cartero",
    "veterinario",
    "funcionario",
    "comercial",
    "teleoperadora",
    "cuidadora",
    "jubilado",
    "estudiante",
)

# "Other" words swapped within their group: sex (MEDDOCAN SEXO_SUJETO_ASISTENCIA) and kinship
# (FAMILIARES_SUJETO_ASISTENCIA). The first group a word is in decides.
SWAP_GROUPS = (
    ("H", "M"),
    ("F", "M"),
    ("V", "M"),
    ("varón", "mujer"),
    ("hombre", "mujer"),
    ("masculino", "femenino"),
    ("masculina", "femenina"),
    ("niño", "niña"),
    ("macho", "hembra"),
    ("chico", "chica"),
    (
        "madre",
        "padre",
        "tía",
        "tío",
        "abuela",
        "abuelo",
        "hermana",
        "hermano",
        "hija",
        "hijo",
        "prima",
        "primo",
        "esposa",
        "marido",
        "sobrina",
        "sobrino",
        "cuñada",
        "cuñado",
    ),
    ("padres", "abuelos", "hermanos", "hijos", "tíos", "primos", "sobrinos", "familiares"),
    ("familia", "pareja"),
    ("materna", "paterna"),
    ("materno", "paterno"),
)


@lru_cache(maxsize=1)
def name_lists() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(male first names, female first names, surnames) from Faker es_ES, single words only."""
    from faker.providers.person.es_ES import Provider

    word = r"^[A-ZÁÉÍÓÚÑÜ][a-záéíóúñü]+$"
    male = [n for n in Provider.first_names_male if n != "María"]  # from Faker's "José María"
    female = [n for n in Provider.first_names_female if n != "José"]  # from "María José"
    return clean_names(male, word), clean_names(female, word), clean_names(list(Provider.last_names), word)


@lru_cache(maxsize=1)
def countries() -> frozenset[str]:
    from faker.providers.address.es_ES import Provider

    return frozenset(c.casefold() for c in (*Provider.countries, *EXTRA_COUNTRIES))


@lru_cache(maxsize=1)
def surrogate_data() -> SurrogateData:
    """The Spanish word lists for the shared surrogate generators."""
    male, female, surnames = name_lists()
    names = NameLocale(male, female, surnames, titles=TITLES, particles=PARTICLES, surname_units=2)
    month_input = name_input(MONTHS, MONTH_ABBR, {"sept": 9})
    month_input["setiembre"] = (9, False)
    weekday_input = name_input(WEEKDAYS, WEEKDAY_ABBR, {"miercoles": 2, "sabado": 5}, offset=0)
    dates = DateLocale(
        MONTHS,
        MONTH_ABBR,
        WEEKDAYS,
        WEEKDAY_ABBR,
        month_input=month_input,
        weekday_input=weekday_input,
        day_suffix="º|°",
        day_month=r"\s+de\s+|[\s./-]+",
        month_year=r"\s+del?\s+|[\s./,-]+",
        time_prefix="a las|a la|sobre las",
        time_suffix=r"h\b|horas|hs\b|hrs\b",
        number_words=_number_words(),
    )
    return SurrogateData(
        names=names,
        dates=dates,
        professions=PROFESSIONS,
        email_domains=EMAIL_DOMAINS,
        domain_words=("salud", "clinica", "hospital", "sanidad", "medicos"),
        default_tld="es",
        phone=PhoneRules(country_code_len=2, trunk="", keep_first_digit=True),
        swap_groups=SWAP_GROUPS,
    )
