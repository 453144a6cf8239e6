package redact

import "testing"

// TestRound28 holds shapes written for the twenty-eighth round's classes
// (none from any corpus): look-alikes first. A cookie whose value is a
// stand-in shown where it was (<omitted>, <redacted>); beside it, a
// session's value. Vercel's deployment, project and team ids; beside
// them, a token with a vendor's prefix. The rest of a regular expression
// after the key it names (a redactor's own pattern); beside it, a value.
func TestRound28(t *testing.T) {
	judgeRound(t, []roundCase{
		// A cookie's stand-in.
		{"cookie omitted", "Set-Cookie: sessionid=<omitted>; Path=/; Secure", ""},
		{"cookie stand-in header", "Cookie: session=<redacted>; theme=dark", ""},
		{"cookie session value", "Set-Cookie: sessionid=q7lx2vt9rw4pnys3hq8lmz2kp9ts; Path=/", "q7lx2vt9rw4pnys3hq8lmz2kp9ts"},
		// Vercel's object ids.
		{"vercel deployment id", "vercel inspect dpl_7Hq2LmZ9kP4tSbVnC8xR3wY6dF1g --logs", ""},
		{"vercel project id", "VERCEL_PROJECT_ID=prj_Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s", ""},
		{"vercel team id", "team: team_Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2kP9t (acme)", ""},
		{"vendor prefixed token", "export DEPLOY_KEY=dpk_Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sQm7L", "dpk_Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0sQm7L"},
		// A regular expression's rest after the key.
		{"regex group close", `    return re.sub(r"(token=)[^&\s]+", r"\1[x]", url)`, ""},
		{"regex js class", `const scrub = s => s.replace(/(password:)\s*\S+/g, "$1 ***");`, ""},
		{"regex negated class", `pattern = "secret=[^&]+"`, ""},
		{"paren password", "db_password=)Kq7#vL2xR9!mN4", ")Kq7#vL2xR9!mN4"},
	})
}
