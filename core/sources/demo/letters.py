"""Letters: discharge and transfer letters, referrals, and short notes to the GP."""

from __future__ import annotations

import random

from synthdeid.sources.demo.builder import Slots, TextBuilder
from synthdeid.sources.demo.common import bullets, field, pick, sentences
from synthdeid.sources.demo.context import NoteContext
from synthdeid.sources.demo.intake import FUNCTIONING, HISTORY

OPENINGS = (
    "Geachte collega,",
    "Geachte heer/mevrouw,",
    "Beste collega,",
    "Geachte {ha},",
    "Beste zorgverleners,",
    "Hierbij de overdracht van {clname}.",
)
COURSE = (
    "{cl} werd op {date:dmy:-30:-5} opgenomen [in {hosp}|in ons ziekenhuis|op onze afdeling|in het ziekenhuis][ afdeling {loc}|] [i.v.m.|na|wegens] [een val met heupfractuur|een pneumonie|decompensatie cordis|een delier|een CVA|uitdroging|een psychose].",
    "[Tijdens de opname|In het beloop] [is|werd] {cl} [behandeld met {med}|geopereerd op {date:d_month:-25:-5}|gemobiliseerd door de fysiotherapie|gestart met {med} {freq}].",
    "[Het herstel verliep|Het beloop was] [voorspoedig|traag|gecompliceerd door een delier|wisselend].",
    "{cl} [is|werd] op {date:dmy:-3:0} [ontslagen|overgeplaatst] naar [{inst}|{oinst}|huis met thuiszorg van {org:thuiszorg}][ voor revalidatie|].",
    "[Bij ontslag|Op dit moment] [loopt|mobiliseert] {cl} [met rollator|met hulp van één persoon|nog niet zelfstandig].",
    "[Controle|Vervolgafspraak] [op de poli|bij de {spec}] [op {date:d_month_y:7:60}|over {num:2:8} weken][ in {hosp}|].",
    "[Familie|{rel}] is [op de hoogte|akkoord met het beleid|betrokken bij het ontslag].",
    "[In verband met|Gezien] [de achteruitgang|de toegenomen zorgzwaarte|de wens van {cl}] [is besloten tot|adviseren wij] [een opname in {oinst}|palliatief beleid|een indicatie voor {org:thuiszorg}].",
)
POLICY = (
    "[Controle|Bloedafname] [Hb|nierfunctie|INR|elektrolyten] [over een week|op {date:dm:5:14}] via {ha}",
    "[Mobiliseren|Oefenen] onder begeleiding van [de fysiotherapeut|{para}], [{num:2:5}x per week|dagelijks]",
    "[Wondzorg|Hechtingen verwijderen] [op {date:dm:7:14}|volgens wondbeleid|door de wijkverpleging]",
    "[Reanimatiebeleid|Beleid]: [niet reanimeren|geen IC-opname|wel reanimeren], besproken met {cl} en {rel}",
    "[Bij koorts boven 38,5|Bij toename van pijn|Bij verwardheid] [contact opnemen met|overleggen met] [{ha}|de dienstdoende arts|{hosp}]",
    "[Vochtbeperking|Zoutbeperking] [1,5 liter per dag|2 liter per dag]; dagelijks wegen",
    "[Afbouw|Stop] {med} [in 2 weken|na de kuur|bij ontslag]",
)
MEDLIST = ("{med} {freq}", "{med} {freq}[, gestart op {date:dm:-20:0}|]", "{med} [gestopt|tijdelijk gestaakt]")
REFERRAL = (
    "[Het afgelopen half jaar|Sinds {monthyear}|De laatste weken] [zien wij|ziet het team|merkt {rel}] [een duidelijke achteruitgang|meer onrust|gewichtsverlies van {num:3:9} kg|toenemende angst] bij {cl}.",
    "[Eerdere interventies|De ingezette begeleiding|Aanpassing van de medicatie] [hebben onvoldoende effect gehad|gaven tijdelijk verbetering|zijn besproken met {arts}].",
    "[Wij vragen u|Graag vragen wij u] [mee te denken over het beleid|een diagnostisch onderzoek te verrichten|{cl} te beoordelen op de poli].",
    "Graag uw [aandacht|beoordeling|advies] voor {cl}, [{age}|geboren {dob}], [wonend te {city}|bekend met {dx}].",
    "[Reden van verwijzing|Vraagstelling]: [toenemende cognitieve klachten|vermoeden van depressie|gedragsproblemen|herhaald vallen|ondervoeding|pijnklachten {body}].",
    "{cl} is sinds {year:1:8} bekend [bij ons|bij {inst}|in {hosp}] [met|vanwege] {dx}.",
    "[Thuissituatie|Sociaal]: [woont alleen|woont met {zijn} {vrouw}|mantelzorg door {rel}|woont in {inst}].",
)
DX = (
    "dementie",
    "COPD",
    "hartfalen",
    "DM type 2",
    "de ziekte van Parkinson",
    "schizofrenie",
    "een lichte VB",
    "autisme",
    "een bipolaire stoornis",
    "Korsakov",
    "NAH na CVA",
    "epilepsie",
)


