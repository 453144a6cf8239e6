package redact

import "testing"

// TestRound19 holds shapes written for the nineteenth round's look-alike
// classes (none from any corpus): an OpenPGP key id or fingerprint, or
// git's signing key given as an id or a public key, under a name that
// picks a key to sign with; a value a client fills in from a variable
// (psql's :'name', a bind parameter) and a quoted statement that sets a
// password through one; a parameter or a field annotated with its type
// in the languages that write the type after a colon; and a value that
// stops inside an angle-bracketed placeholder of several words; and a
// secret's shape: a base64 literal decoded in place under a secret's name
// (echo 'X' | base64 -d, atob, b64decode) or joined to a Basic scheme in
// code, caught when it decodes to a made value or user:password. Beside
// each, the secrets of the same layout, still caught.
func TestRound19(t *testing.T) {
	judgeRound(t, []roundCase{
		// A key id under a signing name.
		{"git config id", "[user]\n\tsigningkey = 0ED7E22CCA312DD6\n[commit]\n\tgpgsign = true", ""},
		{"git config id lower", "[user]\n\tsigningkey = 0ed7e22cca312dd6", ""},
		{"git cli id", "git config --global user.signingkey 3AA5C34371567BD2", ""},
		{"git id 0x bang", "user.signingkey=0x65349C4B6D3004A6!", ""},
		{"git ssh public key", "[user]\n\tsigningkey = key::ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOq9", ""},
		{"git ssh key path", "[user]\n\tsigningkey = ~/.ssh/id_ed25519.pub", ""},
		{"env gpg key id", "GPG_KEY_ID=D51F22908AE7BCC1", ""},
		{"yaml signing key id", "signing_key: \"091083C850104C51\"", ""},
		{"pgp fingerprint", "pgp_fingerprint = 4AEE18F83AFDEB23B1D1D5A2E6B1C0C3F6E1A2B3", ""},
		{"gpg default-key", "default-key 0ED7E22CCA312DD6", ""},
		{"short id", "GPG_SIGNING_KEY=CCA312DD", ""},
		{"jwt signing key", "jwt:\n  signingKey: Zq8Lm4Np6Rs8Tv0Wx2Yz4Ab6Cd8Ef0Gh", "Zq8Lm4Np6Rs8Tv0Wx2Yz4Ab6Cd8Ef0Gh"},
		{"go signing key", "var signingKey = []byte(\"aJdVOGpXMMXNTIMeFevqw29ZPsY\")", "aJdVOGpXMMXNTIMeFevqw29ZPsY"},
		{"hex signing key", "SIGNING_KEY=9f3b2c7a1e4d8b6f0a2c4e6d8f1b3a5c7e9d2f4b6a8c0e2d4f6b8a1c3e5d7f9b", "9f3b2c7a1e4d8b6f"},
		{"lower hex signing key 16", "signing_key = \"a3f9c2e17b4d8e06\"", "a3f9c2e17b4d8e06"},
		// A value bound from a variable.
		{"psql var prose", "To reset your local DB password: `ALTER USER app WITH PASSWORD :'newpw';` using a psql variable, then update .env.local.", ""},
		{"psql var alter role", "\\set newpw 'x' then ALTER ROLE app PASSWORD :'newpw';", ""},
		{"psql var double quoted", "CREATE USER app WITH PASSWORD :\"pw_var\";", ""},
		{"sql literal", "ALTER USER app WITH PASSWORD 'Zq8#kLp2!vR9';", "Zq8#kLp2!vR9"},
		{"made value after spaced colon", "password :'Tr0ub4dor&3x'", "Tr0ub4dor&3x"},
		{"statement literal in prose", "The db password: `ALTER USER app WITH PASSWORD 'Zq8#kLp2!vR9';` ran on prod.", "Zq8#kLp2!vR9"},
		{"code span password", "my password: `Zq8#kLp2!vR9` keep it", "Zq8#kLp2!vR9"},
		// A type where a value would go.
		{"python param", "def connect(password: str):\n    return psycopg.connect(host=HOST, user=USER, password=password)", ""},
		{"python params", "def login(user: str, password: str, token: str | None = None) -> Session:", ""},
		{"ts interface", "interface Creds { password: string; apiKey?: string }", ""},
		{"rust params", "fn connect(password: &str, token: &'a str) -> Result<()>", ""},
		{"kotlin class", "data class Login(val password: String, val secret: CharArray)", ""},
		{"swift func", "func auth(password: String, token: String?) {", ""},
		{"pydantic", "class Settings(BaseSettings):\n    api_key: SecretStr\n    db_password: SecretStr = Field(...)", ""},
		{"yaml made value", "password: Hunter2Xq9!", "Hunter2Xq9!"},
		{"yaml token", "token: s3cr3tT0kenVal", "s3cr3tT0kenVal"},
		// A secret encoded in base64 and decoded in place, or joined to Basic.
		{"echo base64 -d", "$ export DB_PASS=$(echo 'TStAcm89RWJyN0hn' | base64 -d)", "TStAcm89RWJyN0hn"},
		{"echo -n base64 --decode", "export API_TOKEN=\"$(echo -n 'cS1rLStCNzhkNnZFYy1PZVNNaTI=' | base64 --decode)\"", "cS1rLStCNzhkNnZFYy1PZVNNaTI="},
		{"here-string", "DB_PASS=$(base64 -d <<< 'TStAcm89RWJyN0hn')", "TStAcm89RWJyN0hn"},
		{"js atob", "const secret = atob(\"cS1rLStCNzhkNnZFYy1PZVNNaTI=\");", "cS1rLStCNzhkNnZFYy1PZVNNaTI="},
		{"python b64decode", "password = base64.b64decode(\"TStAcm89RWJyN0hn\").decode()", "TStAcm89RWJyN0hn"},
		{"python basic concat", "headers['Authorization'] = 'Basic ' + 'bWFyaWE6OGFyVX5RZHhzd2QuZ3FrQg=='", "bWFyaWE6OGFyVX5RZHhzd2QuZ3FrQg=="},
		{"python basic format", "auth = \"Basic %s\" % \"cG9zdGdyZXM6YWxtZ2pQQ0w2ekRqYlQ0OUpGNzM=\"", "cG9zdGdyZXM6YWxtZ2pQQ0w2ekRqYlQ0OUpGNzM="},
		{"java basic concat", "String h = \"Basic \" + \"bWFyaWE6OGFyVX5RZHhzd2QuZ3FrQg==\";", "bWFyaWE6OGFyVX5RZHhzd2QuZ3FrQg=="},
		{"basic user:password placeholder", "headers['Authorization'] = 'Basic ' + 'dXNlcjpwYXNzd29yZA=='", ""},
		{"basic computed", "headers['Authorization'] = 'Basic ' + base64.b64encode(f'{user}:{pw}'.encode()).decode()", ""},
		{"decoded greeting", "export GREETING=$(echo 'aGVsbG8gd29ybGQ=' | base64 -d)", ""},
		{"decoded path", "KEY_FILE=$(echo 'L2V0Yy9zc2wva2V5LnBlbQ==' | base64 -d)", ""},
		{"atob variable", "token = atob(encoded)", ""},
		// A placeholder of several words.
		{"signature placeholder", "Webhook signature header: `X-Signature: sha256=<hex digest>`; compute HMAC-SHA256", ""},
		{"bearer placeholder", "Authorization: Bearer <your access token>", ""},
		{"key placeholder", "api_key=<paste key here> in the .env", ""},
	})
}
