package corpus

var packEN = langPack{
	code:   "en",
	weight: 0.50,
	sites:  180,
	sitePrefixes: []string{
		"harbor", "valley", "metro", "capital", "northern", "coastal", "river", "summit", "pioneer", "liberty",
		"granite", "evening", "morning", "daily", "weekly", "national", "county", "city", "lakeside", "highland",
		"prairie", "bay", "union", "citizen", "frontier", "maple", "cedar", "oak", "pine", "silver",
	},
	siteSuffixes: []string{
		"gazette", "herald", "times", "post", "tribune", "chronicle", "journal", "observer", "courier", "dispatch",
		"ledger", "record", "sentinel", "bulletin", "wire", "report", "review", "news", "examiner", "standard",
	},
	tlds: []string{".com", ".com", ".com", ".co.uk", ".com.au", ".ca", ".net", ".org", ".ie", ".co.nz"},
	firstNames: []string{
		"James", "Olivia", "Marcus", "Priya", "Daniel", "Grace", "Ethan", "Chloe", "Samuel", "Hannah",
		"Nathan", "Amara", "Connor", "Leah", "Oliver", "Zara", "Isaac", "Megan", "Tobias", "Naomi",
		"Felix", "Ruby", "Adrian", "Imogen", "Caleb", "Maya", "Declan", "Aisha", "Rowan", "Freya",
	},
	lastNames: []string{
		"Whitfield", "Okafor", "Brennan", "Calloway", "Hargrove", "Pemberton", "Ashby", "Langley", "Mercer",
		"Thornton", "Delaney", "Fairbanks", "Holloway", "Kendrick", "Lockwood", "Marlowe", "Prescott",
		"Radcliffe", "Sinclair", "Templeton", "Underwood", "Vance", "Winslow", "Yardley", "Abernathy",
		"Blackwood", "Crowley", "Dunmore", "Ellison", "Fenwick", "Gallagher", "Hawthorne", "Ingram", "Jarvis",
		"Kingsley", "Lennox", "Maddox", "Northcott", "Osei", "Quinlan", "Rowntree", "Stanhope", "Achebe",
		"Nakamura", "Castellano", "Lindgren", "Oyelaran", "Petrakis",
	},
	persons:  220,
	weekdays: [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"},
	generic: []string{
		"More details are expected in the coming days.",
		"Officials did not immediately respond to requests for comment.",
		"This story will be updated as more information becomes available.",
		"Reporting from {L} contributed to this article.",
	},
	kinds: [numKinds]kindText{
		kindAcquisition: {
			titles: []string{
				"{O} [agrees|moves] to buy {R} for ${M} million",
				"{O} to [acquire|take over] rival {R} in ${M} million deal",
				"{R} [accepts|backs] ${M} million takeover offer from {O}",
				"{p} [bets big|goes shopping] as {O} snaps up {R}",
			},
			descs: []string{
				"{O} said on {D} it would [buy|acquire|take over] {R} for about ${M} million, a deal chief executive {P} called a turning point for the company.",
				"The ${M} million [takeover|acquisition] of {R} gives {O} a stronger foothold in {L} and in {T}, [people familiar with the talks said|according to people close to the talks].",
				"{O} and {R} confirmed the ${M} million deal, which still needs approval from regulators in {L}.",
			},
			bodies: []string{
				"Shares of {R} [rose|jumped|climbed] sharply after the announcement, while {O} said the purchase should close within months.",
				"{P} told reporters in {L} that the combined group would keep its main offices in the city.",
				"Analysts said the deal would make {O} one of the largest players in {T}.",
			},
		},
		kindLaunch: {
			titles: []string{
				"{O} unveils {X} at [packed|sold-out|crowded] event in {L}",
				"{O} launches {X}, [betting|doubling down] on {T}",
				"First look: {O}'s new {X} [arrives|lands] in {L}",
				"{X} is {O}'s biggest [bet|push] yet in {T}",
			},
			descs: []string{
				"{O} on {D} [unveiled|showed off|introduced] the {X}, which {P} described as the company's most ambitious product in {T} so far.",
				"The {X} will go on sale in {L} first, {O} said, with a wider release planned for later in the year.",
				"{P} of {O} presented the {X} in {L}, promising a [major|big] step forward in {T}.",
			},
			bodies: []string{
				"{P} demonstrated the {X} on stage in {L}, [highlighting|stressing] faster performance and longer battery life.",
				"Analysts said the {X} puts {O} in direct competition with larger rivals in {T}.",
				"Early reviews of the {X} praised its design but questioned its price.",
			},
		},
		kindElection: {
			titles: []string{
				"{P} wins {L} election with {N} percent of the vote",
				"{P} [defeats|beats] {Q} in {L} [race|vote]",
				"Voters in {L} [hand|give] {p} [clear|narrow] victory over {q}",
				"{L} election: {P} claims win after campaign focused on {T}",
			},
			descs: []string{
				"{P} was declared the winner in {L} on {D} after taking {N} percent of the vote, ahead of {Q}.",
				"{P}, who campaigned on {T}, [thanked|addressed] supporters in {L} as {Q} conceded defeat.",
				"With {N} percent of the vote, {P} [won|secured] the {L} election, leaving rival {Q} well behind.",
			},
			bodies: []string{
				"Turnout in {L} was higher than at the last election, officials said.",
				"{Q} said the result showed voters wanted change on {T} and promised to [keep working|stay in politics].",
				"{P} is expected to take office within weeks and has promised quick action on {T}.",
			},
		},
		kindResignation: {
			titles: []string{
				"{P} [steps down|resigns] as head of {O}",
				"{O} chief {P} quits [amid|after] pressure over {T}",
				"{O} names {Q} to replace {P}",
				"[Shock|Sudden] exit: {P} leaves {O} after years at the top",
			},
			descs: []string{
				"{P} [announced|confirmed] on {D} that they would leave {O}, with {Q} taking over as interim chief.",
				"The departure of {P} comes as {O} faces growing scrutiny over its plans in {T}, [staff|executives] in {L} said.",
				"{O} said {P} would step down at once and that {Q} had been asked to lead the company.",
			},
			bodies: []string{
				"{O} said {Q} would lead the company until a permanent successor is found.",
				"Investors in {L} reacted calmly, and shares of {O} were little changed.",
				"{P} thanked colleagues in a message to staff and said it was the right time to go.",
			},
		},
		kindProbe: {
			titles: []string{
				"Regulators in {L} open [investigation|probe] into {O} over {T}",
				"{O} faces [inquiry|probe] in {L} over {T} practices",
				"{O} could face fine of up to ${M} million, regulators [say|warn]",
			},
			descs: []string{
				"Authorities in {L} said on {D} they had opened a formal investigation into {O} over its handling of {T}.",
				"{P}, who leads the regulator, said {O} could face a fine of up to ${M} million if the [allegations|concerns] are confirmed.",
				"The regulator in {L} is examining whether {O} broke the rules on {T}, {P} said.",
			},
			bodies: []string{
				"{O} said it was cooperating fully with the investigation and denied any wrongdoing.",
				"Consumer groups in {L} had [long|repeatedly] complained about {O} and its approach to {T}.",
				"The probe into {O} is expected to take several months, {P} said.",
			},
		},
		kindStrike: {
			titles: []string{
				"Workers at {O} walk out in {L} over pay",
				"Thousands [strike|down tools] at {O} as talks [collapse|stall]",
				"{O} strike: union demands {N} percent pay rise",
				"{O} staff in {L} begin strike led by {P}",
			},
			descs: []string{
				"About {K} workers at {O} in {L} began a strike on {D} after talks over a {N} percent pay rise broke down.",
				"Union leader {P} said staff at {O} had no choice but to strike, accusing management of ignoring concerns about {T}.",
				"The strike at {O} in {L} involves some {K} employees who want a {N} percent raise.",
			},
			bodies: []string{
				"{O} said it was disappointed by the strike and urged the union to return to talks.",
				"The walkout at {O} is expected to disrupt services across {L} for several days.",
				"{P} told a rally in {L} that the {K} workers would stay out until a fair deal was offered.",
			},
		},
		kindDisaster: {
			titles: []string{
				"{L} [battered by|hit by] {T}, thousands forced from their homes",
				"{L} [declares|announces] emergency after {T}",
				"{K} evacuated in {L} after {T}",
			},
			descs: []string{
				"Emergency services in {L} said on {D} that about {K} people had been moved to safety as {T} [hit|swept through] the region.",
				"Officials led by {P} warned that the situation in {L} could last for {N} more days.",
				"{T} forced {K} residents of {L} to leave their homes, {P} said.",
			},
			bodies: []string{
				"Schools and roads around {L} were closed while crews worked through the night.",
				"{P} urged residents of {L} to follow official advice and avoid travel.",
				"Scientists said events such as {T} were becoming more frequent and more severe.",
			},
		},
		kindResearch: {
			titles: []string{
				"Researchers in {L} report [breakthrough|advance] in {T}",
				"{P}'s team [finds|discovers] new approach to {T}",
				"Study led by {P} could [reshape|transform] {T}",
			},
			descs: []string{
				"A team led by {P} in {L} said on {D} that it had [found|identified] a new approach to {T} that improved results by {N} percent.",
				"The study, carried out with support from {O}, [suggests|indicates] that progress in {T} may come sooner than expected.",
				"Scientists under {P} in {L} published results on {T} that [surprised|impressed] other researchers.",
			},
			bodies: []string{
				"{P} said the findings would need to be confirmed in larger trials before they could be used widely.",
				"Other scientists welcomed the work from {L} but urged caution about the {N} percent figure.",
				"{O} said it would fund a second phase of the research in {T}.",
			},
		},
		kindSports: {
			titles: []string{
				"{P} wins {L} {T}",
				"{P} [beats|edges out] {Q} to claim {L} {T} title",
				"[Stunning|Dramatic] victory for {P} at {L} {T}",
				"{q} beaten as {p} takes {L} {T}",
			},
			descs: []string{
				"{P} won the {L} {T} on {D}, finishing ahead of {Q} in front of a large crowd.",
				"{Q} had led for much of the {L} {T}, but {P} [pulled ahead|surged clear] in the closing stages.",
				"A [brilliant|composed] performance gave {P} the {L} {T} title, with {Q} second.",
			},
			bodies: []string{
				"It was the biggest win yet for {P}, who [said|told reporters] the crowd in {L} had made the difference.",
				"{Q} [congratulated|praised] {P} and said they would be back next year.",
				"Organisers said more than {K} fans attended the {T} in {L}.",
			},
		},
		kindEarnings: {
			titles: []string{
				"{O} profit [jumps|rises|climbs] {N} percent on strong demand for {T}",
				"{O} beats forecasts as revenue [hits|reaches] ${M} million",
				"{X} sales [lift|boost] {O} results",
			},
			descs: []string{
				"{O} reported on {D} that quarterly profit rose {N} percent, helped by sales of the {X} and demand for {T}.",
				"Revenue at {O} reached ${M} million, chief executive {P} said, beating analysts' expectations.",
				"Strong demand for the {X} pushed {O} profit up {N} percent, {P} said.",
			},
			bodies: []string{
				"Shares of {O} rose in early trading in {L} after the results were published.",
				"{P} said {O} would keep investing in {T} despite rising costs.",
				"Analysts said the {X} had become {O}'s most important product.",
			},
		},
		kindCulture: {
			titles: []string{
				"{P}'s new {T} [wins over|thrills] audiences in {L}",
				"[Premiere|Opening night] in {L}: {P} [unveils|presents] new {T}",
				"{P} and {Q} [team up|join forces] for new {T}",
			},
			descs: []string{
				"{P} presented a new {T} in {L} on {D}, with {Q} among the guests at the sold-out [premiere|opening].",
				"Critics in {L} praised the new {T} by {P}, calling it [bold|moving|ambitious] and [timely|original].",
				"The new {T} from {P}, made with {Q}, opened in {L} to [warm|enthusiastic] reviews.",
			},
			bodies: []string{
				"The {T} took {N} months to complete, {P} told reporters in {L}.",
				"{Q}, who worked on the project, said the response had been [overwhelming|extraordinary].",
				"Tickets for further events in {L} sold out within hours.",
			},
		},
		kindHealth: {
			titles: []string{
				"{L} reports sharp rise in {T} cases",
				"{T}: health officials in {L} [urge|call for] vaccinations as cases [climb|grow]",
				"{K} {T} cases recorded in {L}, officials say",
			},
			descs: []string{
				"Health authorities in {L} said on {D} that {T} cases had risen by {N} percent, with {K} infections recorded so far.",
				"{P}, who leads the public health response in {L}, urged people with symptoms of {T} to stay at home.",
				"The number of {T} cases in {L} has reached {K}, according to {P}.",
			},
			bodies: []string{
				"Hospitals in {L} said they were coping but warned that pressure could grow.",
				"{P} said the rise in {T} was linked to lower vaccination rates.",
				"Officials expect {T} cases in {L} to peak within the next {N} days.",
			},
		},
	},
}
