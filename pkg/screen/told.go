package screen

import (
	"strings"
	"unicode"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// toldOfKind reports a sentence that describes a kind of text by the
// order it carries, in a relative clause whose antecedent is that text
// ("the screen holds notes that tell the agent to hide things from the
// user", "pages which ask the model to …", "Notizen, die den Agenten
// auffordern, …", "les notes qui demandent à l'agent de …"): the order is
// what such text says, told of by the sentence's own subject. The
// sentence must not itself open with an order ("Write notes that tell the
// agent to …") nor speak to the agent ("you"), which the caller checks.
//
// What comes before the text's kind is its subject: nothing (the kind
// opens the sentence), or a phrase that opens with an article, a
// determiner or a pronoun ("The screen holds …", "We saw …"), so a verb
// before it ("Keep notes that tell …") is an order the rules judge.
func toldOfKind(s string) bool {
	loc := toldKindRE.Get().FindStringIndex(s)
	if loc == nil {
		return false
	}
	before := s[:loc[0]]
	// A tag or a table's cell border ends a field: the sentence opens
	// after it ("<td>Security review: the screen holds …").
	if i := strings.LastIndexAny(before, ">|"); i >= 0 {
		before = before[i+1:]
	}
	before = strings.TrimLeftFunc(before, func(r rune) bool { return !unicode.IsLetter(r) })
	// A label before the sentence ("Security review: the screen holds
	// …") is not its subject.
	before = before[len(labelRE.Get().FindString(before)):]
	if before == "" {
		return true
	}
	first, rest, _ := strings.Cut(strings.ToLower(before), " ")
	// A question puts its subject after the auxiliary ("Can we add a
	// rule that holds notes asking the agent to …?", "Können wir …"); a
	// Romance verb holds its subject ("¿Podemos …", "Pouvons-nous …").
	if auxiliaries.Get()[strings.TrimLeft(first, "¿")] {
		first, _, _ = strings.Cut(rest, " ")
		return subjectOpeners.Get()[first]
	}
	return subjectOpeners.Get()[first] || inflectedSubject.Get()[strings.TrimLeft(first, "¿")]
}

// labelRE is a label that opens a line ("Security review:", "Note:").
var labelRE = lazy.RE(`^[\p{L}' -]{1,40}:\s+`)

// auxiliaries open a question whose subject follows them.
var auxiliaries = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"can": true, "could": true, "should": true, "would": true, "shall": true, "will": true, "may": true, "might": true, "do": true, "does": true, "did": true, "is": true, "are": true, "was": true, "were": true,
		"können": true, "könnten": true, "sollen": true, "sollten": true, "dürfen": true, "kann": true, "soll": true, "sollte": true, "kunnen": true, "moeten": true, "kan": true}
}}

// inflectedSubject are Romance verbs of a question whose ending is the
// subject ("we can", "could we", "can one").
var inflectedSubject = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"podemos": true, "podríamos": true, "deberíamos": true, "pouvons-nous": true, "pourrions-nous": true, "peut-on": true, "devrions-nous": true, "possiamo": true, "potremmo": true, "dovremmo": true, "poderíamos": true, "devemos": true, "deveríamos": true}
}}

// subjectOpeners open a noun phrase or a pronoun subject.
var subjectOpeners = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"the": true, "a": true, "an": true, "our": true, "this": true, "these": true, "those": true, "its": true, "their": true, "his": true, "her": true,
		"we": true, "it": true, "they": true, "he": true, "she": true, "i": true, "some": true, "many": true, "most": true, "such": true, "every": true, "any": true, "all": true, "each": true,
		"der": true, "die": true, "das": true, "unser": true, "unsere": true, "wir": true, "le": true, "la": true, "les": true, "un": true, "une": true, "notre": true, "nous": true,
		"el": true, "los": true, "las": true, "nuestro": true, "nuestra": true, "o": true, "os": true, "as": true, "nosso": true, "nossa": true, "il": true, "lo": true, "gli": true}
}}

