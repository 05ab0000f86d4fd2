"""Intake forms: headed sections with ``Label: value`` fields and free-text anamnesis."""

from __future__ import annotations

import random

from synthdeid.sources.demo.builder import SlotFn, Slots, TextBuilder
from synthdeid.sources.demo.common import bullets, field, pick, sentences
from synthdeid.sources.demo.context import NoteContext

TITLES = (
    "INTAKEFORMULIER",
    "Intake",
    "Intakeformulier [zorg|wonen|dagbesteding|thuiszorg]",
    "Intakeverslag",
    "Opnameformulier",
    "Aanmelding en intake",
    "INTAKE {today}",
)
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
    ("[Afdeling|Locatie]", "{inst}[, afdeling {ward}||]"),
    ("[Kamer|Kamernummer]", "{room}"),
)
_FIELD_P = {
    "{phone}": 0.35,
    "{email}": 0.25,
    "{clbsn}": 0.4,
    "{id}": 0.35,
    "{agenum}": 0.3,
    "{room}": 0.3,
    "{birthplace}": 0.5,
    "{ins}[, polisnr. {oid}|]": 0.5,
}
CONTACTS = (
    ("[1e contactpersoon|Eerste contactpersoon|Contactpersoon]", "{relcontact:0}"),
    ("[2e contactpersoon|Tweede contactpersoon]", "{relcontact:1}"),
    ("[Wettelijk vertegenwoordiger|Mentor|Bewindvoerder]", "[{relname:2}|{other:m}, {org:fin}|n.v.t.]"),
)
CARE = (
    ("Huisarts", "{gpline}"),
    ("Apotheek", "{apo}[, tel. {ophone}|||]"),
    ("[Specialist|Behandelend specialist]", "{spec}[, {hosp}|]"),
    ("[Verwijzer|Aangemeld door]", "[{ha}|{oinst}|{hosp}|{rel}|het sociaal wijkteam]"),
    ("[Eerder in zorg bij|Vorige zorgaanbieder]", "[{oinst}|{oinst} ({year:1:6})|geen]"),
)
ANAMNESIS = (
    "{CL} is geboren [op {dob} |]in {birthplace}[ en opgegroeid in een gezin met {num:2:11} kinderen|].",
    "[Werkte|Heeft gewerkt] [vroeger|jarenlang|tot {zijn} pensioen] als {prof}[ bij {org:work}|].",
    "[Is getrouwd geweest met|Was gehuwd met] {other:p}, [deze is overleden in {year:2:25}|zij zijn gescheiden in {year:10:40}].",
    "Heeft {num:1:5} kinderen, [waarvan {rel} het meest betrokken is|{rel} woont dichtbij|contact is wisselend].",
    "{CL} woonde [tot {monthyear}|de laatste jaren|sinds {year:2:20}] [zelfstandig|met thuiszorg van {org:thuiszorg}|bij {rel}] [aan de {street}|in {city}].",
    "Hobby's: {act}, [tuinieren|lezen|puzzelen|voetbal kijken|vissen|handwerken]. [Heeft een {pet}.|]",
    "[Vroeger|Tot {year:5:15}] lid van [de kerk|het koor|de biljartclub|de harmonie] in {ocity}.",
    "Religie: [rooms-katholiek|protestants|geen|islamitisch|hervormd][, wil graag [naar de kerkdienst|bezoek van de pastor]|].",
    "{cl} [omschrijft zichzelf als|is volgens {rel}] [een zorgzame moeder|een harde werker|iemand die graag alles zelf doet|een gezelligheidsmens|een binnenvetter|eigenwijs, maar hartelijk].",
    "[Na het overlijden van|Sinds het vertrek van] {zijn} [partner|{vrouw}|zoon] [in {year:1:10}|] [is {cl} steeds meer op zichzelf gaan leven|heeft {rel} veel zorg overgenomen|kwam {cl} in een isolement].",
    "[Thuis|Voorheen] [kreeg|had] {cl} [{num:2:21} uur per week thuiszorg|dagbesteding bij {oinst}|huishoudelijke hulp via de gemeente|maaltijdservice van {org:thuiszorg}].",
    "De [mantelzorg|zorg thuis] [werd|wordt] [vooral|grotendeels] gedragen door {rel}, [die aangeeft overbelast te zijn|die dichtbij woont|die werkt en weinig tijd heeft].",
    "[Opgegroeid in|Heeft lang gewoond in] {birthplace}[, later verhuisd naar {city}|][, spreekt [het dialect|Fries|Turks|Papiaments] met familie|].",
)
NETWORK = (
    "{rel} [is|blijft] het eerste aanspreekpunt[ en komt {num:1:4}x per week langs| en woont in {ocity}|].",
    "{rel:1} [woont verder weg|woont in {ocity}|heeft weinig contact met {cl}|belt wekelijks].",
    "[Tussen|Met] de kinderen [is het contact goed|zijn spanningen over de zorg|is afgesproken dat {relname} de financiën regelt].",
    "{cl} [heeft|had] [een goede band met|veel steun aan|regelmatig ruzie met] {rel:1}[, die {num:1:3}x per week belt|].",
    "[De buurvrouw|Een vriendin uit de kerk|Een oud-collega] [komt|kwam] [wekelijks|regelmatig] langs[; contactgegevens bij {rel}|].",
    "{rel} [geeft aan|zegt] de zorg [niet langer aan te kunnen|graag te willen blijven doen|te willen delen met {rel:1}].",
)
AGREEMENTS = (
    "[Evaluatie|Eerste evaluatie] na {num:4:8} weken[, op {date:d_month:28:56}|]",
    "{rel} [brengt|regelt] [kleding en toiletartikelen|de meubels voor de kamer|de verzekeringspapieren]",
    "[Aanvraag|Aanmelding] [fysiotherapie|ergotherapie|diëtist|logopedie] [via {arts}|bij {org:fysio}]",
    "[Medicatie wordt overgenomen door|Baxter aanvragen bij] {apo}",
    "Kennismaking met {arts} op {date:wd_dm:1:10}[ om {time}|]",
    "[Wilsverklaring|Levenstestament|Machtiging] [opvragen bij {rel}|ligt bij notaris {other:n}]",
    "[Sleutel|Tweede sleutel] van [de kamer|de voordeur] aan {rel} gegeven",
)
WISHES = (
    "{cl} [staat|wil graag] [rond {time:morn}|laat|vroeg] op en [ontbijt graag met|begint de dag met] [een kop koffie|de krant|thee en een beschuit].",
    "[Houdt van|Geniet van] [klassieke muziek|het journaal|voetbal op tv|de radio|bloemen op de kamer|de tuin], [dit geeft rust|graag aanbieden bij onrust].",
    "[Wil|Wil liever] [door een vrouwelijke|door een vaste|niet door een mannelijke] zorgmedewerker [gewassen worden|geholpen worden].",
    "[Vindt|Vond] [het belangrijk|fijn] om [netjes gekleed te zijn|{zijn} haar gedaan te hebben|zelf te kiezen wat {ze} aantrekt].",
    "[Gaat|Ging] graag [naar bed na het journaal|vroeg naar bed|laat naar bed], [met het licht aan|met de deur op een kier|met een kopje thee].",
    "Eet [geen varkensvlees|geen vis|vegetarisch|graag zoet|klein en vaak], [drinkt|dronk] graag [karnemelk|koffie met suiker|een borreltje op zaterdag].",
)
REASON = (
    "[Reden|Aanleiding] [opname|aanmelding]: [toenemende zorgzwaarte|valincidenten thuis|overbelasting van {relation}|geheugenproblemen|decompensatie hartfalen|na ziekenhuisopname in [{hosp}|het ziekenhuis]|psychische ontregeling|verhuizing van de ouders].",
    "{cl} [is|werd] [op {date::-60:-3}|] aangemeld door {ha} [i.v.m.|vanwege] [toenemende verwardheid|somberheid|zorgmijding|vereenzaming|een val met heupfractuur].",
    'Hulpvraag {cl}: ["Ik wil weer zelf kunnen koken"|weer veilig thuis wonen|meer structuur in de dag|ondersteuning bij financiën|minder angst].',
)
HISTORY = (
    "{year:1:40} [CVA|TIA|heupfractuur re|heupfractuur li|hartinfarct|mammacarcinoom|depressie|CABG|prostaatcarcinoom|longontsteking]",
    "[DM type 2|COPD GOLD 2|hartfalen|atriumfibrilleren|hypertensie|M. Parkinson|ziekte van Alzheimer|vasculaire dementie|artrose|osteoporose|schizofrenie|bipolaire stoornis|autisme|epilepsie|syndroom van Down]",
    "[Opname|Behandeling] [{hosp}|ziekenhuis] in {monthyear}",
    "[Sinds|Vanaf] {year:1:15}: [slechthorend|slechtziend|rolstoelgebonden|incontinent|katheter]",
)
FUNCTIONING = (
    ("Mobiliteit", "[loopt met rollator|rolstoel|zelfstandig|tillift nodig|loopt kort met begeleiding]"),
    ("ADL", "[hulp bij wassen en aankleden|zelfstandig met toezicht|volledig afhankelijk|deels zelfstandig]"),
    ("Voeding", "[normaal|gemalen|diabetesdieet|zoutarm|hulp bij eten nodig|drinkvoeding 2x daags]"),
    ("Continentie", "[continent|incontinent voor urine|dubbel incontinent|verblijfskatheter]"),
    (
        "Communicatie",
        "[goed aanspreekbaar|slechthorend, hoortoestel li|afasie|spreekt [Fries|Turks|Arabisch|Papiaments]|eenvoudige taal gebruiken]",
    ),
    ("Slapen", "[slaapt goed|onrustig|slaapmedicatie|gaat om {time:eve} naar bed]"),
    ("Cognitie", "[helder|vergeetachtig|gedesoriënteerd in tijd|MMSE {num:12:29}/30]"),
    ("Medicatie", "[zelf beheer|door zorg|baxterrol via {apo}|zie medicatieoverzicht|beheer door {relname}]"),
)


