"""Word lists for PHI values (hospitals, institutes, companies, streets, ...) and for the
plain clinical vocabulary the notes are made of (medication, wounds, activities)."""

from __future__ import annotations


def _bar(s: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in s.replace("\n", "|").split("|") if x.strip())


HOSPITALS = _bar("""UMC Utrecht|Radboudumc|Rijnstate|Isala|Jeroen Bosch Ziekenhuis|Catharina Ziekenhuis|
Maasstad Ziekenhuis|ZGT|Martini Ziekenhuis|Amphia|Deventer Ziekenhuis|St. Antonius Ziekenhuis|
Spaarne Gasthuis|OLVG|Tergooi MC|Meander Medisch Centrum|Gelre ziekenhuizen|MST|UMCG|Erasmus MC|LUMC|
Amsterdam UMC|Máxima MC|VieCuri|Zuyderland|Albert Schweitzer ziekenhuis|HMC|HagaZiekenhuis|
Reinier de Graaf|Franciscus Gasthuis|Ikazia|Beatrixziekenhuis|Ziekenhuis Gelderse Vallei|Slingeland|
Treant|Wilhelmina Ziekenhuis Assen|Nij Smellinghe|Tjongerschans|Antonius Sneek|Ommelander Ziekenhuis|
Dijklander|Zaans Medisch Centrum|Rode Kruis Ziekenhuis|BovenIJ|Flevoziekenhuis|St Jansdal|Bernhoven|
Elkerliek|Anna Ziekenhuis|Laurentius|ETZ|ZorgSaam|Adrz|Bravis|Van Weel-Bethesda|Groene Hart Ziekenhuis|
Alrijne|Diakonessenhuis|Sint Maartenskliniek|Amstelland|Ziekenhuis Rivierenland|Streekziekenhuis Koningin Beatrix|
MUMC+|Medisch Spectrum Twente|Gelre|Saxenburgh|Canisius|Maxima Medisch Centrum|Rivas|SJG Weert""")
HOSPITAL_SHORT = ("UMC", "het AZ", "Antonius", "Radboud", "het Gasthuis", "Isala", "Rijnstate", "Gelre", "Erasmus")

INSTITUTE_KIND = _bar("""Zorgcentrum|Woonzorgcentrum|Verpleeghuis|Woonvoorziening|Zorggroep|Stichting|Huize|
Hospice|Revalidatiecentrum|Kleinschalig wonen|Woongroep|Dagbesteding|Logeerhuis|Kliniek|Woonzorgpark""")
INSTITUTE_NAME = _bar("""De Linde|Het Gasthuis|Avondrust|De Zonnehoek|Sint Jozef|Rustoord|Het Dorpshuis|
Vreedenhoff|De Bongerd|Elisabeth|Bergweide|De Wingerd|Zonnehuis|De Hooge Weide|Molenbeek|Den Ooiman|
De Eikenhof|Het Anker|De Schakel|Oldenhaghen|De Vlinder|Maartenshof|De Kroonhorst|Overvecht|
Het Baken|De Brink|Nieuw Toutenburg|De Kleine Wereld|Kerklaan|De Ruwaard|Slotervaart|Mariënhaven|
Het Hoge Veer|De Wendakker|Ter Weel|Nijeveld|Sonnevanck|De Hazelaar|Bethanië|Lindenhof|Bosrand|Vijverhof|
De Meerkoet|Heemhof|Het Zonnehuis|Zuiderhout|Catharinahof|Ruitersbos|Weidestein""")
INSTITUTE_BRANDS = _bar("""Ipse de Bruggen|Philadelphia|Cordaan|Amarant|Pluryn|Reinaerde|'s Heeren Loo|Humanitas|
Altrecht|Parnassia|GGZ inGeest|Pro Persona|Dimence|Lentis|Mondriaan|Emergis|Buurtzorg|Zorggroep Noorderboog|
Vitalis|Surplus|Tactus|Leger des Heils|Sensire|Careyn|Zonnehuisgroep Amstelland|Laurens|Aafje|Tragel|
ASVZ|Abrona|Dichterbij|Koraal|Zideris|GGZ Centraal|Yulius|Accare|Interzorg|Zorgaccent|Rivierduinen|Vivent|
Tante Louise|Thebe|De Zorgcirkel|Sevagram|Envida|Meander Groep|Omring|WoonZorg Flevoland""")

