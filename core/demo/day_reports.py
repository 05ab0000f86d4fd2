"""Long day reports in elderly and home care: one paragraph per shift or per care domain."""

from __future__ import annotations

from . import progress_notes as pn
from .builder import Slots, TextBuilder
from .common import pick, sentences, signoff
from .context import NoteContext

COGNITION = (
    "{cl} was [vanochtend|bij het opstaan|na de middagrust] [gedesoriënteerd in tijd en plaats|niet goed georiënteerd|helder en goed aanspreekbaar|wat verward, maar dit trok bij in de loop van de ochtend].",
    "Tijdens het gesprek [haalde|haalt] {cl} [vroeger en nu door elkaar|herinneringen op aan {zijn} jeugd|steeds hetzelfde verhaal aan|de namen van {zijn} kinderen door elkaar].",
    "{cl} [dacht|denkt] dat [{ze} nog moest werken|{zijn} moeder op {hem} wachtte|het zondag was|{ze} in een hotel verblijft] en [was hier onrustig over|liet zich niet geruststellen|was gerust na uitleg].",
    "Het [geheugen|kortetermijngeheugen] van {cl} [gaat merkbaar achteruit|lijkt stabiel|wisselt per dag]; [{rel} merkt dit ook op|dit wordt meegenomen in het MDO|observatielijst is gestart].",
    "[Het vervangen van de thee door koffie|De muziek van vroeger|Een rustig plekje bij het raam|Een vaste volgorde bij de zorg] [werkt goed bij|geeft rust aan|helpt] {cl}.",
    "{cl} [liep|zocht] [rond {time}|in de avond] [de uitgang|naar de lift|de kamer van {mb}][ en wilde naar huis|], [samen een rondje gelopen, daarna rustiger.|met koffie afgeleid.|duurde lang voordat {ze} tot rust kwam.]",
)
PAIN = (
    "{cl} [had|heeft] [veel|wat|minder] pijn [in de {body}|bij het bewegen|tijdens de transfer][, pijnscore [vanochtend|vanmiddag] {num:2:9}|][, na {med} daalde de score naar {num:1:4}|].",
    "[Pijn|Pijnbeleving] [lijkt|is] [beter onder controle|nog niet goed onder controle|wisselend] sinds de start van {med}[, {arts} wordt gevraagd dit te evalueren|].",
    "Bij het verschonen [vertrok {cl} het gezicht|kreunde {cl}|gaf {cl} pijn aan bij de {body}], [zorg rustig uitgevoerd.|daarna z.n. medicatie gegeven.|PAINAD-score {num:2:8}.]",
)
BREATHING = (
    "{cl} [is|was] [kortademig|benauwd|snel buiten adem] [bij inspanning|in rust|na het wassen][, sat {num:86:97}%|][, zuurstof {num:1:3} liter aangelegd|].",
    "[Hoest|Hoestte] [veel|productief|droog][, [geel|groen|wit] sputum|]. [Vernevelen gedaan om {time}.|Rechtop in bed gelegd.|{ha} wordt morgen gebeld als het niet verbetert.]",
)
PALLIATIVE = (
    "{cl} [gaat|ging] [zichtbaar|verder] achteruit, [eet en drinkt nauwelijks nog|slaapt het grootste deel van de dag|reageert minder op aanspreken].",
    "[Comfortzorg|Palliatief beleid] [is afgesproken met {arts}|wordt voortgezet]; [mondzorg elk uur|wisselligging op geleide van comfort|geen controles meer].",
    "{rel} [is de hele dag aanwezig geweest|blijft vannacht bij {hem}|heeft afscheid genomen][, logeerbed klaargezet op kamer {room}|].",
    "[Pastor|Geestelijk verzorger] [is langs geweest|komt {dag}] op verzoek van [de familie|{cl}].",
)
HOMECARE = (
    "Bij binnenkomst om {time:morn} [lag|zat] {cl} [nog in bed|al aangekleed in de stoel|in de keuken], [de deur was op slot, binnengekomen met de sleutelkluis.|{ze} had de koffie al klaar.|de verwarming stond uit.]",
    "[Post en brieven|De koelkast|Het huis] [gecontroleerd|nagekeken]: [er lagen verlopen producten in|alles in orde|veel ongeopende post, {rel} op de hoogte gebracht].",
    "{cl} [had|heeft] [de medicatie van gisteren|de avondmedicatie|de tabletten van {dag}] [niet ingenomen|nog in de weekdoos|op tafel laten liggen]; [ingenomen onder toezicht.|{rel} wordt gevraagd mee te kijken.|doorgegeven aan de wijkverpleegkundige.]",
    "Alarmering [getest|werkt niet|opnieuw uitgelegd][, {cl} draagt de halszender niet altijd|, contact met {org:hulp}|].",
    "[Maaltijden|Boodschappen] worden [geregeld door {rel}|bezorgd door {org:thuiszorg}|samen met de buurvrouw gedaan].",
    "Woning [is|blijft] [netjes|rommelig|onveilig door losse kleden|koud][; besproken met {cl}|; melding aan het sociaal wijkteam gedaan|].",
)
EVENING = (
    "In de avond [heeft {cl} [tv gekeken|naar muziek geluisterd|met {mb} zitten praten]|is {cl} vroeg naar bed gegaan|keek {cl} naar [het journaal|een quiz|voetbal]][ en was tevreden|].",
    "Avondzorg [om {time}|na het journaal] [zonder problemen|met enige weerstand|samen met {col}] uitgevoerd.",
    "[Avondmedicatie|Medicatie] [ingenomen|gegeven om {time}|geweigerd, later wel genomen][.|, zie toedienlijst.]",
)
SECTION_HEADS = {
    "shift": ("Ochtend", "Middag", "Avond", "Nacht"),
    "domain": ("Verzorging", "Voeding en vocht", "Welbevinden", "Mobiliteit", "Medisch", "Contact familie",
               "Huid", "Uitscheiding", "Dagbesteding", "Cognitie", "Pijn", "Bijzonderheden"),
}
DOMAIN_POOLS = {
    "Verzorging": pn.ADL, "Voeding en vocht": pn.FOOD, "Welbevinden": pn.MOOD, "Mobiliteit": pn.MOBILITY,
    "Medisch": pn.MEDICAL + BREATHING, "Contact familie": pn.SOCIAL, "Huid": pn.SKIN,
    "Uitscheiding": pn.CONTINENCE, "Dagbesteding": pn.ACTIVITY, "Cognitie": COGNITION, "Pijn": PAIN,
    "Bijzonderheden": pn.PLAN + PALLIATIVE,
}
SHIFT_POOLS = {
    "Ochtend": (pn.ADL, pn.FOOD, pn.MOOD, HOMECARE), "Middag": (pn.ACTIVITY, pn.SOCIAL, pn.FOOD, PAIN, COGNITION),
    "Avond": (EVENING, pn.MOOD, pn.MEDICAL, pn.SOCIAL), "Nacht": (pn.SLEEP, pn.CONTINENCE, BREATHING),
}