def _relcontact(ctx: NoteContext) -> SlotFn:
    def fn(b: TextBuilder, a: tuple[str, ...]) -> None:
        relation, p = ctx.relative(int(a[0]) if a else 0)
        rng = ctx.rng
        b.phi(p.full() if rng.random() < 0.6 else p.initials_name(rng), "Name")
        b.text(f" ({relation})")
        if rng.random() < 0.35:
            b.text(", " + rng.choice(("tel. ", "", "")))
            b.phi(ctx.ps.phone(True), "Phone_fax")
        if rng.random() < 0.15:
            b.text(", ")
            b.phi(ctx.ps.email(p), "Email")
        if rng.random() < 0.1:
            b.text(", ")
            b.phi(ctx.ps.full_address(), "Address")

    return fn


def _gpline(ctx: NoteContext) -> SlotFn:
    def fn(b: TextBuilder, a: tuple[str, ...]) -> None:
        rng, gp = ctx.rng, ctx.client.gp
        b.text(rng.choice(("dr. ", "", "")))
        b.phi(gp.initials_name(rng) if rng.random() < 0.6 else gp.cap_surname(), "Name")
        if rng.random() < 0.2:
            b.text(rng.choice((", ", " - ", ", praktijk ")))
            b.phi(ctx.ps.full_address() if rng.random() < 0.3 else ctx.ps.city(), "Address")
        if rng.random() < 0.25:
            b.text(rng.choice((", tel. ", ", ", " tel: ")))
            b.phi(ctx.ps.phone(False), "Phone_fax")

    return fn