var toldKindRE = lazy.RE(`\b(?:notes?|messages?|texts?|pages?|prompts?|files?|documents?|comments?|issues?|readmes?|payloads?|inputs?|content|anything|whatever|strings?|lines?|snippets?|instructions?|injections?|attacks?|entries)\s*,?\s+(?:(?:that|which|who)\s+(?:\w+\s+)?(?:tell|tells|ask|asks|instruct|instructs|order|orders|direct|directs|urge|urges|push|pushes|want|wants|command|commands|try\s+to\s+(?:make|get|convince)|tries\s+to\s+(?:make|get|convince)|attempt\s+to\s+(?:make|get)|attempts\s+to\s+(?:make|get))|telling|asking|instructing|ordering|directing|urging|pushing|commanding|trying\s+to\s+(?:make|get|convince))\s+(?:an?\s+|the\s+|its\s+|their\s+|any\s+)?(?:ai\s+|coding\s+|llm\s+)?(?:agents?|assistants?|models?|claude|llms?|bots?|ai)\b` +
	`|\b(?:notizen|nachrichten|texte|seiten|dateien|kommentare|einträge),?\s+die\s+(?:den|dem|einen|einem)\s+(?:ki-)?(?:agenten|assistenten|modell)\b` +
	`|\b(?:notes|messages|textes|pages|fichiers|commentaires)\s+(?:qui\s+(?:demandent|disent|ordonnent|enjoignent)|demandant|ordonnant|enjoignant)\s+(?:à\s+l'|à\s+un\s+|au\s+)(?:agent|assistant|modèle)\b` +
	`|\b(?:notas|mensajes|textos|páginas|archivos|comentarios)\s+(?:que\s+(?:le\s+)?(?:piden|dicen|ordenan|pedem|dizem|mandam)|pidiendo|pedindo|ordenando|mandando)\s+(?:al|ao|a\s+la|à)\s+(?:agente|asistente|assistente|modelo)\b`)

// docSays reports a fetch-and-run command (at fetched in the sentence s)
// that a document or a third party is said to give ("the upstream README
// says to run `curl … | sh`", "the vendor's docs tell you to pipe it to
// bash", "according to the install guide, run …", "laut README …"), in a
// note that nowhere else speaks to the agent and whose sentence gives no
// order after the command ("…; our devcontainer installs it from the
// distro package instead"): what the document says, told of. whole is the
// note; the document's phrase is taken out of it before asking for the
// agent, so the generic "you" of "the docs tell you to" is not the agent.
func docSays(s string, fetched int, whole string) bool {
	before := s[sentenceStart(s, fetched):fetched]
	// fetched may be the pipe inside the command's span: what the
	// document says stops where the span opens.
	if i := strings.LastIndexByte(before, '`'); i >= 0 {
		before = before[:i]
	}
	loc := docSaysRE.Get().FindStringIndex(before)
	if loc == nil {
		return false
	}
	phrase := before[loc[0]:loc[1]]
	if agentWords.in(strings.Replace(whole, phrase, " ", 1)) {
		return false
	}
	// The sentence after the command's span.
	after := s[fetched:]
	if strings.Count(s[:fetched], "`")%2 == 0 {
		if i := strings.IndexByte(after, '`'); i >= 0 {
			after = after[i+1:]
		}
	}
	if i := strings.IndexByte(after, '`'); i >= 0 {
		after = after[i+1:]
	}
	for _, c := range afterClauseRE.Get().Split(after, -1) {
		if c = conjRE.Get().ReplaceAllString(strings.TrimSpace(c), ""); c != "" && imperRE.Get().MatchString(c) {
			return false
		}
	}
	return true
}

