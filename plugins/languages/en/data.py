"""English (US) word lists: abbreviations, names, dates, places, institutions and professions.

Names come from Faker: the common first names and the 1000 most frequent surnames of ``en_US``
are drawn from; the much larger first-name lists of Faker's ``en`` provider (US birth records)
only help to *recognise* a first name, so an uncommon one ("Mildred", "Delbert") still gets a
first-name surrogate. A name of those large lists that is also one of the common US surnames and
not a common first name ("Smith", "Baker") is read as a surname.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..common.dates import DateLocale, name_input
from ..common.names import NameLocale, clean_names
from ..common.surrogates import PhoneRules, SurrogateData

# Abbreviations written with a final period (or a slash) that stay one token. Dotted letter
# sequences ("p.o.", "b.i.d.", "e.g.", "M.D.") and capital initials ("J.") need no entry.
# These come before what they qualify ("Dr. Smith", "approx. 5", "Jan. 3", "No. 4"): a sentence
# never ends after them.
PREFIX_ABBREVIATIONS: tuple[str, ...] = (
    "dr.", "mr.", "mrs.", "ms.", "messrs.", "prof.", "rev.", "fr.", "st.", "mt.", "ft.", "gen.", "col.",
    "sgt.", "capt.", "lt.", "gov.", "sen.", "rep.",
    "pt.", "pts.", "hx.", "dx.", "tx.", "rx.", "sx.", "fx.", "bx.", "approx.", "vs.", "cf.", "viz.",
    "esp.", "incl.", "excl.", "avg.", "est.", "ca.", "max.", "no.", "nos.", "dept.", "hosp.", "fig.",
    "vol.", "ref.", "tel.", "ext.", "temp.", "wt.", "ht.", "abd.", "resp.", "cont.", "univ.", "assn.",
    "jan.", "feb.", "mar.", "apr.", "jun.", "jul.", "aug.", "sep.", "sept.", "oct.", "nov.", "dec.",
    "mon.", "tue.", "tues.", "thu.", "thur.", "thurs.", "fri.",
    "ave.", "blvd.", "rd.", "ln.", "ct.", "hwy.", "pkwy.", "apt.", "ste.", "bldg.", "fl.", "rm.",
    "e.g.", "i.e.", "u.s.", "u.s.a.",
    # slash shorthand: status post, with(out), history of, years old, care of, rule out, ...
    "s/p", "w/o", "w/", "h/o", "y/o", "c/o", "r/o", "d/c", "f/u", "b/l", "n/v", "s/s", "a/w",
)
# These come after what they qualify (dosing, times, units, "etc.", "Jr.", "M.D."): they are one
# token and never split a sentence before a lower-case word, but a capitalised word or a number
# after them starts a new sentence ("40 mg p.o. b.i.d. Follow up in 2 weeks.").
SENTENCE_FINAL_ABBREVIATIONS: frozenset[str] = frozenset({
    "etc.", "a.m.", "p.m.", "p.o.", "b.i.d.", "t.i.d.", "q.i.d.", "q.d.", "q.o.d.", "q.h.s.", "h.s.",
    "p.r.n.", "q.a.m.", "q.p.m.", "i.v.", "i.m.", "s.c.", "s.q.", "o.d.", "o.s.", "o.u.", "m.d.", "ph.d.",
    "d.o.", "r.n.", "jr.", "sr.", "inc.", "co.", "corp.", "ltd.", "mg.", "mcg.", "kg.", "gm.", "ml.",
    "cc.", "mm.", "cm.", "lb.", "lbs.", "oz.", "meq.", "hr.", "hrs.", "min.", "mins.", "sec.", "wk.",
    "wks.", "yr.", "yrs.", "mo.", "mos.", "med.", "meds.", "tab.", "tabs.", "cap.", "caps.", "inj.",
    "susp.", "sol.", "oint.", "supp.", "gtt.", "gtts.", "neg.", "pos.",
})
ABBREVIATIONS: tuple[str, ...] = PREFIX_ABBREVIATIONS + tuple(sorted(SENTENCE_FINAL_ABBREVIATIONS))

TITLES = frozenset({
    "dr.", "dr", "mr.", "mr", "mrs.", "mrs", "ms.", "ms", "miss", "mx.", "prof.", "prof", "rev.", "fr.",
    "doctor", "professor", "nurse", "sister", "father", "pastor",
})
PARTICLES = frozenset({"van", "von", "de", "del", "della", "da", "di", "du", "la", "le", "st.", "ter"})
# Kept after a name: generational suffixes and degrees ("John Smith Jr.", "Smith, John, M.D.").
NAME_SUFFIXES = ("Jr.", "Jr", "Sr.", "Sr", "II", "III", "IV", "M.D.", "MD", "D.O.", "Ph.D.", "PhD", "R.N.",
                 "DDS", "DMD", "MPH", "FACP", "FACS", "FACC")
# Degrees that could be a name ("Kim Do"): kept only after a comma ("Kim Lee, DO").
NAME_SUFFIXES_AFTER_COMMA = ("DO", "RN", "NP", "PA-C", "PA", "CNM", "LICSW", "MSW", "LPN")

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
MONTH_ABBR = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WEEKDAY_ABBR = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTH_INPUT = name_input(MONTHS, MONTH_ABBR, {"Sept": 9})
WEEKDAY_INPUT = name_input(WEEKDAYS, WEEKDAY_ABBR, {"Tues": 1, "Thur": 3, "Thurs": 3}, offset=0)


def _alternation(words: dict[str, tuple[int, bool]]) -> str:
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))


_MON, _WD = _alternation(MONTH_INPUT), _alternation(WEEKDAY_INPUT)
_WD_PREFIX = rf"(?:(?P<wd>{_WD})\.?,?\s+)?"
# US formats, tried before the shared (day-first) ones; a month-first reading that is no real
# date ("13/05/2067") falls through to the day-first patterns.
EXTRA_DATE_PATTERNS = (
    _WD_PREFIX + r"(?P<m>\d{1,2})(?P<s>[-/.])(?P<d>\d{1,2})(?P=s)(?P<y>\d{4}|\d{2})",  # 05/03/2067, 5/3/67
    _WD_PREFIX + r"(?P<m>\d{1,2})(?P<s>[-/])(?P<d>\d{1,2})",  # 5/3
    r"(?P<m>\d{1,2})/(?P<y>\d{2})",  # 5/67 (month and year when 67 is no day)
    r"(?P<y>(?:19|20|21)\d{2})(?P<m>[01]\d)(?P<d>[0-3]\d)",  # 20670503
    # May 3, 2067 / Tuesday, May 3rd / Sept. 3 '67
    _WD_PREFIX + rf"(?P<mon>{_MON})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+['’]?(?P<y>\d{{4}}|\d{{2}}))?",
)
# "Other" and date words without digits, swapped within their group
SEASONS = ("spring", "summer", "fall", "autumn", "winter")
HOLIDAYS = ("Christmas", "Thanksgiving", "Easter", "New Year's Day", "New Year's Eve", "Halloween",
            "Memorial Day", "Labor Day", "Independence Day", "the Fourth of July", "Veterans Day",
            "Valentine's Day", "Christmas Eve", "Mother's Day", "Father's Day")


def _number_words() -> tuple[str, ...]:
    units = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
    teens = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
             "eighteen", "nineteen")
    tens = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
    words = list(units) + list(teens)
    for t in tens:
        words += [t] + [f"{t}-{u}" for u in units[1:]]
    return tuple(words)


# -- places ------------------------------------------------------------------------------------

STATES: dict[str, str] = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia",
    "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois", "IN": "Indiana",
    "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland",
    "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri",
    "MT": "Montana", "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey",
    "NM": "New Mexico", "NY": "New York", "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio",
    "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina",
    "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont",
    "VA": "Virginia", "WA": "Washington", "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming",
}
STATE_NAMES: frozenset[str] = frozenset(n.casefold() for n in STATES.values())

# Real US cities and towns (not Faker's invented ones), from all regions.
US_CITIES: tuple[str, ...] = tuple(dict.fromkeys((
    "Boston", "Worcester", "Springfield", "Lowell", "Cambridge", "Brockton", "Quincy", "Lynn",
    "New Bedford", "Fall River", "Newton", "Somerville", "Framingham", "Haverhill", "Waltham",
    "Malden", "Medford", "Taunton", "Chicopee", "Weymouth", "Revere", "Peabody", "Methuen",
    "Pittsfield", "Attleboro", "Salem", "Beverly", "Fitchburg", "Leominster", "Gloucester", "Plymouth",
    "Providence", "Warwick", "Cranston", "Pawtucket", "Hartford", "New Haven", "Bridgeport", "Stamford",
    "Waterbury", "Norwalk", "Danbury", "Manchester", "Nashua", "Concord", "Portland", "Bangor",
    "Burlington", "Albany", "Buffalo", "Rochester", "Syracuse", "Yonkers", "Utica", "Schenectady",
    "Binghamton", "Ithaca", "Newark", "Jersey City", "Paterson", "Trenton", "Camden", "Princeton",
    "Philadelphia", "Pittsburgh", "Allentown", "Erie", "Scranton", "Harrisburg", "Lancaster",
    "Baltimore", "Annapolis", "Wilmington", "Dover", "Richmond", "Norfolk", "Roanoke", "Charlottesville",
    "Charlotte", "Raleigh", "Durham", "Greensboro", "Asheville", "Charleston", "Columbia", "Greenville",
    "Atlanta", "Savannah", "Augusta", "Macon", "Athens", "Jacksonville", "Tampa", "Orlando", "Miami",
    "Tallahassee", "Gainesville", "Pensacola", "Sarasota", "Birmingham", "Montgomery", "Mobile",
    "Huntsville", "Nashville", "Memphis", "Knoxville", "Chattanooga", "Louisville", "Lexington",
    "Cincinnati", "Cleveland", "Columbus", "Toledo", "Akron", "Dayton", "Youngstown", "Detroit",
    "Grand Rapids", "Lansing", "Flint", "Ann Arbor", "Kalamazoo", "Saginaw", "Indianapolis",
    "Fort Wayne", "Evansville", "South Bend", "Bloomington", "Chicago", "Peoria", "Rockford", "Joliet",
    "Naperville", "Champaign", "Milwaukee", "Madison", "Green Bay", "Kenosha", "Minneapolis",
    "Saint Paul", "Duluth", "Rochester", "Des Moines", "Cedar Rapids", "Davenport", "Iowa City",
    "Omaha", "Lincoln", "Wichita", "Topeka", "Kansas City", "St. Louis", "Tulsa", "Oklahoma City",
    "Little Rock", "Fayetteville", "New Orleans", "Baton Rouge", "Shreveport", "Lafayette", "Jackson",
    "Biloxi", "Houston", "Dallas", "Austin", "San Antonio", "Fort Worth", "El Paso", "Lubbock",
    "Amarillo", "Corpus Christi", "Galveston", "Waco", "Denver", "Boulder", "Colorado Springs",
    "Fort Collins", "Pueblo", "Albuquerque", "Santa Fe", "Las Cruces", "Phoenix", "Tucson", "Mesa",
    "Flagstaff", "Salt Lake City", "Provo", "Ogden", "Boise", "Billings", "Missoula", "Cheyenne",
    "Casper", "Las Vegas", "Reno", "Sacramento", "Fresno", "Oakland", "San Diego", "San Jose",
    "Los Angeles", "Long Beach", "Bakersfield", "Santa Barbara", "Pasadena", "Riverside", "Stockton",
    "Modesto", "Berkeley", "Santa Rosa", "Seattle", "Spokane", "Tacoma", "Olympia", "Bellingham",
    "Eugene", "Bend", "Medford", "Anchorage", "Fairbanks", "Juneau", "Honolulu", "Hilo", "Fargo",
    "Bismarck", "Sioux Falls", "Rapid City", "Charleston", "Morgantown", "Huntington",
)))

# Common US street names (the name part; the original's "Street", "Ave." etc. is kept).
STREET_NAMES: tuple[str, ...] = (
    "Main", "Oak", "Pine", "Maple", "Cedar", "Elm", "Washington", "Lake", "Hill", "Park", "Walnut",
    "Church", "Spring", "High", "Center", "Union", "Water", "Chestnut", "Broad", "River", "Franklin",
    "Jefferson", "Lincoln", "Madison", "Jackson", "Highland", "Mill", "Prospect", "Pleasant", "School",
    "Sunset", "Forest", "Meadow", "Ridge", "Willow", "Adams", "Cherry", "Dogwood", "Hickory", "Spruce",
    "Birch", "Magnolia", "Sycamore", "Laurel", "Locust", "Summit", "Valley", "Green", "Front",
    "Market", "Liberty", "Grove", "Fairview", "Lakeview", "Woodland", "Hillcrest", "Railroad",
    "Depot", "Bridge", "Academy", "Pearl", "Grant", "Monroe", "Warren", "Franklin", "Cottage",
    "Orchard", "Hawthorne", "Beech", "Poplar", "Evergreen", "Brookside", "Second", "Third", "Fourth",
    "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth", "First",
)
# Street types: casefolded, with and without a period; the original's is kept.
STREET_TYPES: frozenset[str] = frozenset({
    "street", "st", "st.", "avenue", "ave", "ave.", "av", "av.", "road", "rd", "rd.", "boulevard", "blvd",
    "blvd.", "drive", "dr", "dr.", "lane", "ln", "ln.", "way", "court", "ct", "ct.", "place", "pl", "pl.",
    "terrace", "ter", "ter.", "circle", "cir", "cir.", "parkway", "pkwy", "pkwy.", "highway", "hwy",
    "hwy.", "square", "sq", "sq.", "trail", "trl", "path", "pike", "turnpike", "tpke", "row", "alley",
    "plaza", "crossing", "loop", "run", "point", "pt", "heights", "hts", "extension", "ext", "walk",
    "wharf", "pier", "landing",
})
NEW_STREET_TYPES = ("Street", "Street", "Avenue", "Road", "Drive", "Lane", "Court", "Place", "Boulevard", "Way")
DIRECTIONS: frozenset[str] = frozenset({
    "n", "s", "e", "w", "n.", "s.", "e.", "w.", "ne", "nw", "se", "sw", "north", "south", "east", "west",
    "northeast", "northwest", "southeast", "southwest",
})
COUNTRY_CODES = ("USA", "US", "U.S.", "U.S.A.", "UK", "U.K.", "UAE")
EXTRA_COUNTRIES = ("United States", "America", "England", "Scotland", "Wales", "Puerto Rico",
                   "Russia", "Vietnam", "South Korea", "Taiwan")

HOSPITAL_TEMPLATES = (
    "{city} General Hospital", "{city} Memorial Hospital", "{city} Regional Medical Center",
    "{city} Community Hospital", "{city} Medical Center", "St. {saint} Medical Center",
    "St. {saint}'s Hospital", "{Surname} Memorial Hospital", "University of {state} Medical Center",
    "{faith} Hospital", "{faith} Medical Center", "{faith} Hospital of {city}", "{city} VA Medical Center",
)
SAINTS = ("Joseph", "Mary", "Luke", "Vincent", "Francis", "John", "Elizabeth", "Anne", "Anthony", "Jude",
          "Catherine", "Michael", "Peter", "Margaret", "Agnes", "Clare", "Patrick", "Rose", "Mark", "Paul",
          "Luke", "James", "Thomas", "Teresa", "Alphonsus", "Bernard", "Dominic", "Elizabeth Ann")
FAITH_NAMES = ("Good Samaritan", "Sacred Heart", "Holy Cross", "Mercy", "Providence", "Baptist",
               "Methodist", "Presbyterian", "Lutheran", "Holy Family", "Our Lady of Lourdes", "Christ")
HOSPITAL_ACRONYM_TAILS = ("H", "MC", "GH", "MH", "CH", "RMC", "UH", "MMC", "VA")

CARE_TEMPLATES = (
    "{pleasant} Nursing Home", "{pleasant} Nursing and Rehabilitation Center", "{pleasant} Assisted Living",
    "{pleasant} Hospice", "{pleasant} Manor", "{city} Community Health Center", "{city} Health Center",
    "{city} Family Practice", "{Surname} Family Medicine", "{pleasant} Rehabilitation Center",
    "{city} Rehabilitation Hospital", "{pleasant} Skilled Nursing Facility", "{city} Dialysis Center",
    "{city} Urgent Care",
)
PLEASANT_NAMES = ("Maple Grove", "Oak Ridge", "Willow Creek", "Sunrise", "Brookside", "Pine Haven",
                  "Cedar Hills", "Golden Meadows", "Shady Oaks", "Riverview", "Fairview", "Lakeside",
                  "Green Valley", "Meadowbrook", "Briarwood", "Heritage", "Autumn Ridge", "Harbor View",
                  "Evergreen", "Whispering Pines", "Hillside", "Country Meadows", "Stonebridge", "Bayview")

ORGANIZATION_TEMPLATES = (
    "{company}", "{company}", "{city} Public Schools", "University of {state}", "{state} State University",
    "{Surname} & Sons", "{Surname} Construction", "{city} Fire Department", "{city} Police Department",
    "{Surname} Insurance Agency", "{state} Department of Transportation", "{city} Water Department",
    "{Surname} Brothers Trucking", "{city} Savings Bank",
)

LOCATION_KEYWORDS = ("room", "rm.", "rm", "bed", "floor", "fl.", "ward", "unit", "suite", "ste.", "bay",
                     "pod", "wing", "building", "bldg.", "bldg", "tower", "pavilion", "clinic", "station")
LOCATION_WORDS = ("North", "South", "East", "West", "Blue", "Gold", "Red", "Green", "Central", "Main",
                  "Annex", "Garden")
LOCATION_ACRONYMS = ("ICU", "MICU", "SICU", "CCU", "NICU", "PICU", "PACU", "ED", "ER", "OR", "CVICU",
                     "CSICU", "NSICU", "ICN", "SDU")
LOCATION_NAMES = (
    "Cardiology", "Oncology", "Neurology", "Orthopedics", "Medicine", "Surgery", "Pediatrics",
    "Geriatrics", "Radiology", "Dermatology", "Urology", "Gastroenterology", "Pulmonology", "Nephrology",
    "Rheumatology", "Endocrinology", "Hematology", "Emergency Department", "Step-Down Unit", "Telemetry",
    "North Wing", "South Tower", "West Pavilion", "East Campus", "Labor and Delivery", "Psychiatry",
)

EMAIL_DOMAINS = ("gmail.com", "yahoo.com", "hotmail.com", "aol.com", "comcast.net", "verizon.net",
                 "att.net", "outlook.com", "icloud.com", "msn.com", "sbcglobal.net", "charter.net")

PROFESSIONS = (
    "physician", "registered nurse", "nurse", "nursing assistant", "teacher", "elementary school teacher",
    "professor", "carpenter", "plumber", "electrician", "mason", "painter", "mechanic", "auto mechanic",
    "truck driver", "bus driver", "taxi driver", "farmer", "fisherman", "miner", "baker", "butcher",
    "cook", "chef", "waiter", "waitress", "cashier", "salesman", "sales representative", "hairdresser",
    "secretary", "receptionist", "accountant", "bookkeeper", "lawyer", "attorney", "paralegal",
    "pharmacist", "dentist", "physical therapist", "psychologist", "social worker", "engineer",
    "civil engineer", "architect", "software engineer", "computer programmer", "journalist",
    "police officer", "firefighter", "soldier", "pilot", "flight attendant", "janitor", "custodian",
    "housekeeper", "landscaper", "welder", "security guard", "mail carrier", "veterinarian",
    "construction worker", "factory worker", "machinist", "librarian", "banker", "real estate agent",
    "insurance agent", "pastor", "home health aide", "daycare worker", "retired", "student",
)

SWAP_GROUPS = (
    ("M", "F"), ("male", "female"), ("man", "woman"), ("men", "women"), ("boy", "girl"),
    ("gentleman", "lady"),
    ("mother", "father", "sister", "brother", "daughter", "son", "aunt", "uncle", "grandmother",
     "grandfather", "niece", "nephew", "cousin", "wife", "husband"),
    ("mom", "dad"), ("parents", "siblings", "children", "relatives", "grandparents"),
    ("maternal", "paternal"), ("widowed", "divorced", "married", "single"),
    SEASONS, HOLIDAYS,
)


# -- names ---------------------------------------------------------------------------------------


_WORD = r"^[A-Z][a-z]+$"


@lru_cache(maxsize=1)
def name_lists() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(male first names, female first names, surnames) drawn as surrogates: Faker en_US."""
    from faker.providers.person.en_US import Provider

    return (clean_names(list(Provider.first_names_male), _WORD), clean_names(list(Provider.first_names_female), _WORD),
            clean_names(list(Provider.last_names), _WORD))


