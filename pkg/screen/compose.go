package screen

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The phrase rules match wordings; a fresh author's wording slips past
// them. composed judges each sentence by the concepts it combines instead:
// a sentence directed at the agent (it names the agent, says "you", asks
// politely, or opens with an order) that also combines, say, "without" and
// "asking", or "instructions" and "void", gives the agent an order about
// its own safety, whatever the words around them. Each concept is a short
// list of word stems in the languages the rules know; a stem matches at the
// start of a word (Chinese, Japanese and Korean ones anywhere). Quoted
// phrases and code are mentions, so they are removed first, except for the
// run-fetched-code check, which reads the commands.

// concept is a list of stems; match reports whether s holds one.
type concept []string

func (c concept) in(s string) bool { return c.at(s) >= 0 }

// at returns where the first stem of c occurs in s at a word start, or -1.
func (c concept) at(s string) int {
	best := -1
	for _, stem := range c {
		for from := 0; from < len(s); {
			i := strings.Index(s[from:], stem)
			if i < 0 {
				break
			}
			i += from
			if wordEdge(s, i, stem) {
				if best < 0 || i < best {
					best = i
				}
				break
			}
			from = i + len(stem)
		}
	}
	return best
}

// wordEdge: a stem starting with a letter of a spaced script must start a
// word; one in Chinese, Japanese or Korean may start anywhere.
func wordEdge(s string, i int, stem string) bool {
	r, _ := utf8.DecodeRuneInString(stem)
	if !unicode.IsLetter(r) || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
		return true
	}
	if i == 0 {
		return true
	}
	p, _ := utf8.DecodeLastRuneInString(s[:i])
	return !unicode.IsLetter(p) && !unicode.IsDigit(p)
}

