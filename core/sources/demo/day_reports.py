"""Long day reports in elderly and home care: one paragraph per shift or per care domain."""

from __future__ import annotations

from synthdeid.sources.demo import progress_notes as pn
from synthdeid.sources.demo.builder import Slots, TextBuilder
from synthdeid.sources.demo.common import pick, sentences, signoff
from synthdeid.sources.demo.context import NoteContext
from synthdeid.sources.demo.progress_notes import (
    BREATHING,
    COGNITION,
    EVENING,
    HOMECARE,
    PAIN,
)

PALLIATIVE = (
    "{cl} [gaat|ging] [zichtbaar|verder] achteruit, [eet en drinkt nauwelijks nog|slaapt het grootste deel van de dag|reageert minder op aanspreken].",
    "[Comfortzorg|Palliatief beleid] [is afgesproken met {arts}|wordt voortgezet]; [mondzorg elk uur|wisselligging op geleide van comfort|geen controles meer].",
    "{rel} [is de hele dag aanwezig geweest|blijft vannacht bij {hem}|heeft afscheid genomen][, logeerbed klaargezet op kamer {room}|].",
    "[Pastor|Geestelijk verzorger] [is langs geweest|komt {dag}] op verzoek van [de familie|{cl}].",
)
SECTION_HEADS = {
    "shift": ("Ochtend", "Middag", "Avond", "Nacht"),
    "domain": (
        "Verzorging",
        "Voeding en vocht",
        "Welbevinden",
        "Mobiliteit",
        "Medisch",
        "Contact familie",
        "Huid",
        "Uitscheiding",
        "Dagbesteding",
        "Cognitie",
        "Pijn",
        "Bijzonderheden",
    ),
}
DOMAIN_POOLS = {
    "Verzorging": pn.ADL,
    "Voeding en vocht": pn.FOOD,
    "Welbevinden": pn.MOOD,
    "Mobiliteit": pn.MOBILITY,
    "Medisch": pn.MEDICAL + BREATHING,
    "Contact familie": pn.SOCIAL,
    "Huid": pn.SKIN,
    "Uitscheiding": pn.CONTINENCE,
    "Dagbesteding": pn.ACTIVITY,
    "Cognitie": COGNITION,
    "Pijn": PAIN,
    "Bijzonderheden": pn.PLAN + PALLIATIVE,
}
SHIFT_POOLS = {
    "Ochtend": (pn.ADL, pn.FOOD, pn.MOOD, HOMECARE),
    "Middag": (pn.ACTIVITY, pn.SOCIAL, pn.FOOD, PAIN, COGNITION),
    "Avond": (EVENING, pn.MOOD, pn.MEDICAL, pn.SOCIAL),
    "Nacht": (pn.SLEEP, pn.CONTINENCE, BREATHING),
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