def _letterhead(b: TextBuilder, s: Slots, rng: random.Random, org_slot: str) -> None:
    b.render(org_slot, s).nl()
    if rng.random() < 0.6:
        b.render("[{oaddr}|Postbus {num:100:9999}, {opc}]", s).nl()
    if rng.random() < 0.35:
        b.render("[Tel|T|Telefoon]: {ophone}[ | Fax: {ophone}|]", s).nl()
    if rng.random() < 0.4:
        b.render("[{url}|{orgemail}]", s).nl()
    b.nl()


def write_letter(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A discharge/transfer letter or a referral, with letterhead, fields and sign-off."""
    rng = ctx.rng
    s = {**s, "dx": rng.choice(DX)}
    referral = rng.random() < 0.35
    _letterhead(b, s, rng, "[{inst}|{oinst}]" if referral else "[{hosp}|{hosp}|{hosp}, afdeling {loc}]")
    b.render("[Aan|T.a.v.|Retour]: [{ha}|{oinst}|{inst}, t.a.v. {arts}|huisartsenpraktijk {ocity}]", s).nl()
    field(b, s, rng.choice(("Datum", "Datum brief", "Datum", "Dictaatdatum")), "{today}")
    if rng.random() < 0.3:
        field(b, s, rng.choice(("Uw kenmerk", "Ons kenmerk", "Kenmerk")), "{oid}")
    field(
        b,
        s,
        rng.choice(("Betreft", "Inzake", "Patiënt", "Cliënt")),
        "{Mw} {clname}[, geb. {dob}|, {dob}| ({age})|][, BSN {clbsn}||][, {id}||]",
    )
    if rng.random() < 0.3:
        field(b, s, "Adres", "{addr}")
    b.nl()
    b.render(rng.choice(OPENINGS), s).nl(2)
    if referral:
        sentences(b, s, pick(rng, REFERRAL, rng.randint(4, 7)))
    else:
        if rng.random() < 0.5:
            b.text(rng.choice(("Voorgeschiedenis:", "VG:", "Relevante voorgeschiedenis:")), fixed=True).nl()
            bullets(b, s, rng, pick(rng, HISTORY, rng.randint(2, 4)))
            b.nl()
        sentences(b, s, pick(rng, COURSE, rng.randint(5, 9)))
        if rng.random() < 0.6:
            b.nl(2)
            b.text(
                rng.choice(("Verpleegkundige overdracht", "Zorgbehoefte bij ontslag", "Functioneren")), fixed=True
            ).nl()
            for label, value in pick(rng, FUNCTIONING, rng.randint(3, 7)):
                field(b, s, label, value)
        if rng.random() < 0.85:
            b.nl(2)
            b.text(rng.choice(("Medicatie bij ontslag:", "Actuele medicatie:", "Medicatie:")), fixed=True).nl()
            bullets(b, s, rng, [rng.choice(MEDLIST) for _ in range(rng.randint(2, 6))])
    if not referral and rng.random() < 0.7:
        b.nl(2)
        b.text(rng.choice(("Beleid", "Advies", "Beleid en adviezen")) + ":", fixed=True).nl()
        bullets(b, s, rng, pick(rng, POLICY, rng.randint(2, 5)))
    b.nl(2)
    if rng.random() < 0.5:
        b.render(
            "[Voor vragen kunt u contact opnemen met|Bij vragen bereikbaar via] [{ophone}|{orgemail}|de afdeling|het secretariaat].",
            s,
        ).nl(2)
    b.render("[Met vriendelijke groet,|Met collegiale groet,|Hoogachtend,|Mvg,]", s).nl(rng.choice((1, 2)))
    b.render(
        "[{author}|{author}, {role}|{arts}|dr. {oname:s}[, internist|, geriater|, specialist ouderengeneeskunde|]]", s
    ).nl()
    if rng.random() < 0.5:
        b.render("[{hosp}|{inst}|{oinst}][, {ocity}|]", s)
