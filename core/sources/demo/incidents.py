"""Incident reports (MIC/MIM: falls, medication errors, aggression, wandering)."""

from __future__ import annotations

from synthdeid.sources.demo.builder import Slots, TextBuilder
from synthdeid.sources.demo.common import bullets, field, pick, sentences, signoff
from synthdeid.sources.demo.context import NoteContext

KINDS = ("valincident", "medicatie-incident", "agressie-incident", "vermissing", "verslikking", "brandmelding")
DESCRIPTION = {
    "valincident": (
        "{cl} werd om {time} door {col} [op de grond aangetroffen|zittend op de vloer gevonden|liggend gevonden] [naast het bed|in de badkamer|bij de deur van kamer {room}|in de huiskamer van {ward}].",
        "{cl} [gaf aan|vertelde] [dat {ze} naar het toilet wilde|uitgegleden te zijn|dat {ze} duizelig werd|niet te weten wat er gebeurd was].",
        "[[Rollator|Rolstoel] stond [buiten bereik|niet op de rem|op de kamer]|[Bril|Alarmknop] lag buiten bereik|Schoenen lagen naast het bed].",
        "Met de tillift [terug in bed|in de stoel] geholpen, [samen met {col}|met 2 collega's].",
        "[Geen|Wel] [zichtbaar letsel|hoofdletsel|pijn bij bewegen]; [kleine schaafwond aan {body}|blauwe plek {body}|hematoom op het voorhoofd|pijn in {body}].",
    ),
    "medicatie-incident": (
        "[Avondmedicatie|Ochtendmedicatie|{med}] van {cl} is [niet gegeven|dubbel gegeven|aan de verkeerde cliënt gegeven|te laat gegeven] [op {date:dm:-2:0}|vandaag|].",
        "[Ontdekt bij|Gezien tijdens] [de controle|het aftekenen|de overdracht] door {col} om {time}.",
        "{apo} [gebeld|geraadpleegd]: [geen gevolgen verwacht|extra controle bloeddruk|volgende dosis overslaan].",
    ),
    "agressie-incident": (
        "{cl} [sloeg|schopte|kneep|schold] [{col}|{mb}|een collega] [tijdens de zorg|bij het avondeten|toen {ze} geweigerd werd].",
        "[Aanleiding|Oorzaak] [onduidelijk|drukte op de groep|wachten|wijziging van het programma|ruzie om de tv].",
        "{cl} [is naar {zijn} kamer begeleid|kreeg een time-out|is gekalmeerd met muziek|werd afgeleid], [na {num:10:45} min weer rustig|bleef lang boos].",
        "{gd} [wordt geïnformeerd|is ingelicht|bekijkt of het plan aangepast moet worden].",
    ),
    "vermissing": (
        "{cl} werd om {time} gemist [bij het avondeten|bij de ronde|na de activiteit].",
        "[Gebouw|Tuin|Omgeving] doorzocht; {cl} werd [na {num:15:90} min|om {time}] gevonden [bij [{org:shop}|de supermarkt|de winkel]|op de {ostreet}|bij de bushalte|in de kapel].",
        "[Politie|Familie|{rel}] [is ingelicht|gebeld][ via {relphone}|].",
    ),
    "verslikking": (
        "{cl} verslikte zich [tijdens de lunch|in een stuk vlees|bij het drinken] om {time}.",
        "[Heimlich toegepast|Rug geklopt|Uitgezogen] door {col}, [daarna weer goed ademen|sat {num:85:97}%].",
    ),
    "brandmelding": (
        "Brandmelding om {time} [op {ward}|in kamer {room}|in de keuken van {ward}], [veroorzaakt door [een sigaret|aangebrande toast|stoom]|loos alarm].",
        "[Ontruiming niet nodig|Bewoners tijdelijk verplaatst naar de huiskamer], [brandweer ter plaatse|BHV aanwezig: {col}].",
    ),
}
MEASURES = (
    "[Sensor|Bedalarm|Domotica] [aangezet|opnieuw ingesteld|aangevraagd]",
    "[Valrisico|Medicatie|Het signaleringsplan] [besproken in het team|herbeoordeeld|opnieuw beoordeeld op {date:dm:1:10}]",
    "{ha} [geïnformeerd|komt kijken|heeft {cl} beoordeeld]",
    "{rel} [telefonisch geïnformeerd om {time}|op de hoogte gebracht|wordt morgen gebeld]",
    "[Foto's van letsel in dossier|Observatie 24 uur|Neurologische controles elk uur|Pijnmeting 3x daags]",
    "[Aftekenlijst|Werkinstructie] aangepast",
)


