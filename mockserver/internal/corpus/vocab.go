package corpus

// This file holds the language-independent vocabularies the generator expands
// into articles: event kinds, topics, places, organisation and product name
// parts. Every name here is invented for the mock (places are real cities);
// no text is taken from real articles. The per-language templates live in
// the lang_*.go files.

// Event kinds. Every story reports one event of one kind.
const (
	kindAcquisition = iota
	kindLaunch
	kindElection
	kindResignation
	kindProbe
	kindStrike
	kindDisaster
	kindResearch
	kindSports
	kindEarnings
	kindCulture
	kindHealth
	numKinds
)

// Topic groups: the pool a kind draws its {T} topic from.
const (
	groupBusiness = iota
	groupTech
	groupPolitics
	groupDisaster
	groupScience
	groupSports
	groupCulture
	groupDisease
)

// Entity slots a kind mentions, as a bit set.
const (
	slotOrg     = 1 << iota // {O}
	slotOrg2                // {R}
	slotPerson2             // {Q}
	slotProduct             // {X}
	slotEvent               // the event itself ("Madrid Marathon")
)

// relation links two slots of a kind's entities. Slots are named by their
// template letter: P, Q, O, R, L, X, E (event).
type relation struct {
	source, target byte
	name           string
}

// kindInfo describes an event kind independently of language.
type kindInfo struct {
	label      string   // the kind's topic label, one of an article's three topics
	categories []string // article categories the kind is filed under
	group      int      // topic group of {T}
	tone       float64  // typical sentiment of the coverage
	slots      int      // entity slots mentioned besides {P} and {L}
	relations  []relation
}

var kinds = [numKinds]kindInfo{
	kindAcquisition: {"Mergers and Acquisitions", []string{"Business"}, groupBusiness, 0.25, slotOrg | slotOrg2,
		[]relation{{'O', 'R', "acquires"}, {'P', 'O', "chief_executive_of"}, {'O', 'L', "headquartered_in"}}},
	kindLaunch: {"Product Launches", []string{"Technology"}, groupTech, 0.45, slotOrg | slotProduct,
		[]relation{{'O', 'X', "produces"}, {'P', 'O', "executive_of"}, {'X', 'L', "launched_in"}}},
	kindElection: {"Elections", []string{"Politics"}, groupPolitics, 0.1, slotPerson2,
		[]relation{{'P', 'L', "elected_in"}, {'Q', 'P', "competes_with"}}},
	kindResignation: {"Leadership Changes", []string{"Business", "Politics"}, groupBusiness, -0.2, slotOrg | slotPerson2,
		[]relation{{'P', 'O', "resigned_from"}, {'Q', 'O', "leads"}}},
	kindProbe: {"Regulation", []string{"Business", "Technology"}, groupTech, -0.45, slotOrg,
		[]relation{{'P', 'O', "investigates"}, {'O', 'L', "investigated_in"}}},
	kindStrike: {"Labour Disputes", []string{"Business", "World"}, groupBusiness, -0.4, slotOrg,
		[]relation{{'P', 'O', "negotiates_with"}, {'O', 'L', "operates_in"}}},
	kindDisaster: {"Natural Disasters", []string{"World", "Environment"}, groupDisaster, -0.75, 0,
		[]relation{{'P', 'L', "official_of"}}},
	kindResearch: {"Scientific Research", []string{"Science", "Health"}, groupScience, 0.4, slotOrg,
		[]relation{{'P', 'L', "based_in"}, {'O', 'P', "funds"}}},
	kindSports: {"Sports Results", []string{"Sports"}, groupSports, 0.55, slotPerson2 | slotEvent,
		[]relation{{'P', 'E', "won"}, {'Q', 'E', "competed_in"}, {'E', 'L', "held_in"}}},
	kindEarnings: {"Corporate Earnings", []string{"Business"}, groupTech, 0.35, slotOrg | slotProduct,
		[]relation{{'O', 'X', "produces"}, {'P', 'O', "chief_executive_of"}}},
	kindCulture: {"Arts and Culture", []string{"Entertainment"}, groupCulture, 0.5, slotPerson2,
		[]relation{{'P', 'Q', "collaborates_with"}, {'P', 'L', "performed_in"}}},
	kindHealth: {"Public Health", []string{"Health"}, groupDisease, -0.5, 0,
		[]relation{{'P', 'L', "health_official_of"}}},
}

