package redact

import "testing"

// TestRound25 holds shapes written for the twenty-fifth round's classes
// (none from any corpus). Look-alikes first: a vendor's prefix before a
// placeholder of one repeated character (SG.xxxx.xxxx), a PEM block in an
// env file's string whose body is elided between escaped newlines, a
// command's long option after a path that ends in "token", Python's
// %(NAME)s interpolation; beside each, the secret of the same layout.
func TestRound25(t *testing.T) {
	judgeRound(t, []roundCase{
		// A vendor's prefix before a placeholder.
		{"sendgrid placeholder", "SENDGRID_KEY=SG.yyyyyyyyyyyyyyyyyyyyyy.yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy", ""},
		{"prefixed zeros", "TOKEN=ab.000000000000000000000000", ""},
		{"sendgrid key", "SENDGRID_KEY=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", "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"},
		// A PEM body elided between escaped newlines.
		{"pem elided escaped", `SIGNING_KEY="-----BEGIN EC PRIVATE KEY-----\n…\n-----END EC PRIVATE KEY-----"`, ""},
		{"pem escaped", `SIGNING_KEY="-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBq3Zk7pQ2vL9xR4mN8tY1wB6cF0hJ5sD3gA7eK2uP9iO4MoAoGCCqGSM49\n-----END EC PRIVATE KEY-----"`, "MHcCAQEEIBq3Zk7pQ2vL9xR4mN8tY1wB6cF0hJ5sD3gA7eK2uP9iO4MoAoGCCqGSM49"},
		// A long option after a path ending in "token".
		{"option after token", "vault kv get -mount=secret ci/deploy/token --format-output json", ""},
		{"ssm option", "aws ssm get-parameter --name /ci/npm/token --with-decryption --region eu-west-1", ""},
		{"token value", "token 9f8e7d6c5b4a39281706f5e4d3c2b1a0", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"},
		// Python's %-interpolation names the value.
		{"percent interpolation", `api_secret = "%(API_SECRET)s"`, ""},
		{"configparser interpolation", "password = %(dbpassword)s", ""},
		{"percent in password", `api_secret = "%(Zq8v!Lm2)s-Rt7Wx4Kp9"`, "%(Zq8v!Lm2)s-Rt7Wx4Kp9"},
	})
}
