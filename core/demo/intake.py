"""Intake forms: headed sections with ``Label: value`` fields and free-text anamnesis."""

from __future__ import annotations

from .builder import Slots, TextBuilder
from .common import bullets, field, pick, sentences
from .context import NoteContext

TITLES = ("INTAKEFORMULIER", "Intake", "Intakeformulier [zorg|wonen|dagbesteding|thuiszorg]",
          "Intakeverslag", "Opnameformulier", "Aanmelding en intake", "INTAKE {today}")
PERSONAL = (
    ("[Naam cliënt|Naam|Cliënt|Naam client]", "{clname}"),
    ("[Geboortedatum|Geb. datum|Geb.datum]", "{dob}[ ({age})|]"),
    ("BSN", "{clbsn}"),
    ("Adres", "{street}"),
    ("[Postcode/woonplaats|Postcode en plaats|Woonplaats]", "{pc}"),
    ("[Telefoon|Tel|Telefoonnummer]", "{phone}"),
    ("E-mail", "{email}"),
    ("[Cliëntnummer|Dossiernummer|Cliëntnr]", "{id}"),
    ("[Zorgverzekeraar|Verzekeraar]", "{ins}[, polisnr. {oid}|]"),
    ("[Leeftijd|Lft]", "{agenum}"),
    ("[Burgerlijke staat|Gezinssituatie]", "[gehuwd|weduwe|weduwnaar|gescheiden|alleenstaand|samenwonend]"),
    ("Geboorteplaats", "{birthplace}"),
    ("[Opnamedatum|Datum opname|Startdatum zorg]", "{today}"),
    ("[Afdeling|Locatie]", "{inst}[, afdeling {ward}|, {ward}|]"),
    ("Kamer", "{room}"),
)
CONTACTS = (
    ("[1e contactpersoon|Eerste contactpersoon|Contactpersoon]", "{relcontact:0}"),
    ("[2e contactpersoon|Tweede contactpersoon]", "{relcontact:1}"),
    ("[Wettelijk vertegenwoordiger|Mentor|Bewindvoerder]", "[{relname:2}|{other:m}, {org}|n.v.t.]"),
)
CARE = (
    ("Huisarts", "{gpline}"),
    ("Apotheek", "{apo}[, tel. {ophone}|]"),
    ("[Specialist|Behandelend specialist]", "{spec}, {hosp}"),
    ("[Verwijzer|Aangemeld door]", "[{ha}|{oinst}|{hosp}|{rel}|het sociaal wijkteam]"),
    ("[Eerder in zorg bij|Vorige zorgaanbieder]", "[{oinst}|{oinst} ({year:1:6})|geen]"),
)
ANAMNESIS = (
    "{CL} is geboren [op {dob} |]in {birthplace}[ en opgegroeid in een gezin met {num:2:11} kinderen|].",
    "[Werkte|Heeft gewerkt] [vroeger|jarenlang|tot {zijn} pensioen] als {prof}[ bij {org}|].",
    "[Is getrouwd geweest met|Was gehuwd met] {other:p}, [deze is overleden in {year:2:25}|zij zijn gescheiden in {year:10:40}].",
    "Heeft {num:1:5} kinderen, [waarvan {rel} het meest betrokken is|{rel} woont dichtbij in {ocity}|contact is wisselend].",
    "{CL} woonde [tot {monthyear}|de laatste jaren|sinds {year:2:20}] [zelfstandig|met thuiszorg van {org}|bij {rel}] [aan de {street}|in {city}].",
    "Hobby's: {act}, [tuinieren|lezen|puzzelen|voetbal kijken|vissen|handwerken]. [Heeft een {pet}.|]",
    "[Vroeger|Tot {year:5:15}] lid van [de kerk|het koor|de biljartclub|de harmonie] in {ocity}.",
    "Religie: [rooms-katholiek|protestants|geen|islamitisch|hervormd][, wil graag [naar de kerkdienst|bezoek van de pastor]|].",
)
REASON = (
    "[Reden|Aanleiding] [opname|aanmelding]: [toenemende zorgzwaarte|valincidenten thuis|overbelasting van {relation}|geheugenproblemen|decompensatie hartfalen|na ziekenhuisopname in {hosp}|psychische ontregeling|verhuizing van de ouders].",
    "{cl} [is|werd] [op {date::-60:-3}|] aangemeld door {ha} [i.v.m.|vanwege] [toenemende verwardheid|somberheid|zorgmijding|vereenzaming|een val met heupfractuur].",
    "Hulpvraag {cl}: [\"Ik wil weer zelf kunnen koken\"|weer veilig thuis wonen|meer structuur in de dag|ondersteuning bij financiën|minder angst].",
)
HISTORY = (
    "{year:1:40} [CVA|TIA|heupfractuur re|heupfractuur li|hartinfarct|mammacarcinoom|depressie|CABG|prostaatcarcinoom|longontsteking]",
    "[DM type 2|COPD GOLD 2|hartfalen|atriumfibrilleren|hypertensie|M. Parkinson|ziekte van Alzheimer|vasculaire dementie|artrose|osteoporose|schizofrenie|bipolaire stoornis|autisme|epilepsie|syndroom van Down]",
    "[Opname|Behandeling] {hosp} in {monthyear}",
    "[Sinds|Vanaf] {year:1:15}: [slechthorend|slechtziend|rolstoelgebonden|incontinent|katheter]",
)
FUNCTIONING = (
    ("Mobiliteit", "[loopt met rollator|rolstoel|zelfstandig|tillift nodig|loopt kort met begeleiding]"),
    ("ADL", "[hulp bij wassen en aankleden|zelfstandig met toezicht|volledig afhankelijk|deels zelfstandig]"),
    ("Voeding", "[normaal|gemalen|diabetesdieet|zoutarm|hulp bij eten nodig|drinkvoeding 2x daags]"),
    ("Continentie", "[continent|incontinent voor urine|dubbel incontinent|verblijfskatheter]"),
    ("Communicatie", "[goed aanspreekbaar|slechthorend, hoortoestel li|afasie|spreekt [Fries|Turks|Arabisch|Papiaments]|eenvoudige taal gebruiken]"),
    ("Slapen", "[slaapt goed|onrustig|slaapmedicatie|gaat om {time} naar bed]"),
    ("Cognitie", "[helder|vergeetachtig|gedesoriënteerd in tijd|MMSE {num:12:29}/30]"),
    ("Medicatie", "[zelf beheer|door zorg|baxterrol via {apo}|zie medicatieoverzicht]"),
)


