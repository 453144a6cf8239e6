package redact

import "testing"

// TestRound23 holds shapes written for the twenty-third round's classes
// (none from any corpus). Look-alikes first: a Mapbox public token (pk.
// and a base64 JSON header) under any name, beside its secret twin
// (sk.); an element's key attribute (React's key="…", Vue's :key), beside
// a configuration's <add key=… value=…>; a comment in which a key word is
// followed by prose ("# no client secret: federated credentials via
// OIDC"), beside a comment that gives a value; a bare "secret" key given
// a stored object's name ("secret: app-tls"), beside a chosen password.
func TestRound23(t *testing.T) {
	judgeRound(t, []roundCase{
		// A Mapbox public token is public under any name.
		{"mapbox public", "const token = 'pk.eyJ1IjoibWFwcyIsImEiOiJjbHg3In0.Qm7Lx2Vt9Rw4PnYs3Hq8Lm';", ""},
		{"mapbox public env", "MAPBOX_ACCESS_TOKEN=pk.eyJ1IjoiZGV2IiwiYSI6ImNrMiJ9.Xq7Lm2Zk9Vt4Rw8PnYs3Hq", ""},
		{"mapbox secret", "MAPBOX_ACCESS_TOKEN=sk.eyJ1IjoiZGV2IiwiYSI6ImNrMiJ9.Xq7Lm2Zk9Vt4Rw8PnYs3Hq", "Xq7Lm2Zk9Vt4Rw8PnYs3Hq"},
		// An element's key attribute.
		{"react key", `{items.map(i => <Row key="V1StGXR8_Z5jdHi6B-myT" item={i} />)}`, ""},
		{"vue key", `<li v-for="t in todos" :key="Qm7Lx2Vt9Rw4PnYs3Hq8L">{{ t.text }}</li>`, ""},
		{"dotnet add key", `<add key="StripeSecret" value="sk_live_Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2" />`, "sk_live_Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2"},
		{"key attr secret word", `api_key="Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2"`, "Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2"},
		// A comment in which a key word is followed by prose.
		{"comment prose", "# api token: generated per run by the CI job", ""},
		{"comment prose slashes", "// password: stored in the keychain under acme-ci", ""},
		{"comment value", "# password: Qm7#vT2pLx9", "Qm7#vT2pLx9"},
		{"comment value word", "# password: hunter2 for the staging box", "hunter2"},
		// A stored object's name under a bare "secret" key.
		{"secret object name", "  secret: db-credentials", ""},
		{"secret chosen", "secret: Mango-Orbit-77", "Mango-Orbit-77"},
		{"secret word digits", "secret: orbit-mango-4471", "orbit-mango-4471"},
	})
}