// topic is a subject a story is about: an English label (used in an
// article's topics) and its phrase in every corpus language, in the order of
// packs. The French phrases carry their article where the templates need one.
type topic struct {
	label string
	group int
	names [numLangs]string
}

var topics = []topic{
	{"Supply Chains", groupBusiness, [numLangs]string{"supply chains", "cadenas de suministro", "les chaînes d'approvisionnement", "Lieferketten", "catene di approvvigionamento", "cadeias de abastecimento", "toeleveringsketens", "leveranskedjor"}},
	{"Interest Rates", groupBusiness, [numLangs]string{"interest rates", "tipos de interés", "les taux d'intérêt", "Zinsen", "tassi di interesse", "taxas de juro", "rentetarieven", "räntor"}},
	{"Retail", groupBusiness, [numLangs]string{"retail sales", "ventas minoristas", "le commerce de détail", "Einzelhandel", "vendite al dettaglio", "vendas no varejo", "detailhandel", "detaljhandel"}},
	{"Housing Market", groupBusiness, [numLangs]string{"the housing market", "mercado inmobiliario", "le marché immobilier", "Immobilienmarkt", "mercato immobiliare", "mercado imobiliário", "woningmarkt", "bostadsmarknaden"}},
	{"Renewable Energy", groupBusiness, [numLangs]string{"renewable energy", "energías renovables", "les énergies renouvelables", "erneuerbare Energien", "energie rinnovabili", "energias renováveis", "hernieuwbare energie", "förnybar energi"}},
	{"Logistics", groupBusiness, [numLangs]string{"freight shipping", "transporte de mercancías", "le fret maritime", "Frachtverkehr", "trasporto merci", "transporte de cargas", "vrachtvervoer", "godstransporter"}},
	{"Banking", groupBusiness, [numLangs]string{"digital banking", "banca digital", "la banque numérique", "Digitalbanking", "banca digitale", "bancos digitais", "digitaal bankieren", "digitala banktjänster"}},

	{"Artificial Intelligence", groupTech, [numLangs]string{"artificial intelligence", "inteligencia artificial", "l'intelligence artificielle", "künstliche Intelligenz", "intelligenza artificiale", "inteligência artificial", "kunstmatige intelligentie", "artificiell intelligens"}},
	{"Cloud Computing", groupTech, [numLangs]string{"cloud computing", "computación en la nube", "l'informatique en nuage", "Cloud-Computing", "cloud computing", "computação em nuvem", "cloudcomputing", "molntjänster"}},
	{"Semiconductors", groupTech, [numLangs]string{"chip manufacturing", "fabricación de chips", "la fabrication de puces", "Chipfertigung", "produzione di chip", "fabricação de chips", "chipproductie", "chiptillverkning"}},
	{"Data Privacy", groupTech, [numLangs]string{"data privacy", "privacidad de datos", "la protection des données", "Datenschutz", "privacy dei dati", "privacidade de dados", "gegevensbescherming", "dataskydd"}},
	{"Smartphones", groupTech, [numLangs]string{"smartphones", "teléfonos inteligentes", "les smartphones", "Smartphones", "smartphone", "smartphones", "smartphones", "smarttelefoner"}},
	{"Electric Vehicles", groupTech, [numLangs]string{"electric vehicles", "vehículos eléctricos", "les véhicules électriques", "Elektroautos", "veicoli elettrici", "veículos elétricos", "elektrische auto's", "elbilar"}},
	{"Robotics", groupTech, [numLangs]string{"industrial robotics", "robótica industrial", "la robotique industrielle", "Industrierobotik", "robotica industriale", "robótica industrial", "industriële robotica", "industrirobotik"}},
	{"Cybersecurity", groupTech, [numLangs]string{"cybersecurity", "ciberseguridad", "la cybersécurité", "Cybersicherheit", "sicurezza informatica", "cibersegurança", "cyberbeveiliging", "cybersäkerhet"}},
	{"Quantum Computing", groupTech, [numLangs]string{"quantum computing", "computación cuántica", "l'informatique quantique", "Quantencomputing", "calcolo quantistico", "computação quântica", "quantumcomputing", "kvantdatorer"}},

	{"Immigration", groupPolitics, [numLangs]string{"immigration policy", "política migratoria", "la politique migratoire", "Migrationspolitik", "politica migratoria", "política migratória", "migratiebeleid", "migrationspolitik"}},
	{"Taxation", groupPolitics, [numLangs]string{"tax reform", "reforma fiscal", "la réforme fiscale", "Steuerreform", "riforma fiscale", "reforma tributária", "belastinghervorming", "skattereform"}},
	{"Climate Policy", groupPolitics, [numLangs]string{"climate policy", "política climática", "la politique climatique", "Klimapolitik", "politica climatica", "política climática", "klimaatbeleid", "klimatpolitik"}},
	{"Pensions", groupPolitics, [numLangs]string{"pension reform", "reforma de las pensiones", "la réforme des retraites", "Rentenreform", "riforma delle pensioni", "reforma da previdência", "pensioenhervorming", "pensionsreform"}},
	{"Public Transport", groupPolitics, [numLangs]string{"public transport", "transporte público", "les transports publics", "Nahverkehr", "trasporto pubblico", "transporte público", "openbaar vervoer", "kollektivtrafik"}},
	{"Housing Policy", groupPolitics, [numLangs]string{"affordable housing", "vivienda asequible", "le logement abordable", "bezahlbarer Wohnraum", "edilizia popolare", "habitação acessível", "betaalbare woningen", "bostadsbyggande"}},
	{"Education", groupPolitics, [numLangs]string{"school funding", "financiación escolar", "le financement des écoles", "Schulfinanzierung", "finanziamento scolastico", "financiamento escolar", "onderwijsfinanciering", "skolfinansiering"}},
	{"Healthcare", groupPolitics, [numLangs]string{"hospital waiting lists", "listas de espera sanitarias", "les listes d'attente à l'hôpital", "Wartezeiten in Kliniken", "liste d'attesa ospedaliere", "filas de espera nos hospitais", "wachtlijsten in ziekenhuizen", "vårdköer"}},

	{"Floods", groupDisaster, [numLangs]string{"flooding", "inundaciones", "les inondations", "Hochwasser", "alluvioni", "enchentes", "overstromingen", "översvämningar"}},
	{"Wildfires", groupDisaster, [numLangs]string{"wildfires", "incendios forestales", "les feux de forêt", "Waldbrände", "incendi boschivi", "incêndios florestais", "bosbranden", "skogsbränder"}},
	{"Heatwaves", groupDisaster, [numLangs]string{"a heatwave", "ola de calor", "la canicule", "Hitzewelle", "ondata di caldo", "onda de calor", "hittegolf", "värmebölja"}},
	{"Storms", groupDisaster, [numLangs]string{"severe storms", "fuertes tormentas", "les tempêtes", "schwere Unwetter", "forti temporali", "fortes tempestades", "zware stormen", "kraftiga stormar"}},
	{"Drought", groupDisaster, [numLangs]string{"drought", "sequía", "la sécheresse", "Dürre", "siccità", "seca", "droogte", "torka"}},
	{"Earthquakes", groupDisaster, [numLangs]string{"an earthquake", "terremoto", "le séisme", "Erdbeben", "terremoto", "terremoto", "aardbeving", "jordbävning"}},
	{"Landslides", groupDisaster, [numLangs]string{"landslides", "deslizamientos de tierra", "les glissements de terrain", "Erdrutsche", "frane", "deslizamentos de terra", "aardverschuivingen", "jordskred"}},

	{"Gene Therapy", groupScience, [numLangs]string{"gene therapy", "terapia génica", "la thérapie génique", "Gentherapie", "terapia genica", "terapia gênica", "gentherapie", "genterapi"}},
	{"Vaccines", groupScience, [numLangs]string{"vaccine research", "investigación de vacunas", "la recherche vaccinale", "Impfstoffforschung", "ricerca sui vaccini", "pesquisa de vacinas", "vaccinonderzoek", "vaccinforskning"}},
	{"Oceans", groupScience, [numLangs]string{"ocean warming", "calentamiento de los océanos", "le réchauffement des océans", "Meereserwärmung", "riscaldamento degli oceani", "aquecimento dos oceanos", "opwarming van de oceanen", "havsuppvärmning"}},
	{"Fusion Energy", groupScience, [numLangs]string{"fusion energy", "energía de fusión", "l'énergie de fusion", "Kernfusion", "fusione nucleare", "energia de fusão", "kernfusie", "fusionsenergi"}},
	{"Space", groupScience, [numLangs]string{"space exploration", "exploración espacial", "l'exploration spatiale", "Raumfahrt", "esplorazione spaziale", "exploração espacial", "ruimtevaart", "rymdforskning"}},
	{"Biodiversity", groupScience, [numLangs]string{"biodiversity loss", "pérdida de biodiversidad", "la perte de biodiversité", "Artensterben", "perdita di biodiversità", "perda de biodiversidade", "biodiversiteitsverlies", "artförlust"}},
	{"Neuroscience", groupScience, [numLangs]string{"brain research", "investigación cerebral", "la recherche sur le cerveau", "Hirnforschung", "ricerca sul cervello", "pesquisa sobre o cérebro", "hersenonderzoek", "hjärnforskning"}},

	{"Marathon", groupSports, [numLangs]string{"marathon", "maratón", "le marathon", "Marathon", "maratona", "maratona", "marathon", "maraton"}},
	{"Tennis", groupSports, [numLangs]string{"tennis open", "abierto de tenis", "l'open de tennis", "Tennisturnier", "torneo di tennis", "torneio de tênis", "tennistoernooi", "tennisturnering"}},
	{"Cycling", groupSports, [numLangs]string{"cycling classic", "clásica ciclista", "la classique cycliste", "Radklassiker", "classica di ciclismo", "clássica de ciclismo", "wielerklassieker", "cykelklassiker"}},
	{"Chess", groupSports, [numLangs]string{"chess championship", "campeonato de ajedrez", "le championnat d'échecs", "Schachmeisterschaft", "campionato di scacchi", "campeonato de xadrez", "schaakkampioenschap", "schackmästerskap"}},
	{"Golf", groupSports, [numLangs]string{"golf open", "abierto de golf", "l'open de golf", "Golfturnier", "open di golf", "aberto de golfe", "golftoernooi", "golfturnering"}},
	{"Swimming", groupSports, [numLangs]string{"swimming championship", "campeonato de natación", "le championnat de natation", "Schwimmmeisterschaft", "campionato di nuoto", "campeonato de natação", "zwemkampioenschap", "simmästerskap"}},
	{"Triathlon", groupSports, [numLangs]string{"triathlon", "triatlón", "le triathlon", "Triathlon", "triathlon", "triatlo", "triatlon", "triathlon"}},

	{"Film", groupCulture, [numLangs]string{"film", "película", "le film", "Film", "film", "filme", "film", "film"}},
	{"Music", groupCulture, [numLangs]string{"album", "álbum", "l'album", "Album", "album", "álbum", "album", "album"}},
	{"Books", groupCulture, [numLangs]string{"novel", "novela", "le roman", "Roman", "romanzo", "romance", "roman", "roman"}},
	{"Art", groupCulture, [numLangs]string{"art exhibition", "exposición de arte", "l'exposition", "Kunstausstellung", "mostra d'arte", "exposição de arte", "kunsttentoonstelling", "konstutställning"}},
	{"Documentary", groupCulture, [numLangs]string{"documentary", "documental", "le documentaire", "Dokumentarfilm", "documentario", "documentário", "documentaire", "dokumentär"}},
	{"Theatre", groupCulture, [numLangs]string{"stage musical", "musical", "la comédie musicale", "Musical", "musical", "musical", "musical", "musikal"}},

	{"Measles", groupDisease, [numLangs]string{"measles", "sarampión", "rougeole", "Masern", "morbillo", "sarampo", "mazelen", "mässling"}},
	{"Influenza", groupDisease, [numLangs]string{"influenza", "gripe", "grippe", "Grippe", "influenza", "gripe", "griep", "influensa"}},
	{"Dengue", groupDisease, [numLangs]string{"dengue fever", "dengue", "dengue", "Denguefieber", "dengue", "dengue", "knokkelkoorts", "denguefeber"}},
	{"Whooping Cough", groupDisease, [numLangs]string{"whooping cough", "tos ferina", "coqueluche", "Keuchhusten", "pertosse", "coqueluche", "kinkhoest", "kikhosta"}},
	{"Norovirus", groupDisease, [numLangs]string{"norovirus", "norovirus", "norovirus", "Norovirus", "norovirus", "norovírus", "norovirus", "calicivirus"}},
	{"Tuberculosis", groupDisease, [numLangs]string{"tuberculosis", "tuberculosis", "tuberculose", "Tuberkulose", "tubercolosi", "tuberculose", "tuberculose", "tuberkulos"}},
	{"Scarlet Fever", groupDisease, [numLangs]string{"scarlet fever", "escarlatina", "scarlatine", "Scharlach", "scarlattina", "escarlatina", "roodvonk", "scharlakansfeber"}},
}

