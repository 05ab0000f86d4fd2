"""Measurement notes: vital signs, weight series, defecation lists, fluid balance, scores."""

from __future__ import annotations

import datetime as dt

from synthdeid.sources.demo.builder import Slots, TextBuilder
from synthdeid.sources.demo.common import pick, sentences, signoff
from synthdeid.sources.demo.context import NoteContext

VITALS = (
    ("[Bloeddruk|RR|Tensie|BD]", "{num:95:185}/{num:50:105}[ mmHg|]"),
    ("[Pols|P|Hartslag]", "{num:48:118}[/min| p/m| regulair| irregulair|]"),
    ("[Temperatuur|Temp|T]", "{dec:35.6:39.6}[ C| graden|°C|]"),
    ("[Saturatie|Sat|SpO2]", "{num:86:100}%[ zonder O2| met 2L O2|]"),
    ("[Ademhaling|AF]", "{num:12:28}[/min|]"),
    ("[Pijnscore|NRS|Pijn (NRS)|VAS]", "{num:0:9}"),
    ("[Gewicht|Gew]", "{dec:42:110} kg"),
    ("[Glucose|BG|Bloedsuiker|Dextro]", "{dec:3.5:19} mmol/l"),
    ("[Bewustzijn|EMV]", "[alert|E4M6V5|E3M6V4|reageert op aanspreken|suf]"),
)
SCORES = (
    "[PAINAD|Pijnscore PAINAD|REPOS]: {num:0:8}[, [geen|wel] actie nodig|]",
    "[MUST|SNAQ]-score: {num:0:4}[, diëtist inschakelen|: wegen 1x per week|]",
    "[Braden|Norton]score: {num:9:20}[, decubituspreventie [gestart|voortzetten]|]",
    "[Katz-ADL|Barthel-index]: {num:2:19}",
    "[MMSE|MoCA] {num:10:29}/30[ (afgenomen door {arts})|]",
    "[DOS-score|Delirium observatie]: {num:0:9}[, {ha} geïnformeerd|]",
    "[Valrisico|SAFE-score]: [laag|matig|hoog]",
)
INTRO = (
    "[Controles|Metingen|Vitale functies|Controle] [{today}|{today} {time}|om {time}|]",
    "[Wekelijkse|Maandelijkse|Dagelijkse] [controle|meting]",
    "[EWS|MEWS] [meting|controle][ {time}|]",
    "Metingen {cl}",
)


def _series_dates(ctx: NoteContext, n: int, step: int) -> list[dt.date]:
    start = ctx.date - dt.timedelta(days=step * (n - 1))
    return [start + dt.timedelta(days=step * i) for i in range(n)]


def _date_style(ctx: NoteContext) -> str:
    return ctx.rng.choice(("dm", "dm", "dmy", "wd_dm", "d_mon", "dm_slash", "dmy2"))


def write_vitals(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """Vital signs as a form, one line, or a sentence."""
    rng = ctx.rng
    items = pick(rng, VITALS, rng.randint(2, 7))
    style = rng.random()
    if style < 0.5:
        if rng.random() < 0.7:
            b.render(rng.choice(INTRO), s).nl()
        initials = rng.random() < 0.3
        for label, value in items:
            b.render(label + ": " + value, s)
            if initials:
                b.render(" [({ini})|{ini}|- {ini}]", s)
            b.nl()
    elif style < 0.8:
        for i, (label, value) in enumerate(items):
            if i:
                b.text(rng.choice((", ", "; ", " ")))
            b.render(label + " " + value, s)
        b.text(rng.choice((".", "", "")))
    else:
        b.render("{cl} [gemeten|gecontroleerd][ om {time}|][ i.v.m. [koorts|benauwdheid|duizeligheid|de val]|]: ", s)
        for i, (label, value) in enumerate(items):
            if i:
                b.text(", ")
            b.render(label + " " + value, s)
        b.text(". ")
        b.render(
            "[Waarden [normaal|binnen de grenzen|iets verhoogd]|{ha} [gebeld|geïnformeerd]|Morgen opnieuw meten|Overleg met {arts}].",
            s,
        )
    if rng.random() < 0.3:
        b.nl()
        sentences(b, s, pick(rng, SCORES, rng.randint(1, 2)), "\n")
    signoff(b, s, rng, 0.5)


def write_series(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A dated list: weights, defecation, fluid balance or glucose values."""
    rng = ctx.rng
    kind = rng.randrange(4)
    title = (
        ("Gewichtsverloop", "Gewicht", "Weeglijst"),
        ("Defecatielijst", "Ontlasting", "Defecatie"),
        ("Vochtbalans", "Vochtlijst", "Intake/output"),
        ("Glucosewaarden", "Dagcurve", "BG-lijst"),
    )[kind]
    b.text(rng.choice(title), fixed=True)
    if rng.random() < 0.5:
        b.text(" ")
        b.render("{cl}", s)
    b.nl()
    n = rng.randint(2, 7)
    step = (7, 1, 1, 1)[kind] if rng.random() < 0.8 else rng.choice((1, 2, 3, 14))
    dstyle = _date_style(ctx)
    sep = rng.choice((": ", " - ", " "))
    initials = rng.random() < 0.35
    for d in _series_dates(ctx, n, step):
        b.phi(ctx.ps.format_date(d, dstyle), "Date")
        b.text(sep)
        if kind == 0:
            b.render("{dec:44:98} kg[ (na ontbijt)| met kleding|]", s)
        elif kind == 1:
            b.render("[geen|Bristol {num:1:7}[, [veel|weinig|normaal]|]|x|{num:1:3}x, [dun|hard|normaal]|-]", s)
        elif kind == 2:
            b.render("in {num:600:2200} ml / uit {num:400:1900} ml", s)
        else:
            b.render("[nuchter |]{dec:3.8:18} mmol/l[, {num:2:14}E [Novorapid|insuline] gespoten|]", s)
        if initials:
            b.render(" [({ini})|{ini}|/{ini}]", s)
        b.nl()
    if rng.random() < 0.5:
        b.render(
            (
                "[Gewicht [stabiel|daalt|stijgt]|{num:1:4} kg afgevallen in {num:2:8} weken], [diëtist geïnformeerd|blijven wegen|{arts} op de hoogte].",
                "[Laxeermiddel|Movicolon|Lactulose] [gegeven|opgehoogd] [volgens afspraak|na overleg met {ha}].",
                "[Balans|Intake] [positief|negatief|onvoldoende], [stimuleren met drinken|{arts} geïnformeerd|graag blijven bijhouden].",
                "Waarden [te hoog|wisselend|goed ingesteld], [overleg met {ha}|{arts} past schema aan|diabetesverpleegkundige gebeld].",
            )[kind],
            s,
        )
    signoff(b, s, rng, 0.4)
