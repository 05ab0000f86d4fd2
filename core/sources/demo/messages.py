"""Short messages and handovers between carers, and notes of phone calls."""

from __future__ import annotations

from synthdeid.sources.demo.builder import Slots, TextBuilder
from synthdeid.sources.demo.common import bullets, pick, sentences, signoff
from synthdeid.sources.demo.context import NoteContext

GREETINGS = (
    "Hoi {col}, ",
    "Hallo allemaal, ",
    "Hoi team, ",
    "Beste collega's, ",
    "Hi {col}! ",
    "Ha {col}, ",
    "Goedemorgen, ",
    "Collega's, ",
    "Hee, ",
    "",
)
MESSAGES = (
    "wil jij morgen even [de steunkousen|de wond|het gewicht|de bloeddruk] van {cl} checken? [Het knelde vandaag.|Het was gisteren afwijkend.|Staat nog open.|]",
    "let op: {cl} [nuchter vanaf 00:00|niet ontbijten] [ivm|i.v.m.] [onderzoek|een scopie|operatie] in [{hosp}|het ziekenhuis] [morgen|op {date:dm:1:3}] om {time}.",
    "{cl} [heeft nieuwe medicatie|is gestart met {med}|mag geen {med} meer], [zie Medimo|staat in de toedienlijst|apotheek is op de hoogte].",
    "[fam.|familie|{rel}] belt [nog terug|morgen|na {time}][ over {zijn} verjaardag| over de kleding| over het MDO|].",
    "[geen bijzonderheden|gb|z.b.|niets bijzonders] [ochtenddienst|avonddienst|nacht|vandaag].",
    "[vergeet niet|denk aan|svp] [de bestelling bij {apo}|de wasmand van {cl}|de kapper om {time:day}|het briefje voor de pedicure|de sleutel van {room}].",
    "{cl} [had|heeft] [vandaag|vanmiddag] [geen|nauwelijks] gedronken, [graag stimuleren|graag blijven aanbieden|vochtlijst bijhouden svp].",
    "{rel} komt [{dag}|morgen|zaterdag] om {time:day} [op bezoek|{cl} ophalen|de kleding brengen][.|, graag {cl} klaar hebben.]",
    "[kamer|app.] {room}: [lamp kapot|bel werkt niet|kraan lekt], [melding gedaan bij de TD|doorgegeven aan {org:housing}].",
    "[{ha}|{arts}] komt [{dag}|morgen|vanmiddag] [langs|op visite] voor {cl}[, svp vragen noteren in het schrift|].",
    "{cl} [zit|ligt] [in bed|op {zijn} kamer] [ivm|i.v.m.] [koorts|buikgriep|hoofdpijn|vermoeidheid][, graag zn paracetamol|, isolatie!|].",
    "[wie kan|kan iemand] [{dag}|zaterdag|morgenavond] [mijn dienst overnemen|ruilen|een avonddienst doen]? [{authorfirst}|]",
    "[nieuwe|andere] [rolstoel|rollator|matras] voor {cl} [wordt {dag} geleverd door {org:hulp}|besteld bij {org:hulp}|staat in de gang].",
    "[overdracht|info] van [de nacht|de avond|het weekend]: {cl} [was onrustig|is gevallen, zie MIC|heeft goed geslapen|had pijn, zn gegeven].",
    "{cl} [is opgenomen|ligt] in {hosp}[ sinds {date:dm:-3:0}|], [{rel} houdt ons op de hoogte|bed vrijhouden|kamer {room} afsluiten].",
    "[zie|info over de nieuwe rolstoel op|het rooster staat op|nieuwe werkinstructie op] {url}",
    "opname nieuwe [cliënt|bewoner|bewoonster] {other:n} op {date:dm:1:7} op kamer {loc}[, intake om {time}|].",
)
HANDOVER_ITEMS = (
    "{cl}: [rustig|onrustig|pijn|goed gegeten|weinig gedronken|gb][ ({ini})|]",
    "{cl}: [zn gegeven om {time}|wond verzorgd door {ini}|ligt op bed|gaat morgen naar {hosp}|moet nog wegen]",
    "[afspraken|let op]: [{ini} belt {rel}|{ini} regelt de apotheek|{cl} nuchter vanaf 24:00]",
    "[kamer {room}|{cl}]: [wond verbonden|katheter gewisseld|nog niet gedoucht|gevallen, geen letsel]",
    "{cl} [ivm|i.v.m.] [koorts|wond|MDO] aandacht",
    "[nieuwe|gewijzigde] medicatie {cl}: {med} {freq}",
    "{mb}: [zn gegeven om {time}|belde veel|familie op bezoek][ - {ini}|]",
    "[wondzorg|insuline|steunkousen|ogen druppelen] {cl}: [gedaan door {ini}|nog doen|overgedragen aan {ini}]",
)
PHONE = (
    "[Telefoontje|Telefonisch contact|Tel. contact|Gebeld] [van|met] {rel}[, tel. {relphone}||]: [vraagt hoe het met [{relword}|{mw} {clsur}|{clfirst}] gaat|wil graag een afspraak met {arts}|maakt zich zorgen over het gewicht|komt {dag} niet op bezoek|vraagt of er kleding nodig is].",
    "[Gebeld met|Telefonisch overleg met] {apo}[, tel. {ophone}||]: [medicatie wordt morgen geleverd|herhaalrecept aangevraagd|baxter aangepast|{med} is niet leverbaar, alternatief volgt].",
    "Huisartsenpost [gebeld|geraadpleegd] om {time} [i.v.m.|ivm] [koorts|benauwdheid|val|pijn op de borst|braken][, advies: [afwachten|paracetamol|visite komt|insturen naar {hosp}]|].",
    "[Tel.|Telefonisch] [contact|overleg] met {ha}: [beleid ongewijzigd|antibiotica [gestart|voorgeschreven]|{med} gestart|bloedafname aangevraagd|visite op {dag}].",
    "[Teruggebeld|Gebeld] door {hosp}[, afdeling {loc}|, poli {spec}|]: [uitslag volgt per brief|afspraak verzet naar {date:wd_d_month:3:30}|{cl} kan morgen terug].",
    "{org} [belde|gebeld][, tel. {ophone}||]: [levering hulpmiddel op {date:dm:2:14}|vraag over de rekening|indicatie verlengd tot {date:d_month_y:60:700}].",
    "{cl} [belde zelf|heeft gebeld] [naar de afdeling|met de servicedesk|naar {rel}][, wilde weten wanneer {ze} naar huis mag|, was in paniek|, klaagde over het eten|].",
    "Voicemail ingesproken bij {rel}[ op {relphone}|], [graag terugbellen|geen gehoor]. [Probeer het {dag} opnieuw.|Mail gestuurd naar {relemail}.|]",
    "[Mail|E-mail] [ontvangen van|gestuurd naar] {rel}[ ({relemail})|] [over de kosten|over de vakantie|met de foto's van {zijn} verjaardag|met de vraag om een gesprek].",
    "Contact met {oinst}[ ({orgemail})|] over [de plaatsing|een logeerweekend|de wachtlijst|de overdracht][, {cl} staat op de lijst sinds {date:dm:-90:-10}|, informatie volgt via {url}|].",
)


