"""Progress notes (rapportage) in elderly and home care: free text by topic, or SOAP-like."""

from __future__ import annotations

from synthdeid.sources.demo.builder import Slots, TextBuilder
from synthdeid.sources.demo.common import header, pick, sentences, signoff
from synthdeid.sources.demo.context import NoteContext

SLEEP = (
    "{cl} heeft [goed|prima|redelijk|onrustig|slecht|matig] geslapen[.| vannacht.| volgens de nachtdienst.]",
    "Nacht [rustig|onrustig|goed] verlopen[.|, geen bijzonderheden.|, {cl} [2x|3x|een paar keer] uit bed geweest.|, rond {time} toiletronde gedaan.]",
    "Om {time} [belde|riep] {cl} [om hulp|voor de toiletgang|omdat {ze} niet kon slapen|want {ze} had pijn]. [Geholpen en weer naar bed.|Even gepraat, daarna weer ingeslapen.|{med} gegeven [z.n.|volgens afspraak], effect [goed|matig|afwachten].]",
    "{cl} lag [om {time}|bij de eerste ronde|bij controle] [nog wakker|te woelen|wakker te kijken], [gaf aan te piekeren|wilde een kop thee|kon de slaap niet vatten]. [Thee gegeven.|Even bij {hem} gezeten.|Licht aan gelaten op verzoek.|]",
    "[Slaapt|Sliep] [veel overdag|weinig 's nachts|tot {time}], [dagritme blijft aandachtspunt.|wordt besproken in het MDO.|is voor {hem} normaal.]",
    "Bij de [2e|3e|laatste] ronde [lag|zat] {cl} [naast het bed|op de rand van het bed|in de stoel], [geen letsel gezien.|geholpen weer te gaan liggen.|wilde naar huis.]",
    "{cl} is [om {time}|vroeg|laat|pas na het journaal] [naar bed gegaan|wakker geworden|opgestaan][.| en had [goed|slecht] geslapen.]",
    "[Sensor|Bedmat|Uitluistersysteem|De deurmelder] [ging|is] {num:2:6}x af[ gegaan|] vannacht, [steeds even gekeken.|{cl} was telkens aan het draaien.|vals alarm.]",
    "Wisselligging volgens schema [uitgevoerd|gedaan] om {time} en {time}.",
    "Incontinentiemateriaal [om {time}|2x|bij elke ronde] verschoond[, huid [intact|rood|licht rood bij de stuit]|].",
    "[Rustige|Onrustige|Goede] nacht[.|, {cl} sliep door tot {time}.| gehad.]",
    "{cl} [werd|is] [om {time}|rond {time}|midden in de nacht] [zwetend|angstig|huilend|roepend] wakker[, had een nare droom|, wist niet waar {ze} was|]; [lampje aangedaan en gerustgesteld.|even rechtop gezet met een glas water.|{col} is erbij gebleven tot {ze} sliep.]",
    "[Nachtdienst|Nacht] meldt dat {cl} [om de twee uur|elk uur|regelmatig] [naar het toilet wilde|aanbelde|uit bed probeerde te stappen], [hierdoor weinig nachtrust|po-stoel naast het bed gezet|bespreken met {arts}].",
)
ADL = (
    "{cl} [is|werd] [geholpen met|ondersteund bij] [wassen en aankleden|de ochtendzorg|douchen|de persoonlijke verzorging][.|, ging [goed|vlot|moeizaam].|, {ze} deed zelf [het bovenlichaam|{zijn} gezicht|veel mee].]",
    "[Gedoucht|Douche gehad|Bedbad gegeven|Haren gewassen|Nagels geknipt|Geschoren] [vanochtend|vandaag|vanmiddag|vanavond]. [Huid goed ingesmeerd.|{cl} genoot ervan.|{cl} vond het koud.|Verliep rustig.|]",
    "{cl} wilde [niet gewassen worden|niet douchen|geen steunkousen aan|niet uit bed]. [Later opnieuw aangeboden, toen wel gelukt.|Gerespecteerd, {col} probeert het na de lunch.|Na uitleg toch meegewerkt.|Overgedragen aan de volgende dienst.]",
    "Steunkousen [aangetrokken|uitgetrokken|niet aan gekregen][.| i.v.m. oedeem.| met aantrekhulp.]",
    "ADL [volledig|grotendeels|deels] [overgenomen|zelfstandig|met begeleiding] [vandaag|vanochtend][.|, {ze} was [moe|vermoeid|snel buiten adem].]",
    "Mondzorg [gedaan|uitgevoerd][, gebit schoongemaakt|, prothese in bekertje|]. [{cl} heeft een drukplek onder de prothese.|]",
    "Kleding klaargelegd, {cl} [kleedde zich zelf aan|had hulp nodig bij de knopen|had de trui achterstevoren aan].",
    "Ochtendzorg [om {time:morn}|later dan gepland|pas na {time:morn}] [i.v.m.|ivm|vanwege] [drukte|een incident|een andere cliënt|uitslapen].",
    "Tillift gebruikt bij [de transfer|de overplaatsing naar de rolstoel|het douchen][, met 2 personen|, samen met {col}|].",
    "[Tijdens|Bij] de ochtendzorg [viel op|zag ik] dat {cl} [een rode plek op de {body} heeft|kortademig werd bij het aankleden|erg stijf is in de {body}|minder kracht heeft in de rechterhand]; [gerapporteerd aan {col}.|morgen opnieuw bekijken.|{ha} wordt geïnformeerd.]",
    "{cl} [heeft|had] [zelf|met een beetje hulp] [{zijn} tanden gepoetst|het bovenlichaam gewassen|de sokken aangetrokken], [het ging wat langzamer dan normaal|complimenten gegeven|{ze} was er trots op].",
    "{cl} [zat|was] [om {time:morn}|al vroeg] [aangekleed|klaar] in de [huiskamer|stoel], [zelf gedaan.|netjes.|trots.]",
)
FOOD = (
    "{cl} heeft [goed|matig|slecht|weinig|nauwelijks] gegeten[.| en gedronken.|, alleen {food}.|, {food} en {food}.]",
    "Bij de [lunch|warme maaltijd|broodmaaltijd|ontbijt] [at|nam] {cl} [alles op|de helft|weinig|een paar happen][.|, {ze} gaf aan geen trek te hebben.]",
    "Vochtinname [vandaag|tot {time}|deze dienst] [ca.|ongeveer|] {num:600:1800} ml[.|, blijven stimuleren.|, is te weinig.]",
    "{cl} [verslikt|verslikte] zich [bij het drinken|in de thee|regelmatig][, logopedie wordt ingeschakeld.|, dranken verdikt aangeboden.|.]",
    "Drinkvoeding [aangeboden|gegeven], [half opgedronken|helemaal op|geweigerd].",
    "{cl} [zat|at] [in de huiskamer|op {zijn} kamer|aan tafel met {mb}] [te eten|tijdens de maaltijd][.| en was gezellig aan het praten.]",
    "[Gewicht|Eetlust] [blijft|is] aandachtspunt, [de diëtist|{para}] [is ingeschakeld|komt {dag} langs|heeft advies gegeven].",
    "Dieet: [zoutarm|diabetisch|gemalen|vloeibaar|eiwitverrijkt|glutenvrij][,| -] [{cl} houdt zich er [goed|niet altijd] aan.|graag blijven letten op tussendoortjes.]",
    "[Maaltijd|Eten] [van {org:thuiszorg}|van Tafeltje Dekje|] [niet opgegeten|bleef staan|half op], [in de koelkast gezet.|weggegooid.|{rel} geïnformeerd.]",
    "{cl} [at|dronk] [vandaag|vanavond|bij de lunch] [beter dan de afgelopen dagen|minder dan normaal|alleen als {ze} werd geholpen][, {ze} had vooral trek in {food}|, de helft van de warme maaltijd bleef staan|].",
    "[Tijdens het eten|Aan tafel] [morste|hoestte|stopte] {cl} [veel|regelmatig|halverwege]; [aangepast bestek gegeven|rechtop laten zitten en rustig laten eten|maaltijd fijngemaakt].",
)
MOOD = (
    "{cl} was [vandaag|vanochtend|vanmiddag|deze dienst] [vrolijk|opgewekt|somber|verdrietig|wat stil|prikkelbaar|onrustig|goed gehumeurd][.|, {ze} [maakte grapjes|zong mee met de radio|huilde af en toe|wilde niet praten].]",
    "{cl} [vroeg|vraagt] [meerdere keren|steeds|de hele middag] [naar {zijn} {vrouw}|naar {relname}|waar {ze} was|wanneer {ze} naar huis mocht|naar {zijn} moeder][.|, gerustgesteld.|, afgeleid met koffie.|, foto's bekeken.]",
    "[Dwaalde|Liep] {cl} [veel over de gang|rond op de afdeling|naar de voordeur|de hele middag rond][.|, moeilijk te begeleiden.|, {ze} zocht {zijn} jas.]",
    "{cl} [herkende|herkent] [{rel}|{zijn} kinderen|het personeel] [niet|wel|soms niet meer][.|, dit was lastig voor de familie.]",
    "{cl} [gaf aan|vertelde|zei] [zich eenzaam te voelen|dat {ze} {zijn} {vrouw} mist|dat het goed gaat|moe te zijn van alles|dat {ze} liever thuis was][.|. Geluisterd en gerustgesteld.|. Zal dit bespreken met {arts}.]",
    "Bij [de koffie|het avondeten|de activiteit] was {cl} [verward|helder|goed aanspreekbaar|achterdochtig] en [dacht dat het nacht was.|herkende {mb} niet.|reageerde adequaat.|vertelde over vroeger.]",
    "{cl} [beschuldigde|beschuldigt] [het personeel|{mb}|{col}] van [stelen|het wegnemen van {zijn} portemonnee|het verstoppen van {zijn} bril][.|, samen gezocht en gevonden in de kast.]",
    "{cl} praat [vaak|graag|veel] over [{zijn} werk als {prof}|vroeger in {birthplace}|{zijn} {pet}][.|, fijn gesprek gehad.|, {ze} werd er blij van.]",
    "Stemming [wisselend|stabiel|iets beter dan gisteren|somber][.|, blijven observeren.|, zie ook de rapportage van {date:wd_dm}.]",
    "{cl} [was|werd] [boos|geïrriteerd|angstig] [tijdens de zorg|bij het aankleden|toen {rel} vertrok][.|, rustig benaderd en later opnieuw geprobeerd.]",
    "{cl} [maakte|maakt] [een tevreden|een vermoeide|een verdrietige|een gespannen] indruk [vandaag|deze middag|na het bezoek][ en zei weinig|, ondanks het mooie weer|].",
    "[Samen met|Met] {cl} [foto's bekeken|een spelletje gedaan|in de tuin gezeten|de krant gelezen] en [gepraat over|herinneringen opgehaald aan] [{zijn} jeugd in {birthplace}|de kinderen|{zijn} werk als {prof}|vroeger]; {ze} [genoot zichtbaar|werd er stil van|lachte veel].",
    "{cl} [zegt|zei] [niet meer te willen|het leven niet meer zinvol te vinden|bang te zijn om dood te gaan|zich een last te voelen]; [serieus genomen en doorgevraagd.|gemeld bij {arts}.|besproken met de EVV.]",
)
MOBILITY = (
    "{cl} [liep|loopt] [met rollator|met stok|zonder hulpmiddel|onder begeleiding] [naar de huiskamer|over de gang|naar het restaurant][.|, {ze} was [stabiel|onzeker|wankel] ter been.]",
    "Transfer [bed-stoel|naar de rolstoel|naar het toilet] [ging goed|verliep moeizaam|met hulp van 2 personen|met tillift].",
    "{para} [is langs geweest|heeft geoefend met {hem}|adviseert een andere rollator|komt {dag} terug][.| Oefeningen staan in het zorgdossier.]",
    "Valrisico [blijft hoog|is besproken|verhoogd], [sensor aangezet|bed laag gezet|antislipsokken aangetrokken|heupbeschermers aan].",
    "{cl} [is gevallen|lag op de grond|werd op de grond aangetroffen] [in de badkamer|naast het bed|in de huiskamer|op de gang][ om {time}|]. [Zie MIC-melding.|Geen zichtbaar letsel.|{ha} gebeld.|Familie geïnformeerd.]",
    "Rolstoel [aangepast|gerepareerd|opgehaald door {org:hulp}][.| Banden opgepompt.]",
    "{cl} [is|was] [vandaag|vanmiddag] [naar buiten geweest|in de tuin geweest|een rondje gaan lopen][ met {rel}| met {col}|][.|, {ze} genoot van het zonnetje.]",
    "Scootmobiel [kenteken {oid}|] [staat weer in de berging|is gerepareerd door {org:hulp}][.| {cl} mag weer zelf naar de winkel.]",
    "{cl} [probeerde|wilde] [zelf op te staan|zonder rollator te lopen|alleen naar het toilet] [en verloor bijna het evenwicht|maar dit ging goed|terwijl de rem er niet op stond]; [opnieuw uitgelegd de bel te gebruiken.|rollator dichterbij gezet.|blijft een risico.]",
)
SKIN = (
    "Wond [aan de|op de] {body} [verzorgd|verbonden|schoongemaakt|geïnspecteerd][.|, ziet er [goed|rustig|rood|vochtig|beter] uit.|, [licht|iets|] [exsudaat|vocht|roodheid] gezien.]",
    "Decubitus [graad 1|graad 2|categorie 2|] [op|aan] [de stuit|de hiel|het sacrum] [verzorgd volgens wondplan|blijft gelijk|is iets kleiner].",
    "Huid [intact|droog|schilferig|rood] [bij|op] {body}[, ingesmeerd met [zinkzalf|bodylotion|cavilon|Sudocrem]|].",
    "{cl} heeft een [blauwe plek|schaafwond|bloeduitstorting|huidscheur] [op|aan] {body}[, oorzaak onbekend.|, waarschijnlijk van het stootje tegen de tafel.|.] [Foto gemaakt en in dossier gezet.|Wondverpleegkundige ingeschakeld.|Blijven observeren.]",
    "Verband [gewisseld|vervangen|nat], [volgende wissel|controle] op {date:dm:1:5}.",
    "Wondverpleegkundige [van {org:thuiszorg}|van {oinst}|] is [langs geweest|geweest][, nieuw wondplan gemaakt.|, advies aangepast.|.]",
    "[Onderbeen|Enkel|Voet] [links|rechts] [is|was] [gezwollen|warm en rood|pijnlijk bij aanraken]; [benen hoog gelegd.|zwachtels opnieuw aangelegd.|foto gemaakt voor {ha}.]",
)
CONTINENCE = (
    "{cl} [heeft|had] [ontlasting gehad|geen ontlasting gehad|diarree|dunne ontlasting|harde ontlasting][.| (Bristol {num:1:7}).|, zie defecatielijst.]",
    "[Urine|Plas] [geconcentreerd|donker|troebel|ruikt sterk][, {ha} gebeld voor stickstest.|, urine opgevangen voor kweek.|, meer laten drinken.]",
    "Katheter [gespoeld|verwisseld|lekte][.|, zak geleegd: {num:300:900} ml.]",
    "{cl} [was|is] [incontinent voor urine|nat|droog] [vannacht|vanochtend|bij de ronde][.|, verschoond.|, materiaal aangepast.]",
)
SOCIAL = (
    "{rel} [is|was] [op bezoek geweest|langs geweest|vanmiddag geweest|er de hele middag][.|, {cl} genoot ervan.|, samen gewandeld in de tuin.|, ze hebben samen koffie gedronken.]",
    "{rel} [belde|heeft gebeld] [om te vragen hoe het gaat|over de verjaardag op {date:d_month:5:40}|i.v.m. het bezoek van {dag}|met vragen over de medicatie][.|, teruggebeld door {col}.|, info gegeven.]",
    "{cl} [is [met {rel}|met {zijn} familie] [uit eten|naar de markt|naar {ocity}|naar de kerk|naar een verjaardag] geweest|ging [met {rel}|met {zijn} familie] [uit eten|naar de markt|naar {ocity}|naar de kerk|naar een verjaardag]][, terug om {time}.|, was moe na afloop.|.]",
    "[Verjaardag|Jubileum|Trouwdag] [gevierd|gevierd op de afdeling][ op {date:d_month}|]. [Familie was aanwezig.|Taart gehad.|{cl} kreeg veel bloemen.]",
    "{cl} [had|heeft] [contact|een leuk gesprek|ruzie] met {mb}[.|, dit liep [goed|uit de hand|met een sisser] af.]",
    "Bezoek van [de pastor|dominee {other:d}|de pedicure|de kapper|vrijwilliger {other:v}][.| {cl} had er zin in.]",
    "{rel} gaat [met {hem}|] [naar de kapper|naar de opticien|naar [{org:shop}|de supermarkt|de winkel]|naar het ziekenhuis] op {date:wd_dm:1:12}[, graag om {time:day} klaar hebben.|.]",
    "[Fam.|Familie|Zoon|Dochter] wil graag [teruggebeld worden|een gesprek met {arts}|meer betrokken worden][, nummer: {relphone}|][.| Doorgezet naar de EVV.]",
)
ACTIVITY = (
    "{cl} [heeft|had] [meegedaan aan|deelgenomen aan|gekeken bij] {act}[.|, {ze} vond het [leuk|gezellig|te druk].|, bleef maar kort.]",
    "{cl} wilde niet naar {act}[, bleef op {zijn} kamer.|, voelde zich niet lekker.|.]",
    "[Dagbesteding|Activiteitenbegeleiding][ op {ward}| bij {oinst}|] [ging goed|was druk|is afgezegd i.v.m. ziekte].",
    "Wandeling [gemaakt|gedaan] [met {col}|met een vrijwilliger|met {rel}] [in het park|rond het gebouw|naar de winkel|].",
    "{cl} [zat|zit] [graag|veel|de hele middag] [voor het raam|bij de vogelkooi|in de serre|voor de tv] [te kijken|te dutten|][.|, lijkt tevreden.]",
    "[Vanmiddag|Vanochtend] was er [muziek van een accordeonist|een optreden van het koor|een bingo met prijzen|een modeshow] in [het restaurant|de grote zaal|de huiskamer]; {cl} [zong mee|keek geboeid toe|wilde na tien minuten terug naar {zijn} kamer].",
)
MEDICAL = (
    "Controles: RR {num:95:180}/{num:55:100}, pols {num:52:110}, temp {dec:35.8:39.2}[, sat {num:88:99}%|].",
    "{cl} [klaagt|klaagde] over [pijn in de|pijn aan de|een zeurende pijn in de] {body}[.|, pijnscore {num:2:8}.|, {med} gegeven.]",
    "{ha} [is|was] [langs geweest|op visite geweest|gebeld] [i.v.m.|ivm|voor] [de wond|de hoest|koorts|benauwdheid|verminderde intake|een mogelijke UWI|de val van gisteren][.|. Beleid: [afwachten|antibiotica gestart|bloed laten prikken|{med} gestart|controle over 3 dagen].]",
    "Afspraak [bij|in] [{hosp}|het ziekenhuis] [op|] {date::1:30} om {time:day} [bij de {spec}|op de poli|voor een CT-scan|voor bloedonderzoek][.|, {rel} gaat mee.|, vervoer geregeld via {org:transport}.]",
    "{cl} [hoest|is benauwd|is koortsig|is misselijk|heeft gebraakt][, temp {dec:37.5:39.5}|]. [{ha} geïnformeerd.|Blijven observeren.|Overgedragen aan de nachtdienst.]",
    "Bloed [geprikt|afgenomen] door [de prikdienst|het lab][ van het ziekenhuis|], uitslag [volgt|is binnen: Hb {dec:6:9}|komt morgen].",
    "Griepvaccinatie [gehad|gegeven][.| op {date:dm:-20:0}.]",
    "{cl} [is|was] [terug uit|opgenomen in|naar de SEH van] [{hosp}|het ziekenhuis][ sinds {date:dm:-10:0}|][.|, zie ontslagbrief.|, {rel} is mee.]",
    "[Gewicht [gemeten|gecontroleerd]: {dec:45:95} kg|BMI [berekend|gecontroleerd]: {dec:18:31}|Bloedsuiker [gemeten|gecontroleerd]: {dec:4:16} mmol/l][, [stabiel|gedaald|gestegen] t.o.v. {date:dm:-40:-5}|].",
)
PLAN = (
    "[Graag|Svp|Let op:] [morgen wegen|vochtbalans bijhouden|ontlasting observeren|wond {dag} verbinden|temperatuur 2x daags meten|goed laten drinken|bloeddruk meten].",
    "Afspraak gemaakt met {rel} voor [een evaluatiegesprek|het MDO|een zorgplanbespreking] op {date::2:30} om {time:day}.",
    "Wordt besproken in het MDO van {date:wd_dm:1:14}.",
    "[Graag|Svp] [blijven observeren|in de gaten houden|rapporteren] [of|hoe] [de pijn afneemt|{cl} eet|de wond geneest|{ze} slaapt].",
    "{col} [neemt contact op met|belt morgen] {ha}[ over het beleid|].",
    "[I.o.m.|In overleg met|Besproken met] {ini}[ (EVV)| (PB)|]: [{cl} morgen laten uitslapen|vochtlijst starten|sensor uitzetten overdag|familie bellen over de kleding].",
    "[Gezien door|Gecontroleerd door|Samen met] {ini}[ (EVV)|]: [{cl} is stabiel|geen verdere actie|morgen opnieuw beoordelen].",
    "[Evt.|Eventueel] [{arts} vragen|aanvragen via {ha}] [voor een medicatiereview|om de pijnmedicatie te evalueren|i.v.m. de onrust].",
)
S_LINES = (
    "{cl} [geeft aan|zegt|vertelt] [pijn te hebben in de {body}|zich niet lekker te voelen|slecht geslapen te hebben|misselijk te zijn|dat het goed gaat].",
    '"[Ik wil naar huis|Het gaat wel|Ik heb overal pijn|Waar is mijn {vrouw}|Laat me maar]"[, aldus {cl}.| zegt {cl}.|]',
    "{rel} [maakt zich zorgen over|vraagt naar] [de intake|de valpartij|{zijn} geheugen|de medicatie].",
)
O_LINES = (
    "{cl} [oogt [bleek|moe|benauwd|vrolijk|verward|grauw]|ziet er [bleek|moe|benauwd|verward|grauw] uit]. RR {num:95:180}/{num:55:100}, P {num:52:110}, T {dec:35.8:39.2}.",
    "[Huid|Wond] [warm|rood|gezwollen|intact] [bij|aan] {body}. [Pijnscore {num:2:8}.|]",
    "Intake [matig|goed|slecht], [ontlasting {num:1:3} dagen geleden|mictie [normaal|verminderd]].",
)
A_LINES = (
    "[Mogelijk|Vermoedelijk|Waarschijnlijk] [UWI|delier|obstipatie|pijn door artrose|verergering COPD|dehydratie|overbelasting mantelzorg].",
    "Situatie [stabiel|verslechterd|verbeterd] t.o.v. [gisteren|vorige week|{date:dm:-9:-1}].",
    "[Geen|Wel] reden voor [zorg|acute actie|extra controle].",
)


