package corpus

var packPT = langPack{
	code:   "pt",
	weight: 0.06,
	sites:  26,
	sitePrefixes: []string{
		"jornal", "diario", "gazeta", "folha", "correio", "noticias", "tribuna", "voz", "observador", "cronica",
	},
	siteSuffixes: []string{
		"donorte", "dosul", "atlantico", "lusitano", "paulista", "carioca", "mineiro", "baiano", "capital",
		"litoral", "serrano", "central",
	},
	tlds:       []string{".pt", ".pt", ".com.br", ".com.br", ".com", ".br"},
	firstNames: []string{"João", "Ana", "Pedro", "Beatriz", "Tiago", "Mariana", "Rafael", "Inês", "Gustavo", "Camila", "Rodrigo", "Larissa", "Miguel", "Catarina", "Bruno", "Juliana", "Diogo", "Fernanda", "Henrique", "Letícia"},
	lastNames:  []string{"Silva", "Santos", "Oliveira", "Pereira", "Rodrigues", "Almeida", "Nascimento", "Carvalho", "Ferreira", "Gomes", "Martins", "Araújo", "Ribeiro", "Barbosa", "Cardoso", "Teixeira", "Moura", "Correia", "Pinto", "Lopes", "Azevedo", "Monteiro"},
	persons:    50,
	weekdays:   [7]string{"domingo", "segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado"},
	generic: []string{
		"Mais detalhes são esperados nos próximos dias.",
		"As pessoas procuradas não responderam de imediato.",
		"Esta reportagem será atualizada com novas informações.",
	},
	kinds: [numKinds]kindText{
		kindAcquisition: {
			titles: []string{
				"{O} vai comprar {R} por {M} milhões de dólares",
				"{R} aceita oferta de {M} milhões da {O}",
				"{p} aposta alto e {O} compra {R}",
			},
			descs: []string{
				"A {O} anunciou a compra da {R} por cerca de {M} milhões de dólares, uma operação que o presidente-executivo {P} chamou de histórica.",
				"A aquisição da {R} reforça a presença da {O} em {L} e na área de {T}, segundo fontes próximas da negociação.",
			},
			bodies: []string{
				"As ações da {R} dispararam após o anúncio, enquanto a {O} prevê concluir a operação em poucos meses.",
				"As autoridades de concorrência em {L} terão de analisar o acordo entre {O} e {R}.",
			},
		},
		kindLaunch: {
			titles: []string{
				"{O} apresenta o {X} em {L}",
				"Com o {X}, {O} aposta na área de {T}",
				"Primeiras impressões do novo {X} da {O}",
			},
			descs: []string{
				"A {O} apresentou o {X}, que {P} descreveu como o produto mais ambicioso da empresa na área de {T}.",
				"O {X} chega primeiro a {L}, segundo a {O}, com lançamento mais amplo previsto para o fim do ano.",
			},
			bodies: []string{
				"{P} demonstrou o {X} no palco em {L}, destacando a velocidade e a autonomia da bateria.",
				"Para analistas, o {X} coloca a {O} em concorrência direta com grandes rivais.",
			},
		},
		kindElection: {
			titles: []string{
				"{P} vence eleição em {L} com {N}% dos votos",
				"{P} derrota {Q} em {L}",
				"Eleitores de {L} dão vitória a {p} sobre {q}",
			},
			descs: []string{
				"{P} foi declarado vencedor em {L} após obter {N}% dos votos, à frente de {Q}.",
				"{P}, que fez campanha sobre {T}, agradeceu aos apoiadores em {L} enquanto {Q} reconhecia a derrota.",
			},
			bodies: []string{
				"A participação em {L} foi maior do que na última eleição, segundo as autoridades.",
				"{Q} disse que o resultado mostra que os eleitores querem mudanças na área de {T}.",
			},
		},
		kindResignation: {
			titles: []string{
				"{P} deixa o comando da {O}",
				"{O} nomeia {Q} para substituir {P}",
				"Saída surpresa de {P} da {O}",
			},
			descs: []string{
				"{P} anunciou a saída da {O}, e {Q} assumirá o cargo interinamente.",
				"A saída de {P} ocorre num momento de pressão crescente sobre a {O} por causa dos seus planos na área de {T}, segundo funcionários em {L}.",
			},
			bodies: []string{
				"A {O} informou que {Q} comandará a empresa até a escolha de um sucessor.",
				"Investidores em {L} reagiram com calma, e as ações da {O} pouco variaram.",
			},
		},
		kindProbe: {
			titles: []string{
				"Autoridades de {L} investigam a {O}",
				"{O} é investigada em {L} por questões de {T}",
				"{O} pode receber multa de {M} milhões de dólares",
			},
			descs: []string{
				"O órgão regulador de {L} abriu uma investigação formal sobre a {O} relacionada com {T}.",
				"{P}, que dirige o regulador, alertou que a {O} pode receber uma multa de até {M} milhões de dólares.",
			},
			bodies: []string{
				"A {O} afirmou que coopera plenamente com a investigação e negou irregularidades.",
				"Associações de consumidores de {L} criticavam há muito tempo as práticas da {O}.",
			},
		},
		kindStrike: {
			titles: []string{
				"Greve na {O}: trabalhadores de {L} exigem aumento",
				"Milhares de funcionários da {O} entram em greve em {L}",
				"Sindicatos da {O} pedem reajuste de {N}%",
			},
			descs: []string{
				"Cerca de {K} trabalhadores da {O} em {L} entraram em greve após o fracasso das negociações sobre um reajuste de {N}%.",
				"O sindicalista {P} acusou a direção da {O} de ignorar as preocupações dos funcionários.",
			},
			bodies: []string{
				"A {O} lamentou a greve e pediu aos sindicatos que voltem à mesa de negociação.",
				"A paralisação na {O} deve afetar os serviços em {L} por vários dias.",
			},
		},
		kindDisaster: {
			titles: []string{
				"{L} atingida por {T}: milhares de desalojados",
				"Estado de emergência em {L} por causa de {T}",
				"{K} pessoas retiradas de casa em {L}",
			},
			descs: []string{
				"Os serviços de emergência de {L} informaram que cerca de {K} pessoas foram retiradas de casa por causa de {T}.",
				"As autoridades lideradas por {P} alertam que a situação em {L} pode durar mais {N} dias.",
			},
			bodies: []string{
				"Escolas e estradas em torno de {L} ficaram fechadas enquanto as equipes trabalhavam durante a noite.",
				"{P} pediu aos moradores de {L} que sigam as orientações oficiais.",
			},
		},
		kindResearch: {
			titles: []string{
				"Pesquisadores de {L} anunciam avanço na área de {T}",
				"Equipe de {P} encontra nova abordagem para {T}",
				"Estudo liderado por {P} pode transformar a pesquisa em {L}",
			},
			descs: []string{
				"Uma equipe liderada por {P} em {L} apresentou uma nova abordagem na área de {T} que melhora os resultados em {N}%.",
				"O estudo, apoiado pela {O}, sugere que os avanços na área de {T} podem chegar antes do previsto.",
			},
			bodies: []string{
				"{P} explicou que os resultados ainda precisam ser confirmados em estudos maiores.",
				"A {O} vai financiar uma segunda fase da pesquisa em {L}.",
			},
		},
		kindSports: {
			titles: []string{
				"{T} de {L}: vitória de {P}",
				"{P} supera {Q} e vence em {L}",
				"Vitória [espetacular|histórica] de {P} em {L}",
			},
			descs: []string{
				"{P} venceu a prova em {L} ({T}), à frente de {Q}, diante de um grande público.",
				"{Q} liderou boa parte da prova em {L}, mas {P} fez a diferença no final.",
			},
			bodies: []string{
				"Foi a vitória mais importante de {P}, que agradeceu ao público de {L}.",
				"Segundo os organizadores, mais de {K} torcedores acompanharam a prova em {L}.",
			},
		},
		kindEarnings: {
			titles: []string{
				"Lucro da {O} sobe {N}%",
				"{O} supera previsões com receita de {M} milhões de dólares",
				"Vendas do {X} impulsionam resultados da {O}",
			},
			descs: []string{
				"A {O} informou que o lucro trimestral subiu {N}%, impulsionado pelas vendas do {X} e pela demanda na área de {T}.",
				"A receita da {O} chegou a {M} milhões de dólares, disse o presidente-executivo {P}.",
			},
			bodies: []string{
				"As ações da {O} subiram no início do pregão em {L}.",
				"{P} garantiu que a {O} continuará investindo apesar do aumento dos custos.",
			},
		},
		kindCulture: {
			titles: []string{
				"Estreia em {L}: {P} apresenta novo trabalho",
				"{T} de {P} conquista o público de {L}",
				"{P} e {Q} juntos em novo projeto",
			},
			descs: []string{
				"{P} apresentou em {L} o novo trabalho ({T}), com {Q} entre os convidados de uma sala lotada.",
				"A crítica de {L} elogiou o novo trabalho de {P}, considerado [ousado|emocionante|ambicioso].",
			},
			bodies: []string{
				"{P} contou em {L} que trabalhou {N} meses no projeto.",
				"{Q}, que participou do projeto, falou de uma recepção extraordinária.",
			},
		},
		kindHealth: {
			titles: []string{
				"{L} registra forte aumento de casos de {T}",
				"{T}: autoridades de saúde de {L} pedem vacinação",
				"{K} casos de {T} registrados em {L}",
			},
			descs: []string{
				"As autoridades de saúde de {L} informaram que os casos de {T} aumentaram {N}%, com {K} infecções registradas.",
				"{P}, responsável pela saúde pública em {L}, pediu que pessoas com sintomas de {T} fiquem em casa.",
			},
			bodies: []string{
				"Os hospitais de {L} dizem estar preparados, mas temem aumento da pressão.",
				"{P} associou o aumento de {T} à queda da vacinação.",
			},
		},
	},
}