def _relcontact(ctx: NoteContext):
    def fn(b: TextBuilder, a: tuple[str, ...]) -> None:
        relation, p = ctx.relative(int(a[0]) if a else 0)
        rng = ctx.rng
        b.phi(p.full() if rng.random() < 0.6 else p.initials_name(rng), "Name")
        b.text(f" ({relation}), ")
        if rng.random() < 0.3:
            b.text(rng.choice(("tel. ", "")))
        b.phi(ctx.ps.phone(True), "Phone_fax")
        if rng.random() < 0.25:
            b.text(", ")
            b.phi(ctx.ps.email(p), "Email")
        if rng.random() < 0.25:
            b.text(", ")
            b.phi(ctx.ps.full_address(), "Address")
    return fn


def _gpline(ctx: NoteContext):
    def fn(b: TextBuilder, a: tuple[str, ...]) -> None:
        rng, gp = ctx.rng, ctx.client.gp
        b.text(rng.choice(("dr. ", "", "")))
        b.phi(gp.initials_name(rng) if rng.random() < 0.6 else gp.cap_surname(), "Name")
        if rng.random() < 0.6:
            b.text(rng.choice((", ", " - ", ", praktijk ")))
            b.phi(ctx.ps.full_address() if rng.random() < 0.3 else ctx.ps.city(), "Address")
        if rng.random() < 0.7:
            b.text(rng.choice((", tel. ", ", ", " tel: ")))
            b.phi(ctx.ps.phone(False), "Phone_fax")
    return fn


def write_intake(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A long intake form: personal data, contacts, care providers, history, functioning."""
    rng = ctx.rng
    s = {**s, "relcontact": _relcontact(ctx), "gpline": _gpline(ctx)}
    b.render(rng.choice(TITLES), s)
    b.nl(2)
    heads = rng.choice((("Personalia", "Contactpersonen", "Betrokken zorgverleners"),
                        ("Persoonsgegevens", "Contactpersonen", "Zorgverleners"),
                        ("GEGEVENS CLIËNT", "FAMILIE / NETWERK", "BEHANDELAARS")))
    b.text(heads[0], fixed=True).nl()
    for label, value in PERSONAL:
        if rng.random() < 0.75:
            field(b, s, b_render_label(rng, label), value)
    b.nl()
    b.text(heads[1], fixed=True).nl()
    for label, value in CONTACTS[: rng.randint(1, 3)]:
        field(b, s, b_render_label(rng, label), value)
    b.nl()
    b.text(heads[2], fixed=True).nl()
    for label, value in pick(rng, CARE, rng.randint(2, 5)):
        field(b, s, b_render_label(rng, label), value)
    b.nl()
    b.text(rng.choice(("Aanleiding", "Hulpvraag", "Reden van aanmelding")), fixed=True).nl()
    sentences(b, s, pick(rng, REASON, rng.randint(1, 2)))
    b.nl(2)
    if rng.random() < 0.8:
        b.text(rng.choice(("Medische voorgeschiedenis", "Voorgeschiedenis", "VG")), fixed=True).nl()
        bullets(b, s, rng, pick(rng, HISTORY, rng.randint(2, 4)))
        b.nl()
    if rng.random() < 0.8:
        b.text(rng.choice(("Sociale anamnese", "Levensverhaal", "Achtergrond")), fixed=True).nl()
        sentences(b, s, pick(rng, ANAMNESIS, rng.randint(2, 5)))
        b.nl(2)
    if rng.random() < 0.7:
        b.text(rng.choice(("Functioneren", "Zorgbehoefte", "Huidige situatie")), fixed=True).nl()
        for label, value in pick(rng, FUNCTIONING, rng.randint(3, 8)):
            field(b, s, label, value)
        b.nl()
    if rng.random() < 0.6:
        b.render("[Reanimatiebeleid|Wilsverklaring|Behandelbeleid]: [niet reanimeren|wel reanimeren|niet naar het ziekenhuis], besproken met {ha} [op {date::-30:0}|]", s)
        b.nl()
    if rng.random() < 0.5:
        b.render("[Intake afgenomen door|Ingevuld door|Intaker]: {author}[, {role}|] [op {today}|]", s)
        b.nl()


def b_render_label(rng, label: str) -> str:
    """Resolve ``[a|b]`` alternatives in a form label (labels carry no slots)."""
    if label.startswith("[") and label.endswith("]") and "[" not in label[1:]:
        return rng.choice(label[1:-1].split("|"))
    return label
