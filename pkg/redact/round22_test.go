package redact

import (
	"strings"
	"testing"
)

// TestRound22 holds shapes written for the twenty-second round's classes
// (none from any corpus). Look-alikes first: a template's action where a
// braced password would be (consul-template's {{ with secret "…" }},
// Jinja's {% … %}), a publishable key under any name (pk_live_…,
// pk_test_…), a lookup key built from words and a digest (a CI cache's
// key template). Beside each, the secret of the same layout.
func TestRound22(t *testing.T) {
	for _, tt := range []struct{ name, in, secret string }{
		// A template's action is a reference.
		{"consul template", "password = {{ with secret \"secret/data/prod/api\" }}{{ .Data.data.password }}{{ end }}", ""},
		{"jinja action", "PWD = {% if prod %}{{ vault_pw }}{% endif %}", ""},
		{"odbc braced", "Driver={ODBC Driver 18};Server=db;PWD={Xk9;pQ2mZ7vqL}", "Xk9;pQ2mZ7vqL"},
		// A publishable key is public under any name.
		{"clerk publishable", "VITE_CLERK_PUBLISHABLE_KEY=pk_live_Y2xlcmsuZXhhbXBsZS5jb20k", ""},
		{"stripe publishable yaml", "stripe:\n  client_key: \"pk_test_51HqLmZ2xVt4RwP7nYsK8Hq2\"", ""},
		{"stripe secret same name", "stripe:\n  client_key: \"sk_test_51HqLmZ2xVt4RwP7nYsK8Hq2\"", "sk_test_51HqLmZ2xVt4RwP7nYsK8Hq2"},
		{"pk not a mode", "APP_KEY=pk_Xq7Lm2Zk9Vt4Rw8PnYs3", "pk_Xq7Lm2Zk9Vt4Rw8PnYs3"},
		// A lookup key of words and a digest.
		{"cache key sha256", "Cache saved with key: pip-cache-Windows-py311-5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592", ""},
		{"cache key sha1", "restore_cache key: gradle-deps-linux-2fd4e1c67a2d28fced849ee1bb76e7391b93eb12", ""},
		{"key random run", "deploy key: Xq7Lm2Zk9Vt4Rw8PnYs3Hq2LmZ9xVt4RwP7nYs", "Xq7Lm2Zk9Vt4Rw8PnYs3Hq2LmZ9xVt4RwP7nYs"},
		{"key word then random", "signing key: prod-Xq7Lm2Zk9Vt4Rw8PnYs3Hq2LmZ9xVt4RwP7nYs", "Xq7Lm2Zk9Vt4Rw8PnYs3Hq2LmZ9xVt4RwP7nYs"},
	} {
		got := String(tt.in)
		if tt.secret == "" {
			if got != tt.in {
				t.Errorf("%s: look-alike changed:\n got %q\nwant %q", tt.name, got, tt.in)
			}
			continue
		}
		if strings.Contains(got, tt.secret) {
			t.Errorf("%s: secret kept: %q", tt.name, got)
		}
	}
}
