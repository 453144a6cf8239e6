package redact

import (
	"strings"
	"testing"
)

// TestRound16 holds shapes written for the sixteenth round's classes (none
// from any corpus): a value that says where a secret is kept or how it is
// read is left intact, beside the real secret of the same shape; a key
// given as a literal to a signing or MAC call, a variable named …_KEY set
// by a shell's directive, a password piped to runas are caught.
func TestRound16(t *testing.T) {
	for _, tt := range []struct{ name, in, secret string }{
		// A reference in the value's place: a YAML tag handing the value
		// to a store, an annotation or a call that reads it, a cmdlet that
		// prompts for it, a manifest's pointer by name.
		{"vault tag in xml", "<password>!vault |</password>", ""},
		{"vault tag block", "db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6331", ""},
		{"home assistant secret", "wifi_password: !secret wifi_pw", ""},
		{"cloudformation ref", "MasterUserPassword: !Ref DbPassword", ""},
		{"esphome env", "password: !env_var DB_PASS", ""},
		{"spring value", "api_key = @Value(\"${spring.datasource.password}\")", ""},
		{"spring value export", "export API_KEY=@Value(\"${spring.datasource.password}\")", ""},
		{"spring field", "@Value(\"${jwt.secret}\") private String jwtSecret;", ""},
		{"getpass", "password = getpass.getpass(\"Password: \")", ""},
		{"environ get", "api_key = os.environ.get(\"API_KEY\")", ""},
		{"input call", "token = input(\"token: \")", ""},
		{"prompt call", "secret = prompt(\"Enter secret\")", ""},
		{"getter", "password = getPassword()", ""},
		{"secretKeyRef yaml", "password: secretKeyRef", ""},
		{"secretKeyRef properties", "spring.datasource.password=secretKeyRef", ""},
		{"valueFrom", "client_secret: valueFrom", ""},
		{"keyVaultReference", "DB_PASSWORD: keyVaultReference", ""},
		{"read-host", "$password = Read-Host -AsSecureString 'Password'", ""},
		{"get-secret", "$token = Get-Secret -Name GitHubToken -AsPlainText", ""},
		{"convertto", "$secure = ConvertTo-SecureString $plain -AsPlainText -Force", ""},
		{"get-credential", "$cred = Get-Credential", ""},
		// Real values of the same shapes stay caught.
		{"bang password", "password: !Xk9mQ2vLp8", "!Xk9mQ2vLp8"},
		{"bang glued", "DB_PASSWORD=!vault9Xk2pQ", "vault9Xk2pQ"},
		{"dash words", "password: Correct-Horse", "Correct-Horse"},
		{"dash digit", "password: Blue-Falcon7", "Blue-Falcon7"},
		{"ref-like", "password: fooRefX9", "fooRefX9"},
		{"at token", "token: @Xk9mQ2vLp8wZ", "Xk9mQ2vLp8wZ"},
		// A key given as a literal to a signing or MAC call.
		{"pyjwt encode", "token = jwt.encode(claims, \"Rk4qLm9TzWp2Xk7Vb3Nc8Yd1Hf5Gj6Sa\", algorithm=\"HS256\")", "Rk4qLm9TzWp2Xk7Vb3Nc8Yd1Hf5Gj6Sa"},
		{"node sign", "jwt.sign(payload, 'Zp3Lq8WmRt2Xk7Vb4Nc9Yd6HqT5', { expiresIn: '1h' })", "Zp3Lq8WmRt2Xk7Vb4Nc9Yd6HqT5"},
		{"node verify", "jwt.verify(token, 'Xk9mQ2vLp8wZr4Tq7Yb3Xk9mQ')", "Xk9mQ2vLp8wZr4Tq7Yb3Xk9mQ"},
		{"pyjwt decode", "jwt.decode(token, \"Tr6Wq2LmZx9Pk4Vb7Nc3Yd8H\", algorithms=[\"HS256\"])", "Tr6Wq2LmZx9Pk4Vb7Nc3Yd8H"},
		{"python hmac", "mac = hmac.new(b\"Xk9mQ2vLp8wZr4Tq7Yb3\", msg, hashlib.sha256)", "Xk9mQ2vLp8wZr4Tq7Yb3"},
		{"node hmac", "crypto.createHmac('sha256', 'Lm2Qz7WxRt4Pk9Vb3Nc8').update(body)", "Lm2Qz7WxRt4Pk9Vb3Nc8"},
		{"jjwt", "Jwts.builder().signWith(Keys.hmacShaKeyFor(\"Wq9Lm2ZxTr7Pk4Vb8Nc3Yd6HWq9Lm2ZxTr7\".getBytes()))", "Wq9Lm2ZxTr7Pk4Vb8Nc3Yd6HWq9Lm2ZxTr7"},
		{"go jwt", "token, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(\"Px7Lq3WmZt8Rk2Vb9Nc4\"))", "Px7Lq3WmZt8Rk2Vb9Nc4"},
		{"php hmac", "$sig = hash_hmac('sha256', $body, 'Hx4qLm9TzWp2Rk7Vb3Nc');", "Hx4qLm9TzWp2Rk7Vb3Nc"},
		{"ruby hmac", "sig = OpenSSL::HMAC.hexdigest('SHA256', 'Qm7wTz2xLp9RtXc4Vb8N', data)", "Qm7wTz2xLp9RtXc4Vb8N"},
		// Stand-ins, references and a payload's claims stay.
		{"jwt stand-in", "jwt.encode(claims, \"secret\", algorithm=\"HS256\")", ""},
		{"jwt docs secret", "jwt.sign(payload, 'your-256-bit-secret')", ""},
		{"jwt env", "jwt.sign(payload, process.env.JWT_SECRET, { expiresIn: '1h' })", ""},
		{"jwt settings", "jwt.encode(claims, settings.SECRET_KEY, algorithm=\"HS256\")", ""},
		{"jwt claim", "jwt.sign({ sub: 'user-1234567890' }, key)", ""},
		{"jwt claim py", "jwt.encode({\"sub\": \"1234567890abcdef\"}, key, algorithm=\"HS256\")", ""},
		{"hmac message", "crypto.createHmac('sha256', secret).update('hello-world-message')", ""},
		// A variable named …_KEY set by a shell's directive, as export
		// sets it; a cache's or a sort's key stays.
		{"fish key", "set -gx MAPS_KEY Zp3Lq8WmRt2Xk7Vb4Nc9Yd6HqT5", "Zp3Lq8WmRt2Xk7Vb4Nc9Yd6HqT5"},
		{"csh key", "setenv STRIPE_KEY Tr6Wq2LmZx9Pk4Vb7Nc3Yd8H", "Tr6Wq2LmZx9Pk4Vb7Nc3Yd8H"},
		{"docker env key", "ENV SENTRY_KEY Lm2Qz7WxRt4Pk9Vb3Nc8Yd5H", "Lm2Qz7WxRt4Pk9Vb3Nc8Yd5H"},
		{"cache key stays", "set -gx CACHE_KEY session", ""},
		{"sort key stays", "set -gx SORT_KEY created_at", ""},
		// A password piped to runas (it reads the password from stdin).
		{"runas", "echo lantern-orbit-velvet-42| runas /user:CORP\\jdoe \"mmc.exe\"", "lantern-orbit-velvet-42"},
		{"runas savecred", "echo Xk9mQ2vLp8wZr4| runas /savecred /user:admin cmd", "Xk9mQ2vLp8wZr4"},
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
