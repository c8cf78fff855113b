package corpus

var packNL = langPack{
	code:   "nl",
	weight: 0.05,
	sites:  20,
	sitePrefixes: []string{
		"noord", "zuid", "west", "oost", "rijn", "maas", "delta", "polder", "kust", "stad", "brabants", "fries",
	},
	siteSuffixes: []string{"krant", "courant", "dagblad", "nieuws", "bode", "post", "gazet", "koerier"},
	tlds:         []string{".nl", ".nl", ".be", ".com", ".info"},
	firstNames:   []string{"Daan", "Sanne", "Bram", "Fleur", "Joris", "Lotte", "Thijs", "Eva", "Ruben", "Marieke", "Sander", "Anouk", "Pieter", "Femke", "Wouter", "Lieke", "Jeroen", "Iris", "Koen", "Noor"},
	lastNames:    []string{"de Vries", "Jansen", "van Dijk", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "de Groot", "Bos", "Vos", "Peters", "Hendriks", "van Leeuwen", "Dekker", "Brouwer", "de Wit", "Dijkstra", "Smits", "Kuipers", "Vermeulen"},
	persons:      44,
	weekdays:     [7]string{"zondag", "maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag"},
	generic: []string{
		"Meer details worden de komende dagen verwacht.",
		"Betrokkenen reageerden niet direct op vragen.",
		"Dit artikel wordt bijgewerkt zodra er meer bekend is.",
	},
	kinds: [numKinds]kindText{
		kindAcquisition: {
			titles: []string{
				"{O} neemt {R} over voor {M} miljoen dollar",
				"{R} aanvaardt overnamebod van {O}",
				"{p} slaat toe: {O} koopt {R}",
			},
			descs: []string{
				"{O} maakte op {D} bekend {R} over te nemen voor ongeveer {M} miljoen dollar; topman {P} sprak van een historische stap.",
				"Met de overname van {R} versterkt {O} zijn positie in {L} en op het gebied van {T}, zeggen ingewijden.",
			},
			bodies: []string{
				"Het aandeel {R} schoot omhoog na de aankondiging; {O} verwacht de deal binnen enkele maanden af te ronden.",
				"Toezichthouders in {L} moeten de overname van {R} door {O} nog beoordelen.",
			},
		},
		kindLaunch: {
			titles: []string{
				"{O} presenteert {X} in {L}",
				"Met de {X} zet {O} in op {T}",
				"Eerste indruk: de nieuwe {X} van {O}",
			},
			descs: []string{
				"{O} presenteerde op {D} de {X}, volgens {P} het meest ambitieuze product van het bedrijf op het gebied van {T}.",
				"De {X} komt eerst in {L} in de winkel, aldus {O}; andere landen volgen later dit jaar.",
			},
			bodies: []string{
				"{P} demonstreerde de {X} op het podium in {L} en wees op de hogere snelheid en langere accuduur.",
				"Volgens analisten gaat {O} met de {X} de directe concurrentie aan met grotere rivalen.",
			},
		},
		kindElection: {
			titles: []string{
				"{P} wint verkiezingen in {L} met {N} procent",
				"{P} verslaat {Q} in {L}",
				"Kiezers in {L} geven {p} de overwinning op {q}",
			},
			descs: []string{
				"{P} werd op {D} in {L} tot winnaar uitgeroepen met {N} procent van de stemmen, voor {Q}.",
				"{P}, die campagne voerde over {T}, bedankte aanhangers in {L} terwijl {Q} de nederlaag erkende.",
			},
			bodies: []string{
				"De opkomst in {L} lag hoger dan bij de vorige verkiezingen, aldus de autoriteiten.",
				"{Q} zei dat de uitslag laat zien dat kiezers verandering willen op het gebied van {T}.",
			},
		},
		kindResignation: {
			titles: []string{
				"{P} stapt op als topman van {O}",
				"{O} benoemt {Q} als opvolger van {P}",
				"Verrassend vertrek van {P} bij {O}",
			},
			descs: []string{
				"{P} kondigde op {D} het vertrek bij {O} aan; {Q} neemt tijdelijk de leiding over.",
				"Het vertrek van {P} komt nu {O} onder toenemende druk staat vanwege plannen op het gebied van {T}, zeggen medewerkers in {L}.",
			},
			bodies: []string{
				"{O} laat weten dat {Q} het bedrijf leidt tot er een vaste opvolger is.",
				"Beleggers in {L} reageerden kalm en het aandeel {O} bewoog nauwelijks.",
			},
		},
		kindProbe: {
			titles: []string{
				"Toezichthouder in {L} onderzoekt {O}",
				"{O} onder vuur in {L} vanwege {T}",
				"{O} riskeert boete van {M} miljoen dollar",
			},
			descs: []string{
				"De toezichthouder in {L} is op {D} een formeel onderzoek gestart naar {O} in verband met {T}.",
				"{P}, die de toezichthouder leidt, waarschuwde dat {O} een boete tot {M} miljoen dollar riskeert.",
			},
			bodies: []string{
				"{O} zegt volledig mee te werken aan het onderzoek en ontkent elke overtreding.",
				"Consumentenorganisaties in {L} bekritiseerden de werkwijze van {O} al lange tijd.",
			},
		},
		kindStrike: {
			titles: []string{
				"Staking bij {O}: werknemers in {L} eisen meer loon",
				"Duizenden medewerkers van {O} leggen werk neer in {L}",
				"Vakbond eist {N} procent loonsverhoging bij {O}",
			},
			descs: []string{
				"Ongeveer {K} werknemers van {O} in {L} zijn op {D} in staking gegaan nadat overleg over een loonsverhoging van {N} procent was mislukt.",
				"Vakbondsleider {P} verwijt de directie van {O} de zorgen van het personeel te negeren.",
			},
			bodies: []string{
				"{O} betreurt de staking en roept de vakbond op terug te keren naar de onderhandelingstafel.",
				"De staking bij {O} zal de dienstverlening in {L} naar verwachting dagenlang verstoren.",
			},
		},
		kindDisaster: {
			titles: []string{
				"{T} in {L}: duizenden mensen geëvacueerd",
				"Noodtoestand in {L} vanwege {T}",
				"{K} mensen geëvacueerd in {L}",
			},
			descs: []string{
				"Hulpdiensten in {L} hebben op {D} ongeveer {K} mensen in veiligheid gebracht vanwege {T}.",
				"De autoriteiten onder leiding van {P} waarschuwen dat de situatie in {L} nog {N} dagen kan duren.",
			},
			bodies: []string{
				"Scholen en wegen rond {L} bleven dicht terwijl hulpverleners de hele nacht doorwerkten.",
				"{P} riep inwoners van {L} op de officiële adviezen op te volgen.",
			},
		},
		kindResearch: {
			titles: []string{
				"Onderzoekers in {L} melden doorbraak op het gebied van {T}",
				"Team van {P} vindt nieuwe aanpak voor {T}",
				"Studie onder leiding van {P} kan onderzoek in {L} veranderen",
			},
			descs: []string{
				"Een team onder leiding van {P} in {L} presenteerde op {D} een nieuwe aanpak op het gebied van {T} die de resultaten met {N} procent verbetert.",
				"De studie, gesteund door {O}, suggereert dat vooruitgang op het gebied van {T} sneller kan komen dan verwacht.",
			},
			bodies: []string{
				"{P} benadrukte dat de resultaten nog in grotere studies moeten worden bevestigd.",
				"{O} gaat een tweede fase van het onderzoek in {L} financieren.",
			},
		},
		kindSports: {
			titles: []string{
				"{P} wint {T} van {L}",
				"{P} verslaat {Q} en wint in {L}",
				"[Spectaculaire|Historische] zege voor {P} in {L}",
			},
			descs: []string{
				"{P} won op {D} de {T} van {L}, voor {Q} en voor veel publiek.",
				"{Q} lag in {L} lang aan kop, maar {P} maakte het verschil in de slotfase.",
			},
			bodies: []string{
				"Het is de grootste overwinning voor {P}, die het publiek in {L} bedankte.",
				"Volgens de organisatie keken meer dan {K} toeschouwers naar de wedstrijd in {L}.",
			},
		},
		kindEarnings: {
			titles: []string{
				"Winst van {O} stijgt met {N} procent",
				"{O} verslaat verwachtingen met omzet van {M} miljoen dollar",
				"Verkoop van {X} stuwt resultaten {O}",
			},
			descs: []string{
				"{O} meldde op {D} een winststijging van {N} procent in het kwartaal, dankzij de verkoop van de {X} en vraag op het gebied van {T}.",
				"De omzet van {O} bereikte {M} miljoen dollar, zei topman {P}.",
			},
			bodies: []string{
				"Het aandeel {O} steeg in de vroege handel in {L}.",
				"{P} zei dat {O} ondanks stijgende kosten blijft investeren op het gebied van {T}.",
			},
		},
		kindCulture: {
			titles: []string{
				"Première in {L}: {P} presenteert nieuw werk",
				"{T} van {P} verovert publiek in {L}",
				"{P} en {Q} samen in nieuw project",
			},
			descs: []string{
				"{P} presenteerde op {D} in {L} nieuw werk ({T}), met {Q} onder de gasten in een uitverkochte zaal.",
				"Critici in {L} prezen het nieuwe werk van {P} als [gedurfd|ontroerend|ambitieus].",
			},
			bodies: []string{
				"{P} vertelde in {L} dat het project {N} maanden werk kostte.",
				"{Q}, die aan het project meewerkte, sprak van een overweldigende reactie.",
			},
		},
		kindHealth: {
			titles: []string{
				"{L} meldt sterke stijging van {T}",
				"{T}: gezondheidsdiensten in {L} roepen op tot vaccinatie",
				"{K} gevallen van {T} geregistreerd in {L}",
			},
			descs: []string{
				"De gezondheidsdiensten in {L} meldden op {D} dat het aantal gevallen van {T} met {N} procent is gestegen, met {K} besmettingen tot nu toe.",
				"{P}, verantwoordelijk voor de volksgezondheid in {L}, vraagt mensen met klachten van {T} thuis te blijven.",
			},
			bodies: []string{
				"Ziekenhuizen in {L} zeggen het aan te kunnen, maar vrezen toenemende druk.",
				"{P} koppelt de stijging van {T} aan een dalende vaccinatiegraad.",
			},
		},
	},
}
