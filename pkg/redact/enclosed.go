package redact

import (
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/lazy"
)

// enclosedRules find a secret named by what encloses it, not by its own
// key, and by the syntax around a value rather than a key word:
//   - a value inside an object, a list or a block whose own name names a
//     private key, a token, a secret, a credential or a cookie
//     (Tendermint's "priv_key": {"type": …, "value": "…"}, Consul's acl {
//     tokens { agent = "uuid" } }, a Playwright storage state's "cookies":
//     [{"name": "sid", "value": "…"}]): the child's own key (value, agent,
//     default) says nothing, the parent says what it is (a Terraform
//     resource named for an API key: resource "aws_ssm_parameter"
//     "dd_api_key" { value = "…" }). A value is taken
//     when it is generated (random, a long hex or base64 key) or, for a
//     parent that names a token or a secret, a uuid under a key that is no
//     id; descriptive fields (a type, a domain, a path, a name) stay;
//   - a cookie known by the attributes after it (name=value; path=/;
//     Secure; HttpOnly; SameSite), as a Set-Cookie header or a browser's
//     devtools print one, whatever its name: a random value is removed.
func enclosedRules() []rule {
	return []rule{{
		name:   "secret-value",
		window: true,
		span:   2000,
		hints:  []string{"priv", "token", "secret", "cookie", "credential", "password", "api_key", "api-key", "apikey", "encryption"},
		gate:   opensBlock,
		re: lazy.RE(`(?i)(["']?[\w.-]*(?:priv(?:ate)?[_-]?key|privkey|api[_-]?keys?|encryption|tokens?|secrets?|credentials?|passwords?|cookies?)["']?[ \t]*[:=]?[ \t]*[{\[])` +
			`((?:[^{}\[\]]|\{[^{}\[\]]*\})*)([}\]])` +
			// YAML: the name alone on its line, its block the lines below
			// it that are indented.
			`|(?im)(^[ \t]*["']?[\w.-]*(?:priv(?:ate)?[_-]?key|privkey|encryption|tokens?|secrets?|credentials?|passwords?|cookies?)["']?:[ \t]*\r?\n)((?:[ \t]+[^\n]*(?:\n|$))+)()`),
		repl: func(m []string) string {
			if m[1] == "" {
				return m[4] + maskEnclosed(m[4], m[5])
			}
			return m[1] + maskEnclosed(m[1], m[2]) + m[3]
		},
		keep: func(m []string) bool {
			parent, block := m[1]+m[4], m[2]+m[5]
			return len(block) > 4000 || maskEnclosed(parent, block) == block
		},
	}, {
		// A key store given encoded under its name (ANDROID_KEYSTORE_BASE64=,
		// signing.p12:, PFX_B64): a PKCS#12 or a JKS store holds private
		// keys, whatever bytes its encoding starts with.
		name:  "private-key",
		hints: []string{"keystore", "key_store", "p12", "pfx", "pkcs12", "jks"},
		re:    lazy.RE(`(?i)(\b[\w.-]*(?:keystore|key_store|p12|pfx|pkcs12|jks)[\w.-]*["']?[ \t]*[:=][ \t]*["']?)([A-Za-z0-9+/]+={0,2})`),
		repl:  func(m []string) string { return m[1] + Mask },
		keep:  func(m []string) bool { return len(m[2]) < 64 || !random(m[2]) },
	}, {
		// A CLI's table printed with its columns apart by spaces and a
		// rule of dashes under the header (az … keys list -o table): the
		// cells under a column the header names a secret, or under Value
		// where another column names keys or secrets, are the values.
		name:  "secret-value",
		hints: []string{"---"},
		pre: func(lower string) bool {
			return strings.Contains(lower, "- -") || strings.Contains(lower, "-  -") || strings.Contains(lower, "-\t-")
		},
		re:   lazy.RE(`(?m)^([^\n]*\n)(-{3,}(?:[ \t]+-{3,})+[ \t]*\n)((?:[^\n]*\S[^\n]*(?:\n|$))+)`),
		repl: func(m []string) string { return m[1] + m[2] + maskColumns(m[1], m[2], m[3]) },
		keep: func(m []string) bool { return maskColumns(m[1], m[2], m[3]) == m[3] },
	}, {
		name:  "cookie",
		hints: []string{"path=", "httponly", "samesite", "secure"},
		re:    lazy.RE(`(?i)(\b[\w.-]{2,64}=)([A-Za-z0-9%+/=_.~-]+)(;[ \t]*(?:path|domain|expires|max-age|secure|httponly|samesite)\b)`),
		repl:  func(m []string) string { return m[1] + Mask + m[3] },
		keep: func(m []string) bool {
			v := strings.NewReplacer("%2B", "+", "%2b", "+", "%2F", "/", "%2f", "/", "%3D", "=", "%3d", "=").Replace(m[2])
			return len(v) < 16 || !(random(v) || generated(v)) || notAValue(v)
		},
	}}
}

