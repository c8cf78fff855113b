package corpus

var packDE = langPack{
	code:   "de",
	weight: 0.09,
	sites:  40,
	sitePrefixes: []string{
		"nord", "sued", "west", "ost", "rhein", "alpen", "stadt", "land", "main", "elbe", "donau", "taunus",
		"harz", "isar",
	},
	siteSuffixes: []string{
		"zeitung", "kurier", "anzeiger", "rundschau", "bote", "blatt", "tageblatt", "nachrichten", "post",
		"echo", "presse", "merkur",
	},
	tlds:       []string{".de", ".de", ".de", ".at", ".ch", ".com", ".info"},
	firstNames: []string{"Lukas", "Anna", "Jonas", "Lea", "Florian", "Katharina", "Maximilian", "Johanna", "Tobias", "Miriam", "Henrik", "Sabine", "Matthias", "Franziska", "Stefan", "Carla", "Niklas", "Theresa", "Moritz", "Ulrike"},
	lastNames:  []string{"Becker", "Hoffmann", "Schäfer", "Krüger", "Zimmermann", "Braun", "Hartmann", "Lange", "Werner", "Schmitt", "Vogel", "Keller", "Lehmann", "Brandt", "Kühn", "Seidel", "Engel", "Winter", "Albrecht", "Fuchs", "Roth", "Haas"},
	persons:    64,
	weekdays:   [7]string{"Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"},
	generic: []string{
		"Weitere Einzelheiten werden in den kommenden Tagen erwartet.",
		"Eine Stellungnahme war zunächst nicht zu erhalten.",
		"Dieser Artikel wird aktualisiert, sobald neue Informationen vorliegen.",
	},
	kinds: [numKinds]kindText{
		kindAcquisition: {
			titles: []string{
				"{O} übernimmt {R} für {M} Millionen Dollar",
				"{R} nimmt Übernahmeangebot von {O} an",
				"{p} schlägt zu: {O} kauft {R}",
			},
			descs: []string{
				"{O} hat am {D} angekündigt, {R} für rund {M} Millionen Dollar zu übernehmen; Konzernchef {P} sprach von einem historischen Schritt.",
				"Mit dem Kauf von {R} stärkt {O} seine Position in {L} und im Bereich {T}, hieß es aus Verhandlungskreisen.",
			},
			bodies: []string{
				"Die Aktie von {R} legte nach der Ankündigung kräftig zu, {O} rechnet mit einem Abschluss in einigen Monaten.",
				"Die Wettbewerbsbehörden in {L} müssen die Übernahme von {R} durch {O} noch prüfen.",
			},
		},
		kindLaunch: {
			titles: []string{
				"{O} stellt {X} in {L} vor",
				"Mit dem {X} setzt {O} auf {T}",
				"Erster Eindruck: das neue {X} von {O}",
			},
			descs: []string{
				"{O} hat am {D} das {X} vorgestellt, das {P} als das bisher ehrgeizigste Produkt des Konzerns im Bereich {T} bezeichnete.",
				"Das {X} kommt zuerst in {L} auf den Markt, teilte {O} mit; weitere Länder sollen später im Jahr folgen.",
			},
			bodies: []string{
				"{P} führte das {X} in {L} auf der Bühne vor und betonte die höhere Geschwindigkeit und längere Akkulaufzeit.",
				"Analysten zufolge tritt {O} mit dem {X} direkt gegen größere Konkurrenten an.",
			},
		},
		kindElection: {
			titles: []string{
				"{P} gewinnt Wahl in {L} mit {N} Prozent",
				"{P} setzt sich in {L} gegen {Q} durch",
				"Wähler in {L} bescheren {p} den Sieg über {q}",
			},
			descs: []string{
				"{P} wurde am {D} in {L} mit {N} Prozent der Stimmen zum Sieger erklärt, vor {Q}.",
				"{P}, im Wahlkampf mit dem Thema {T} angetreten, dankte in {L} den Unterstützern, während {Q} die Niederlage einräumte.",
			},
			bodies: []string{
				"Die Wahlbeteiligung in {L} lag nach Angaben der Behörden höher als bei der letzten Wahl.",
				"{Q} sagte, das Ergebnis zeige, dass die Wähler beim Thema {T} einen Wandel wollten.",
			},
		},
		kindResignation: {
			titles: []string{
				"{P} tritt als Chef von {O} zurück",
				"{O} beruft {Q} als Nachfolge von {P}",
				"Überraschender Abgang von {P} bei {O}",
			},
			descs: []string{
				"{P} hat am {D} den Rückzug von der Spitze von {O} angekündigt; {Q} übernimmt kommissarisch.",
				"Der Abgang von {P} kommt zu einer Zeit, in der {O} wegen seiner Pläne im Bereich {T} zunehmend in der Kritik steht, berichten Mitarbeiter in {L}.",
			},
			bodies: []string{
				"{O} teilte mit, {Q} werde das Unternehmen führen, bis eine dauerhafte Nachfolge gefunden sei.",
				"Anleger in {L} reagierten gelassen, die Aktie von {O} bewegte sich kaum.",
			},
		},
		kindProbe: {
			titles: []string{
				"Behörden in {L} ermitteln gegen {O}",
				"{O} im Visier der Aufsicht in {L} wegen {T}",
				"{O} droht Strafe von {M} Millionen Dollar",
			},
			descs: []string{
				"Die Aufsichtsbehörde in {L} hat am {D} ein förmliches Verfahren gegen {O} im Zusammenhang mit {T} eingeleitet.",
				"{P}, Chef der Behörde, warnte, {O} drohe eine Strafe von bis zu {M} Millionen Dollar.",
			},
			bodies: []string{
				"{O} erklärte, man kooperiere vollständig mit den Ermittlungen, und wies jedes Fehlverhalten zurück.",
				"Verbraucherschützer in {L} hatten die Praktiken von {O} seit Langem kritisiert.",
			},
		},
		kindStrike: {
			titles: []string{
				"Streik bei {O}: Beschäftigte in {L} fordern mehr Lohn",
				"Tausende Beschäftigte von {O} streiken in {L}",
				"Gewerkschaft fordert {N} Prozent mehr Lohn bei {O}",
			},
			descs: []string{
				"Rund {K} Beschäftigte von {O} in {L} sind am {D} in den Streik getreten, nachdem Verhandlungen über eine Lohnerhöhung von {N} Prozent gescheitert waren.",
				"Gewerkschafter {P} warf der Führung von {O} vor, die Sorgen der Belegschaft zu ignorieren.",
			},
			bodies: []string{
				"{O} bedauerte den Streik und forderte die Gewerkschaft zur Rückkehr an den Verhandlungstisch auf.",
				"Der Ausstand bei {O} dürfte den Betrieb in {L} mehrere Tage lang stören.",
			},
		},
		kindDisaster: {
			titles: []string{
				"{T} in {L}: Tausende Menschen evakuiert",
				"{L} ruft wegen {T} den Notstand aus",
				"{K} Menschen in {L} in Sicherheit gebracht",
			},
			descs: []string{
				"Rettungskräfte in {L} haben am {D} rund {K} Menschen in Sicherheit gebracht; die Region kämpft mit {T}.",
				"Die Behörden um {P} warnen, die Lage in {L} könne noch {N} Tage andauern.",
			},
			bodies: []string{
				"Schulen und Straßen rund um {L} blieben geschlossen, während die Einsatzkräfte die ganze Nacht arbeiteten.",
				"{P} rief die Bewohner von {L} auf, den Anweisungen der Behörden zu folgen.",
			},
		},
		kindResearch: {
			titles: []string{
				"Forscher in {L} melden Durchbruch bei {T}",
				"Team um {P} findet neuen Ansatz im Bereich {T}",
				"Studie von {P} könnte Forschung zu {T} verändern",
			},
			descs: []string{
				"Ein Team um {P} in {L} hat am {D} einen neuen Ansatz im Bereich {T} vorgestellt, der die Ergebnisse um {N} Prozent verbessert.",
				"Die Studie, unterstützt von {O}, legt nahe, dass Fortschritte bei {T} schneller kommen könnten als erwartet.",
			},
			bodies: []string{
				"{P} betonte, die Ergebnisse müssten noch in größeren Studien bestätigt werden.",
				"{O} will eine zweite Phase der Forschung in {L} finanzieren.",
			},
		},
		kindSports: {
			titles: []string{
				"{P} gewinnt {T} in {L}",
				"{P} schlägt {Q} und siegt in {L}",
				"[Spektakulärer|Historischer] Sieg für {P} in {L}",
			},
			descs: []string{
				"{P} siegte am {D} in {L} ({T}) vor {Q} und vor großem Publikum.",
				"{Q} lag in {L} lange vorn, doch {P} setzte sich im Finale ab.",
			},
			bodies: []string{
				"Es war der bisher größte Erfolg für {P}, der sich beim Publikum in {L} bedankte.",
				"Nach Angaben der Veranstalter verfolgten mehr als {K} Zuschauer den Wettbewerb in {L}.",
			},
		},
		kindEarnings: {
			titles: []string{
				"Gewinn von {O} steigt um {N} Prozent",
				"{O} übertrifft Erwartungen mit {M} Millionen Dollar Umsatz",
				"Verkäufe des {X} treiben Ergebnis von {O}",
			},
			descs: []string{
				"{O} meldete am {D} ein Gewinnplus von {N} Prozent im Quartal, getragen von Verkäufen des {X} und der Nachfrage im Bereich {T}.",
				"Der Umsatz von {O} erreichte {M} Millionen Dollar, sagte Konzernchef {P}.",
			},
			bodies: []string{
				"Die Aktie von {O} legte im frühen Handel in {L} zu.",
				"{P} kündigte an, {O} werde trotz steigender Kosten weiter im Bereich {T} investieren.",
			},
		},
		kindCulture: {
			titles: []string{
				"Premiere in {L}: {P} stellt neues Werk vor",
				"{T} von {P} begeistert Publikum in {L}",
				"{P} und {Q} arbeiten an neuem Projekt",
			},
			descs: []string{
				"{P} hat am {D} in {L} ein neues Werk vorgestellt ({T}); unter den Gästen war auch {Q}.",
				"Kritiker in {L} lobten das neue Werk von {P} als [mutig|bewegend|ehrgeizig].",
			},
			bodies: []string{
				"{P} sagte in {L}, die Arbeit daran habe {N} Monate gedauert.",
				"{Q}, an dem Projekt beteiligt, sprach von einer überwältigenden Resonanz.",
			},
		},
		kindHealth: {
			titles: []string{
				"{L} meldet starken Anstieg von {T}-Fällen",
				"{T}: Gesundheitsbehörden in {L} rufen zur Impfung auf",
				"{K} Fälle von {T} in {L} registriert",
			},
			descs: []string{
				"Die Gesundheitsbehörden in {L} meldeten am {D} einen Anstieg der {T}-Fälle um {N} Prozent; bisher wurden {K} Infektionen registriert.",
				"{P}, zuständig für öffentliche Gesundheit in {L}, rief Menschen mit Symptomen von {T} auf, zu Hause zu bleiben.",
			},
			bodies: []string{
				"Die Kliniken in {L} sind nach eigenen Angaben gerüstet, warnen aber vor wachsender Belastung.",
				"{P} führte den Anstieg von {T} auf sinkende Impfquoten zurück.",
			},
		},
	},
}
