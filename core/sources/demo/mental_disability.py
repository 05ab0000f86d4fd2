"""Progress notes in mental health care (GGZ) and disability care (VG)."""

from __future__ import annotations

from synthdeid.sources.demo.builder import Slots, TextBuilder
from synthdeid.sources.demo.common import header, pick, sentences, signoff
from synthdeid.sources.demo.context import NoteContext

GGZ = (
    "Gesprek [gehad|gevoerd] met {cl} over [{zijn} dagstructuur|de medicatie|het signaleringsplan|{zijn} relatie met {relname}|wonen|financiën|de terugval van vorige week|{zijn} werk|het vrijwilligerswerk|het contact met {rel}][.|, {ze} [kon goed reflecteren|was open|hield de boot af|werd emotioneel].]",
    "{cl} [geeft aan|vertelt|zegt] [slecht te slapen|veel te piekeren|stemmen te horen|zich gespannen te voelen|zich beter te voelen dan vorige week|behoefte te hebben aan rust|middelen te hebben gebruikt in het weekend][.|. Besproken wat {ze} kan doen volgens het signaleringsplan.]",
    "Signaleringsplan: fase [groen|geel|oranje|rood][.|, {cl} herkent zelf de signalen.|, afspraken opnieuw doorgenomen.]",
    "{cl} [maakt|maakte] een [verzorgde|onverzorgde|gespannen|vlakke|rustige|ontremde] indruk[, spraakdrang.|, denkt helder.|, weinig oogcontact.|.]",
    "[Depot|Injectie] [gegeven|toegediend] [in de bil|in de bovenarm][, volgende op {date:dm:14:28}.|.]",
    "{cl} [is|was] niet verschenen op de afspraak[.|, gebeld naar {phone}, geen gehoor.|, {col} gaat op huisbezoek.]",
    "Huisbezoek [afgelegd|gedaan] [bij {cl}|][ aan de {street}| thuis][.|, woning [opgeruimd|rommelig|vervuild].]",
    "Overleg met {arts} over [ophogen|afbouwen|stoppen] van {med}[.|, besluit: [ophogen|afwachten|doorgaan zoals het is].]",
    "{cl} heeft [contact gehad met|een afspraak bij] [{org:fin}|{org:gemeente}] [over {zijn} schulden|over werk|over een uitkering][.|, {rel} gaat mee.]",
    "Urinecontrole [afgenomen|gedaan]: [negatief|positief op cannabis|positief op cocaïne|schoon].",
    "Crisisdienst [gebeld|ingeschakeld] om {time}[, beoordeling door {arts}.|, {cl} is vrijwillig opgenomen in {oinst}.|.]",
    "{cl} [heeft|had] [een goede week|een moeilijke week|een rustig weekend] gehad[.|, {ze} is [trots|tevreden|teleurgesteld] over [het sporten|de afspraken met {relname}|{zijn} nieuwe baan als {prof}].]",
    "{cl} [wil|wilde] [meer zelfstandig wonen|stoppen met de medicatie|een andere behandelaar|op vakantie naar {country}][.|, besproken in het team.|, afgesproken dit met {arts} te bespreken.]",
    "[Ruzie|Spanning|Onenigheid] [op de groep|met {mb}|met {rel}][, {cl} heeft zich teruggetrokken.|, de-escalerend gesprek gevoerd.|.]",
    "{cl} [is [vandaag|gisteren|dit weekend] [met verlof|thuis|bij {rel}] geweest|was [vandaag|dit weekend] met verlof][, terug om {time}|][.|, verlof goed verlopen.|, kwam later terug dan afgesproken.]",
    "Behandelplan [geëvalueerd|besproken|bijgesteld] met {cl}[ en {rel}|][, volgende evaluatie {date:d_month:30:90}.|.]",
    "{cl} volgt [de groepstherapie|EMDR|schematherapie|de training vaardigheden|CGT] bij {oinst}[.|, sessie {num:2:12} van 12.]",
    "{cl} [vertelt|vertelde] dat {ze} [de afgelopen nachten|sinds het weekend|sinds {dag}] [nauwelijks slaapt|veel wakker ligt|nachtmerries heeft] en [overdag moeite heeft om op gang te komen|zich daardoor prikkelbaar voelt|het huis niet uit komt].",
    "[Het|Ons] gesprek [ging|verliep] [over|vooral over] [de spanning thuis|het contact met {zijn} kinderen|de toekomst|de schulden|het middelengebruik|{zijn} angst om buiten te komen]; {cl} [kon dit goed verwoorden|vond het lastig om erover te praten|werd er verdrietig van].",
    "{cl} [gebruikt|gebruikte] [de medicatie|{med}] [trouw|niet trouw|wisselend] [volgens eigen zeggen|, de weekdoos was nog half vol|, bevestigd door {rel}].",
    "[Suïcidaliteit|Doodsgedachten] [uitgevraagd|besproken]: [geen concrete plannen|passieve doodswens, geen plan|{cl} heeft afspraken gemaakt in het veiligheidsplan].",
    "{cl} [heeft|had] [de dagbesteding|het werk bij {org:work}|de sportgroep|de inloop] [goed volgehouden|twee keer overgeslagen|weer opgepakt] deze week.",
    "Contact met {rel} [was|is] [positief|gespannen|beperkt]; {cl} [wil|wilde] [meer afstand|graag een gezamenlijk gesprek|dat wij {rel} informeren over de behandeling].",
    "[Na afloop van het gesprek|Aan het eind] [oogde|leek] {cl} [opgelucht|moe|rustiger|nog steeds gespannen]; volgende afspraak [op {date:wd_dm:3:14} om {time:day}|over twee weken|wordt telefonisch gepland].",
    "{cl} [is|was] [vandaag|deze week] [aan het werk geweest|naar de inloop gegaan|gaan sporten] [bij {org:leisure}|in {ocity}|]; [dit gaf {hem} energie.|{ze} was daarna uitgeput.|het lukte om het vol te houden.]",
    "[Psycho-educatie|Uitleg] gegeven over [de werking van {med}|de fasen van het signaleringsplan|slaaphygiëne|de invloed van middelen op de stemming]; {cl} [stelde veel vragen|luisterde aandachtig|leek het niet te begrijpen].",
    "{cl} [heeft|had] [het huis opgeruimd|de administratie met {rel} doorgenomen|boodschappen gedaan zonder paniek|een sollicitatiebrief geschreven]; [goed om te zien.|compliment gegeven.|een stap vooruit.]",
    "[In het teamoverleg|In het MDO|Met {arts}] is besproken [dat {cl} wordt overgeplaatst naar {oinst}|dat de behandeling wordt afgerond per {date:d_month:20:60}|dat de zorg wordt afgeschaald|hoe we omgaan met het middelengebruik].",
    "{cl} [kwam|was] [te laat|onder invloed|boos] [op de afspraak|terug van verlof|thuis van het werk]; [gesprek uitgesteld.|afspraken herhaald.|besproken met de dienstdoende.]",
    "{cl} [reageerde|reageert] [wantrouwend|geïrriteerd|vlak] op [de vragen|het huisbezoek|de nieuwe begeleider]; [geen druk uitgeoefend|kort contact gehouden|volgende keer met {col} samen].",
    "{cl} [meldde zich|belde] [om {time}|'s avonds] bij [de crisisdienst|de afdeling|de dienstdoende] met [paniekklachten|onrust|een terugval in gebruik]; [telefonisch gerustgesteld|afspraak gemaakt voor morgen|opgevangen op de afdeling].",
)
VG = (
    "{cl} is [vandaag|vanochtend] naar [de dagbesteding|het werk|school|de zorgboerderij][ bij {oinst}| bij {org:work}|][ geweest| gegaan|][.|, {ze} had het naar {zijn} zin.|, het was een drukke dag.]",
    "{cl} [was|raakte] [boos|overprikkeld|gefrustreerd|verdrietig] [toen|omdat] [de bus te laat was|{mb} aan {zijn} spullen zat|{ze} moest wachten op {zijn} beurt|het programma veranderde][.|. Time-out op {zijn} kamer, daarna weer rustig.|. Volgens plan benaderd.]",
    "Samen met {cl} [boodschappen gedaan bij [{org:shop}|de supermarkt|de winkel]|de kamer opgeruimd|gekookt|een was gedraaid|{zijn} weekplanning gemaakt][.|, {ze} deed goed mee.]",
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
    "[Zakgeld|Weekgeld] [gegeven|uitgegeven aan [{org:shop}|de supermarkt|de winkel]|besproken met mentor {relname}][.|, bonnetjes in de map.]",
    "{cl} [stond|werd] [om {time}|rond {time}] [op|wakker] en [kleedde zich met hulp aan|had zin in de dag|was direct al boos].",
    "Bij het ontbijt [smeerde|at] {cl} [zelf {zijn} boterham|{zijn} pap zelfstandig|met veel aanmoediging]; [het ging [goed|rommelig]|{ze} morste wat].",
    "{cl} [wilde|vroeg] [de hele dag|steeds] [over|naar] [{zijn} logeerweekend|{relname}|de verjaardag van {mb}|het uitje naar {org:leisure}] [praten|vragen]; [steeds dezelfde uitleg gegeven.|rustig beantwoord.|op de planning laten zien.]",
    "[Overdracht|Contactschrift] [van|met] [de dagbesteding|{oinst}|school]: {cl} [had een goede dag|was moe|heeft ruzie gehad met een groepsgenoot|heeft mooi geschilderd].",
    "{cl} [kreeg|heeft] [bezoek van|een uitje met] {rel}[ en ze zijn naar {ocity} geweest|]; [daarna wat onrustig|{ze} genoot ervan|bij thuiskomst direct naar bed].",
    "[Slapen|Het slapen] [gaat|ging] [beter sinds de verzwaringsdeken|nog steeds moeizaam|goed]; [{cl} lag om {time} in bed|nachtdienst heeft {hem} 2x gerustgesteld].",
    "[Douchen|Tanden poetsen|Scheren] [gaat|ging] [zelfstandig met het stappenplan|met volledige hulp|beter dan vorige week][; complimenten gegeven|].",
    "{cl} [heeft|had] [gewerkt in de tuin|gefietst naar [{org:shop}|de supermarkt|de winkel]|op de tablet gespeeld|met de groep gekookt] en [vond dat leuk|wilde niet stoppen|was snel afgeleid].",
    "[Bij het naar bed gaan|Bij de avondzorg|'s Avonds] [was|werd] {cl} [verdrietig|onrustig|boos|vrolijk] [en vroeg naar {relname}|en wilde nog niet slapen|en zong liedjes]; [voorgelezen tot {ze} sliep.|muziek aangezet.|rustig benaderd volgens plan.]",
    "{cl} [kreeg|heeft] [een nieuwe rolstoel|nieuwe schoenen|een nieuwe bril|een nieuw hoortoestel] [via {org:hulp}|]; [went er nog aan|is er blij mee|wil het niet dragen].",
    "[Logopedie|Fysiotherapie|Ergotherapie|Muziektherapie] [op {dag}|vanochtend] [ging goed|is uitgevallen|werd afgebroken door onrust][; {para} stuurt een verslag|].",
    "{cl} [heeft|had] [een vriend gemaakt|ruzie gemaakt|samen gespeeld] met {mb}[ op de groep| op de dagbesteding|]; [leuk om te zien.|goed uitgepraat.|{ze} zocht steeds {hem} op.]",
    "{cl} [liet|laat] [zien|merken] [dat {ze} pijn heeft aan de {body}|dat {ze} moe is|dat {ze} niet wil] door [te huilen|te slaan op tafel|zich af te wenden|te wijzen]; [observeren.|{arts} wordt gevraagd mee te kijken.|pijnschaal ingevuld.]",
    "{cl} [is|was] [verkouden|misselijk|koortsig|wat stil] en bleef [thuis van de dagbesteding|op de groep|in bed][; {arts} [is gebeld|komt morgen]|].",
)