ORGANISATIONS = _bar("""Zilveren Kruis|CZ|VGZ|Menzis|DSW|ONVZ|Achmea|CIZ|Valys|Regiotaxi|Medipoint|Vegro|Welzorg|
Albert Heijn|Jumbo|Lidl|HEMA|Kruidvat|Ikea|Action|Blokker|Zeeman|NS|Connexxion|Arriva|Tafeltje Dekje|
Stichting MEE|Rabobank|ING|ABN AMRO|SVB|UWV|Belastingdienst|Sociaal Wijkteam|Humanitas|Het Rode Kruis|
Zonnebloem|PostNL|Gamma|Praxis|Intratuin|Bol.com|Coolblue|Efteling|Ouwehands Dierenpark|Vitens|Eneco|
Vattenfall|KPN|Ziggo|Odido|Stichting Sport en Bewegen|Bibliotheek|Woonstichting De Key|Ymere|Portaal|
Woonbron|Vivare|Stadsbank|Kredietbank|Hulpmiddelencentrum|Pluspunt|Sportfondsen|Dirk van den Broek|Plus|
Dekamarkt|Coop|Aldi|Etos|Specsavers|Hans Anders|Beter Horen|Schoonenberg|Audifon|Livit|OIM Orthopedie""")
ORG_KINDS = {
    "shop": _bar("""Albert Heijn|Jumbo|Lidl|HEMA|Kruidvat|Action|Blokker|Zeeman|Aldi|Plus|Coop|Dekamarkt|
Dirk van den Broek|Etos|Intratuin|Gamma|Praxis|Ikea|Wibra|Xenos|Primera|Bruna|Big Bazar|Spar"""),
    "hulp": _bar("""Medipoint|Vegro|Welzorg|Hulpmiddelencentrum|Livit|OIM Orthopedie|Beter Horen|Schoonenberg|
Audifon|Specsavers|Hans Anders|Kersten Hulpmiddelen|Harting-Bank|Tunstall|Eleos Alarmering|Focuscura|
Invacare|Sunrise Medical|Otto Bock|Pearle"""),
    "insurer": _bar("""Zilveren Kruis|CZ|VGZ|Menzis|DSW|ONVZ|Achmea|a.s.r.|Zorg en Zekerheid|Salland|
Univé|De Friesland|IZZ|Interpolis|FBTO|Ohra"""),
    "thuiszorg": _bar("""Buurtzorg|Icare|Zorg aan Huis|Thuiszorg West-Brabant|Thuiszorg Het Friese Land|Tafeltje Dekje|
Apetito|Careyn Thuiszorg|Sensire Thuiszorg|Thuiszorg Groningen|Evean|Amstelring Thuiszorg|Vivium Thuiszorg|
Zorggroep Thuis|Allerzorg|Thuiszorg Rotterdam"""),
    "transport": _bar("""Valys|Regiotaxi|Connexxion|Arriva|NS|Taxi Centrale|Hermes|Qbuzz|Syntus|RET|
Zorgvervoer Nederland|Munckhof"""),
    "fin": _bar("""Stadsbank|Kredietbank|SVB|UWV|Belastingdienst|Rabobank|ING|ABN AMRO|SNS|ASN Bank|
Schuldhulpverlening Plangroep|Bewindvoering Noord|Budgetbeheer Zuid|Stichting Humanitas Thuisadministratie"""),
    "work": _bar("""Ergon|Pauw Bedrijven|Wezo|Atlant|Kringloop De Cirkel|Philips|Stork|Friesland Campina|
PostNL|Vebego|Heijmans|Bakkerij Bart|Kwekerij De Hoop|Timmerbedrijf Jansen|Werkbedrijf Lelystad|
Fietsenmakerij De Spaak|Kinderboerderij De Uylenburg|Restaurant De Proeftuin|Lunchroom Het Pakhuis"""),
    "leisure": _bar("""Efteling|Ouwehands Dierenpark|Zonnebloem|Het Rode Kruis|Bibliotheek|Sportfondsen|
Diergaarde Blijdorp|Burgers' Zoo|Artis|Het Openluchtmuseum|Rijksmuseum|Pathé|Vue|Kinepolis|
Voetbalvereniging VVV|Scouting Baden-Powell|Carnavalsvereniging De Kluppels|Zangvereniging Euphonia"""),
    "housing": _bar("""Woonstichting De Key|Ymere|Portaal|Woonbron|Vivare|Vestia|Eigen Haard|Mitros|Havensteder|
Woonzorg Nederland|Stadgenoot|Woonstad Rotterdam|Accolade|Elkien|Lefier"""),
}
PHARMACY_KIND = ("Apotheek", "Service Apotheek", "BENU Apotheek", "Apotheek", "Mediq Apotheek")
THUISZORG = (
    "Thuiszorg",
    "Thuiszorg Het Friese Land",
    "Thuiszorg West-Brabant",
    "Buurtzorg",
    "Icare",
    "Zorg aan Huis",
    "Thuiszorg Groningen",
    "Thuiszorg Rotterdam",
)
COMPANY_KIND = (
    "Bouwbedrijf",
    "Schildersbedrijf",
    "Transportbedrijf",
    "Garage",
    "Bakkerij",
    "Kwekerij",
    "Installatiebedrijf",
    "Hoveniersbedrijf",
    "Drukkerij",
    "Taxibedrijf",
)

