package redact

import "testing"

// TestRound21 holds shapes written for the twenty-first round's classes
// (none from any corpus). Look-alikes first: a value shown masked by a run
// of mask characters (a dashboard's ghp_****…z8dD), and a URL whose
// password repeats its user (a service's default login for a local
// container). Then secrets' classes: a TOML or Python triple-quoted
// string under a secret's name; a password told in prose with a phrase
// after its word and an adverb of time after the verb ("the wifi password
// in the office is now X", "ist jetzt X"); a value after a dotted
// reference's prefix that no name opens (local.8Dkd…: a name never opens
// with a digit); PAM's and SSSD's authtok; a seed phrase given to a
// command that derives a wallet's keys from it, whatever its checksum;
// a login (user:password) decoded from base64 where the text decodes it;
// and, from the older sets' remaining misses, a credential call's literal
// converted in place (.to_owned(), .toCharArray()), a path's "::" that
// assigns nothing (Credentials::new), an LDAP bind known by the DN it
// opens with, an Oracle user spelled with a hyphen, a signed image URL's
// s= digest, a session cookie in a cookie map, bearer alone as a key, a
// test wallet's seed (a wallet all the same), a Kubernetes Secret's data
// whatever its key. Beside each, the look-alikes of the same layout.
func TestRound21(t *testing.T) {
	const w12 = "acoustic maple river donkey garden summer ticket vivid orbit lunar cable frost"
	judgeRound(t, []roundCase{
		// Masked values.
		{"masked github", "Using token ghp_****************************z8dD", ""},
		{"masked bullets", "Current key: sk_live_••••••••••••••••Q7mA (rotated)", ""},
		{"masked slack", "bot token xoxb-1234-****************-Ab3dX9 shown in the settings page", ""},
		{"unmasked made", "login with Qm7#vT2pLx9 today", "Qm7#vT2pLx9"},
		// A default login repeated.
		{"amqp guest", "amqp://guest:guest@localhost:5672/  # RabbitMQ default for local docker", ""},
		{"postgres default", "DATABASE_URL=postgres://postgres:postgres@localhost:5432/app_dev", ""},
		{"mongo admin", "mongodb://admin:admin@127.0.0.1:27017/?authSource=admin", ""},
		{"postgres made", "DATABASE_URL=postgres://postgres:Xk9pQ2mZ7vqL@db:5432/app", "Xk9pQ2mZ7vqL"},
		// Triple-quoted strings.
		{"toml triple", "[smtp]\nuser = \"alerts@example.com\"\npassword = \"\"\"Harbor!Lamp5521\"\"\"", "Harbor!Lamp5521"},
		{"toml literal triple", "[database]\npassword = '''Qm7#vT2pLx9'''", "Qm7#vT2pLx9"},
		{"python triple", "API_TOKEN = \"\"\"k8Hq2LmZ9xVt4RwP7nYs\"\"\"", "k8Hq2LmZ9xVt4RwP7nYs"},
		{"toml triple template", "password = \"\"\"${SMTP_PASSWORD}\"\"\"", ""},
		// Prose: a phrase after the word, an adverb after the verb.
		{"prose en now", "heads up: the VPN password on the new gateway is now Pq4!zLx82Vn", "Pq4!zLx82Vn"},
		{"prose de jetzt", "Das WLAN-Passwort im Büro ist jetzt Hq7rT2xKw9, bitte nicht weitergeben.", "Hq7rT2xKw9"},
		{"prose es ahora", "La contraseña del servidor de pruebas es ahora Lm3#Rt8qXz", "Lm3#Rt8qXz"},
		{"prose dotted", "The password for staging is local.7XqLmZ2wp, do not share it.", "local.7XqLmZ2wp"},
		{"prose policy now", "the password policy on the server is now stricter", ""},
		{"terraform local", "password = local.db_password", ""},
		// authtok.
		{"sssd authtok", "[domain/corp]\nldap_default_bind_dn = cn=svc,dc=corp\nldap_default_authtok = Wq8zLm3KpT7xR2", "Wq8zLm3KpT7xR2"},
		{"authtok yaml", "pam:\n  authtok: \"Nv5qZx8LmK2w\"", "Nv5qZx8LmK2w"},
		{"authtok type", "ldap_default_authtok_type = password", ""},
		// A seed phrase given to a deriving command.
		{"cast derive", "$ cast wallet derive-private-key \"" + w12 + "\" 0", "acoustic maple"},
		{"derive call", "const key = deriveKey(\"" + w12 + "\", \"m/44'/60'/0'/0/0\")", "acoustic maple"},
		{"wallet import", "> polkadot-js wallet import '" + w12 + "'", "acoustic maple"},
		{"derive prose", "We derive the keys from the config file at startup.", ""},
		// A login decoded from base64.
		{"echo b64 pair", "$ echo c3ZjLWJhY2t1cDpRbTcjdlQycEx4OQ== | base64 -d", "c3ZjLWJhY2t1cDpRbTcjdlQycEx4OQ=="},
		{"printf b64 pair", "printf %s b3BzOkhhcmJvciFMYW1wNTUyMQ== | base64 --decode", "b3BzOkhhcmJvciFMYW1wNTUyMQ=="},
		{"b64 image tag", "echo bmdpbng6MS4yNS1hbHBpbmU= | base64 -d", ""},
		{"b64 url", "echo aHR0cHM6Ly9leGFtcGxlLmNvbS9hMUIy | base64 -d", ""},
		{"b64 prose", "echo SGVsbG8gV29ybGQ6IEExYjJjM2Q0 | base64 -d", ""},
		// Older sets' classes: a credential call's literal converted in
		// place, a path's "::" that assigns nothing, an LDAP bind by its
		// DN, an Oracle user with a hyphen, a signed image URL's s=.
		{"rust to_string", "let c = Credentials::new(\"ops@example.io\".to_string(), \"Qm7#vT2pLx9\".to_string());", "Qm7#vT2pLx9"},
		{"java toCharArray", "return new PasswordAuthentication(\"ops\", \"Harbor!Lamp5521\".toCharArray());", "Harbor!Lamp5521"},
		{"rust path", "let k = secret::Key::generate(&mut rng);", ""},
		{"rust from env", "let creds = Credentials::from_env();", ""},
		{"go ldap bind", "err = l.Bind(\"uid=ci,ou=svc,dc=example,dc=org\", \"Wq8zLm3KpT7xR2\")", "Wq8zLm3KpT7xR2"},
		{"python ldap bind", "conn.simple_bind_s('cn=admin,dc=example,dc=com', 'Nv5qZx8LmK2w')", "Nv5qZx8LmK2w"},
		{"socket bind", "sock.bind(\"eth0\", \"10.0.0.12:8080\")", ""},
		{"sqlplus hyphen", "$ sqlplus app-ro/Xk9pQ2mZ7vqL@//db.internal:1521/PDB1", "Xk9pQ2mZ7vqL"},
		{"imgix s", "https://shop.imgix.net/p/1.jpg?w=400&s=5f4dcc3b5aa765d61d8327deb882cf99", "5f4dcc3b5aa765d61d8327deb882cf99"},
		{"search s", "https://example.com/search?q=go&s=relevance", ""},
		{"page s", "https://example.com/list?s=42&p=3", ""},
		// A session cookie in a cookie map, bearer alone as a key, a test
		// wallet's seed, a Kubernetes Secret's data.
		{"requests cookies", "session.get(url, cookies={\"sessionid\": \"q8Lm2xZk4wP7rT9vB3nY\"})", "q8Lm2xZk4wP7rT9vB3nY"},
		{"theme cookie", "requests.get(url, cookies={'theme': 'dark-mode-v2'})", ""},
		{"bearer key", "{\"url\": \"https://api.example.net\", \"bearer\": \"q8Lm2xZk4wP7rT9vB3nYq8Lm\"}", "q8Lm2xZk4wP7rT9vB3nYq8Lm"},
		{"bearer type", "{\"auth\": {\"type\": \"bearer\", \"bearer\": true}}", ""},
		{"bearer ref", "bearer: ${API_TOKEN}", ""},
		{"testnet wallet seed", "our testnet wallet seed is " + w12 + " (sepolia only)", "acoustic maple"},
		{"test fixture seed", "the test fixture seed is " + w12, ""},
		{"k8s secret data", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: tls\ndata:\n  tls.key: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2Z0lCQURBTkJna3Fo\n", "LS0tLS1CRUdJTiBQUklW"},
		{"k8s configmap", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: build\ndata:\n  build.id: QUJDREVGR0hJSktMTU5PUA==\n", ""},
		{"k8s secret meta", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: registry-pull-credentials\n  namespace: payments\ndata: {}", ""},
	})
}