GGZ_PLAN = (
    "Volgende afspraak [op {date:wd_dm:3:14}|{dag}] om {time:day}[ met {arts}| op de poli| thuis|]",
    "{cl} houdt [een slaapdagboek|een stemmingsdagboek|het gebruik] bij tot de volgende afspraak",
    "[Gezamenlijk gesprek|Netwerkgesprek] met {rel} [plannen|op {date:d_month:7:30}]",
    "Medicatie-evaluatie met {arts}[ over {med}|]",
    "Signaleringsplan [bijwerken|samen doornemen|delen met {rel}]",
    "Bij toename van klachten belt {cl} [de crisisdienst|de afdeling|{col}][ via {ophone}|]",
    "[Aanmelding|Verwijzing] [{oinst}|de groepstherapie|het ambulante team] [in gang zetten|bespreken in het MDO]",
    "{col} [neemt contact op met|belt] [{org:gemeente}|{org:fin}|de woningcorporatie] over [de schulden|de huur|de uitkering]",
)
GGZ_HEADS = (
    ("Aanwezig", "[{cl}, {author}|{cl} en {rel}|{cl}, {arts} en {author}]"),
    ("[Besproken|Inhoud gesprek|Verloop]", None),
    ("[Afspraken|Plan|Vervolg]", None),
)


