package corpus

var packES = langPack{
	code:   "es",
	weight: 0.10,
	sites:  48,
	sitePrefixes: []string{
		"diario", "cronica", "gaceta", "correo", "noticias", "heraldo", "mensajero", "periodico", "voz",
		"tribuna", "informador", "observador",
	},
	siteSuffixes: []string{
		"delsur", "delnorte", "capital", "regional", "hoy", "digital", "andaluz", "levante", "atlantico",
		"pacifico", "central", "libre", "popular", "nacional", "austral", "costero",
	},
	tlds:       []string{".es", ".es", ".com.mx", ".com.ar", ".com", ".cl", ".com.co", ".pe"},
	firstNames: []string{"Alejandro", "Lucía", "Javier", "Carmen", "Mateo", "Sofía", "Diego", "Valentina", "Pablo", "Elena", "Andrés", "Marta", "Sergio", "Paula", "Raúl", "Irene", "Tomás", "Nuria", "Gonzalo", "Claudia"},
	lastNames:  []string{"Herrera", "Navarro", "Castillo", "Ortega", "Delgado", "Romero", "Vidal", "Medina", "Iglesias", "Fuentes", "Cabrera", "Rojas", "Campos", "Vega", "Peña", "Soto", "Aguilar", "Molina", "Salazar", "Montero", "Paredes", "Ibarra", "Zamora", "Quintero"},
	persons:    70,
	weekdays:   [7]string{"domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"},
	generic: []string{
		"Se esperan más detalles en los próximos días.",
		"Las fuentes consultadas no respondieron de inmediato.",
		"Esta información se actualizará a medida que haya más datos.",
	},
	kinds: [numKinds]kindText{
		kindAcquisition: {
			titles: []string{
				"{O} [comprará|adquirirá] {R} por {M} millones de dólares",
				"{R} acepta la oferta de {O} de {M} millones de dólares",
				"{p} [apuesta fuerte|da el golpe] con la compra de {R} por {O}",
			},
			descs: []string{
				"{O} anunció el {D} que [comprará|adquirirá] {R} por unos {M} millones de dólares, una operación que su consejero delegado, {P}, calificó de histórica.",
				"La compra de {R} refuerza la presencia de {O} en {L} y en el negocio de {T}, según fuentes cercanas a la negociación.",
			},
			bodies: []string{
				"Las acciones de {R} se dispararon tras el anuncio, mientras {O} prevé cerrar la operación en los próximos meses.",
				"Los reguladores de {L} deberán revisar el acuerdo entre {O} y {R} antes de su aprobación.",
			},
		},
		kindLaunch: {
			titles: []string{
				"{O} presenta el {X} en {L}",
				"{O} lanza el {X} y apuesta por {T}",
				"Así es el nuevo {X} de {O}",
			},
			descs: []string{
				"{O} [presentó|mostró] el {D} el {X}, que {P} describió como el producto más ambicioso de la compañía en {T}.",
				"El {X} saldrá a la venta primero en {L}, según {O}, y llegará a otros mercados a finales de año.",
			},
			bodies: []string{
				"{P} hizo una demostración del {X} en {L} y destacó su mayor rapidez y autonomía.",
				"Los analistas creen que el {X} coloca a {O} en competencia directa con sus grandes rivales en {T}.",
			},
		},
		kindElection: {
			titles: []string{
				"{P} gana las elecciones en {L} con el {N} % de los votos",
				"{P} se impone a {Q} en {L}",
				"Los votantes de {L} dan la victoria a {p} frente a {q}",
			},
			descs: []string{
				"{P} fue proclamado ganador en {L} el {D} tras obtener el {N} % de los votos, por delante de {Q}.",
				"{P}, que hizo campaña sobre {T}, agradeció el apoyo de sus votantes en {L} mientras {Q} reconocía la derrota.",
			},
			bodies: []string{
				"La participación en {L} fue superior a la de los anteriores comicios, según las autoridades.",
				"{Q} afirmó que el resultado demuestra que los votantes quieren cambios en {T}.",
			},
		},
		kindResignation: {
			titles: []string{
				"{P} dimite como presidente de {O}",
				"{O} nombra a {Q} para sustituir a {P}",
				"Salida inesperada de {P} al frente de {O}",
			},
			descs: []string{
				"{P} anunció el {D} que deja {O}, y {Q} asumirá el cargo de forma interina.",
				"La salida de {P} se produce en un momento de creciente presión sobre {O} por sus planes en {T}, según empleados en {L}.",
			},
			bodies: []string{
				"{O} indicó que {Q} dirigirá la empresa hasta que se encuentre un sucesor permanente.",
				"Los inversores en {L} reaccionaron con calma y las acciones de {O} apenas se movieron.",
			},
		},
		kindProbe: {
			titles: []string{
				"Las autoridades de {L} investigan a {O} por {T}",
				"{O}, bajo investigación en {L} por {T}",
				"{O} podría enfrentarse a una multa de {M} millones de dólares",
			},
			descs: []string{
				"Los reguladores de {L} abrieron el {D} una investigación formal contra {O} por su gestión de {T}.",
				"{P}, responsable del organismo regulador, advirtió de que {O} podría recibir una multa de hasta {M} millones de dólares.",
			},
			bodies: []string{
				"{O} aseguró que colabora plenamente con la investigación y negó cualquier irregularidad.",
				"Las asociaciones de consumidores de {L} llevaban tiempo denunciando las prácticas de {O} en {T}.",
			},
		},
		kindStrike: {
			titles: []string{
				"Huelga en {O}: los trabajadores de {L} exigen subidas salariales",
				"Miles de empleados de {O} van a la huelga en {L}",
				"Los sindicatos de {O} piden un aumento del {N} %",
			},
			descs: []string{
				"Unos {K} trabajadores de {O} en {L} iniciaron el {D} una huelga tras fracasar las negociaciones sobre una subida del {N} %.",
				"El líder sindical {P} acusó a la dirección de {O} de ignorar las preocupaciones de la plantilla sobre {T}.",
			},
			bodies: []string{
				"{O} lamentó la huelga y pidió a los sindicatos que vuelvan a la mesa de negociación.",
				"Se espera que el paro en {O} afecte a los servicios en {L} durante varios días.",
			},
		},
		kindDisaster: {
			titles: []string{
				"Alerta en {L} por {T}: miles de personas evacuadas",
				"{L} declara la emergencia por {T}",
				"{K} evacuados en {L} a causa de {T}",
			},
			descs: []string{
				"Los servicios de emergencia de {L} informaron el {D} de que unas {K} personas fueron evacuadas por {T} en la región.",
				"Las autoridades, encabezadas por {P}, advirtieron de que la situación en {L} podría prolongarse {N} días más.",
			},
			bodies: []string{
				"Colegios y carreteras de {L} permanecieron cerrados mientras los equipos trabajaban durante toda la noche.",
				"{P} pidió a los vecinos de {L} que sigan las recomendaciones oficiales y eviten los desplazamientos.",
			},
		},
		kindResearch: {
			titles: []string{
				"Investigadores de {L} logran un avance en {T}",
				"El equipo de {P} descubre un nuevo enfoque sobre {T}",
				"Un estudio dirigido por {P} podría transformar el campo de {T}",
			},
			descs: []string{
				"Un equipo dirigido por {P} en {L} anunció el {D} un nuevo enfoque en {T} que mejora los resultados un {N} %.",
				"El estudio, realizado con el apoyo de {O}, sugiere que los avances en {T} podrían llegar antes de lo previsto.",
			},
			bodies: []string{
				"{P} explicó que los resultados deberán confirmarse en ensayos más amplios.",
				"{O} anunció que financiará una segunda fase de la investigación en {L}.",
			},
		},
		kindSports: {
			titles: []string{
				"{P} gana {T} de {L}",
				"{P} supera a {Q} y se impone en {L}",
				"Victoria [espectacular|histórica] de {P} en {L}",
			},
			descs: []string{
				"{P} ganó el {D} la prueba de {T} de {L}, por delante de {Q}, ante un público numeroso.",
				"{Q} lideró buena parte de la prueba en {L}, pero {P} se escapó en el tramo final.",
			},
			bodies: []string{
				"Fue la victoria más importante de {P}, que agradeció el apoyo del público de {L}.",
				"Los organizadores cifraron en más de {K} los aficionados que asistieron a la prueba de {T} en {L}.",
			},
		},
		kindEarnings: {
			titles: []string{
				"El beneficio de {O} sube un {N} % gracias a {T}",
				"{O} supera las previsiones con ingresos de {M} millones de dólares",
				"Las ventas del {X} impulsan los resultados de {O}",
			},
			descs: []string{
				"{O} informó el {D} de que su beneficio trimestral creció un {N} %, impulsado por las ventas del {X} y la demanda de {T}.",
				"Los ingresos de {O} alcanzaron los {M} millones de dólares, según su consejero delegado, {P}.",
			},
			bodies: []string{
				"Las acciones de {O} subieron en los primeros compases de la sesión en {L}.",
				"{P} aseguró que {O} seguirá invirtiendo en {T} pese al aumento de los costes.",
			},
		},
		kindCulture: {
			titles: []string{
				"{P} estrena en {L} su nuevo proyecto de {T}",
				"{P} y {Q} se unen en un nuevo proyecto de {T}",
				"Éxito en {L} para el nuevo trabajo de {P}",
			},
			descs: []string{
				"{P} presentó el {D} en {L} su nuevo proyecto de {T}, con {Q} entre los invitados.",
				"La crítica de {L} elogió el nuevo proyecto de {T} de {P}, al que calificó de [valiente|emotivo|ambicioso].",
			},
			bodies: []string{
				"{P} explicó en {L} que el trabajo le llevó {N} meses.",
				"{Q}, que participó en el proyecto, calificó la acogida de extraordinaria.",
			},
		},
		kindHealth: {
			titles: []string{
				"{L} registra un fuerte aumento de casos de {T}",
				"Las autoridades sanitarias de {L} piden vacunarse ante el aumento de {T}",
				"{K} casos de {T} en {L}, según las autoridades",
			},
			descs: []string{
				"Las autoridades sanitarias de {L} informaron el {D} de que los casos de {T} aumentaron un {N} %, con {K} contagios registrados.",
				"{P}, responsable de salud pública en {L}, pidió a las personas con síntomas de {T} que se queden en casa.",
			},
			bodies: []string{
				"Los hospitales de {L} aseguran que la situación está bajo control, aunque advierten de que la presión podría aumentar.",
				"{P} vinculó el aumento de {T} a la caída de las tasas de vacunación.",
			},
		},
	},
}