STREET_STEMS = _bar("""Kerk|Dorps|School|Molen|Linden|Eiken|Beuken|Wilgen|Esdoorn|Berken|Populieren|Kastanje|
Juliana|Beatrix|Wilhelmina|Oranje|Prins Hendrik|Emma|Nassau|Parallel|Stations|Markt|Haven|Dijk|Veld|
Weide|Zand|Heide|Bos|Akker|Bloemen|Rozen|Tulpen|Narcissen|Seringen|Vlinder|Zwaluw|Merel|Lijster|
Spechten|Meeuwen|Reiger|Koekoek|Valk|Kievit|Rembrandt|Vermeer|Van Gogh|Mozart|Beethoven|Bach|Thorbecke|
Nieuwe|Oude|Hoog|Brink|Sluis|Gracht|Maan|Zon|Sterren|Noorder|Zuider|Ooster|Wester""")
STREET_SUFFIX = (
    "straat",
    "straat",
    "laan",
    "laan",
    "weg",
    "weg",
    "plein",
    "hof",
    "singel",
    "kade",
    "dreef",
    "pad",
    "erf",
    "gracht",
    "dijk",
    "park",
    "ring",
    "steeg",
)
COUNTRIES = (
    "Marokko",
    "Turkije",
    "Suriname",
    "Curaçao",
    "Indonesië",
    "Duitsland",
    "België",
    "Spanje",
    "Nieuw-Zeeland",
    "Canada",
    "Australië",
    "Polen",
    "Frankrijk",
    "Zuid-Afrika",
    "Aruba",
)

PROFESSIONS = _bar("""timmerman|stratenmaker|programmeur|onderwijzeres|onderwijzer|boekhouder|kapster|
vrachtwagenchauffeur|boer|melkveehouder|bakker|slager|metselaar|schilder|postbode|conducteur|
huisvrouw|secretaresse|verkoopster|winkelier|kraanmachinist|elektricien|lasser|loodgieter|
bankemployé|ambtenaar|politieagent|marechaussee|militair|beroepsmilitair|visser|scheepsbouwer|
mijnwerker|fabrieksarbeider|textielarbeider|naaister|kleermaker|kok|ober|taxichauffeur|
buschauffeur|notaris|advocaat|dominee|pastoor|accountant|architect|tuinder|hovenier|
schoonmaakster|glazenwasser|automonteur|drukker|journalist|fotograaf|bibliothecaresse|
medewerker in de kassenbouw|vertegenwoordiger|inkoper|magazijnmedewerker|stukadoor|
rijinstructeur|binnenvaartschipper|kapitein op de grote vaart|leraar Frans|gymleraar|
hoofd van de lagere school|directeur van een bouwbedrijf|sjouwer in de haven|kweker""")