def write_conversation(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A structured report of a conversation (GGZ) or a day in parts (VG)."""
    rng = ctx.rng
    ggz = ctx.client.setting == "ggz"
    b.render("[Gespreksverslag|Verslag contact|Behandelcontact|Dagverslag|Verslag] [{today}|{today} {time}|]", s).nl(2)
    if ggz:
        b.text("Aanwezig: ", fixed=True)
        b.render(GGZ_HEADS[0][1], s).nl()
        b.render(GGZ_HEADS[1][0] + ":", s).nl()
        sentences(b, s, pick(rng, GGZ, rng.randint(5, 11)))
        b.nl(2)
        b.render(GGZ_HEADS[2][0] + ":", s).nl()
        for t in pick(rng, GGZ_PLAN, rng.randint(1, 4)):
            b.text("- ", fixed=True)
            b.render(t, s)
            b.nl()
    else:
        for part in ("Ochtend", "Middag", "Avond"):
            if rng.random() < 0.8:
                b.text(part + ": ", fixed=True)
                sentences(b, s, pick(rng, VG, rng.randint(2, 6)))
                if rng.random() < 0.5:
                    b.render(rng.choice((" /{ini}", " ({ini})", " - {ini}")), s)
                b.nl(2)
    signoff(b, s, rng, 0.7)


def write_ggz_vg(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A progress note from the GGZ or VG pool, sometimes with a topic line."""
    rng = ctx.rng
    pool = GGZ if ctx.client.setting == "ggz" else VG
    header(b, s, rng, 0.3)
    if rng.random() < 0.2:
        b.render(
            "[Onderwerp|Betreft|Contact]: [gesprek|telefonisch contact|huisbezoek|groepsbijeenkomst|dagverslag]", s
        )
        b.nl()
    n = rng.choice((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 25, 28, 30))
    sentences(b, s, pick(rng, pool, n), " " if rng.random() < 0.7 else "\n")
    signoff(b, s, rng)
