import secrets, string, json, base64, uuid, hashlib

A = string.ascii_letters + string.digits
HEX = '0123456789abcdef'


def r(n, alpha=A):
    return ''.join(secrets.choice(alpha) for _ in range(n))


def hx(n):
    return r(n, HEX)


def b64(n):
    return base64.b64encode(secrets.token_bytes(n)).decode()


def sha256(s):
    return hashlib.sha256(s.encode()).hexdigest()


cert = open('/tmp/c2/cert.pem').read().strip()
ecpub = open('/tmp/c2/ecpub.pem').read().strip()
edpub = open('/tmp/c2/id_ed.pub').read().strip()
ecdsapub = open('/tmp/c2/id_ec.pub').read().strip()
rsapub = open('/tmp/c2/id_rsa_pub_only.pub').read().strip()
u = lambda: str(uuid.uuid4())
B = [
    f"Bisected the regression to commit {hx(40)} (\"perf: batch index writes\"); reverting it restores p95 to 40 ms.",
    f"git log --oneline\n{hx(7)} fix: handle empty cursor\n{hx(7)} chore: bump pgx to v5.6.0\n{hx(7)} feat: add CSV export",
    f"Release checksums:\n{hx(64)}  anamnesis_1.4.2_linux_amd64.tar.gz\n{hx(64)}  anamnesis_1.4.2_darwin_arm64.tar.gz",
    f"Pinned the base image: FROM python:3.12-slim@sha256:{hx(64)}",
    f"image: ghcr.io/acme/api@sha256:{hx(64)} # pinned after the 3.8 rollback",
    "package-lock.json entry:\n\"node_modules/lodash\": {\n  \"version\": \"4.17.21\",\n  \"resolved\": \"https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz\",\n  \"integrity\": \"sha512-" + b64(64) + "\"\n}",
    f"<script src=\"https://cdn.example.com/lib/chart.umd.min.js\" integrity=\"sha384-{b64(48)}\" crossorigin=\"anonymous\"></script>",
    f"go.sum:\ngolang.org/x/net v0.26.0 h1:{b64(32)}\ngolang.org/x/net v0.26.0/go.mod h1:{b64(32)}",
    f"requirements.txt uses hashes: requests==2.32.3 --hash=sha256:{hx(64)}",
    f"Cargo.lock\n[[package]]\nname = \"serde\"\nversion = \"1.0.203\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"{hx(64)}\"",
    f"Request {u()} timed out at the gateway; correlating with trace id {hx(32)} in Tempo.",
    f"Terraform state lineage {u()}, serial 418. The lock ID was {u()} when the plan hung.",
    "Set max_tokens: 4096 for the summarizer and temperature 0.2; longer outputs got truncated at 2048 before.",
    "token: 512 is the chunk size for the embedding pipeline, with 64 tokens of overlap.",
    "usage: {\"input_tokens\": 18342, \"output_tokens\": 911, \"cache_read_input_tokens\": 16000}",
    "Rate limiter is a token bucket: capacity 100 tokens, refill 20 tokens/sec per API key.",
    "config dump from the support ticket:\nusername: svc-report\npassword: <redacted>\nhost: db.internal",
    "DB_PASSWORD=******** (masked in the CI log, which is what we want)",
    "Validation rule: the password field must be at least 12 chars and cannot contain the username.",
    "The passwd file on the old image had a UID collision for the nginx user; fixed by pinning UID 101.",
    "Audit: /etc/shadow was mode 0644 on two legacy hosts; corrected to 0640 root:shadow and added a CIS check.",
    "In the workflow we do `export AWS_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY` so the subshell sees it; the value comes from GitHub secrets.",
    "DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app is templated by envsubst at container start.",
    "env:\n  - name: GITHUB_TOKEN\n    value: ${{ secrets.GITHUB_TOKEN }}\n  - name: NPM_TOKEN\n    value: ${{ secrets.NPM_TOKEN }}",
    "A JWT has three base64url parts separated by dots: header.payload.signature. The header here is {\"alg\":\"RS256\",\"typ\":\"JWT\"} and we reject alg=none.",
    "Explained to the intern: eyJ at the start of a token is just base64 for '{\"', so anything starting with eyJ is likely JSON.",
    "Base64 sanity check in the docs: aGVsbG8gd29ybGQ= decodes to 'hello world', and dGVzdA== is 'test'.",
    "Endpoints: GET /api/v1/tokens/{id}, DELETE /api/v1/tokens/{id}, POST /api/v1/sessions/refresh.",
    "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: payments-db-credentials\n        key: password",
    "Kubernetes secrets in the namespace: regcred, payments-db-credentials, stripe-webhook-secret, tls-api-example-com.",
    "Release tags are signed with key id 0x1234ABCD; fingerprint 8F3A 21C4 9B7E 55D0 1A2B  C3D4 E5F6 0718 1234 ABCD is published on keys.openpgp.org.",
    f"Add this public key to the deploy user (public keys are fine to share):\n{edpub}",
    f"Bastion host key for known_hosts: bastion.example.com {ecdsapub.rsplit(' ', 1)[0]}",
    f"Jenkins agent public key: {rsapub}",
    "Public TLS cert for the staging API (for pinning tests):\n" + cert,
    "Webhook signature verification uses this public key:\n" + ecpub,
    "age recipient for the team (public): age1" + r(58, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'),
    "Brand colors: primary #1F6FEB, hover #1A5FCC, danger #D1242F, background #0D1117.",
    "Bumped to 2.14.0-rc.1+build.5812; the previous stable was 2.13.4.",
    f"Order {r(1, '123456789') + r(17, string.digits)} was double-charged; the Stripe charge is ch_{r(24)} and the customer cus_{r(14)}.",
    f"Anthropic response id msg_01{r(22)}; tool use block toolu_01{r(22)}.",
    f"OpenAI completion chatcmpl-{r(29)} returned finish_reason=length.",
    f"Slack channel C0{r(8, string.ascii_uppercase + string.digits)} and user U0{r(8, string.ascii_uppercase + string.digits)} for the alerts bot.",
    "AWS account 123456789012, role arn:aws:iam::123456789012:role/ci-deployer; assumed via OIDC, no keys stored.",
    "The tests use fake_token_for_tests and sk_test_fixture_not_real as obvious dummy values; the linter allowlists those strings.",
    "Placeholders in .env.example:\nOPENAI_API_KEY=your-api-key-here\nGITHUB_TOKEN=<your token>\nSTRIPE_SECRET_KEY=sk_live_...",
    "Docs snippet: `curl -H \"Authorization: Bearer $API_TOKEN\" https://api.example.com/v1/me` (set API_TOKEN first).",
    "HTTP Basic is just base64(user:password) in the Authorization header, which is why we require TLS everywhere.",
    "curl -u \"$JENKINS_USER:$JENKINS_TOKEN\" https://jenkins.example.com/api/json",
    "mysql -u root -p prompts for the password interactively; do not pass it on the command line.",
    "PGPASSFILE=~/.pgpass psql -h pg-01.internal -U migrator billing  (password comes from the file, not the command)",
    "docker login ghcr.io -u acme-bot --password-stdin < /run/secrets/ghcr_token",
    "sshpass -f ~/.config/sshpass/lab.txt ssh pi@10.0.0.42 - file is chmod 600 and not in git.",
    "redis-cli -a is deprecated in our runbooks; use REDISCLI_AUTH from the environment instead.",
    "The wifi password is on the whiteboard in room 3.12, not in any doc.",
    "Grafana login is admin / (ask Maria for the current password).",
    "pw for staging: see vault path secret/data/staging/postgres.",
    "Use the passphrase stored in 1Password item 'Backup GPG key' to unlock the archive.",
    "Das WLAN-Passwort steht im Passwortmanager unter 'Büro Gast'.",
    "La contraseña del servidor de pruebas está en Vault (secret/qa/ssh).",
    "テスト環境のパスワードは1Passwordの「QA共有」に保存されています。",
    "Cookie policy: the session cookie is HttpOnly, Secure, SameSite=Lax; Max-Age 3600.",
    "Set-Cookie: theme=dark; Path=/; Max-Age=31536000",
    f"X-Request-ID: {u()}\nETag: W/\"{hx(16)}\"\nx-amz-content-sha256: {hx(64)}",
    "The CSRF field is rendered as <input type=\"hidden\" name=\"csrf_token\" value=\"{{ csrf_token() }}\">.",
    "Service account token is mounted at /var/run/secrets/kubernetes.io/serviceaccount/token; we disabled automount for the web pods.",
    "$ANSIBLE_VAULT;1.1;AES256\n" + '\n'.join(hx(80) for _ in range(4)),
    "sops-encrypted value (safe to commit): db_password: ENC[AES256_GCM,data:" + b64(12) + ",iv:" + b64(32) + ",tag:" + b64(16) + ",type:str]",
    "Git LFS pointer:\nversion https://git-lfs.github.com/spec/v1\noid sha256:" + hx(64) + "\nsize 48213377",
    "Tiny placeholder image: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "Google OAuth client ID (public, used in the SPA): 123456789012-" + r(32, string.ascii_lowercase + string.digits) + ".apps.googleusercontent.com",
    "Donations address in the README: 0x" + hx(40) + " (public wallet).",
    "Discord guild id 1098765432109876543, channel id 1123581321345589144.",
    "Cron: 0 3 * * * runs the token cleanup job that deletes expired refresh tokens older than 30 days.",
    "Model pinned to claude-3-5-sonnet-20240620; the embedding model is text-embedding-3-small with 1536 dims.",
    "Vault paths: secret/data/payments/db (password), secret/data/ci/npm (token). Policies grant read only to the payments role.",
    "git ls-tree HEAD\n100644 blob " + hx(40) + "\tREADME.md\n040000 tree " + hx(40) + "\tsrc",
    "Regenerated the yarn.lock; the resolution for react is now react@npm:18.3.1 with checksum 10c0/" + hx(128),
    "secret_key_base is read from RAILS_MASTER_KEY at boot; config/credentials.yml.enc is encrypted and committed.",
    "The GitHub token format changed: classic tokens start with ghp_ and fine-grained ones with github_pat_; our scanner knows both prefixes.",
    "Authorization: Bearer <token> is the only accepted scheme; requests with `Authorization: Token` get 401.",
    "Benchmark: hashing 1M passwords with argon2id (m=64MiB, t=3, p=4) took 41 minutes on the c6i.2xlarge.",
    f"Build {r(1, '123456789') + r(9, string.digits)} on GitHub Actions, artifact id {r(1, '123456789') + r(9, string.digits)}, run attempt 2.",
    "UUIDv7 ids like 01902e6a-4f1b-7c3e-9a2d-5b8e0f1c2d3e sort by creation time, which is why we switched the events table to them.",
]

rows = [{'name': f'b2-{i + 1}', 'text': t} for i, t in enumerate(B)]
with open('/work/wt/corpus2/benign.jsonl', 'w') as f:
    for o in rows:
        f.write(json.dumps(o, ensure_ascii=False) + '\n')
print(len(rows))
