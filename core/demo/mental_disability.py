"""Progress notes in mental health care (GGZ) and disability care (VG)."""

from __future__ import annotations

from .builder import Slots, TextBuilder
from .common import header, pick, sentences, signoff
from .context import NoteContext

GGZ = (
    "Gesprek [gehad|gevoerd] met {cl} over [{zijn} dagstructuur|de medicatie|het signaleringsplan|{zijn} relatie met {relname}|wonen|financiën|de terugval van vorige week|{zijn} werk bij {org}|het vrijwilligerswerk][.|, {ze} [kon goed reflecteren|was open|hield de boot af|werd emotioneel].]",
    "{cl} [geeft aan|vertelt|zegt] [slecht te slapen|veel te piekeren|stemmen te horen|zich gespannen te voelen|zich beter te voelen dan vorige week|behoefte te hebben aan rust|middelen te hebben gebruikt in het weekend][.|. Besproken wat {ze} kan doen volgens het signaleringsplan.]",
    "Signaleringsplan: fase [groen|geel|oranje|rood][.|, {cl} herkent zelf de signalen.|, afspraken opnieuw doorgenomen.]",
    "{cl} [maakt|maakte] een [verzorgde|onverzorgde|gespannen|vlakke|rustige|ontremde] indruk[, spraakdrang.|, denkt helder.|, weinig oogcontact.|.]",
    "[Depot|Injectie] [gegeven|toegediend] [in de bil|in de bovenarm][, volgende op {date:dm:14:28}.|.]",
    "{cl} [is|was] niet verschenen op de afspraak[.|, gebeld naar {phone}, geen gehoor.|, {col} gaat op huisbezoek.]",
    "Huisbezoek [afgelegd|gedaan] [bij {cl}|][ aan de {street}| thuis][.|, woning [opgeruimd|rommelig|vervuild].]",
    "Overleg met {arts} over [ophogen|afbouwen|stoppen] van {med}[.|, besluit: [ophogen|afwachten|doorgaan zoals het is].]",
    "{cl} heeft [contact gehad met|een afspraak bij] {org} [over {zijn} schulden|over werk|over een uitkering][.|, {rel} gaat mee.]",
    "Urinecontrole [afgenomen|gedaan]: [negatief|positief op cannabis|positief op cocaïne|schoon].",
    "Crisisdienst [gebeld|ingeschakeld] om {time}[, beoordeling door {arts}.|, {cl} is vrijwillig opgenomen in {oinst}.|.]",
    "{cl} [heeft|had] [een goede week|een moeilijke week|een rustig weekend] gehad[.|, {ze} is [trots|tevreden|teleurgesteld] over [het sporten|de afspraken met {relname}|{zijn} nieuwe baan als {prof}].]",
    "{cl} [wil|wilde] [meer zelfstandig wonen|stoppen met de medicatie|een andere behandelaar|op vakantie naar {country}][.|, besproken in het team.|, afgesproken dit met {arts} te bespreken.]",
    "[Ruzie|Spanning|Onenigheid] [op de groep|met {mb}|met {rel}][, {cl} heeft zich teruggetrokken.|, de-escalerend gesprek gevoerd.|.]",
    "{cl} [is|was] [vandaag|gisteren|dit weekend] [met verlof|thuis|bij {rel}][ geweest|][, terug om {time}|][.|, verlof goed verlopen.|, kwam later terug dan afgesproken.]",
    "Behandelplan [geëvalueerd|besproken|bijgesteld] met {cl}[ en {rel}|][, volgende evaluatie {date:d_month:30:90}.|.]",
    "{cl} volgt [de groepstherapie|EMDR|schematherapie|de training vaardigheden|CGT] bij {oinst}[.|, sessie {num:2:12} van 12.]",
    "{cl} [vertelt|vertelde] dat {ze} [de afgelopen nachten|sinds het weekend|sinds {dag}] [nauwelijks slaapt|veel wakker ligt|nachtmerries heeft] en [overdag moeite heeft om op gang te komen|zich daardoor prikkelbaar voelt|het huis niet uit komt].",
    "[Het|Ons] gesprek [ging|verliep] [over|vooral over] [de spanning thuis|het contact met {zijn} kinderen|de toekomst|de schulden|het middelengebruik|{zijn} angst om buiten te komen]; {cl} [kon dit goed verwoorden|vond het lastig om erover te praten|werd er verdrietig van].",
    "{cl} [gebruikt|gebruikte] [de medicatie|{med}] [trouw|niet trouw|wisselend] [volgens eigen zeggen|, de weekdoos was nog half vol|, bevestigd door {rel}].",
    "[Suïcidaliteit|Doodsgedachten] [uitgevraagd|besproken]: [geen concrete plannen|passieve doodswens, geen plan|{cl} heeft afspraken gemaakt in het veiligheidsplan].",
    "{cl} [heeft|had] [de dagbesteding|het werk bij {org}|de sportgroep|de inloop] [goed volgehouden|twee keer overgeslagen|weer opgepakt] deze week.",
    "Contact met {rel} [was|is] [positief|gespannen|beperkt]; {cl} [wil|wilde] [meer afstand|graag een gezamenlijk gesprek|dat wij {rel} informeren over de behandeling].",
    "[Na afloop van het gesprek|Aan het eind] [oogde|leek] {cl} [opgelucht|moe|rustiger|nog steeds gespannen]; volgende afspraak [op {date:wd_dm:3:14} om {time}|over twee weken|wordt telefonisch gepland].",
    "{cl} [meldde zich|belde] [om {time}|'s avonds] bij [de crisisdienst|de afdeling|de dienstdoende] met [paniekklachten|onrust|een terugval in gebruik]; [telefonisch gerustgesteld|afspraak gemaakt voor morgen|opgevangen op de afdeling].",
)
VG = (
    "{cl} is [vandaag|vanochtend] naar [de dagbesteding|het werk|school|de zorgboerderij][ bij {oinst}| bij {org}|][ geweest| gegaan|][.|, {ze} had het naar {zijn} zin.|, het was een drukke dag.]",
    "{cl} [was|raakte] [boos|overprikkeld|gefrustreerd|verdrietig] [toen|omdat] [de bus te laat was|{mb} aan {zijn} spullen zat|{ze} moest wachten op {zijn} beurt|het programma veranderde][.|. Time-out op {zijn} kamer, daarna weer rustig.|. Volgens plan benaderd.]",
    "Samen met {cl} [boodschappen gedaan bij {org}|de kamer opgeruimd|gekookt|een was gedraaid|{zijn} weekplanning gemaakt][.|, {ze} deed goed mee.]",
    "{cl} gaat [dit weekend|vrijdag|{dag}] [naar huis|logeren bij {rel}|naar {zijn} ouders][.|, wordt om {time} opgehaald.|, medicatie meegegeven.]",
    "[Pictogrammen|Dagplanning|Het dagprogramma] [doorgenomen|besproken] met {cl}[, {ze} begreep het goed.|, blijft lastig.|.]",
    "{cl} [heeft|had] een [epileptische aanval|insult|absence] gehad om {time}[, duur ca. {num:1:5} min|][, noodmedicatie niet nodig|, noodmedicatie gegeven|]. [Daarna moe, geslapen.|{arts} geïnformeerd.|Zie aanvalsregistratie.]",
    "[Gesprek|Overleg] met {gd} over [{zijn} gedrag|de begeleidingsstijl|het plan van aanpak][.|, afgesproken dat we [{cl} vaker complimenten geven|duidelijker structuur bieden|prikkels beperken].]",
    "{cl} [heeft|had] [lekker|goed|niet] [gegeten|geslapen|gespeeld] [vandaag|vanmiddag][.|, [wel|geen] bijzonderheden.]",
    "[Avond|Middag|Ochtend] [rustig|gezellig|onrustig] verlopen op [de groep|{ward}|het huis][.|, {cl} heeft [tv gekeken|gepuzzeld|met de tablet gespeeld|muziek geluisterd].]",
    "{cl} [heeft|had] [gebeld met|videobellen met|een kaartje gekregen van] {rel}[.|, dit maakte {hem} blij.|, daarna wat onrustig.]",
    "{cl} [was|is] [jarig|op de verjaardag van {relname}][ op {date:d_month}|][.|, het was een feestelijke dag.]",
    "Begeleiding bij [douchen|tandenpoetsen|aankleden|het eten] [volgens het stappenplan|met verbale aanwijzingen|overgenomen][.|, {ze} [deed goed mee|weigerde eerst].]",
    "{cl} [is|was] [mee geweest|meegegaan] naar [de Efteling|het zwembad|de manege|een voetbalwedstrijd|het strand] met [de groep|{col}|{rel}][.|, heel leuk gehad.|, wel erg moe.]",
    "[Zakgeld|Weekgeld] [gegeven|uitgegeven aan {org}|besproken met mentor {relname}][.|, bonnetjes in de map.]",
    "{cl} [stond|werd] [om {time}|rond {time}] [op|wakker] en [kleedde zich met hulp aan|had zin in de dag|was direct al boos].",
    "Bij het ontbijt [smeerde|at] {cl} [zelf {zijn} boterham|{zijn} pap zelfstandig|met veel aanmoediging]; [het ging [goed|rommelig]|{ze} morste wat].",
    "{cl} [wilde|vroeg] [de hele dag|steeds] [over|naar] [{zijn} logeerweekend|{relname}|de verjaardag van {mb}|het uitje naar {org}] [praten|vragen]; [steeds dezelfde uitleg gegeven.|rustig beantwoord.|op de planning laten zien.]",
    "[Overdracht|Contactschrift] [van|met] [de dagbesteding|{oinst}|school]: {cl} [had een goede dag|was moe|heeft ruzie gehad met een groepsgenoot|heeft mooi geschilderd].",
    "{cl} [kreeg|heeft] [bezoek van|een uitje met] {rel}[ en ze zijn naar {ocity} geweest|]; [daarna wat onrustig|{ze} genoot ervan|bij thuiskomst direct naar bed].",
    "[Slapen|Het slapen] [gaat|ging] [beter sinds de verzwaringsdeken|nog steeds moeizaam|goed]; [{cl} lag om {time} in bed|nachtdienst heeft {hem} 2x gerustgesteld].",
    "[Douchen|Tanden poetsen|Scheren] [gaat|ging] [zelfstandig met het stappenplan|met volledige hulp|beter dan vorige week][; complimenten gegeven|].",
    "{cl} [is|was] [verkouden|misselijk|koortsig|wat stil] en bleef [thuis van de dagbesteding|op de groep|in bed][; {arts} [is gebeld|komt morgen]|].",
)


