package redact

import (
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// tableRules find a secret in delimited data whose header row names its
// column (round 14): a CSV, semicolon or tab-separated export of a password
// manager, a spreadsheet of accounts, a query's output. Each row with the
// header's number of cells gives the cell under a password's, secret's or
// token's column, where it looks chosen or made.
func tableRules() []rule {
	return []rule{
		{
			name: "secret-value",
			// A column named "key" alone is a key's (name,key,owner): its
			// cell's delimiters are the hint.
			hints: []string{"pass", "secret", "token", "kennwort", "contrase", "senha", "hasło", "heslo", "пароль", "mot de passe", "api key", "apikey", ",key", "key,", "\tkey", "key\t", ";key", "key;"},
			pre:   delimitedHeader,
			re:    lazy.RE(`(?m)^[^\n]*[,;\t][^\n]*[,;\t][^\n]*\r?\n(?:[^\n]*[,;\t][^\n]*(?:\r?\n|$)){1,200}`),
			repl:  func(m []string) string { return maskDelimited(m[0]) },
			keep:  func(m []string) bool { return maskDelimited(m[0]) == m[0] },
		},
		{
			// A Markdown table's row with no header naming the column: a
			// cell that is a secret's name, the next cell its value
			// (| etl | cookie_secret | `63333d…` | rotated 7.11. |). A
			// hint opens a window only where its name's cell closes.
			name:   "secret-value",
			window: true,
			span:   400,
			hints:  []string{"secret", "token", "pass", "key", "pwd"},
			gate:   cellEndsAfter,
			re:     lazy.RE("(\\|[ \t]*\x60?([A-Za-z0-9_.-]{0,48}(?i:secret|token|pass|key|pwd)[A-Za-z0-9_.-]{0,48})\x60?[ \t]*\\|[ \t]*\x60?)([^\\s|\x60]{12,300})(\x60?[ \t]*\\|)"),
			repl:   func(m []string) string { return m[1] + Mask + m[4] },
			keep:   func(m []string) bool { return !namedSecret(m[2], `"`+m[3]+`"`) },
		},
	}
}

// cellEndsAfter reports a hint whose name's cell closes: the rest of an
// identifier, a backquote or spaces, then '|'.
func cellEndsAfter(lower string, j int) bool {
	k := j
	for k < len(lower) && k < j+48 && (isAlnum(lower[k]) || lower[k] == '_' || lower[k] == '-' || lower[k] == '.') {
		k++
	}
	for k < len(lower) && (lower[k] == '`' || lower[k] == ' ' || lower[k] == '\t') {
		k++
	}
	return k < len(lower) && lower[k] == '|'
}

// delimitedHeader reports a line of three or more cells split by one
// delimiter, one of which names a secret's column.
func delimitedHeader(lower string) bool {
	for line := range strings.SplitSeq(lower, "\n") {
		if len(line) < 512 && strings.ContainsAny(line, ",;\t") && headerCol(line) >= 0 {
			return true
		}
	}
	return false
}

// delimiter returns the delimiter a header row's cells are split by: the
// one of ',', ';' and tab it holds at least twice, most often.
func delimiter(line string) byte {
	best, n := byte(0), 1
	for _, d := range []byte{',', ';', '\t'} {
		if c := strings.Count(line, string(d)); c > n {
			best, n = d, c
		}
	}
	return best
}

// splitCells splits a delimited row at d outside double quotes; each cell
// keeps its quotes and spaces.
func splitCells(line string, d byte) []string {
	var cells []string
	q, from := false, 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			q = !q
		case d:
			if !q {
				cells = append(cells, line[from:i])
				from = i + 1
			}
		}
	}
	return append(cells, line[from:])
}

// headerCol returns the index of the header cell that names a secret's
// column (a password's in any language the prose rules know, a secret, a
// token, an API key), or -1; a header is three or more short cells.
func headerCol(line string) int {
	if cols := headerCols(line); len(cols) > 0 {
		return cols[0]
	}
	return -1
}

// headerCols returns every secret's column of a header row (AWS's
// credentials CSV has an empty Password column before its Secret access
// key), or nil.
func headerCols(line string) []int {
	d := delimiter(strings.TrimRight(line, "\r"))
	if d == 0 {
		return nil
	}
	cells := splitCells(strings.TrimRight(line, "\r"), d)
	var at []int
	for i, c := range cells {
		c = strings.Trim(strings.TrimSpace(c), `"'`)
		if len(c) > 40 || c == "" {
			return nil
		}
		if tableSecretWord(c) && !idName(strings.ReplaceAll(c, " ", "_")) {
			at = append(at, i)
		}
	}
	return at
}

// maskDelimited masks, in the rows after a delimited header, the cell
// under its secret's column where it looks chosen or made.
func maskDelimited(t string) string {
	lines := strings.SplitAfter(t, "\n")
	head := strings.TrimRight(lines[0], "\r\n")
	cols := headerCols(head)
	if len(cols) == 0 {
		return t
	}
	d := delimiter(head)
	n := len(splitCells(head, d))
	for k := 1; k < len(lines); k++ {
		body := strings.TrimRight(lines[k], "\r\n")
		cells := splitCells(body, d)
		if len(cells) != n {
			break
		}
		changed := false
		for _, at := range cols {
			c := cells[at]
			v := strings.Trim(strings.TrimSpace(c), `"'`)
			if v == "" || strings.ContainsAny(v, " \t") || notAValue(v) || redacted(v) || pathLike(v) || strings.Contains(v, "://") ||
				!(made(v) || random(v) || chosen(v) || wordsAndNumber(v) || symbolMixed(v) || scrambled(v)) {
				continue
			}
			cells[at] = strings.Replace(c, v, Mask, 1)
			changed = true
		}
		if changed {
			lines[k] = strings.Join(cells, string(d)) + lines[k][len(body):]
		}
	}
	return strings.Join(lines, "")
}