# topic pools the day reports (day_reports.py) draw on as well
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


def _pools(setting: str) -> list[tuple[str, ...]]:
    if setting == "wijk":
        return [ADL, HOMECARE, FOOD, MOOD, SKIN, MEDICAL, SOCIAL, CONTINENCE, PLAN, PAIN, HOMECARE, BREATHING]
    return [
        SLEEP,
        ADL,
        FOOD,
        MOOD,
        MOBILITY,
        SKIN,
        CONTINENCE,
        SOCIAL,
        ACTIVITY,
        MEDICAL,
        PLAN,
        COGNITION,
        PAIN,
        BREATHING,
        EVENING,
    ]


def write_progress(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A free-text progress note of one to eight sentences on several topics."""
    rng = ctx.rng
    header(b, s, rng)
    pools = _pools(ctx.client.setting)
    n = rng.choice((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 26, 28, 30, 34))
    sep = " " if rng.random() < 0.65 else "\n"
    per_pool = 2 if n > len(pools) else 1
    chosen = [t for pool in rng.sample(pools, min(n, len(pools))) for t in pick(rng, pool, per_pool)][:n]
    if sep == " " and len(chosen) > 4 and rng.random() < 0.6:
        cut = rng.randrange(2, len(chosen) - 1)
        sentences(b, s, chosen[:cut], sep)
        b.nl(2)
        chosen = chosen[cut:]
    sentences(b, s, chosen, sep)
    signoff(b, s, rng)


def write_soap(b: TextBuilder, ctx: NoteContext, s: Slots) -> None:
    """A SOAP-structured note (S/O/A/P or S/O/E/P, sometimes with words)."""
    rng = ctx.rng
    header(b, s, rng, 0.5)
    words = rng.random() < 0.3
    labels = ("Subjectief", "Objectief", "Analyse", "Plan") if words else ("S", "O", rng.choice(("A", "E")), "P")
    pools = (S_LINES + SOCIAL[:2] + MOOD[3:5], O_LINES + MEDICAL[:3] + SKIN[:2], A_LINES, PLAN)
    inline = rng.random() < 0.35
    for lab, pool in zip(labels, pools):
        b.text(f"{lab}: ", fixed=True)
        sentences(b, s, pick(rng, pool, rng.choice((1, 2, 2, 3))))
        if inline:
            b.space()
        else:
            b.nl()
    signoff(b, s, rng, 0.8)