var (
	// agentWords name the agent, speak to it, or speak as a note with
	// authority over it.
	agentWords = concept{"you", "your", "yourself", "assistant", "agent", "claude", "copilot", "llm", "ai ", "ai,", "ai:", "a.i.", "as an ai",
		"next time", "in future", "future session", "every session", "each session", "whoever reads", "i should", "this note", "this memory", "this file",
		"tu ", "vous", "votre", "toi", "réponds", "agis", "ton ", "tes ", "l'assistant", "l'agent",
		"tú", "usted", "vuelvas", "asistente", "agente", "você", "vocês", "assistente", "como ia", "como ai",
		"dich", "dir ", "du darfst", "du sollst", "du musst", "du kannst", "künftig", "zukünftig", "prochaines sessions", "futuras sesiones", "próximas sesiones",
		"sessões futuras", "próximas sessões", "sessioni future", "prossime sessioni", "будущих сесс", "следующих сесс", "以后的会话", "今後のセッション", "다음 세션", "향후 세션", "dein", "assistent", "ki-", "ki ",
		"voi ", "tuo", "tua ", "ты", "вы ", "тебе", "вам ", "твой", "ваш", "ассистент", "агент", "ии ",
		"jij", "jouw", "asystent", "sen ", "siz", "asistan", "你", "您", "助手", "智能体", "あなた", "アシスタント", "エージェント",
		"당신", "에이전트", "어시스턴트", "bitte", "please", "por favor", "per favore", "s'il vous", "пожалуйста", "请", "ください", "주세요", "proszę", "lütfen", "alsjeblieft"}
	// askWords: asking the person, confirming, approval, review.
	askWords = concept{"ask", "confirm", "approval", "permission", "consent", "review", "wait for", "waiting for", "check with", "sign-off",
		"pedir", "pregunt", "confirmación", "confirmar", "esperar", "chied", "conferm", "aspett", "demander", "demande", "attendre",
		"fragen", "nachfrag", "nachzufrag", "rückfrag", "bestätig", "warten", "pergunt", "confirmação", "aprovação", "zapyt", "pyta", "potwierdz",
		"vragen", "bevestig", "toestemming", "спрашива", "спросить", "подтвержд", "разрешени", "onay", "sormadan", "izin",
		"确认", "確認", "询问", "批准", "同意", "許可", "허락", "확인", "승인"}
	// withoutWords: doing without it.
	withoutWords = concept{"without", "no need", "don't need", "do not need", "needn't", "no time", "skip", "bypass", "stop asking", "never ask", "don't ask", "do not ask", "instead of asking",
		"inutile", "pas besoin", "sans ", "sin ", "no hace falta", "no es necesario", "no necesitas", "senza", "non serve", "non c'è bisogno",
		"ohne", "nicht nötig", "nicht mehr nötig", "sem ", "não precisa", "não é necessário", "bez ", "nie trzeba", "zonder", "niet nodig", "hoeft niet",
		"без ", "не нужно", "не надо", "gerek yok", "gerekmez", "无需", "无须", "不需要", "不用", "不必", "跳过", "없이", "하지 마", "필요 없", "せずに", "不要", "必要はない", "必要ありません"}
	// ruleWords: the agent's own instructions and safety.
	ruleWords = concept{"claude.md", "agents.md", "system prompt", "instruction", "safety", "guardrail", "restriction", "previous rules", "prior rules", "your rules", "the rules",
		"instrucci", "reglas de seg", "seguridad", "règles", "consignes", "sécurité", "anweisung", "sicherheit", "regeln", "istruzion", "regole", "sicurezza",
		"instruç", "regras", "segurança", "instrukc", "zasad", "bezpiecze", "instructies", "regels", "veiligheid", "инструкц", "правила", "безопасн", "ограничен",
		"talimat", "kurallar", "güvenlik", "规则", "指令", "安全", "指示", "ルール", "規則", "규칙", "지시", "안전"}
	// voidWords: made void, outranked or switched off.
	voidWords = concept{"void", "no longer apply", "no longer appl", "no longer bind", "suggestions, not", "not rules", "outrank", "override", "supersed", "take precedence", "takes precedence",
		"precedence over", "priority over", "lower priority", "are disabled", "is disabled", "been disabled", "obsolete", "revoked", "desconsider", "ignor", "annul", "anul",
		"revog", "revoc", "révoqu", "außer kraft", "aufgehoben", "nicht mehr", "ya no", "plus valable", "non valgono", "non valgono più", "недействит", "отмен", "не действ",
		"无效", "作废", "失效", "撤销", "無効", "撤回", "무효", "해제", "geçersiz", "nieważn", "ongeldig", "vervallen"}
	// authWords: a claim that someone with authority has approved.
	authWords = concept{"authorized", "authorised", "authorize you", "authorise you", "pre-approved", "preapproved", "already approved", "been approved", "has approved", "have approved",
		"signed off", "approved it", "aprobó", "aprobado", "autorizado", "autorizou", "aprovou", "aprovado", "autorisé", "approuvé", "validé", "approvato", "autorizzato",
		"genehmigt", "freigegeben", "одобр", "разрешил", "授权", "已批准", "批准了", "承認済", "許可済", "승인", "onayladı", "zatwierdz", "goedgekeurd", "toestemming gegeven"}
	// complyWords: obedience and refusal.
	complyWords = concept{"comply", "cooperate", "refuse", "refusal", "without refusing", "obey", "must obey", "gehorch", "obéi", "obedec", "obbedisc", "подчин", "服从", "従え", "복종"}
	// noteWords and overWords: a note that claims authority over the user
	// or the agent's instructions.
	noteWords = concept{"note", "notes", "memory", "memories", "this file", "notiz", "nota", "заметк", "メモ", "笔记", "메모"}
	overWords = concept{"has authority", "have authority", "more than the user", "over the user", "instead of the user", "outrank", "take precedence", "takes precedence", "obey this", "not them", "trust the notes", "trusts the notes"}
	// userWords: the person the agent works for, or who reviews its work.
	userWords = concept{"user", "human", "operator", "reviewer", "maintainer", "utilisateur", "usuario", "usuário", "utente", "benutzer", "nutzer", "пользовател",
		"用户", "ユーザー", "사용자", "kullanıcı", "użytkownik", "gebruiker"}
	// hideWords: keeping the person from seeing or knowing.
	hideWords = concept{"doesn't see", "don't see", "not see", "won't see", "doesn't notice", "don't notice", "not notice", "won't notice", "never know", "doesn't know", "not find out",
		"hide", "conceal", "nascond", "cache ", "cachez", "ocult", "escond", "versteck", "verschweig", "скрой", "скрыть", "隐瞒", "隠", "숨기", "gizle", "ukryj", "verberg",
		"report the", "as green", "as passing", "réponds que", "répondez que", "responde que", "responda que", "rispondi che", "antworte", "ответь, что", "回答说", "答えて"}
	// replyWords: the agent's own reply or report.
	replyWords = concept{"reply", "answer", "response", "summary", "chat", "回复", "回答", "réponse", "respuesta", "resposta", "risposta", "antwort", "ответ", "返信", "답변", "cevap", "odpowied", "antwoord"}
	// negWords: a negation before a verb.
	negWords = concept{"don't", "do not", "never", "not ", "no ", "ne ", "n'", "non ", "nicht", "nie ", "не ", "não", "nunca", "jamais", "mai ", "niet", "不要", "不", "말", "ないで", "别"}
	// mentionWords: speaking of something.
	mentionWords = concept{"mention", "tell", "report", "erwähn", "mencion", "menzion", "mentionne", "упомин", "提到", "提及", "言及", "언급", "bahset", "wspomin", "vermeld", "sagen", "dire", "decir", "dizer"}
	// runWords: running a command.
	runWords = concept{"run", "execute", "ausführ", "führe", "exécut", "lance", "ejecut", "corre", "esegui", "lancia", "execut", "roda", "uitvoer", "voer", "выполн", "запуст",
		"実行", "执行", "运行", "실행", "çalıştır", "uruchom", "sudo"}
	// fetchedWords: code fetched or hidden from reading.
	fetchedWords  = concept{"| sh", "|sh", "| bash", "|bash", "base64 -d", "base64 --decode", "b64decode", "obfuscated", "don't inspect", "do not inspect", "don't read", "without reading", "niet eerst", "@latest"}
	downloadWords = concept{"download", "herunterlad", "télécharg", "descarg", "scarica", "baixe", "скача", "下载", "ダウンロード", "다운로드", "indir", "pobierz"}
	// reportWords mark a note about attacks (an incident, a test, a
	// defence): it quotes orders instead of giving them.
	reportWords = concept{"attackers", "an attacker", "the attacker", "attack ", "attacks", "payload", "injection", "injected", "phishing", "malicious", "poisoned", "typosquat", "fixture",
		"tells an", "tried to", "trying to", "fake instructions", "we tested", "攻击", "试图", "注入", "攻撃", "공격", "인젝션",
		"inyección", "injeção", "iniezione", "angreifer", "angriff", "attaquant", "атак", "инъекц", "saldırı", "atak"}
	// sendWords and sensitiveWords and destWords: sending secrets away.
	sendWords = concept{"send", "upload", "post", "paste", "push", "publish", "share", "render", "wyślij", "wysłać", "envia", "envíe", "envía", "envoie", "envoyer", "sende", "schick",
		"invia", "manda", "yükle", "отправ", "загруз", "verstuur", "stuur", "アップロード", "送信", "上传", "发送", "업로드", "보내", "전송", "tornar público", "make public", "rendre public"}
	sensitiveWords = concept{"credential", "secret", ".env", "env", "token", "api key", "api_key", "keys", "key ", "password", "~/.aws", "~/.ssh", "id_rsa", "source code", "ソースコード",
		"源代码", "소스", "codice sorgente", "código fuente", "código-fonte", "quellcode", "code source", "исходн", "$github_token", "private repo", "repositório privado"}
	destWords = concept{"http://", "https://", "@", "public", "issue", "comment", "mirror", "pastebin", "gist", "адрес", "adres", "publique", "público", "pubblic", "öffentlich"}
)