PET_KIND = ("hond", "kat", "poes", "kater", "parkiet", "kanarie", "konijn", "cavia", "paard", "hondje")
PET_NAMES = _bar("""Bello|Max|Tommie|Minoes|Pluis|Snoopy|Guus|Bobby|Rakker|Saartje|Tijger|Lola|Dribbel|Boris|
Kiki|Pietje|Flappie|Moortje|Sammie|Luna|Noor|Bruno|Pip|Diesel|Sam|Kees|Muis|Blacky|Tobias|Fleur""")
BOAT_NAMES = _bar("""Zeemeeuw|Vrouwe Johanna|Twee Gebroeders|Nooit Gedacht|Avontuur|Hoop doet Leven|Eendracht|
Morgenster|Vertrouwen|De Drie Gezusters""")

WARD_NAMES = _bar("""De Linde|De Eik|De Beuk|Zonnebloem|Vergeet-mij-niet|De Kastanje|Klaproos|Lavendel|
De Wilg|Regenboog|Het Atrium|De Tuinkamer|Korenbloem|Margriet|De Kempen|De Horst|Het Veen|Duinzicht|
De Vlier|Hazelaar|Esdoorn|Het Anker|Noord|Zuid|Oost|West|De Serre|Walnoot|Berkenhof|Lindehof""")

MEDS = _bar("""paracetamol 500 mg|paracetamol 1000 mg|omeprazol 20 mg|metoprolol 50 mg|furosemide 40 mg|
acenocoumarol|apixaban 5 mg|simvastatine 40 mg|metformine 500 mg|haloperidol 0,5 mg|quetiapine 25 mg|
oxazepam 10 mg|temazepam 10 mg|lorazepam 1 mg|citalopram 20 mg|sertraline 50 mg|macrogol|lactulose|
movicolon|tramadol 50 mg|oxycodon 5 mg|fentanylpleister 12 mcg|insuline Novorapid|insuline Lantus|
amlodipine 5 mg|lisinopril 10 mg|calcium/vit D|alendroninezuur 70 mg|levothyroxine 50 mcg|
risperidon 0,5 mg|pipamperon 20 mg|melatonine 3 mg|diclofenac 50 mg|naproxen 250 mg|prednison 5 mg|
amoxicilline 500 mg|nitrofurantoïne 100 mg|fosfomycine 3 g|clozapine 100 mg|lithium 400 mg|
valproïnezuur 500 mg|levetiracetam 500 mg|carbasalaatcalcium 80 mg|tamsulosine 0,4 mg|bisacodyl""")
FREQ = (
    "1dd1",
    "2dd1",
    "3dd1",
    "1x per dag",
    "2x daags",
    "z.n.",
    "zn max 3x per dag",
    "1dd2",
    "'s avonds",
    "voor de nacht",
    "bij het ontbijt",
    "4dd1",
    "1x per week",
)
ACTIVITIES = _bar("""bingo|sjoelen|koersbal|gymnastiek|zangkoor|wandelen|fietsen op de duofiets|bloemschikken|
handwerken|kaarten|klaverjassen|puzzelen|muziekmiddag|filmmiddag|beweegactiviteit|koffieochtend|
moestuinieren|dagbesteding|zwemmen|boodschappen doen|koken met de groep|creatieve middag|
snoezelen|tablet-les|breien|biljarten|dansmiddag|geheugentraining|kerkdienst|markt bezoeken""")
FOODS = _bar("""brood met kaas|pap|yoghurt|een beschuit|soep|warme maaltijd|aardappelen met groente|
stamppot|vla|een broodje|fruit|appelmoes|crackers|een eitje|rijst|pannenkoeken|gemalen maaltijd|
drinkvoeding|een kop koffie|thee|karnemelk|een glas melk""")
BODY = _bar("""linkerknie|rechterknie|linkerheup|rechterheup|stuit|hielen|rug|linkerschouder|
rechterschouder|onderbenen|linkervoet|rechtervoet|buik|hoofd|linkerpols|rechterarm|sacrum|billen|
linkerenkel|rechterenkel|nek|borst""")