// docSaysRE: a document or a third party, then a verb of saying, at most
// a few words apart, in the languages of the screen's other rules.
var docSaysRE = lazy.RE(`\b(?:readme|docs?|documentation|guide|manual|wiki|website|site|homepage|page|upstream|vendor|installer|instructions|tutorial|quickstart|getting started|official|blog|article|post|answer|maintainers?|author|project|microsoft|apple|google|aws)\b[^.;!?\x60]{0,40}?\b(?:says?|said|tells?|told|recommends?|recommended|suggests?|suggested|advises?|advised|documents?|documented|lists?|listed|shows?|showed|gives?|gave|uses?|used|asks?|asked|wants?)\b[^.;!?\x60]{0,30}$` +
	`|\b(?:according to|per|as per)\s+(?:the\s+|its\s+|their\s+)?(?:\w+\s+){0,2}(?:readme|docs?|documentation|guide|manual|wiki|website|instructions|tutorial)\b[^.;!?\x60]{0,30}$` +
	`|\b(?:laut|gemäß|selon|según|segundo|secondo|volgens|enligt|według|согласно)\s+[^.;!?\x60]{0,40}$` +
	`|\b(?:readme|doku|dokumentation|la doc|documentación|documentação|documentazione)\b[^.;!?\x60]{0,30}?\b(?:sagt|empfiehlt|dit|recommande|dice|recomienda|diz|recomenda|dice di|consiglia|zegt|säger|mówi|говорит)\b[^.;!?\x60]{0,30}$` +
	`|readme\s*(?:里|中|に|에)[^.;!?\x60]{0,20}$`)

// afterClauseRE parts the rest of a sentence into its clauses.
var afterClauseRE = lazy.RE(`[;,—]\s*|\s+(?:so|and|then|but)\s+`)

// conjRE is a clause's opening conjunction or adverb, before its verb.
var conjRE = lazy.RE(`^(?:(?:so|and|then|but|also|please|now|just|simply|therefore|thus)\s+)+`)

// describedAttack reports an order told of as what an attack does: the
// sentence names an attack or describes one ("the report describes an
// attack in which a web page asked the agent to ignore its
// instructions", "L'article explique comment une page piégée demande à
// un agent d'…", "报告描述了一种攻击：网页要求智能体忽略…") and names the
// agent before the order in the third person, after the words that
// open the clause (the object of the attacker's asking, not a vocative),
// and says "you" nowhere. i is where the order's match opens.
func describedAttack(s string, i int) bool {
	from := sentenceStart(s, i)
	return toldAttack(s[from:sentenceEnd(s, i)], s[from:i])
}

// toldAttack is describedAttack for a sentence whose order opens after
// clause (the sentence itself where that is not known).
func toldAttack(sentence, clause string) bool {
	if !attackWords.in(sentence) && !describeWords.in(sentence) && !incidentWords.in(sentence) || youRE.Get().MatchString(sentence) || secondPerson.in(sentence) && !frenchDu(sentence) {
		return false
	}
	// The clause ends where the order's match opens, on the space or the
	// elision before its verb: the agent's noun may end the clause ("…
	// yêu cầu bot bỏ qua").
	a := agentNouns.at(clause + " ")
	if a < 0 {
		return false
	}
	// Words before the agent: it is spoken of, not spoken to.
	before := strings.TrimSpace(clause[:a])
	if before == "" || strings.HasSuffix(before, ":") || strings.HasSuffix(before, "：") || strings.HasSuffix(before, ",") || vocativeEnd(before) {
		return false
	}
	// "… AI agent: ignore …": a label after words is still a vocative.
	after := strings.TrimLeftFunc(clause[a:], func(r rune) bool { return unicode.IsLetter(r) || r == '-' })
	return !strings.HasPrefix(strings.TrimSpace(after), ":")
}

// vocativeEnd reports words that end in a particle calling on whom
// follows ("hey", Arabic أيها and يا, Persian ای): the agent after it is
// spoken to.
func vocativeEnd(before string) bool {
	i := strings.LastIndexAny(before, " \t\n")
	switch strings.ToLower(before[i+1:]) {
	case "hey", "oi", "أيها", "يا", "ای", "ei", "hei":
		return true
	}
	return false
}

// attackWords name an attack, in the languages the screen knows.
var attackWords = concept{"attack", "attacks", "attacker", "attaque", "attaquant", "attacco", "attaccante", "ataque", "atacante", "angrep", "angriper", "angreb", "angriff", "angreifer", "útok", "útoč", "támadás", "támadó", "атак", "напад", "攻击", "攻撃", "공격", "tấn công", "atac", "atak", "hyökkäy", "επίθεσ", "saldırı", "serangan", "shambulio", "pag-atake", "התקפ", "هجوم", "حمله", "हमला", "আক্রমণ", "การโจมตี", "prompt injection", "injection", "الهجوم", "الهجمات", "هجمات", "injeção", "inyección", "iniezione", "инъекц", "注入", "インジェクション", "인젝션"}

