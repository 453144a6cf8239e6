package redact

import (
	"strings"
	"testing"
)

// TestRound12 holds shapes written for the twelfth round's mechanisms
// (none from any corpus): each class's catches and the look-alikes it
// must leave intact.
func TestRound12(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		// pkg/mnemonic: a BIP39 mnemonic by its checksum, named or not.
		{"seed in chat", "ok restored it from clarify service duty above pyramid garlic method imitate whip company slot shadow - thanks", "ok restored it from [REDACTED:mnemonic] - thanks"},
		{"seed numbered", "1. stand\n2. tape\n3. topic\n4. reason\n5. toe\n6. allow\n7. yellow\n8. onion\n9. like\n10. biology\n11. face\n12. distance", "1. [REDACTED:mnemonic]"},
		{"bad checksum stays", "feel repeat picnic turn upset push theme can saddle suit spoon unhappy", "feel repeat picnic turn upset push theme can saddle suit spoon unhappy"},
		{"common words stay", "about above across act action actor actual adapt add address adjust admit", "about above across act action actor actual adapt add address adjust admit"},
		{"test vector stays", "BIP39 vector: abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about", "BIP39 vector: abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"},
		// A flag documented, not given: a help line's description, a verb,
		// a sentence in Japanese or Chinese.
		{"help line", "-p, --password   prompt for the password before connecting", "-p, --password   prompt for the password before connecting"},
		{"flag then verb", "passing --token alone makes the CLI read it from the keyring", "passing --token alone makes the CLI read it from the keyring"},
		{"flag then description", "  --api-key   the key to authenticate with (see docs)", "  --api-key   the key to authenticate with (see docs)"},
		{"flag ja prose", "--passphrase を省略すると、実行時に入力を求められます。", "--passphrase を省略すると、実行時に入力を求められます。"},
		{"flag zh prose", "--password 参数为空时，程序会提示输入。", "--password 参数为空时，程序会提示输入。"},
		{"flag value still", "mysqladmin --password hunter2Q7 status", "mysqladmin --password [REDACTED] status"},
		// Placeholders and references: "word1 … word12", a credential
		// loaded from a file (systemd), a key's name on the line after a
		// token URL, a PEM header in prose.
		{"placeholder seed", "seed: word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12", "seed: word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12"},
		{"loadcredential", "LoadCredential=tls-key:/etc/ssl/private/app.key", "LoadCredential=tls-key:/etc/ssl/private/app.key"},
		{"loadcredentialencrypted", "LoadCredentialEncrypted=db:/var/lib/app/db.cred", "LoadCredentialEncrypted=db:/var/lib/app/db.cred"},
		{"setcredential value", "SetCredential=dbpass:Wq8-zzT4-Lm2v", "SetCredential=[REDACTED]"},
		{"token url then key", "issuer: https://id.acme.dev\nrevocation_endpoint: https://id.acme.dev/oauth/token\nintrospection_endpoint: https://id.acme.dev/oauth/introspect", "issuer: https://id.acme.dev\nrevocation_endpoint: https://id.acme.dev/oauth/token\nintrospection_endpoint: https://id.acme.dev/oauth/introspect"},
		{"pem header prose", "Paste the key so it starts with -----BEGIN RSA PRIVATE KEY----- on its own line.", "Paste the key so it starts with -----BEGIN RSA PRIVATE KEY----- on its own line."},
		{"pem truncated", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7", "[REDACTED:private-key]"},
		{"pem proc-type", "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F1", "[REDACTED:private-key]"},
	} {
		if got := String(tt.in); got != tt.want && !(tt.want != tt.in && len(tt.want) < len(tt.in) && strings.Contains(got, tt.want)) {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