@lru_cache(maxsize=1)
def known_first_names() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(male, female) first names recognised besides the drawn ones: Faker en's large lists,
    less the common US surnames that are no common first name ("Smith", "Baker")."""
    from faker.providers.person.en import Provider

    male, female, surnames = name_lists()
    common_first = {n.casefold() for n in male + female}
    surname_only = {n.casefold() for n in surnames} - common_first

    def keep(names: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(n for n in clean_names(names, _WORD) if n.casefold() not in surname_only)

    return keep(tuple(Provider.first_names_male)), keep(tuple(Provider.first_names_female))


@lru_cache(maxsize=1)
def countries() -> frozenset[str]:
    """Casefolded country names and codes read as countries."""
    from faker.providers.address.en_US import Provider

    return frozenset(c.casefold() for c in (*Provider.countries, *EXTRA_COUNTRIES, *COUNTRY_CODES))


@lru_cache(maxsize=1)
def country_names() -> tuple[str, ...]:
    """Country names drawn as surrogates (Faker en_US's, without its long descriptive ones)."""
    from faker.providers.address.en_US import Provider

    return tuple(c for c in Provider.countries if "(" not in c and "," not in c and len(c) <= 24)


@lru_cache(maxsize=1)
def zip_ranges() -> tuple[tuple[int, int], ...]:
    """The ZIP code range of each state (Faker en_US), for real-looking ZIPs."""
    from faker.providers.address.en_US import Provider

    return tuple(Provider.states_postcode.values())


@lru_cache(maxsize=1)
def surrogate_data() -> SurrogateData:
    """The English word lists for the shared surrogate generators."""
    male, female, surnames = name_lists()
    known_male, known_female = known_first_names()
    names = NameLocale(male, female, surnames, titles=TITLES, particles=PARTICLES,
                       known_male=known_male, known_female=known_female)
    dates = DateLocale(
        MONTHS, MONTH_ABBR, WEEKDAYS, WEEKDAY_ABBR, month_input=MONTH_INPUT, weekday_input=WEEKDAY_INPUT,
        day_suffix="st|nd|rd|th", day_month=r"\s+of\s+|[\s./-]+", month_year=r"[\s./,-]+",
        time_prefix="at|@", time_suffix=r"[AaPp]\.?[Mm]\.?|hrs?\b|h\b", extra_patterns=EXTRA_DATE_PATTERNS,
        number_words=_number_words(),
    )
    return SurrogateData(
        names=names, dates=dates, professions=PROFESSIONS, email_domains=EMAIL_DOMAINS,
        domain_words=("health", "clinic", "medical", "care", "med", "hospital"), default_tld="com",
        phone=PhoneRules(country_code_len=1, trunk="1"), swap_groups=SWAP_GROUPS,
    )