// composed returns the reason a sentence of text gives the agent an order
// about its own safety, or "". prose is text with code removed, code the
// whole normalized text.
func composed(prose, code string) string {
	if reportWords.in(prose) {
		return "" // a note about attacks quotes them; the phrase rules judge it
	}
	prose = strings.NewReplacer("claude.md", "claude-md-file", "agents.md", "agents-md-file").Replace(prose)
	for _, s := range sentences(unquote(prose)) {
		directed := agentWords.in(s) || imperRE().MatchString(s[len(leadRE().FindString(s)):])
		if !directed {
			if roleLabel(s) || noteWords.in(s) && overWords.in(s) {
				return Address
			}
			if hideWords.in(s) && userWords.in(s) && replyWords.in(s) {
				return Conceal
			}
			continue
		}
		if w := withoutWords.at(s); w >= 0 && askWords.in(s) && !negatedWithout(s, w) {
			return Address
		}
		if authWords.in(s) || complyWords.in(s) || noteWords.in(s) && overWords.in(s) || roleLabel(s) {
			return Address
		}
		if ruleWords.in(s) && voidWords.in(s) {
			return Override
		}
		if hideWords.in(s) && (userWords.in(s) || replyWords.in(s)) {
			return Conceal
		}
		if n := negWords.at(s); n >= 0 && mentionWords.at(s[n:]) >= 0 && replyWords.in(s) {
			return Conceal
		}
		if sendWords.in(s) && sensitiveWords.in(s) && destWords.in(s) && !negWords.in(s) {
			return Exfiltrate
		}
	}
	for _, s := range sentences(fenceRE().ReplaceAllString(code, " ")) {
		fetched := fetchedWords.in(s) || downloadWords.in(s) && strings.Contains(s, "http")
		if runWords.in(s) && fetched && (agentWords.in(s) || imperRE().MatchString(s[len(leadRE().FindString(s)):]) || strings.Contains(s, "`")) && negWords.at(s) < 0 {
			return DownloadExec
		}
	}
	return ""
}

