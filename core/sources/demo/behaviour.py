"""Behavioural reports (ABC registration, observation, signalling plan) and medication notes."""

from __future__ import annotations

from synthdeid.sources.demo.builder import Slots, TextBuilder
from synthdeid.sources.demo.common import bullets, field, pick, sentences, signoff
from synthdeid.sources.demo.context import NoteContext

ANTECEDENT = (
    "[Drukte in de huiskamer|Wisseling van dienst|Bezoek van {rel} vertrok|Wachten op het eten|Een nieuwe begeleider|Harde muziek van {mb}|Verandering in het dagprogramma]",
    "{cl} [moest stoppen met|werd gestoord bij] [tv kijken|de tablet|het puzzelen|het douchen] om {time}",
)
BEHAVIOUR = (
    "[Schreeuwen|Gillen|Met deuren slaan|Spullen gooien|Zichzelf slaan|Bijten in de hand|Weglopen van de groep|Verbaal agressief naar {col}|Uitkleden in de huiskamer|Roepen om {zijn} moeder]",
    "{cl} [liep boos weg|ging op de grond liggen|duwde {mb}|sloeg tegen de muur|weigerde alles]",
)
CONSEQUENCE = (
    "[Rustig benaderd|Prikkels verminderd|Naar de eigen kamer begeleid|Afleiding geboden met muziek|Genegeerd volgens plan|Time-out van {num:5:20} min]",
    "[Na {num:5:40} min rustig|Gedrag hield aan tot {time}|{cl} bood excuses aan|Z.n. medicatie gegeven na overleg met {arts}]",
)
OBS = (
    "{cl} [liet|laat] [deze week|de afgelopen dagen|sinds {date:wd_dm:-7:-1}] [meer|minder|wisselend] [onrust|teruggetrokken gedrag|agressie|dwangmatig gedrag|slaapproblemen] zien.",
    "[Met name|Vooral] [in de ochtend|rond de maaltijden|bij overdrachtsmomenten|in het weekend] [is|was] {cl} [gespannen|onrustig|prikkelbaar].",
    "[Het werken met de dagplanning|De nieuwe benadering|Het rustmoment na de lunch|De koptelefoon] [lijkt te helpen|helpt niet|geeft wisselend resultaat].",
    "{cl} [zocht|zoekt] [veel|weinig] contact met [begeleiders|{mb}|{col}][, vooral [als het druk is|'s avonds]|].",
    "[Incidenten|Uitbarstingen] deze [week|maand]: {num:0:9}[ (vorige periode: {num:0:12})|].",
    "[Opvallend is dat|Het valt op dat|Het team ziet dat] {cl} [rustiger is als er één vaste begeleider is|meer onrust laat zien na bezoek van {rel}|minder eet als het druk is aan tafel|beter slaapt na een wandeling].",
    "{cl} [kan|kon] [signalen van spanning|{zijn} gevoelens|behoeften] [nog niet goed|steeds beter|soms] [aangeven|onder woorden brengen], [waardoor het gedrag escaleert|wat de begeleiding lastiger maakt|wat positief is].",
    "[In de thuissituatie|Op de dagbesteding|Op school] [wordt|werd] [hetzelfde gedrag|weinig van dit gedrag|vooral verbale agressie] gezien[, aldus {rel}|].",
    "[De functie van het gedrag lijkt|Vermoedelijk is het gedrag gericht op] [het vermijden van eisen|het krijgen van aandacht|het reguleren van prikkels|het uiten van pijn of ongemak].",
    "[Het gebruik van|De inzet van] [de time-out|de prikkelarme ruimte|z.n. medicatie|fixatie] [is afgenomen|is gelijk gebleven|is toegenomen] [ten opzichte van {monthyear}|sinds de vorige evaluatie].",
)
ADVICE = (
    "[Voorspelbaarheid bieden|Duidelijke korte zinnen gebruiken|Niet in discussie gaan|Keuzes beperken tot twee]",
    "[Dagstructuur met pictogrammen handhaven|Rustmoment inplannen na {time}|Vaste begeleider bij de ochtendzorg]",
    "[Observatie nog {num:2:6} weken voortzetten|Evaluatie op {date:d_month:7:40} met {gd}|Bespreken in het MDO]",
    "[Signaleringsplan aanpassen|Medicatie laten evalueren door {arts}|Contact met {rel} over de thuissituatie]",
)
MED = (
    "Medicatiewijziging per {date:dm:0:5}: {med} [gestopt|afgebouwd|opgehoogd]; [gestart met {med} {freq}|geen vervanging].",
    "[Baxterrol|Medicatierol|Weekdoos] [ontvangen van|gecontroleerd, klopt met] {apo}[, [geen|enkele] afwijkingen|].",
    "{cl} [weigerde|spuugde] {zijn} [ochtendmedicatie|avondmedicatie|{med}][, na {num:15:60} min opnieuw aangeboden en [toen wel ingenomen|weer geweigerd]|. {arts} geïnformeerd.]",
    "[Dubbele controle|Controle] [insuline|opiaat|{med}] met {col} om {time}[, afgetekend|].",
    "[Medicatie|{med}] [afgetekend|gecontroleerd|klaargezet] door {ini}[, tweede controle {ini}|][ om {time}|].",
    "[Overleg met|Na overleg met|I.o.m.] {ini}: {med} [z.n.|extra] gegeven [om {time}|], [effect afwachten|rapporteren aan de avonddienst].",
    "{med} [z.n.|zn] gegeven om {time} [i.v.m.|ivm|vanwege] [pijn|onrust|benauwdheid|slapeloosheid|angst][, effect [goed|matig|geen]|].",
    "[Herhaalrecept|Recept] [aangevraagd bij|verstuurd naar] {ha}[ voor {med}|], [levering {dag}|gaat via {apo}].",
    "Medicatiereview [met|door] {arts} en {apo} [gepland op {date:d_month:5:30}|gedaan][, {num:1:4} middelen gestopt|].",
    "[Fentanylpleister|Pleister] [gewisseld|geplakt] [op de {body}|links op de rug|rechts op de borst], [volgende wissel {date:wd_dm:3:3}|oude verwijderd].",
    "{cl} [beheert|beheerde] de medicatie [zelf|niet meer zelf][, {rel} zet de weekdoos klaar|, vanaf {date:dm:0:7} door de zorg|].",
    "Insuline [{num:4:30} E|volgens schema] [gespoten|toegediend] [om {time}|], BG {dec:4:18} mmol/l.",
    "Bijwerking [gemeld|gezien]: [misselijkheid|duizeligheid|sufheid|uitslag] na start {med}; {ha} [gebeld|geïnformeerd].",
)