// childValueRE is a child's key and its quoted value inside an enclosing
// block.
var childValueRE = lazy.RE(`(["']?([\w.-]+)["']?[ \t]*[:=][ \t]*)(["']?)([^"'\s,}\]]{8,})(["']?)`)

// maskEnclosed masks the generated values of a block whose name (parent,
// the name with its opener) names a secret.
func maskEnclosed(parent, block string) string {
	p := strings.ToLower(parent)
	tokenish := strings.Contains(p, "token") || strings.Contains(p, "secret") || strings.Contains(p, "credential") || strings.Contains(p, "password")
	return childValueRE.Get().ReplaceAllStringFunc(block, func(kv string) string {
		m := childValueRE.Get().FindStringSubmatch(kv)
		key, v := strings.ToLower(m[2]), m[4]
		if describing.Get()[key] || strings.HasSuffix(key, "_id") || strings.HasSuffix(key, "id") && key != "id" && len(key) > 2 && !strings.HasSuffix(key, "aid") || key == "id" || key == "uuid" {
			return kv
		}
		if generated(v) || random(v) && len(v) >= 20 && !strings.Contains(v, "/") || strings.ContainsAny(v, "+/=") && random(v) && !strings.Contains(v, "://") || tokenish && uuidShape(v) {
			if notAValue(v) || strings.Contains(v, "://") || pathLike(v) || fakeSpan(v) || strings.Trim(v, "0-") == "" {
				return kv
			}
			return m[1] + m[3] + Mask + m[5]
		}
		return kv
	})
}

// describing are the keys of a block that describe its secret instead of
// holding it.
var describing = &lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"type": true, "kind": true, "name": true, "domain": true, "path": true, "expires": true, "samesite": true, "algorithm": true, "alg": true, "kid": true,
		"use": true, "description": true, "address": true, "url": true, "issuer": true, "audience": true, "scope": true, "scopes": true, "format": true, "encoding": true, "created": true,
		"created_at": true, "updated_at": true, "expires_at": true, "expiry": true, "region": true, "pub_key": true, "public_key": true, "publickey": true, "fingerprint": true, "sha256": true, "hash": true, "digest": true, "checksum": true}
}}

// maskColumns masks, in the rows of a table whose header and rule of
// dashes are given, the generated cells of the columns that hold secrets.
func maskColumns(header, dashes, rows string) string {
	var cols [][2]int
	for i := 0; i < len(dashes); {
		if dashes[i] != '-' {
			i++
			continue
		}
		j := i
		for j < len(dashes) && dashes[j] == '-' {
			j++
		}
		cols = append(cols, [2]int{i, j})
		i = j
	}
	h := strings.ToLower(header)
	names := make([]string, len(cols))
	keyed := false
	for k, c := range cols {
		if c[0] < len(h) {
			names[k] = strings.TrimSpace(h[c[0]:min(c[1], len(h))])
		}
		if anyOf(names[k], "key", "secret", "credential", "password", "token") {
			keyed = true
		}
	}
	var secretCols []int
	for k, n := range names {
		if n == "value" && keyed || anyOf(n, "secret", "password", "token", "connectionstring", "connection string") || n == "key" || strings.HasSuffix(n, " key") && !strings.Contains(n, "id") {
			secretCols = append(secretCols, k)
		}
	}
	if len(secretCols) == 0 {
		return rows
	}
	lines := strings.SplitAfter(rows, "\n")
	for li, l := range lines {
		for _, k := range secretCols {
			c := cols[k]
			if c[0] >= len(l) {
				continue
			}
			end := len(l)
			if k+1 < len(cols) && cols[k+1][0] <= len(l) {
				end = cols[k+1][0]
			}
			cell := strings.TrimSpace(l[c[0]:end])
			if len(cell) >= 16 && (generated(cell) || random(cell)) && !strings.Contains(cell, " ") && !fakeSpan(cell) {
				l = strings.Replace(l, cell, Mask, 1)
			}
		}
		lines[li] = l
	}
	return strings.Join(lines, "")
}

// opensBlock reports a hint whose name (the rest of its word, a closing
// quote) is followed by an opening brace or bracket, or by a colon that
// ends its line: the name of a block, not of a value.
func opensBlock(lower string, end int) bool {
	i := end
	for i < len(lower) && i < end+40 && (isAlnum(lower[i]) || lower[i] == '_' || lower[i] == '-' || lower[i] == '.') {
		i++
	}
	for i < len(lower) && (lower[i] == '"' || lower[i] == '\'' || lower[i] == ' ' || lower[i] == '\t') {
		i++
	}
	if i < len(lower) && (lower[i] == ':' || lower[i] == '=') {
		i++
		for i < len(lower) && (lower[i] == ' ' || lower[i] == '\t') {
			i++
		}
		if i < len(lower) && (lower[i] == '\n' || lower[i] == '\r') {
			return true
		}
	}
	return i < len(lower) && (lower[i] == '{' || lower[i] == '[')
}