def write_day_report(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A long report with headed paragraphs (per shift or per care domain)."""
    rng = ctx.rng
    b.render("[Dagrapportage|Rapportage|Weekoverzicht|Dagverslag|Evaluatie] [{today}|{cl}|{today:wd_d_month}|]", s)
    b.nl(rng.choice((1, 2)))
    by_shift = rng.random() < 0.4
    if by_shift:
        heads = [h for h in SECTION_HEADS["shift"] if rng.random() < 0.75] or ["Ochtend"]
    else:
        heads = pick(rng, SECTION_HEADS["domain"], rng.randint(5, 10))
    colon = rng.choice((":", "", ":"))
    for h in heads:
        b.text(h + colon, fixed=True)
        b.nl() if rng.random() < 0.6 else b.text(" ")
        if by_shift:
            chosen = [t for pool in SHIFT_POOLS[h] for t in pick(rng, pool, rng.choice((1, 2))) if rng.random() < 0.8]
            chosen = chosen or pick(rng, SHIFT_POOLS[h][0], 1)
        else:
            chosen = pick(rng, DOMAIN_POOLS[h], rng.choice((1, 2, 2, 3, 3)))
        sentences(b, s, chosen)
        if rng.random() < (0.75 if by_shift else 0.3):
            b.render(rng.choice((" /{ini}", " ({ini})", " - {ini}", " {ini}")), s)
        b.nl(rng.choice((1, 2)))
    signoff(b, s, rng, 0.8)


EXTRA_POOLS = (COGNITION, PAIN, BREATHING, HOMECARE, EVENING)