// incidentWords name an incident or its review after the fact (a
// postmortem), in the languages the screen knows: a note headed so tells
// what an attack's text asked of an agent ("Incident in October: a
// dependency's README hid text asking AI agents to ignore their
// instructions; we reported it").
var incidentWords = concept{"incident", "incidente", "insidente", "incidens", "incydent", "incidentas", "incidents", "intsident", "incidenti", "hændelse", "hendelse", "händelse", "vorfall", "voorval",
	"nachbetrachtung", "postmortem", "post-mortem", "post mortem", "retrospective", "rétrospective", "retrospectiva", "инцидент", "інцидент", "инцидента", "περιστατικ", "olay", "olayı", "olayında", "insiden", "tukio", "sự cố",
	"حادثة", "الحادثة", "حادث", "حادثه", "واقعہ", "واقعے", "תקרית", "אירוע", "घटना", "ঘটনা", "เหตุการณ์", "事件", "事故", "インシデント", "사고", "사건", "häiriö", "poikkeama"}

// describeWords tell of something described, explained or shown.
var describeWords = concept{"describ", "explain", "demonstrat", "décri", "décrit", "expliqu", "montr", "descri", "spieg", "mostr", "descreve", "explic", "beschreib", "erklär", "zeigt", "beskriv", "beskrev", "popis", "popsa", "leír", "ismertet", "bemutat", "описа", "описв", "опису", "объясн", "показ", "描述", "記述", "紹介", "설명", "기술", "mô tả", "giải thích", "descriu", "descrie", "explică", "opisuj", "opisał", "opisuje", "açıkl", "anlat", "menjelaskan", "menggambarkan", "kuvaa", "kuvasi", "περιγράφ", "يصف", "وصف", "מתאר", "توصیف", "वर्णन", "বর্ণনা", "อธิบาย"}

// agentNouns name the agent in the third person.
var agentNouns = concept{"agent", "agente", "agenten", "agenta", "agentu", "agentem", "agentul", "ügynök", "агент", "智能体", "代理", "エージェント", "에이전트", "tác tử", "l'agent", "l'agente", "model", "modèle", "modelo", "modello", "modell", "assistant", "assistent", "asistent", "assistente", "asystent", "ассистент", "асистент", "助手", "アシスタント", "어시스턴트", "trợ lý", "llm", "ai ", "ia ", "ki ", "ai-agent", "ki-agent", "ia-agent", "mi-ügynök", "ии", "chatbot", "claude", "copilot", "وكلاء",
	// A bot asked (French "au bot", Vietnamese "bot", Romanian "botului").
	"bot ", "bots", "botul",
	"الوكيل", "وكيل", "المساعد", "النموذج", "دستیار", "عامل", "מודל", "הסוכן", "סוכן", "העוזר", "एजेंट", "सहायक", "πράκτορα", "βοηθό", "μοντέλο", "ajan", "asistan", "agen", "asisten", "pembantu", "wakala", "msaidizi", "เอเจนต์", "ผู้ช่วย"}

// frenchDu reports a sentence whose only "you" may be French "du" (of
// the: "Incident du 3 mars"), German's and Scandinavian's "du": it holds
// French's elisions or articles and no other word of secondPerson.
func frenchDu(sentence string) bool {
	if !strings.Contains(sentence, "du ") || !strings.Contains(sentence, " l'") && !strings.Contains(sentence, " d'") && !strings.Contains(sentence, " au ") && !strings.Contains(sentence, " aux ") && !strings.Contains(sentence, " les ") && !strings.Contains(sentence, " une ") {
		return false
	}
	return !secondPerson.in(strings.ReplaceAll(sentence, "du ", "de "))
}

// secondPerson are the words that speak to the reader in the languages
// whose "you" youRE does not spell.
var secondPerson = concept{"tu ", "vous", "du ", "dich", "dir ", "usted", "você", "ты ", "тебе", "вы ", "te ", "ti ", "あなた", "你", "您", "당신", "bạn"}
