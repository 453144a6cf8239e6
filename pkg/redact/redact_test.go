package redact

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/pairs"
)

func TestString(t *testing.T) {
	const pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nabc+/=\n-----END RSA PRIVATE KEY-----"
	tests := []struct {
		name, in, want string
	}{
		{"fixture prompt 7643d7a9",
			"Wire the health endpoint into app.ts. My deploy token is ghp_abcdefghijklmnopqrstuvwxyz0123456789 and the db password=hunter2-secret",
			"Wire the health endpoint into app.ts. My deploy token is [REDACTED:github-token] and the db password=[REDACTED]"},
		{"pem block", "key:\n" + pem + "\nafter", "key:\n[REDACTED:private-key]\nafter"},
		{"openssh key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n-----END OPENSSH PRIVATE KEY-----", "[REDACTED:private-key]"},
		{"unterminated pem", "x -----BEGIN PRIVATE KEY-----\nMIIEv", "x [REDACTED:private-key]"},
		{"public key kept", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"},
		{"aws key id", "aws AKIAQ3EGU5PLZ7XRT2VN here", "aws [REDACTED:aws-access-key-id] here"},
		{"aws documentation key id", "aws AKIAIOSFODNN7EXAMPLE here", "aws AKIAIOSFODNN7EXAMPLE here"},
		{"aws secret pair", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ9kLm3Np", "aws_secret_access_key = [REDACTED]"},
		// AWS's documented example pair opens no account: a pasted example.
		{"aws documented pair", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
		{"openai key", "use sk-proj-Ab3dEfGhIjKlMnOpQrStUvWx now", "use [REDACTED:api-key] now"},
		{"anthropic key", "sk-ant-api03-abcdefghijklmnop1234567890-xyz", "[REDACTED:api-key]"},
		{"stripe keys", "sk_live_4eC39HqLyjWDarjtT1zdp7dc rk_test_51Hxxxxxxxxxxxxxxxxxxx pk_live_abc1234567890defghij",
			"[REDACTED:api-key] [REDACTED:api-key] pk_live_abc1234567890defghij"},
		// Benign by structure: an ARN names a secret, a reference key
		// names one, a stub repeats its key, an idempotency key is an id.
		{"arn names a secret", "arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf", "arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf"},
		{"reference keys", "existingSecret: redis-auth\nsecretName: db-creds-v2\npasswordFile: /run/secrets/pw", "existingSecret: redis-auth\nsecretName: db-creds-v2\npasswordFile: /run/secrets/pw"},
		{"stub value", `csrf_token = "test-csrf-token"; api_key: "fake-api-key"`, `csrf_token = "test-csrf-token"; api_key: "fake-api-key"`},
		{"idempotency key", "Idempotency-Key: 7d40cc76-1d8d-4a27-a311-4e48e938acb9", "Idempotency-Key: 7d40cc76-1d8d-4a27-a311-4e48e938acb9"},
		{"uuid api key still caught", "HEROKU_API_KEY=7d40cc76-1d8d-4a27-a311-4e48e938acb9 and api_token: 7d40cc76-1d8d-4a27-a311-4e48e938acb9", "HEROKU_API_KEY=[REDACTED] and api_token: [REDACTED]"},
		{"arn then a real secret", "arn:aws:iam::123456789012:role/x password=Xk9#mQ2vLp", "arn:aws:iam::123456789012:role/x password=[REDACTED]"},
		// A reference word decides only as the name's first or last part,
		// and an ARN ends where ARNs do.
		{"middle reference words decide nothing", "REDIS_CACHE_PASSWORD=Xk9mQ2vLpT7w PRIMARY_DB_PASSWORD=Xk9mQ2vLpT7w sort_key_secret=Xk9mQ2vLpT7w SECRET_KEY_BASE_PUBLIC=Xk9mQ2vLpT7w",
			"REDIS_CACHE_PASSWORD=[REDACTED] PRIMARY_DB_PASSWORD=[REDACTED] sort_key_secret=[REDACTED] SECRET_KEY_BASE_PUBLIC=[REDACTED]"},
		{"database keys kept", "sort_key: created_at primary_key: user_id", "sort_key: created_at primary_key: user_id"},
		{"arn ends at ;", "ROLE=arn:aws:iam::123456789012:role/ci;AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ9kLm3Np",
			"ROLE=arn:aws:iam::123456789012:role/ci;AWS_SECRET_ACCESS_KEY=[REDACTED]"},
		{"arn ends at ,", "arn:aws:iam::123456789012:role/x,token=ghp_16C7e42F292c6912E7710c838347Ae178B4a",
			"arn:aws:iam::123456789012:role/x,token=[REDACTED:github-token]"},
		{"kebab words kept", "see pk-long-descriptive-name and sk-learn-is-a-library", "see pk-long-descriptive-name and sk-learn-is-a-library"},
		{"github tokens", "gho_16C7e42F292c6912E7710c838347Ae178B4a and github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv",
			"[REDACTED:github-token] and [REDACTED:github-token]"},
		{"slack", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "[REDACTED:slack-token]"},
		{"bearer", "curl -H 'Authorization: Bearer abc.def-ghi_jkl~mno+pqr/stu=' x", "curl -H 'Authorization: Bearer [REDACTED]' x"},
		{"jwt", "tok eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U end",
			"tok [REDACTED:jwt] end"},
		{"google", "key AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI end", "key [REDACTED:google-api-key] end"},
		{"secret colon", "client secret: s3cr3t-value", "client secret: [REDACTED]"},
		{"token eq", "token=abc123", "token=[REDACTED]"},
		{"api_key eq", "API_KEY=abcd1234 next", "API_KEY=[REDACTED] next"},
		{"env style", "export GITHUB_TOKEN='zzz999'", "export GITHUB_TOKEN='[REDACTED]'"},
		{"json pair", `{"password": "pa ss", "user": "bob"}`, `{"password": "[REDACTED]", "user": "bob"}`},
		{"url password", "postgres://app:Sup3rS3cret@db.internal:5432/x", "postgres://app:[REDACTED]@db.internal:5432/x"},
		{"query token", "https://x.test/cb?token=abc&next=1", "https://x.test/cb?token=[REDACTED]&next=1"},
		// Leaks found in review: short Basic/Bearer credentials, JSON escaped inside a
		// shell command, env names glued to the key word, --flag value, an empty URL user,
		// and well-known token shapes.
		{"basic short", "Authorization: Basic YWRtaW46YWRtaW4=", "Authorization: Basic [REDACTED]"},
		{"bearer short header", `curl -H "Authorization: Bearer s3cr3t" x`, `curl -H "Authorization: Bearer [REDACTED]" x`},
		{"authorization json", `{"Authorization":"Token abc123"}`, `{"Authorization":"Token [REDACTED]"}`},
		{"escaped json", `curl -d "{\"password\": \"hunter2\"}" x`, `curl -d "{\"password\": \"[REDACTED]\"}" x`},
		{"glued env name", "PGPASSWORD=hunter2 psql", "PGPASSWORD=[REDACTED] psql"},
		{"password flag", "docker login -u me --password hunter2 reg", "docker login -u me --password [REDACTED] reg"},
		{"token flag", "gh auth login --with-token --token abc123 x", "gh auth login --with-token --token [REDACTED] x"},
		{"url empty user", "redis://:hunter2@localhost:6379", "redis://:[REDACTED]@localhost:6379"},
		{"url token user", "git clone https://0123456789abcdef0123456789abcdef01234567@github.com/o/r.git",
			"git clone https://[REDACTED]@github.com/o/r.git"},
		{"url github token user", "https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r",
			"https://[REDACTED:github-token]@github.com/o/r"},
		{"gitlab npm hf", "glpat-AbCdEfGhIjKlMnOpQrSt npm_abcdefghijklmnopqrstuvwxyz0123456789 hf_abcdefghijklmnopqrstuvwxyzABCDEFGH",
			"[REDACTED:gitlab-token] [REDACTED:npm-token] [REDACTED:huggingface-token]"},
		{"ssh user kept", "git clone ssh://git@github.com/o/r.git", "git clone ssh://git@github.com/o/r.git"},
		{"flag file kept", "--token-file /run/secrets/t --password-stdin", "--token-file /run/secrets/t --password-stdin"},
		// Prose that mentions the words must survive.
		{"prose token", "The deploy token you pasted should be rotated.", "The deploy token you pasted should be rotated."},
		{"tokenizer", "tokenizer: porter unicode61", "tokenizer: porter unicode61"},
		{"max tokens", "max_tokens=100 input_tokens: 10", "max_tokens=100 input_tokens: 10"},
		{"tests pass", "All tests pass: 12 of 12", "All tests pass: 12 of 12"},
		{"empty value", "password=", "password="},
		{"plain", "nothing to see", "nothing to see"},
		{"unicode", "Grüße password=Straße! 東京", "Grüße password=[REDACTED] 東京"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := String(tt.in)
			if got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if again := String(got); again != got {
				t.Errorf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

// TestFixtureTranscriptSecrets checks every text in the real fixture session
// that carries a token and a password: after redaction neither survives.
func TestFixtureTranscriptSecrets(t *testing.T) {
	path := filepath.Join("../../testdata/fixtures/claude-code/projects/-home-dev-src-quotes-api",
		"7643d7a9-5033-4dfb-984a-0844f04b0266.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	found := 0
	for sc.Scan() {
		var v any
		if json.Unmarshal(sc.Bytes(), &v) != nil {
			continue
		}
		walkStrings(v, func(s string) {
			if !strings.Contains(s, "ghp_") && !strings.Contains(s, "hunter2") {
				return
			}
			found++
			out := String(s)
			for _, secret := range []string{"ghp_abcdefghijklmnopqrstuvwxyz0123456789", "hunter2-secret", "hunter2"} {
				if strings.Contains(out, secret) {
					t.Errorf("secret %q survived in %.200q", secret, out)
				}
			}
		})
	}
	if found == 0 {
		t.Fatal("fixture has no secret-bearing strings; test would prove nothing")
	}
}

func walkStrings(v any, fn func(string)) {
	switch x := v.(type) {
	case string:
		fn(x)
	case []any:
		for _, e := range x {
			walkStrings(e, fn)
		}
	case map[string]any:
		for _, e := range x {
			walkStrings(e, fn)
		}
	}
}

func FuzzString(f *testing.F) {
	f.Add("password=hunter2 ghp_abcdefghijklmnopqrstuvwxyz0123456789")
	f.Add("-----BEGIN PRIVATE KEY-----\nabc")
	f.Add("Bearer abcdefghijklmnopqrstuvwxyz")
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		if String(out) != out {
			t.Errorf("not idempotent on %q: %q", s, out)
		}
	})
}

func BenchmarkString(b *testing.B) {
	s := strings.Repeat("An ordinary sentence about refactoring the health endpoint in app.ts. ", 10)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		String(s)
	}
}

// BenchmarkTranscript redacts a real Claude Code transcript (the largest
// fixture, 180 KB of JSON lines: prompts, commands, tool output, ids and
// hashes), the mix of text a capture hands the redactor.
func BenchmarkTranscript(b *testing.B) {
	data, err := os.ReadFile("../../testdata/fixtures/claude-code/projects/-home-dev-src-quotes-api/82bbae79-5e52-46b7-ad51-8df6a1dfb533.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	s := string(data)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		String(s)
	}
}

// TestRulesCompile: every rule's regexp compiles (they are compiled on first
// use, so a bad one would otherwise panic only on the text that needs it).
func TestRulesCompile(t *testing.T) {
	for _, ru := range New().rules {
		if ru.re.Get() == nil {
			t.Fatalf("rule %s: no regexp", ru.name)
		}
	}
}

// TestPairSetExact: ruling hints out by byte pairs never changes anyHint's
// answer (a hint in the text has every one of its pairs in it).
func TestPairSetExact(t *testing.T) {
	texts := []string{"", "a", "ghp_x", "the token you pasted", "password=hunter2 and akia", "日本語 sk- key-"}
	for _, ru := range New().rules {
		for _, h := range ru.hints {
			texts = append(texts, "x "+h+" y", h, h[:len(h)/2])
		}
	}
	for _, s := range texts {
		lower := strings.ToLower(s)
		p := pairs.Of(lower)
		for _, ru := range New().rules {
			if anyHint(p, lower, ru.hints) != anyHint(nil, lower, ru.hints) {
				t.Fatalf("%q, rule %s: pair set says %v", s, ru.name, anyHint(p, lower, ru.hints))
			}
		}
	}
}
