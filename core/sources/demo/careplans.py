"""Care plans (zorgplan / ondersteuningsplan): domains with goals and action lists."""

from __future__ import annotations

from synthdeid.sources.demo.builder import Slots, TextBuilder
from synthdeid.sources.demo.common import bullets, field, pick
from synthdeid.sources.demo.context import NoteContext

DOMAINS = (
    "Lichamelijk welbevinden",
    "Woon- en leefomstandigheden",
    "Participatie",
    "Mentaal welbevinden",
    "Zelfredzaamheid",
    "Veiligheid",
    "Voeding",
    "Mobiliteit",
    "Huid",
    "Sociaal netwerk",
    "Dagbesteding",
    "Communicatie",
    "Medicatie",
    "Financiën",
)
GOALS = (
    "{cl} [behoudt|vergroot] [{zijn} zelfstandigheid bij de ADL|de eigen regie over de dag|{zijn} mobiliteit].",
    "{cl} [valt niet|heeft geen nieuwe valincidenten] [in de komende periode|tot de evaluatie].",
    "De huid van {cl} blijft intact[ rond de stuit en hielen|].",
    "{cl} [heeft|ervaart] [een goede nachtrust|minder pijn (NRS onder 4)|minder onrust in de middag].",
    "{cl} [drinkt minimaal 1500 ml per dag|houdt een stabiel gewicht|eet zelfstandig met hulpmiddelen].",
    "{cl} [heeft wekelijks contact met|onderhoudt het contact met] {rel}.",
    "{cl} [gaat {num:2:5} dagdelen per week naar de dagbesteding|doet mee aan {act}|heeft een zinvolle daginvulling].",
    "{cl} [herkent de eigen signalen van spanning|kan hulp vragen als het niet goed gaat|gebruikt geen middelen].",
    "{cl} [beheert {zijn} geld met hulp van [{org:fin}|de bewindvoerder|{relname}]|heeft geen nieuwe schulden].",
)
ACTIONS = (
    "[Dagelijks|2x per dag|Bij elke zorgmoment] [huid inspecteren en insmeren|wisselligging volgens schema|vochtinname noteren]",
    "[Ondersteunen bij|Overnemen van] [wassen en aankleden|douchen op {dag}|steunkousen aan- en uittrekken]",
    "[Wekelijks wegen op {dag}|Maandelijks MUST-score|Bloeddruk 1x per week meten]",
    "[Sensor aan in de nacht|Bed in laagste stand|Rollator binnen bereik zetten]",
    "[Stimuleren om deel te nemen aan|Begeleiden naar] {act}",
    "{para} [komt 1x per week|evalueert het oefenprogramma|past de hulpmiddelen aan]",
    "[Contact met {rel} [elke maand|na elk MDO]|{rel} informeren bij veranderingen][, tel. {relphone}|]",
    "Medicatie [aanreiken|toedienen|controleren] volgens [toedienlijst|Medimo|afspraak met de apotheek|afspraak met {apo}]",
    "[Signaleringsplan bespreken|Crisiskaart bijhouden] [elke {num:2:6} weken|bij verandering]",
    "[Zakgeld wekelijks uitgeven samen met {cl}|Post openen met {cl} en doorsturen naar {org:fin}]",
    "Evalueren [op {date:d_month:30:120}|in het MDO|met {arts}]",
)


def write_careplan(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A care plan with a header, one to four domains, goals and (numbered) actions."""
    rng = ctx.rng
    b.render("[Zorgplan|Ondersteuningsplan|Zorgleefplan|Behandelplan|ZORGPLAN] [{clname}|{cl}|]", s).nl()
    if rng.random() < 0.7:
        field(b, s, rng.choice(("Datum", "Opgesteld op", "Startdatum")), "{today}")
        field(b, s, rng.choice(("Evaluatiedatum", "Evaluatie", "Volgende evaluatie")), "{date:dmy:60:180}")
    if rng.random() < 0.5:
        field(
            b, s, rng.choice(("EVV", "Persoonlijk begeleider", "PB'er", "Regiebehandelaar")), "[{author}|{col}|{ini}]"
        )
    if rng.random() < 0.3:
        field(b, s, "Locatie", "[{inst}|{inst}, {ward}|{ward}]")
    b.nl()
    for i, dom in enumerate(pick(rng, DOMAINS, rng.randint(2, 5)), 1):
        b.text(rng.choice((f"{dom}", f"Domein: {dom}", f"{i}. {dom}", dom.upper())), fixed=True).nl()
        b.text(rng.choice(("Doel: ", "Doel: ", f"Doel {i}: ", "Doelstelling: ")), fixed=True)
        b.render(rng.choice(GOALS), s).nl()
        if rng.random() < 0.7:
            b.text(rng.choice(("Huidige situatie: ", "Toelichting: ", "Beeld: ")), fixed=True)
            b.render(
                "{cl} [heeft moeite met|is afhankelijk bij|heeft hulp nodig bij] [{zijn} verzorging|het lopen|eten|structuur|contacten][ sinds {monthyear}| na de opname in [{hosp}|het ziekenhuis]|].",
                s,
            ).nl()
        b.text(rng.choice(("Acties:", "Afspraken:", "Interventies:", "Wat doen we:")), fixed=True).nl()
        bullets(b, s, rng, pick(rng, ACTIONS, rng.randint(2, 5)))
        b.nl()
    if rng.random() < 0.4:
        b.render("[Besproken met|Akkoord] {rel} [op {date::-14:0}|tijdens het MDO][, handtekening volgt|]", s).nl()