def write_behaviour(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A behavioural report: ABC registration, a weekly observation, or an advice."""
    rng = ctx.rng
    x = rng.random()
    if x < 0.45:
        b.render("[ABC-registratie|Gedragsregistratie|Registratie probleemgedrag][ {today}| {today} {time}|]", s).nl()
        labels = (("A", "B", "C"), ("Aanleiding", "Gedrag", "Gevolg"), ("Antecedent", "Behaviour", "Consequentie"))[
            rng.randrange(3)
        ]
        for lab, pool in zip(labels, (ANTECEDENT, BEHAVIOUR, CONSEQUENCE)):
            field(b, s, lab, rng.choice(pool))
        if rng.random() < 0.5:
            b.text(rng.choice(("Toelichting: ", "Opmerking: ")), fixed=True)
            sentences(b, s, pick(rng, OBS, rng.randint(1, 2)))
        signoff(b, s, rng, 0.6)
        return
    b.render(
        "[Gedragsrapportage|Observatieverslag|Verslag gedragsdeskundige|Weekevaluatie gedrag][ week {num:1:52}| {today}|]",
        s,
    ).nl(2)
    if rng.random() < 0.5:
        field(b, s, "Cliënt", "{clname}")
        field(b, s, rng.choice(("Opgesteld door", "Auteur", "Door")), "[{gd}|{author}]")
        b.nl()
    sentences(b, s, pick(rng, OBS, rng.randint(5, 10)))
    b.nl(2)
    b.text(rng.choice(("Advies", "Adviezen", "Afspraken", "Plan")) + ":", fixed=True).nl()
    bullets(b, s, rng, pick(rng, ADVICE, rng.randint(2, 4)))
    if rng.random() < 0.5:
        b.nl()
        b.render(
            "[Volgende evaluatie|Evaluatie] [op {date:d_month:14:60}|in het MDO|over {num:4:8} weken][ met {gd}|]", s
        ).nl()
    signoff(b, s, rng, 0.5)


def write_medication(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A medication note (change, refusal, double check, as-needed dose)."""
    rng = ctx.rng
    if rng.random() < 0.3:
        b.render("[Medicatie|Medicatienotitie|Medicatie {today}|MEDICATIE]", s).nl()
    sentences(b, s, pick(rng, MED, rng.choice((1, 2, 2, 3, 4))), " " if rng.random() < 0.6 else "\n")
    signoff(b, s, rng, 0.6)
