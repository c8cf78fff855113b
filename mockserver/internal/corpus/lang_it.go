package corpus

var packIT = langPack{
	code:   "it",
	weight: 0.06,
	sites:  28,
	sitePrefixes: []string{
		"gazzetta", "corriere", "giornale", "notizie", "cronaca", "messaggero", "eco", "tribuna", "voce",
		"quotidiano",
	},
	siteSuffixes: []string{
		"delnord", "delsud", "lombardo", "veneto", "toscano", "romano", "ligure", "adriatico", "tirreno",
		"sabaudo", "emiliano", "siciliano",
	},
	tlds:       []string{".it", ".it", ".it", ".ch", ".com", ".info"},
	firstNames: []string{"Marco", "Giulia", "Luca", "Chiara", "Matteo", "Francesca", "Alessandro", "Sara", "Davide", "Elisa", "Stefano", "Valeria", "Riccardo", "Martina", "Fabio", "Alessia", "Simone", "Beatrice", "Lorenzo", "Silvia"},
	lastNames:  []string{"Rossi", "Ferrari", "Esposito", "Bianchi", "Colombo", "Ricci", "Marino", "Greco", "Bruno", "Gallo", "Conti", "De Luca", "Mancini", "Costa", "Giordano", "Rizzo", "Lombardi", "Moretti", "Barbieri", "Fontana", "Caruso", "Santoro"},
	persons:    50,
	weekdays:   [7]string{"domenica", "lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato"},
	generic: []string{
		"Ulteriori dettagli sono attesi nei prossimi giorni.",
		"Le persone interpellate non hanno risposto nell'immediato.",
		"L'articolo sarà aggiornato con nuove informazioni.",
	},
	kinds: [numKinds]kindText{
		kindAcquisition: {
			titles: []string{
				"{O} acquista {R} per {M} milioni di dollari",
				"{R} accetta l'offerta di {O} da {M} milioni",
				"{p} fa il colpo: {O} compra {R}",
			},
			descs: []string{
				"{O} ha annunciato {D} l'acquisizione di {R} per circa {M} milioni di dollari, un'operazione che l'amministratore delegato {P} definisce storica.",
				"L'acquisizione di {R} rafforza la presenza di {O} a {L} e nel settore {T}, secondo fonti vicine alla trattativa.",
			},
			bodies: []string{
				"Il titolo {R} è volato in Borsa dopo l'annuncio, mentre {O} prevede di chiudere l'operazione entro pochi mesi.",
				"Le autorità antitrust di {L} dovranno esaminare l'accordo tra {O} e {R}.",
			},
		},
		kindLaunch: {
			titles: []string{
				"{O} presenta il {X} a {L}",
				"Con il {X}, {O} punta su {T}",
				"Prima prova del nuovo {X} di {O}",
			},
			descs: []string{
				"{O} ha presentato {D} il {X}, che {P} descrive come il prodotto più ambizioso del gruppo in materia di {T}.",
				"Il {X} arriverà prima a {L}, ha spiegato {O}, con un lancio più ampio entro fine anno.",
			},
			bodies: []string{
				"{P} ha mostrato il {X} sul palco a {L}, sottolineando velocità e autonomia.",
				"Secondo gli analisti, il {X} mette {O} in concorrenza diretta con i grandi rivali.",
			},
		},
		kindElection: {
			titles: []string{
				"{P} vince le elezioni a {L} con il {N} per cento",
				"{P} batte {Q} a {L}",
				"Gli elettori di {L} premiano {p} contro {q}",
			},
			descs: []string{
				"{P} è stato proclamato vincitore a {L} {D} con il {N} per cento dei voti, davanti a {Q}.",
				"{P}, che ha fatto campagna in materia di {T}, ha ringraziato i sostenitori a {L} mentre {Q} ammetteva la sconfitta.",
			},
			bodies: []string{
				"L'affluenza a {L} è stata più alta rispetto alle ultime elezioni, secondo le autorità.",
				"{Q} ha detto che il risultato dimostra la voglia di cambiamento in materia di {T}.",
			},
		},
		kindResignation: {
			titles: []string{
				"{P} lascia la guida di {O}",
				"{O} nomina {Q} al posto di {P}",
				"Uscita a sorpresa di {P} da {O}",
			},
			descs: []string{
				"{P} ha annunciato {D} l'addio a {O}; {Q} assumerà l'incarico ad interim.",
				"L'addio di {P} arriva mentre {O} è sotto pressione per i suoi piani in materia di {T}, secondo alcuni dipendenti a {L}.",
			},
			bodies: []string{
				"{O} ha precisato che {Q} guiderà l'azienda fino alla nomina di un successore.",
				"Gli investitori a {L} hanno reagito con calma e il titolo {O} si è mosso poco.",
			},
		},
		kindProbe: {
			titles: []string{
				"Le autorità di {L} indagano su {O}",
				"{O} sotto indagine a {L} in materia di {T}",
				"{O} rischia una multa da {M} milioni di dollari",
			},
			descs: []string{
				"L'autorità di vigilanza di {L} ha avviato {D} un'indagine formale su {O} in materia di {T}.",
				"{P}, a capo dell'autorità, ha avvertito che {O} rischia una multa fino a {M} milioni di dollari.",
			},
			bodies: []string{
				"{O} ha dichiarato di collaborare pienamente con l'indagine e ha respinto ogni accusa.",
				"Le associazioni dei consumatori di {L} criticavano da tempo le pratiche di {O}.",
			},
		},
		kindStrike: {
			titles: []string{
				"Sciopero, i lavoratori di {O} in piazza a {L}",
				"Migliaia di dipendenti di {O} in sciopero a {L}",
				"I sindacati di {O} chiedono un aumento del {N} per cento",
			},
			descs: []string{
				"Circa {K} lavoratori di {O} a {L} hanno incrociato le braccia {D} dopo il fallimento delle trattative su un aumento del {N} per cento.",
				"Il sindacalista {P} accusa i vertici di {O} di ignorare le preoccupazioni del personale.",
			},
			bodies: []string{
				"{O} si è detta delusa dallo sciopero e ha invitato i sindacati a tornare al tavolo.",
				"Lo sciopero di {O} dovrebbe creare disagi a {L} per diversi giorni.",
			},
		},
		kindDisaster: {
			titles: []string{
				"{L} colpita da {T}: migliaia di sfollati",
				"Stato di emergenza a {L} per {T}",
				"{K} evacuati a {L} a causa di {T}",
			},
			descs: []string{
				"I soccorritori di {L} hanno riferito {D} che circa {K} persone sono state messe in salvo a causa di {T}.",
				"Le autorità guidate da {P} avvertono che la situazione a {L} potrebbe durare altri {N} giorni.",
			},
			bodies: []string{
				"Scuole e strade intorno a {L} sono rimaste chiuse mentre le squadre lavoravano tutta la notte.",
				"{P} ha invitato i residenti di {L} a seguire le indicazioni ufficiali.",
			},
		},
		kindResearch: {
			titles: []string{
				"Ricercatori di {L} annunciano una svolta in materia di {T}",
				"Il gruppo di {P} trova un nuovo approccio in materia di {T}",
				"Uno studio guidato da {P} potrebbe rivoluzionare la ricerca a {L}",
			},
			descs: []string{
				"Un gruppo guidato da {P} a {L} ha presentato {D} un nuovo approccio in materia di {T} che migliora i risultati del {N} per cento.",
				"Lo studio, sostenuto da {O}, suggerisce che i progressi in materia di {T} potrebbero arrivare prima del previsto.",
			},
			bodies: []string{
				"{P} ha spiegato che i risultati dovranno essere confermati da studi più ampi.",
				"{O} finanzierà una seconda fase della ricerca a {L}.",
			},
		},
		kindSports: {
			titles: []string{
				"{T} di {L}, vince {P}",
				"{P} batte {Q} e trionfa a {L}",
				"Vittoria [spettacolare|storica] di {P} a {L}",
			},
			descs: []string{
				"{P} ha vinto {D} a {L} ({T}), davanti a {Q} e a un pubblico numeroso.",
				"{Q} è stato a lungo in testa a {L}, ma {P} ha fatto la differenza nel finale.",
			},
			bodies: []string{
				"È la vittoria più importante per {P}, che ha ringraziato il pubblico di {L}.",
				"Secondo gli organizzatori, oltre {K} spettatori hanno seguito la gara a {L}.",
			},
		},
		kindEarnings: {
			titles: []string{
				"L'utile di {O} cresce del {N} per cento",
				"{O} supera le attese con ricavi per {M} milioni di dollari",
				"Le vendite del {X} spingono i conti di {O}",
			},
			descs: []string{
				"{O} ha comunicato {D} un aumento del {N} per cento dell'utile trimestrale, grazie alle vendite del {X} e alla domanda in materia di {T}.",
				"I ricavi di {O} hanno raggiunto {M} milioni di dollari, ha detto l'amministratore delegato {P}.",
			},
			bodies: []string{
				"Il titolo {O} è salito nelle prime ore di contrattazione a {L}.",
				"{P} ha assicurato che {O} continuerà a investire nonostante l'aumento dei costi.",
			},
		},
		kindCulture: {
			titles: []string{
				"{T} di {P} conquista il pubblico di {L}",
				"Prima a {L}: {P} presenta il nuovo lavoro",
				"{P} e {Q} insieme per un nuovo progetto",
			},
			descs: []string{
				"{P} ha presentato {D} a {L} il nuovo lavoro ({T}), con {Q} tra gli ospiti di una sala gremita.",
				"La critica di {L} ha elogiato il nuovo lavoro di {P}, definito [coraggioso|commovente|ambizioso].",
			},
			bodies: []string{
				"{P} ha raccontato a {L} di aver lavorato al progetto per {N} mesi.",
				"{Q}, che ha partecipato al progetto, parla di un'accoglienza straordinaria.",
			},
		},
		kindHealth: {
			titles: []string{
				"Forte aumento dei casi di {T} a {L}",
				"{T}, le autorità sanitarie di {L} invitano a vaccinarsi",
				"{K} casi di {T} registrati a {L}",
			},
			descs: []string{
				"Le autorità sanitarie di {L} hanno comunicato {D} che i casi di {T} sono aumentati del {N} per cento, con {K} contagi registrati.",
				"{P}, responsabile della sanità pubblica a {L}, invita chi ha sintomi di {T} a restare a casa.",
			},
			bodies: []string{
				"Gli ospedali di {L} dicono di reggere, ma temono un aumento della pressione.",
				"{P} collega l'aumento di {T} al calo delle vaccinazioni.",
			},
		},
	},
}