def write_intake(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A long intake form: personal data, contacts, care providers, history, functioning."""
    rng = ctx.rng
    s = {**s, "relcontact": _relcontact(ctx), "gpline": _gpline(ctx)}
    b.render(rng.choice(TITLES), s)
    b.nl(2)
    heads = rng.choice(
        (
            ("Personalia", "Contactpersonen", "Betrokken zorgverleners"),
            ("Persoonsgegevens", "Contactpersonen", "Zorgverleners"),
            ("GEGEVENS CLIËNT", "FAMILIE / NETWERK", "BEHANDELAARS"),
        )
    )
    b.text(heads[0], fixed=True).nl()
    for label, value in PERSONAL:
        if rng.random() < _FIELD_P.get(value, 0.8):
            field(b, s, _label(rng, label), value)
    b.nl()
    b.text(heads[1], fixed=True).nl()
    for label, value in CONTACTS[: rng.randint(1, 3)]:
        field(b, s, _label(rng, label), value)
    b.nl()
    b.text(heads[2], fixed=True).nl()
    for label, value in pick(rng, CARE, rng.randint(2, 5)):
        field(b, s, _label(rng, label), value)
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
        sentences(b, s, pick(rng, ANAMNESIS, rng.randint(4, 9)))
        b.nl(2)
    if rng.random() < 0.85:
        b.text(rng.choice(("Functioneren", "Zorgbehoefte", "Huidige situatie")), fixed=True).nl()
        for label, value in pick(rng, FUNCTIONING, rng.randint(4, 8)):
            field(b, s, label, value)
        b.nl()
    if rng.random() < 0.7:
        b.text(rng.choice(("Netwerk", "Sociaal netwerk", "Familie en netwerk")), fixed=True).nl()
        sentences(b, s, pick(rng, NETWORK, rng.randint(2, 5)))
        b.nl(2)
    if rng.random() < 0.7:
        b.text(rng.choice(("Wensen en gewoonten", "Gewoonten", "Wat vindt cliënt belangrijk")), fixed=True).nl()
        sentences(b, s, pick(rng, WISHES, rng.randint(2, 5)), rng.choice((" ", "\n")))
        b.nl(2)
    if rng.random() < 0.7:
        b.text(rng.choice(("Medicatie", "Actuele medicatie", "Medicatie bij opname")), fixed=True).nl()
        bullets(b, s, rng, ["{med} {freq}" for _ in range(rng.randint(2, 8))])
        b.nl()
    if rng.random() < 0.6:
        b.text(rng.choice(("Afspraken", "Vervolg", "Afspraken na intake")), fixed=True).nl()
        bullets(b, s, rng, pick(rng, AGREEMENTS, rng.randint(2, 4)))
        b.nl()
    if rng.random() < 0.6:
        b.render(
            "[Reanimatiebeleid|Wilsverklaring|Behandelbeleid]: [niet reanimeren|wel reanimeren|niet naar het ziekenhuis], besproken met {ha} [op {date::-30:0}|]",
            s,
        )
        b.nl()
    if rng.random() < 0.5:
        b.render("[Intake afgenomen door|Ingevuld door|Intaker]: {author}[, {role}|] [op {today}|]", s)
        b.nl()


def _label(rng: random.Random, label: str) -> str:
    """Resolve ``[a|b]`` alternatives in a form label (labels carry no slots)."""
    if label.startswith("[") and label.endswith("]") and "[" not in label[1:]:
        return rng.choice(label[1:-1].split("|"))
    return label