// place is a city stories happen in. lang is the index in packs of the
// language whose stories prefer it, or -1 for a city any language may use.
type place struct {
	name, region string
	lang         int
}

var places = []place{
	{"London", "Europe", langEN}, {"Manchester", "Europe", langEN}, {"Birmingham", "Europe", langEN},
	{"Leeds", "Europe", langEN}, {"Glasgow", "Europe", langEN}, {"Edinburgh", "Europe", langEN},
	{"Dublin", "Europe", langEN}, {"Cork", "Europe", langEN}, {"New York", "North America", langEN},
	{"Chicago", "North America", langEN}, {"Boston", "North America", langEN}, {"Seattle", "North America", langEN},
	{"Denver", "North America", langEN}, {"Atlanta", "North America", langEN}, {"Houston", "North America", langEN},
	{"Toronto", "North America", langEN}, {"Vancouver", "North America", langEN}, {"Sydney", "Oceania", langEN},
	{"Melbourne", "Oceania", langEN}, {"Auckland", "Oceania", langEN}, {"Cape Town", "Africa", langEN},
	{"Nairobi", "Africa", langEN}, {"Lagos", "Africa", langEN}, {"Mumbai", "Asia", langEN},
	{"Singapore", "Asia", langEN},

	{"Madrid", "Europe", langES}, {"Barcelona", "Europe", langES}, {"Sevilla", "Europe", langES},
	{"Valencia", "Europe", langES}, {"Bilbao", "Europe", langES}, {"Málaga", "Europe", langES},
	{"Zaragoza", "Europe", langES}, {"Ciudad de México", "Latin America", langES},
	{"Guadalajara", "Latin America", langES}, {"Buenos Aires", "Latin America", langES},
	{"Córdoba", "Latin America", langES}, {"Bogotá", "Latin America", langES}, {"Medellín", "Latin America", langES},
	{"Lima", "Latin America", langES}, {"Santiago", "Latin America", langES}, {"Montevideo", "Latin America", langES},
	{"Quito", "Latin America", langES},

	{"Paris", "Europe", langFR}, {"Lyon", "Europe", langFR}, {"Marseille", "Europe", langFR},
	{"Toulouse", "Europe", langFR}, {"Bordeaux", "Europe", langFR}, {"Lille", "Europe", langFR},
	{"Nantes", "Europe", langFR}, {"Strasbourg", "Europe", langFR}, {"Bruxelles", "Europe", langFR},
	{"Liège", "Europe", langFR}, {"Genève", "Europe", langFR}, {"Lausanne", "Europe", langFR},
	{"Montréal", "North America", langFR}, {"Québec", "North America", langFR}, {"Dakar", "Africa", langFR},

	{"Berlin", "Europe", langDE}, {"München", "Europe", langDE}, {"Hamburg", "Europe", langDE},
	{"Köln", "Europe", langDE}, {"Frankfurt", "Europe", langDE}, {"Stuttgart", "Europe", langDE},
	{"Leipzig", "Europe", langDE}, {"Dresden", "Europe", langDE}, {"Düsseldorf", "Europe", langDE},
	{"Wien", "Europe", langDE}, {"Graz", "Europe", langDE}, {"Zürich", "Europe", langDE},
	{"Basel", "Europe", langDE}, {"Bremen", "Europe", langDE},

	{"Roma", "Europe", langIT}, {"Milano", "Europe", langIT}, {"Napoli", "Europe", langIT},
	{"Torino", "Europe", langIT}, {"Firenze", "Europe", langIT}, {"Bologna", "Europe", langIT},
	{"Genova", "Europe", langIT}, {"Palermo", "Europe", langIT}, {"Venezia", "Europe", langIT},
	{"Bari", "Europe", langIT}, {"Verona", "Europe", langIT}, {"Trieste", "Europe", langIT},

	{"Lisboa", "Europe", langPT}, {"Porto", "Europe", langPT}, {"Coimbra", "Europe", langPT},
	{"Braga", "Europe", langPT}, {"Faro", "Europe", langPT}, {"São Paulo", "Latin America", langPT},
	{"Rio de Janeiro", "Latin America", langPT}, {"Brasília", "Latin America", langPT},
	{"Salvador", "Latin America", langPT}, {"Recife", "Latin America", langPT},
	{"Belo Horizonte", "Latin America", langPT}, {"Curitiba", "Latin America", langPT},
	{"Porto Alegre", "Latin America", langPT}, {"Luanda", "Africa", langPT}, {"Maputo", "Africa", langPT},

	{"Amsterdam", "Europe", langNL}, {"Rotterdam", "Europe", langNL}, {"Den Haag", "Europe", langNL},
	{"Utrecht", "Europe", langNL}, {"Eindhoven", "Europe", langNL}, {"Groningen", "Europe", langNL},
	{"Maastricht", "Europe", langNL}, {"Antwerpen", "Europe", langNL}, {"Gent", "Europe", langNL},
	{"Brugge", "Europe", langNL}, {"Leuven", "Europe", langNL},

	{"Stockholm", "Europe", langSV}, {"Göteborg", "Europe", langSV}, {"Malmö", "Europe", langSV},
	{"Uppsala", "Europe", langSV}, {"Linköping", "Europe", langSV}, {"Örebro", "Europe", langSV},
	{"Umeå", "Europe", langSV}, {"Lund", "Europe", langSV}, {"Västerås", "Europe", langSV},
	{"Helsingborg", "Europe", langSV}, {"Luleå", "Europe", langSV},

	{"Tokyo", "Asia", -1}, {"Seoul", "Asia", -1}, {"Shanghai", "Asia", -1}, {"Jakarta", "Asia", -1},
	{"Manila", "Asia", -1}, {"Bangkok", "Asia", -1}, {"Hanoi", "Asia", -1}, {"Dubai", "Middle East", -1},
	{"Istanbul", "Middle East", -1}, {"Cairo", "Africa", -1}, {"Casablanca", "Africa", -1},
	{"Accra", "Africa", -1}, {"Johannesburg", "Africa", -1}, {"Warsaw", "Europe", -1},
	{"Prague", "Europe", -1}, {"Athens", "Europe", -1}, {"Oslo", "Europe", -1},
	{"Copenhagen", "Europe", -1}, {"Helsinki", "Europe", -1}, {"Reykjavik", "Europe", -1},
}

