package corpus

var packSV = langPack{
	code:   "sv",
	weight: 0.05,
	sites:  18,
	sitePrefixes: []string{
		"norra", "sodra", "vastra", "ostra", "kust", "dal", "skog", "fjall", "sjo", "stads", "lans", "bergs",
	},
	siteSuffixes: []string{"tidning", "posten", "bladet", "kuriren", "nyheter", "allehanda", "tidningen", "dagbladet"},
	tlds:         []string{".se", ".se", ".com", ".nu"},
	firstNames:   []string{"Erik", "Astrid", "Johan", "Elin", "Oskar", "Maja", "Gustav", "Ebba", "Viktor", "Linnea", "Anders", "Sigrid", "Henrik", "Klara", "Filip", "Matilda", "Axel", "Ida", "Nils", "Frida"},
	lastNames:    []string{"Lindqvist", "Johansson", "Andersson", "Karlsson", "Nilsson", "Eriksson", "Larsson", "Olsson", "Persson", "Svensson", "Gustafsson", "Pettersson", "Jonsson", "Lindberg", "Bergström", "Lundgren", "Holm", "Sandberg", "Forsberg", "Engström", "Nyberg", "Wallin"},
	persons:      44,
	weekdays:     [7]string{"söndag", "måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag"},
	generic: []string{
		"Fler detaljer väntas under de kommande dagarna.",
		"De berörda har inte svarat på frågor.",
		"Artikeln uppdateras när mer information finns.",
	},
	kinds: [numKinds]kindText{
		kindAcquisition: {
			titles: []string{
				"{O} köper {R} för {M} miljoner dollar",
				"{R} accepterar bud från {O}",
				"{p} slår till: {O} köper {R}",
			},
			descs: []string{
				"{O} meddelade på {D} att bolaget köper {R} för omkring {M} miljoner dollar, en affär som vd {P} kallar historisk.",
				"Köpet av {R} stärker {O} i {L} och inom {T}, enligt källor nära förhandlingarna.",
			},
			bodies: []string{
				"Aktien i {R} steg kraftigt efter beskedet, och {O} räknar med att slutföra affären inom några månader.",
				"Konkurrensmyndigheten i {L} måste granska affären mellan {O} och {R}.",
			},
		},
		kindLaunch: {
			titles: []string{
				"{O} visar upp {X} i {L}",
				"Med {X} satsar {O} på {T}",
				"Första intryck: nya {X} från {O}",
			},
			descs: []string{
				"{O} presenterade på {D} {X}, som {P} beskriver som bolagets mest ambitiösa produkt inom {T}.",
				"{X} börjar säljas i {L}, enligt {O}, och lanseras i fler länder senare i år.",
			},
			bodies: []string{
				"{P} visade {X} på scenen i {L} och lyfte fram högre hastighet och längre batteritid.",
				"Enligt analytiker tar {O} med {X} upp kampen med större konkurrenter.",
			},
		},
		kindElection: {
			titles: []string{
				"{P} vinner valet i {L} med {N} procent",
				"{P} besegrar {Q} i {L}",
				"Väljarna i {L} ger {p} segern över {q}",
			},
			descs: []string{
				"{P} utsågs på {D} till vinnare i {L} med {N} procent av rösterna, före {Q}.",
				"{P}, som drev valkampanj om {T}, tackade anhängarna i {L} medan {Q} erkände sig besegrad.",
			},
			bodies: []string{
				"Valdeltagandet i {L} var högre än i förra valet, enligt myndigheterna.",
				"{Q} sa att resultatet visar att väljarna vill se förändring inom {T}.",
			},
		},
		kindResignation: {
			titles: []string{
				"{P} avgår som chef för {O}",
				"{O} utser {Q} att ersätta {P}",
				"Oväntad avgång för {P} på {O}",
			},
			descs: []string{
				"{P} meddelade på {D} att hen lämnar {O}, och {Q} tar över som tillförordnad chef.",
				"Avgången kommer när {O} möter växande kritik för sina planer inom {T}, enligt anställda i {L}.",
			},
			bodies: []string{
				"{O} uppger att {Q} leder bolaget tills en permanent efterträdare har utsetts.",
				"Investerare i {L} reagerade lugnt och aktien i {O} rörde sig knappt.",
			},
		},
		kindProbe: {
			titles: []string{
				"Myndigheter i {L} granskar {O}",
				"{O} utreds i {L} för hanteringen av {T}",
				"{O} riskerar böter på {M} miljoner dollar",
			},
			descs: []string{
				"Tillsynsmyndigheten i {L} inledde på {D} en formell utredning av {O} med koppling till {T}.",
				"{P}, som leder myndigheten, varnar för att {O} kan få böter på upp till {M} miljoner dollar.",
			},
			bodies: []string{
				"{O} uppger att bolaget samarbetar fullt ut med utredningen och förnekar alla fel.",
				"Konsumentorganisationer i {L} har länge kritiserat hur {O} arbetar.",
			},
		},
		kindStrike: {
			titles: []string{
				"Strejk på {O}: anställda i {L} kräver högre lön",
				"Tusentals anställda på {O} strejkar i {L}",
				"Facket kräver {N} procent högre lön på {O}",
			},
			descs: []string{
				"Omkring {K} anställda på {O} i {L} gick ut i strejk på {D} sedan förhandlingar om en löneökning på {N} procent strandat.",
				"Fackets ordförande {P} anklagar ledningen för {O} för att ignorera personalens oro.",
			},
			bodies: []string{
				"{O} beklagar strejken och uppmanar facket att återvända till förhandlingsbordet.",
				"Strejken på {O} väntas störa verksamheten i {L} i flera dagar.",
			},
		},
		kindDisaster: {
			titles: []string{
				"{T} i {L}: tusentals evakuerade",
				"Krisläge i {L} på grund av {T}",
				"{K} personer evakuerade i {L}",
			},
			descs: []string{
				"Räddningstjänsten i {L} uppgav på {D} att omkring {K} personer har evakuerats på grund av {T}.",
				"Myndigheterna under ledning av {P} varnar för att läget i {L} kan bestå i ytterligare {N} dagar.",
			},
			bodies: []string{
				"Skolor och vägar runt {L} hölls stängda medan räddningspersonal arbetade hela natten.",
				"{P} uppmanade invånarna i {L} att följa myndigheternas råd.",
			},
		},
		kindResearch: {
			titles: []string{
				"Forskare i {L} rapporterar genombrott inom {T}",
				"Forskargrupp ledd av {P} hittar ny metod inom {T}",
				"Studie ledd av {P} kan förändra forskningen i {L}",
			},
			descs: []string{
				"En forskargrupp ledd av {P} i {L} presenterade på {D} en ny metod inom {T} som förbättrar resultaten med {N} procent.",
				"Studien, som stöds av {O}, tyder på att framsteg inom {T} kan komma snabbare än väntat.",
			},
			bodies: []string{
				"{P} betonar att resultaten måste bekräftas i större studier.",
				"{O} ska finansiera en andra fas av forskningen i {L}.",
			},
		},
		kindSports: {
			titles: []string{
				"{P} vinner {T} i {L}",
				"{P} besegrar {Q} och vinner i {L}",
				"[Spektakulär|Historisk] seger för {P} i {L}",
			},
			descs: []string{
				"{P} vann på {D} {T} i {L}, före {Q} och inför en stor publik.",
				"{Q} ledde länge i {L}, men {P} avgjorde i slutskedet.",
			},
			bodies: []string{
				"Det är den största segern hittills för {P}, som tackade publiken i {L}.",
				"Enligt arrangörerna såg mer än {K} åskådare tävlingen i {L}.",
			},
		},
		kindEarnings: {
			titles: []string{
				"Vinsten för {O} ökar med {N} procent",
				"{O} slår förväntningarna med intäkter på {M} miljoner dollar",
				"Försäljningen av {X} lyfter {O}",
			},
			descs: []string{
				"{O} rapporterade på {D} att kvartalsvinsten ökade med {N} procent, tack vare försäljningen av {X} och efterfrågan inom {T}.",
				"Intäkterna för {O} nådde {M} miljoner dollar, sa vd {P}.",
			},
			bodies: []string{
				"Aktien i {O} steg i den tidiga handeln i {L}.",
				"{P} säger att {O} fortsätter att investera inom {T} trots stigande kostnader.",
			},
		},
		kindCulture: {
			titles: []string{
				"Premiär i {L}: {P} visar nytt verk",
				"{T} av {P} hyllas i {L}",
				"{P} och {Q} samarbetar i nytt projekt",
			},
			descs: []string{
				"{P} presenterade på {D} nytt verk i {L} ({T}), med {Q} bland gästerna i en fullsatt salong.",
				"Kritiker i {L} hyllar det nya verket av {P} som [modigt|gripande|ambitiöst].",
			},
			bodies: []string{
				"{P} berättade i {L} att arbetet tog {N} månader.",
				"{Q}, som medverkade i projektet, talar om ett överväldigande gensvar.",
			},
		},
		kindHealth: {
			titles: []string{
				"Kraftig ökning av {T} i {L}",
				"{T}: smittskyddet i {L} uppmanar till vaccination",
				"{K} fall av {T} registrerade i {L}",
			},
			descs: []string{
				"Hälsomyndigheterna i {L} uppgav på {D} att fallen av {T} har ökat med {N} procent, med {K} registrerade smittfall.",
				"{P}, som ansvarar för smittskyddet i {L}, uppmanar personer med symtom på {T} att stanna hemma.",
			},
			bodies: []string{
				"Sjukhusen i {L} säger att de klarar läget men befarar ökad belastning.",
				"{P} kopplar ökningen av {T} till sjunkande vaccinationstäckning.",
			},
		},
	},
}
