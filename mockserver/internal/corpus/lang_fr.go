package corpus

var packFR = langPack{
	code:   "fr",
	weight: 0.09,
	sites:  40,
	sitePrefixes: []string{
		"journal", "gazette", "courrier", "echo", "depeche", "quotidien", "info", "nouvelles", "matin", "soir",
		"tribune", "republicain",
	},
	siteSuffixes: []string{
		"dunord", "dusud", "delouest", "alpin", "atlantique", "provence", "lyonnais", "breton", "parisien",
		"normand", "express", "libre", "regional", "actu",
	},
	tlds:       []string{".fr", ".fr", ".be", ".ch", ".ca", ".com", ".info"},
	firstNames: []string{"Antoine", "Camille", "Julien", "Élodie", "Mathieu", "Claire", "Nicolas", "Manon", "Olivier", "Chloé", "Laurent", "Inès", "Arnaud", "Margaux", "Théo", "Pauline", "Bastien", "Léa", "Rémi", "Sophie"},
	lastNames:  []string{"Lefèvre", "Moreau", "Girard", "Rousseau", "Fontaine", "Chevalier", "Marchand", "Dupuis", "Lemaire", "Garnier", "Perrin", "Renaud", "Caron", "Barbier", "Mercier", "Gauthier", "Roussel", "Leclerc", "Vasseur", "Brunet", "Faure", "Picard"},
	persons:    64,
	weekdays:   [7]string{"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"},
	generic: []string{
		"D'autres précisions sont attendues dans les prochains jours.",
		"Les personnes sollicitées n'ont pas répondu dans l'immédiat.",
		"Cet article sera mis à jour au fil des informations.",
	},
	kinds: [numKinds]kindText{
		kindAcquisition: {
			titles: []string{
				"{O} va racheter {R} pour {M} millions de dollars",
				"{R} accepte l'offre de {O} à {M} millions de dollars",
				"{p} frappe fort : {O} s'offre {R}",
			},
			descs: []string{
				"{O} a annoncé {D} le rachat de {R} pour environ {M} millions de dollars, une opération que son patron, {P}, juge historique.",
				"Le rachat de {R} renforce la position de {O} à {L} et dans {T}, selon des sources proches du dossier.",
			},
			bodies: []string{
				"L'action {R} s'est envolée après l'annonce, tandis que {O} prévoit de finaliser l'opération d'ici quelques mois.",
				"Les autorités de la concurrence à {L} devront examiner l'accord entre {O} et {R}.",
			},
		},
		kindLaunch: {
			titles: []string{
				"{O} dévoile le {X} à {L}",
				"Avec le {X}, {O} mise sur {T}",
				"On a vu le nouveau {X} de {O}",
			},
			descs: []string{
				"{O} a présenté {D} le {X}, que {P} décrit comme le produit le plus ambitieux du groupe dans {T}.",
				"Le {X} sera d'abord commercialisé à {L}, a précisé {O}, avant un lancement plus large en fin d'année.",
			},
			bodies: []string{
				"{P} a fait la démonstration du {X} sur scène à {L}, en insistant sur sa rapidité et son autonomie.",
				"Selon les analystes, le {X} place {O} en concurrence directe avec ses grands rivaux.",
			},
		},
		kindElection: {
			titles: []string{
				"{P} remporte l'élection à {L} avec {N} % des voix",
				"{P} bat {Q} à {L}",
				"Les électeurs de {L} offrent la victoire à {p} face à {q}",
			},
			descs: []string{
				"{P} a été déclaré vainqueur à {L} {D} avec {N} % des voix, devant {Q}.",
				"{P}, qui a fait campagne sur {T}, a remercié ses partisans à {L} tandis que {Q} reconnaissait sa défaite.",
			},
			bodies: []string{
				"La participation à {L} a été plus forte que lors du précédent scrutin, selon les autorités.",
				"{Q} estime que le résultat montre une volonté de changement concernant {T}.",
			},
		},
		kindResignation: {
			titles: []string{
				"{P} quitte la direction de {O}",
				"{O} nomme {Q} pour remplacer {P}",
				"Départ surprise de {P} à la tête de {O}",
			},
			descs: []string{
				"{P} a annoncé {D} son départ de {O} ; {Q} assurera l'intérim.",
				"Le départ de {P} intervient alors que {O} fait face à des critiques croissantes sur {T}, selon des salariés à {L}.",
			},
			bodies: []string{
				"{O} a indiqué que {Q} dirigera l'entreprise jusqu'à la nomination d'un successeur.",
				"Les investisseurs à {L} ont réagi avec calme et l'action {O} a peu varié.",
			},
		},
		kindProbe: {
			titles: []string{
				"Les autorités de {L} ouvrent une enquête sur {O}",
				"{O} visé par une enquête à {L} concernant {T}",
				"{O} risque une amende de {M} millions de dollars",
			},
			descs: []string{
				"Le régulateur de {L} a ouvert {D} une enquête formelle sur {O} concernant {T}.",
				"{P}, qui dirige le régulateur, a averti que {O} risquait une amende allant jusqu'à {M} millions de dollars.",
			},
			bodies: []string{
				"{O} affirme coopérer pleinement avec l'enquête et dément toute faute.",
				"Les associations de consommateurs de {L} dénonçaient depuis longtemps les pratiques de {O}.",
			},
		},
		kindStrike: {
			titles: []string{
				"Grève chez {O} : les salariés de {L} réclament des hausses de salaire",
				"Des milliers de salariés de {O} en grève à {L}",
				"Les syndicats de {O} exigent une hausse de {N} %",
			},
			descs: []string{
				"Environ {K} salariés de {O} à {L} se sont mis en grève {D} après l'échec des négociations sur une hausse de {N} %.",
				"Le syndicaliste {P} accuse la direction de {O} d'ignorer les inquiétudes du personnel face à {T}.",
			},
			bodies: []string{
				"{O} regrette la grève et appelle les syndicats à reprendre le dialogue.",
				"Le mouvement chez {O} devrait perturber les services à {L} pendant plusieurs jours.",
			},
		},
		kindDisaster: {
			titles: []string{
				"{L} frappée par {T} : des milliers de personnes évacuées",
				"État d'urgence à {L} face à {T}",
				"{K} personnes évacuées à {L} après {T}",
			},
			descs: []string{
				"Les secours de {L} ont indiqué {D} qu'environ {K} personnes avaient été mises à l'abri face à {T}.",
				"Les autorités, menées par {P}, préviennent que la situation à {L} pourrait durer encore {N} jours.",
			},
			bodies: []string{
				"Écoles et routes autour de {L} sont restées fermées pendant que les équipes travaillaient toute la nuit.",
				"{P} a demandé aux habitants de {L} de suivre les consignes officielles.",
			},
		},
		kindResearch: {
			titles: []string{
				"Des chercheurs de {L} annoncent une avancée sur {T}",
				"L'équipe de {P} trouve une nouvelle piste pour {T}",
				"Une étude dirigée par {P} pourrait bouleverser {T}",
			},
			descs: []string{
				"Une équipe dirigée par {P} à {L} a présenté {D} une nouvelle approche sur {T}, qui améliore les résultats de {N} %.",
				"L'étude, menée avec le soutien de {O}, suggère que les progrès sur {T} pourraient arriver plus tôt que prévu.",
			},
			bodies: []string{
				"{P} a précisé que les résultats devront être confirmés par des essais plus larges.",
				"{O} financera une deuxième phase de la recherche à {L}.",
			},
		},
		kindSports: {
			titles: []string{
				"{P} remporte {T} de {L}",
				"{P} devance {Q} et s'impose à {L}",
				"Victoire [spectaculaire|historique] de {P} à {L}",
			},
			descs: []string{
				"{P} a remporté {T} de {L} {D}, devant {Q}, sous les yeux d'un public nombreux.",
				"{Q} a longtemps mené à {L}, mais {P} a fait la différence dans le final.",
			},
			bodies: []string{
				"C'est la plus belle victoire de {P}, qui a salué le public de {L}.",
				"Selon les organisateurs, plus de {K} spectateurs ont assisté à l'épreuve à {L}.",
			},
		},
		kindEarnings: {
			titles: []string{
				"Le bénéfice de {O} bondit de {N} %",
				"{O} dépasse les attentes avec {M} millions de dollars de chiffre d'affaires",
				"Les ventes du {X} dopent les résultats de {O}",
			},
			descs: []string{
				"{O} a annoncé {D} une hausse de {N} % de son bénéfice trimestriel, portée par les ventes du {X} et la demande pour {T}.",
				"Le chiffre d'affaires de {O} a atteint {M} millions de dollars, selon son directeur général, {P}.",
			},
			bodies: []string{
				"L'action {O} progressait en début de séance à {L} après la publication des résultats.",
				"{P} assure que {O} continuera d'investir dans {T} malgré la hausse des coûts.",
			},
		},
		kindCulture: {
			titles: []string{
				"Triomphe à {L} pour {T} de {P}",
				"{P} et {Q} réunis pour {T}",
				"Première à {L} : {P} présente {T}",
			},
			descs: []string{
				"{P} a présenté {D} à {L} {T}, en présence de {Q}, devant une salle comble.",
				"La critique à {L} salue {T} de {P}, une œuvre jugée [audacieuse|émouvante|ambitieuse].",
			},
			bodies: []string{
				"{P} a confié à {L} avoir travaillé {N} mois sur ce projet.",
				"{Q}, qui a participé au projet, parle d'un accueil extraordinaire.",
			},
		},
		kindHealth: {
			titles: []string{
				"Forte hausse des cas de {T} à {L}",
				"{T} : les autorités sanitaires de {L} appellent à la vaccination",
				"{K} cas de {T} recensés à {L}",
			},
			descs: []string{
				"Les autorités sanitaires de {L} ont indiqué {D} que les cas de {T} avaient augmenté de {N} %, avec {K} infections recensées.",
				"{P}, responsable de la santé publique à {L}, demande aux personnes présentant des symptômes de {T} de rester chez elles.",
			},
			bodies: []string{
				"Les hôpitaux de {L} affirment faire face, mais redoutent une hausse de la pression.",
				"{P} relie la hausse de {T} à la baisse de la couverture vaccinale.",
			},
		},
	},
}