// Organisation names are an invented brand word and a sector word.
var (
	orgBrands = []string{
		"Norvale", "Brightmoor", "Kestrava", "Haldune", "Corvanta", "Aldermoor", "Veltrix", "Quorra",
		"Stellanor", "Marivel", "Torvikk", "Lumera", "Arkwell", "Beaumira", "Calderon", "Dovecrest",
		"Emberly", "Falcrest", "Glenmarra", "Helvion", "Ironvale", "Kyrosa", "Larkmont", "Novacrest",
		"Orindel", "Pallastra", "Quillon", "Redwater", "Solenne", "Tarrantine", "Ulmara", "Vireon",
		"Westmarch", "Xandora", "Yarrowby", "Zentara", "Ostrevia", "Bellhaven", "Cindral", "Daltmoor",
	}
	orgSectors = []string{
		"Energy", "Bank", "Motors", "Pharma", "Systems", "Airlines", "Telecom", "Foods", "Mining",
		"Logistics", "Robotics", "Media", "Capital", "Insurance", "Semiconductors", "Retail", "Steel",
		"Health", "Games", "Shipping",
	}
)

// numOrgs and numProducts are the numbers of organisations and products a
// corpus draws from the name parts.
const (
	numOrgs     = 320
	numProducts = 160
)

// Product names are an invented brand word and a model.
var (
	productBrands = []string{
		"Vanta", "Orbis", "Lumo", "Kairo", "Nimbra", "Helix", "Trion", "Solva", "Quasar", "Aurix",
		"Pivo", "Zenno", "Rivvo", "Tesselo", "Mirra", "Onyra", "Cadenza", "Fluxor", "Glimmo", "Brisa",
	}
	productModels = []string{"S4", "X2", "Pro", "Air", "Max", "One", "Mini", "Neo", "Flux", "Edge", "Go", "Ultra"}
)