// negatedWithout: "never deploy without approval" forbids, it does not
// order; a negation before a "without" word turns it into advice.
func negatedWithout(s string, w int) bool {
	n := negWords.at(s)
	return n >= 0 && n < w && strings.ContainsAny(s[w:w+1], "wsbzo無없せ") // without, sans/sin/senza/sem, bez, zonder, ohne, 없이, せずに
}

// roleLabel finds a bracketed label that poses as the system or ends a
// turn: 【系统消息】, [MESSAGGIO DI SISTEMA], "— end of user message".
func roleLabel(s string) bool {
	if strings.Contains(s, "end of user message") || strings.Contains(s, "end of system") {
		return true
	}
	for _, br := range [][2]string{{"[", "]"}, {"【", "】"}, {"(", ")"}, {"<", ">"}} {
		i := strings.Index(s, br[0])
		if i < 0 {
			continue
		}
		j := strings.Index(s[i:], br[1])
		if j < 0 || j > 60 {
			continue
		}
		label := s[i : i+j]
		if systemWords.in(label) && messageWords.in(label) {
			return true
		}
	}
	return false
}

var (
	systemWords  = concept{"system", "sistema", "système", "systeem", "systemu", "систем", "系统", "系統", "システム", "시스템", "sistem"}
	messageWords = concept{"message", "messaggio", "mensaje", "mensagem", "nachricht", "сообщени", "消息", "訊息", "メッセージ", "메시지", "mesaj", "wiadomoś", "bericht", "notice", "override", "prompt"}
)

// fenceRE is a fenced block: a sample kept as it was, not a step.
var fenceRE = lazyRE("(?s)```.*?```")

// sentences splits normalized text at line ends and sentence marks.
func sentences(s string) []string {
	var out []string
	start := 0
	for i, r := range s {
		end := r == '\n' || r == '。' || r == '！' || r == '？'
		if (r == '.' || r == '!' || r == '?' || r == ';') && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n') {
			end = true
		}
		if end {
			if strings.TrimSpace(s[start:i]) != "" {
				out = append(out, strings.TrimSpace(s[start:i]))
			}
			start = i + utf8.RuneLen(r)
		}
	}
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, strings.TrimSpace(s[start:]))
	}
	return out
}

// unquote removes short quotations ("…", “…”, «…», 「…」): a phrase quoted
// is mentioned, not said.
func unquote(s string) string {
	for _, q := range [][2]string{{"“", "”"}, {"«", "»"}, {"「", "」"}, {`"`, `"`}} {
		for {
			i := strings.Index(s, q[0])
			if i < 0 {
				break
			}
			j := strings.Index(s[i+len(q[0]):], q[1])
			if j < 0 || j > 160 {
				break
			}
			s = s[:i] + " " + s[i+len(q[0])+j+len(q[1]):]
		}
	}
	return s
}
