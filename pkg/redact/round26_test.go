package redact

import "testing"

// TestRound26 holds shapes written for the twenty-sixth round's classes
// (none from any corpus): a chat line that tells of a credential made
// anew and hands it over after an arrow with no name for it ("new one
// for prod, rotate friday -> …"); beside it, the same words before a
// path, a ticket, a word or a commit's short hash.
func TestRound26(t *testing.T) {
	judgeRound(t, []roundCase{
		// A credential made anew, handed over after an arrow.
		{"chat rotate arrow", "[09:14] lee: new one for prod, rotate friday -> Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2", "Qm7Lx2Vt9Rw4PnYs3Hq8LmZ2"},
		{"chat new key", "@ana: new key for the worker => 9f8e7d6c5b4a39281706f5e4d3c2b1a0", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"},
		{"chat rotated dotted", "rotated it this morning → xk.live.Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s", "xk.live.Zk3pQ7vL2xR9mN4tY8wB1cF6hJ0s"},
		{"chat regenerated quoted", "regenerated after the leak -> 'Hn4Lq8Zt2Vw7Rx3Kp9Ts'", "Hn4Lq8Zt2Vw7Rx3Kp9Ts"},
		{"rotate path", "new one for staging, rotate after the demo -> /etc/logrotate.d/api-gateway", ""},
		{"rotate ticket", "key rotation -> tracked in OPS-4411-followup-notes", ""},
		{"rotate words", "log rotation -> weekly_compressed_archives", ""},
		{"rotate short hash", "rotated the signing key -> see commit 4f9a2c1", ""},
	})
}