EXTRA_DESC = (
    "[Direct na het incident|Na het incident|Daarna] [is {cl} gecontroleerd op letsel|zijn de vitale functies gemeten: RR {num:100:170}/{num:60:95}, P {num:55:110}|heeft {cl} even bij de balie gezeten].",
    "{cl} [was|bleef] [erg geschrokken|rustig|verward|boos] en [wilde niet naar bed|vroeg om {relname}|viel daarna in slaap].",
    "[Collega|Leerling] {col} [was getuige|kwam als eerste ter plaatse|heeft geholpen bij de opvang].",
    "[Het is de {num:2:5}e keer deze maand|Eerder incident op {date:dm:-40:-3}|Het is de eerste keer] dat dit [gebeurt|voorkomt] bij {cl}.",
)
CAUSES = (
    "[Vermoedelijk|Waarschijnlijk|Mogelijk] [orthostatische hypotensie|onrust door een delier|haast van {cl}|te weinig personeel op de afdeling|een gladde vloer na het dweilen|nieuwe medicatie ({med})|slechte verlichting in de nacht|vermoeidheid].",
    "[Onduidelijk|Niet bekend], [wordt besproken in het teamoverleg|{cl} kan het zelf niet aangeven|er was niemand bij aanwezig].",
    "[Werkwijze|Afspraken] [niet goed gevolgd|niet bekend bij de invalkracht|onduidelijk in het zorgplan], [werkinstructie wordt aangepast|besproken met {col}].",
)


def write_incident(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A MIC/MIM report as a form or as free text."""
    rng = ctx.rng
    kind = rng.choice(KINDS if ctx.client.setting in ("vvt", "wijk") else KINDS[:4])
    s = {**s, "ostreet": lambda bb, a: bb.phi(ctx.ps.street(), "Address")}
    if rng.random() < 0.6:
        b.render(f"[MIC-melding|Melding incident cliënt|MIC|Incidentmelding] [{kind}|]", s).nl(rng.choice((1, 2)))
        field(b, s, rng.choice(("Datum incident", "Datum", "Datum/tijd")), "{today}[ {time}|]")
        if rng.random() < 0.7:
            field(
                b,
                s,
                rng.choice(("Locatie", "Plaats")),
                "[kamer {room}|{ward}|afdeling {ward}|huiskamer {ward}|{inst}, {ward}|de badkamer|de gang|de huiskamer|het restaurant]",
            )
        field(b, s, "Cliënt", "{clname}[ ({id})||]")
        if rng.random() < 0.6:
            field(b, s, "Soort incident", kind)
        b.text(rng.choice(("Beschrijving", "Wat is er gebeurd", "Toedracht")) + ":", fixed=True).nl()
        sentences(b, s, pick(rng, DESCRIPTION[kind], rng.randint(2, 5)))
        if rng.random() < 0.5:
            b.space()
            sentences(b, s, pick(rng, EXTRA_DESC, rng.randint(1, 3)))
        b.nl(2)
        if rng.random() < 0.6:
            b.text(rng.choice(("Mogelijke oorzaak", "Analyse", "Oorzaak")) + ": ", fixed=True)
            b.render(rng.choice(CAUSES), s).nl(2)
        b.text(rng.choice(("Maatregelen", "Genomen acties", "Actie")) + ":", fixed=True).nl()
        bullets(b, s, rng, pick(rng, MEASURES, rng.randint(1, 4)))
        if rng.random() < 0.7:
            field(b, s, rng.choice(("Melder", "Gemeld door", "Ingevuld door")), "[{author}[, {role}|]|{sig}]")
    else:
        b.render(f"[{kind.capitalize()}|Incident|MIC] [{{today}}|om {{time}}|]: ", s)
        sentences(b, s, pick(rng, DESCRIPTION[kind] + EXTRA_DESC, rng.randint(2, 4)))
        b.render(" [MIC-melding gemaakt.|MIC ingevuld.|Melding gedaan.|]", s)
        signoff(b, s, rng, 0.7)