def write_message(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A short message, often sloppy (lower case, typos, no full stops)."""
    rng = ctx.rng
    b.render(rng.choice(GREETINGS), s)
    sentences(b, s, pick(rng, MESSAGES, rng.choice((1, 1, 1, 2, 2, 3))))
    if rng.random() < 0.3:
        b.render(rng.choice((" Thanks!", " Dank je!", " Alvast bedankt.", " Groetjes", " Fijne dienst!", " Top!")), s)
    signoff(b, s, rng, 0.7)


def write_handover(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A handover list for the next shift."""
    rng = ctx.rng
    b.render(
        "[Overdracht|OVERDRACHT|Overdracht [ochtend|avond|nacht]dienst|Aandachtspunten [nachtdienst|weekend]][ {today}|]",
        s,
    )
    b.nl()
    bullets(b, s, rng, pick(rng, HANDOVER_ITEMS, rng.randint(2, 6)))
    signoff(b, s, rng, 0.6)


def write_phone(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A note of one or two phone calls or e-mails."""
    rng = ctx.rng
    s = {**s, "relword": _relword(ctx.relative(0)[0], ctx.female)}
    if rng.random() < 0.3:
        b.render("[{today} {time}|{time}|Telefoonnotitie]", s).nl()
    sentences(b, s, pick(rng, PHONE, rng.choice((1, 1, 2, 2, 3))), " " if rng.random() < 0.6 else "\n")
    if rng.random() < 0.25:
        b.render(" [(aangenomen door {ini})|Doorgegeven aan {ini}.|{ini} belt terug.]", s)
    signoff(b, s, rng, 0.6)


def _relword(relation: str, female: bool) -> str:
    """How the caller refers to the client (``haar moeder``, ``zijn zoon``)."""
    if relation in ("dochter", "zoon", "schoondochter", "schoonzoon", "kleindochter", "kleinzoon"):
        return "moeder" if female else "vader"
    if relation in ("moeder", "vader", "oom", "tante", "mentor"):
        return "dochter" if female else "zoon"
    if relation in ("echtgenoot", "echtgenote", "partner", "ex-partner"):
        return "vrouw" if female else "man"
    return "zus" if female else "broer"
