package redact

import "strings"

// cliRules find a secret a command sets by its own syntax rather than by a
// password flag: a secret-setting subcommand of any tool (gh secret set
// NAME --body V, pulumi config set --secret NAME V, doppler secrets set
// NAME V, dotnet user-secrets set KEY V, az keyvault secret set --value V,
// aws secretsmanager put-secret-value --secret-string V), and an
// encrypted database's key given by PRAGMA (SQLCipher's PRAGMA key = 'V').
func cliRules() []rule {
	return []rule{
		{
			// The value after a flag that carries it.
			name:  "secret-value",
			hints: []string{"secret", "--body"},
			pre: func(lower string) bool {
				return anyOf(lower, "--body", "--value", "--secret-string", "--secret-value", "--data ")
			},
			re: lazyRE(`(?i)(\bsecrets?[ \t]+(?:set|put|add|create|update)\b[^\n|;&]*?[ \t](?:--body|-b|--value|--secret-string|--secret-value|--data)(?:[ \t]+|=))('[^'\n]+'|"[^"\n]+"|[^\s'"]+)|(\bput-secret-value\b[^\n|;&]*?[ \t]--secret-string(?:[ \t]+|=))('[^'\n]+'|"[^"\n]+"|[^\s'"]+)`),
			repl: func(m []string) string {
				if m[1] != "" {
					return m[1] + quoteMask(m[2])
				}
				return m[3] + quoteMask(m[4])
			},
			keep: func(m []string) bool { return cliNotSecret(m[2] + m[4]) },
		},
		{
			// A name and its value by position after a secret-setting
			// subcommand: the name is kept, the value masked.
			name:  "secret-value",
			hints: []string{"secret"},
			pre:   func(lower string) bool { return anyOf(lower, "secret set", "secrets set", "config set") },
			re:    lazyRE(`(?i)(\b(?:config[ \t]+set[ \t]+--secret|(?:user-)?secrets[ \t]+set|secret[ \t]+set)[ \t]+(?:-[a-z-]+[ \t]+)*["']?[A-Za-z_][A-Za-z0-9_.:-]*["']?[ \t]+)('[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep:  func(m []string) bool { return cliNotSecret(m[2]) },
		},
		{
			// SQLCipher's key: PRAGMA key = 'V' (or rekey; x'…' is raw hex).
			name:  "secret-value",
			hints: []string{"pragma"},
			re:    lazyRE(`(?i)(\bPRAGMA[ \t]+(?:[a-z_]+\.)?(?:re)?key[ \t]*=[ \t]*)("[^"\n]+"|'[^'\n]+')`),
			repl:  func(m []string) string { return m[1] + quoteMask(m[2]) },
			keep:  func(m []string) bool { return cliNotSecret(m[2]) },
		},
	}
}

// cliNotSecret reports a command's argument that is no secret: a
// reference ($VAR, a file by @ or <), a stand-in, one already masked.
func cliNotSecret(v string) bool {
	v = strings.Trim(v, `'"`)
	return v == "" || redacted(v) || notAValue(v) || strings.HasPrefix(v, "@") || strings.HasPrefix(v, "<") || strings.HasPrefix(v, "file://") || strings.HasPrefix(v, "fileb://")
}