GGZ_HEADS = (("Aanwezig", "[{cl}, {author}|{cl} en {rel}|{cl}, {arts} en {author}]"),
             ("[Besproken|Inhoud gesprek|Verloop]", None), ("[Afspraken|Plan|Vervolg]", None))


def write_conversation(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A structured report of a conversation (GGZ) or a day in parts (VG)."""
    rng = ctx.rng
    ggz = ctx.client.setting == "ggz"
    b.render("[Gespreksverslag|Verslag contact|Behandelcontact|Dagverslag|Verslag] [{today}|{today} {time}|]", s).nl(2)
    if ggz:
        b.text("Aanwezig: ", fixed=True)
        b.render(GGZ_HEADS[0][1], s).nl()
        b.render(GGZ_HEADS[1][0] + ":", s).nl()
        sentences(b, s, pick(rng, GGZ, rng.randint(3, 6)))
        b.nl(2)
        b.render(GGZ_HEADS[2][0] + ":", s).nl()
        for t in pick(rng, GGZ[:8] + GGZ[-4:], rng.randint(1, 3)):
            b.text("- ", fixed=True)
            b.render(t, s)
            b.nl()
    else:
        for part in ("Ochtend", "Middag", "Avond"):
            if rng.random() < 0.8:
                b.text(part + ": ", fixed=True)
                sentences(b, s, pick(rng, VG, rng.randint(1, 3)))
                b.nl(2)
    signoff(b, s, rng, 0.7)


def write_ggz_vg(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A progress note from the GGZ or VG pool, sometimes with a topic line."""
    rng = ctx.rng
    pool = GGZ if ctx.client.setting == "ggz" else VG
    header(b, s, rng, 0.3)
    if rng.random() < 0.2:
        b.render("[Onderwerp|Betreft|Contact]: [gesprek|telefonisch contact|huisbezoek|groepsbijeenkomst|dagverslag]", s)
        b.nl()
    n = rng.choice((1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8))
    sentences(b, s, pick(rng, pool, n), " " if rng.random() < 0.7 else "\n")
    signoff(b, s, rng)
