package lifecycle

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// TestRefusedReplyQuotesNoSecret: a reply that is not the JSON asked for
// is quoted in the error reflect, consolidate and eval build print (and the
// dashboard's maintenance page shows); a secret the model wrote in it is
// redacted there, a private key cut by the quote's length limit included.
func TestRefusedReplyQuotesNoSecret(t *testing.T) {
	const token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	const keyBody = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"
	replies := []string{
		"Sure! I could not make JSON; the token you need is " + token + ".",
		"Here: -----BEGIN OPENSSH PRIVATE KEY-----\n" + keyBody + "\n" + strings.Repeat(keyBody+"\n", 4) + "-----END OPENSSH PRIVATE KEY-----\n",
	}
	for _, reply := range replies {
		ctx := context.Background()
		s := openStore(t)
		episodics(t, s, "demo", 5)
		add(t, s, note.Semantic, "demo", "A fact", "alpha", "2026-01-01T00:00:00+00:00")
		add(t, s, note.Semantic, "demo", "B fact", "beta", "2026-01-02T00:00:00+00:00")
		srv := newStandIn(t)
		srv.answer(reply)
		srv.answer(reply)
		srv.answer(reply)
		_, rerr := Reflect(ctx, s, srv.client(t, 5*time.Second), []string{"demo"}, 5, Options{MachineID: "box"})
		_, cerr := Consolidate(ctx, s, srv.client(t, 5*time.Second), []string{"demo"}, 2, nil, Options{MachineID: "box"})
		_, berr := Build(ctx, s, srv.client(t, 5*time.Second), 1, []string{note.Semantic}, "")
		for what, err := range map[string]error{"reflect": rerr, "consolidate": cerr, "eval build": berr} {
			if err == nil || !strings.Contains(err.Error(), "not a JSON array") {
				t.Fatalf("%s: err %v, want the refusal", what, err)
			}
			if strings.Contains(err.Error(), token) || strings.Contains(err.Error(), keyBody[:40]) {
				t.Errorf("%s quotes the secret of the model's reply: %v", what, err)
			}
		}
	}
}
