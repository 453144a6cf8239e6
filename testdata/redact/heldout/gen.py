# Generates the held-out secret corpus (SPEC 17). Written before any rule
# tuning of issue 24 and never used to tune: the redactor is judged on it.
# Deterministic: `python3 gen.py` rewrites secrets.jsonl and benign.jsonl.
import json, random, string, base64
R = random.Random(2417)
A = string.ascii_letters + string.digits
def rnd(n, al=A): return ''.join(R.choice(al) for _ in range(n))
def hexs(n): return rnd(n, '0123456789abcdef')
def up(n): return rnd(n, string.ascii_uppercase + string.digits)
def low(n): return rnd(n, string.ascii_lowercase + string.digits)
def b64(n): return base64.b64encode(bytes(R.randrange(256) for _ in range(n))).decode()
def pw(): return R.choice(['Tr0ub4dor&3', 'S3cure!Pass_77', 'Wint3r2024!!', 'qZ8#kLp2$vN', 'P@ssw0rd-Prod9', 'hX4!mQ9zrT', 'correct-Horse-7battery', 'Blu3Sky$42', 'n0tMyRealPw#1', 'Zebra^Fish88'])
out = []
def s(cat, shape, text, secret):
    assert secret in text, shape
    out.append({"category": cat, "shape": shape, "text": text, "secret": secret})

# --- cloud
k = 'AKIA' + up(16); s('cloud', 'aws-key-id-env', f'export AWS_ACCESS_KEY_ID={k}', k)
v = rnd(40, A + '+/'); s('cloud', 'aws-secret-env', f'export AWS_SECRET_ACCESS_KEY={v}', v)
v = rnd(40, A + '+/'); s('cloud', 'aws-secret-ini', f'[default]\naws_access_key_id = AKIA{up(16)}\naws_secret_access_key = {v}', v)
v = 'ASIA' + up(16); s('cloud', 'aws-sts-id', f'temporary creds {v} expire in 1h', v)
v = 'FwoGZXIvYXdzE' + rnd(120, A + '+/'); s('cloud', 'aws-session-token', f'aws_session_token={v}', v)
v = rnd(40, A + '+/'); s('cloud', 'aws-secret-json', '{"AccessKeyId": "AKIA' + up(16) + '", "SecretAccessKey": "' + v + '"}', v)
v = b64(64); s('cloud', 'azure-storage-key', f'AccountName=logs;AccountKey={v};EndpointSuffix=core.windows.net', v)
v = rnd(34, A + '~.-_'); s('cloud', 'azure-client-secret', f'AZURE_CLIENT_SECRET="{v}"', v)
v = 'sv=2022-11-02&ss=b&srt=sco&sp=rwdlac&se=2026-01-01&sig=' + rnd(43, A + '%') + '%3D'; sig = v.split('sig=')[1]; s('cloud', 'azure-sas', f'https://acct.blob.core.windows.net/c?{v}', sig)
v = 'AIza' + rnd(35, A + '_-'); s('cloud', 'gcp-api-key', f'maps key {v}', v)
v = '-----BEGIN PRIVATE KEY-----\\n' + b64(48) + '\\n-----END PRIVATE KEY-----\\n'; s('cloud', 'gcp-sa-json', '{"type": "service_account", "private_key_id": "' + hexs(40) + '", "private_key": "' + v + '"}', v[30:60])
v = 'ya29.' + rnd(120, A + '_-'); s('cloud', 'gcp-oauth-access', f'gcloud auth print-access-token -> {v}', v)
v = 'dop_v1_' + hexs(64); s('cloud', 'digitalocean-pat', f'DIGITALOCEAN_TOKEN={v}', v)
v = rnd(40, A + '_-'); s('cloud', 'cloudflare-api-token', f'CLOUDFLARE_API_TOKEN: {v}', v)
v = hexs(37); s('cloud', 'cloudflare-global-key', f'X-Auth-Key: {v}', v)
v = 'LTAI' + rnd(20); s('cloud', 'alibaba-id', f'accessKeyId: {v}', v)
v = rnd(30); s('cloud', 'alibaba-secret', f'accessKeySecret: {v}', v)
v = rnd(44, A + '_-'); s('cloud', 'ibm-cloud-key', f'ibmcloud login --apikey {v}', v)
v = hexs(8) + '-' + hexs(4) + '-' + hexs(4) + '-' + hexs(4) + '-' + hexs(12); s('cloud', 'heroku-api-key', f'HEROKU_API_KEY={v}', v)
v = hexs(64); s('cloud', 'linode-token', f'linode-cli configure --token {v}', v)
v = 'fo1_' + rnd(43, A + '_-'); s('cloud', 'flyio', f'FLY_API_TOKEN={v}', v)
v = rnd(24); s('cloud', 'vercel-token', f'vercel deploy --token {v}', v)
v = 'nfp_' + rnd(36); s('cloud', 'netlify-pat', f'netlify token {v}', v)
v = rnd(14) + '.atlasv1.' + rnd(60); s('cloud', 'terraform-cloud', f'credentials "app.terraform.io" {{ token = "{v}" }}', v)
v = 'hvs.' + rnd(90, A + '_-'); s('cloud', 'vault-login-token', f'vault login {v}', v)
v = 'scw-' + hexs(8) + '-' + hexs(4); s('cloud', 'scaleway-secret', f'SCW_SECRET_KEY={v}', v)  # short-ish
# --- developer platforms
v = 'ghp_' + rnd(36); s('devplat', 'github-classic', f'token {v} has repo scope', v)
v = 'github_pat_' + rnd(22) + '_' + rnd(59); s('devplat', 'github-fine', f'GH_TOKEN={v}', v)
v = 'ghs_' + rnd(36); s('devplat', 'github-app', f'installation token {v}', v)
v = 'glpat-' + rnd(20, A + '_-'); s('devplat', 'gitlab-pat', f'git remote set-url origin https://oauth2:{v}@gitlab.com/g/p.git', v)
v = 'ATBB' + rnd(28); s('devplat', 'bitbucket-app-pw', f'bitbucket app password {v}', v)
v = 'npm_' + rnd(36); s('devplat', 'npmrc-authtoken', f'//registry.npmjs.org/:_authToken={v}', v)
v = 'pypi-AgEIcHlwaS5vcmc' + rnd(70, A + '_-'); s('devplat', 'pypirc', f'[pypi]\nusername = __token__\npassword = {v}', v)
v = 'dckr_pat_' + rnd(27, A + '_-'); s('devplat', 'docker-hub-pat', f'echo "{v}" | docker login -u dev --password-stdin', v)
v = 'CCIPAT_' + rnd(22) + '_' + hexs(40); s('devplat', 'circleci', f'CIRCLE_TOKEN={v}', v)
v = 'sntrys_' + rnd(60, A + '+/'); s('devplat', 'sentry-auth', f'SENTRY_AUTH_TOKEN={v}', v)
v = 'shpat_' + hexs(32); s('devplat', 'shopify-admin', f'X-Shopify-Access-Token: {v}', v)
v = 'AKCp8' + rnd(68); s('devplat', 'jfrog-api-key', f'jfrog rt c --apikey={v}', v)
v = 'squ_' + hexs(40); s('devplat', 'sonarqube', f'sonar.login={v}', v)
v = 'ATATT3xFfGF0' + rnd(180, A + '_-='); s('devplat', 'atlassian-api', f'JIRA_API_TOKEN={v}', v)
v = 'lin_api_' + rnd(40); s('devplat', 'linear', f'linear key {v}', v)
v = 'xoxe.xoxp-1-' + rnd(140); s('devplat', 'slack-refresh', f'refresh_token: {v}', v)
v = 'rubygems_' + hexs(48); s('devplat', 'rubygems', f'---\n:rubygems_api_key: {v}', v)
v = 'oy2' + low(43); s('devplat', 'nuget-api-key', f'dotnet nuget push pkg.nupkg --api-key {v}', v)
v = rnd(36, string.ascii_lowercase + string.digits); s('devplat', 'cargo-token', f'[registry]\ntoken = "cio{v}"', 'cio' + v)
v = 'glrt-' + rnd(20, A + '_-'); s('devplat', 'gitlab-runner', f'gitlab-runner register --token {v}', v)
v = 'pscale_tkn_' + rnd(43, A + '_-'); s('devplat', 'planetscale', f'PLANETSCALE_SERVICE_TOKEN={v}', v)
v = 'sbp_' + hexs(40); s('devplat', 'supabase', f'supabase login --token {v}', v)
v = 'dp.st.' + rnd(43); s('devplat', 'doppler', f'DOPPLER_TOKEN="{v}"', v)
v = 'pul-' + hexs(40); s('devplat', 'pulumi', f'PULUMI_ACCESS_TOKEN={v}', v)
v = 'glsa_' + rnd(32) + '_' + hexs(8); s('devplat', 'grafana-sa', f'Authorization: Bearer {v}', v)
# --- AI providers
v = 'sk-proj-' + rnd(48, A + '_-') + 'T3BlbkFJ' + rnd(48, A + '_-'); s('ai', 'openai-proj', f'OPENAI_API_KEY={v}', v)
v = 'sk-ant-api03-' + rnd(93, A + '_-') + 'AA'; s('ai', 'anthropic', f'client = Anthropic(api_key="{v}")', v)
v = 'sk-ant-oat01-' + rnd(80, A + '_-'); s('ai', 'anthropic-oauth', f'CLAUDE_CODE_OAUTH_TOKEN={v}', v)
v = 'hf_' + rnd(34); s('ai', 'huggingface', f'huggingface-cli login --token {v}', v)
v = 'r8_' + rnd(37); s('ai', 'replicate', f'REPLICATE_API_TOKEN={v}', v)
v = 'gsk_' + rnd(52); s('ai', 'groq', f'groq key: {v}', v)
v = 'pplx-' + rnd(48); s('ai', 'perplexity', f'"Authorization": "Bearer {v}"', v)
v = 'xai-' + rnd(80); s('ai', 'xai', f'XAI_API_KEY={v}', v)
v = 'sk-or-v1-' + hexs(64); s('ai', 'openrouter', f'using openrouter key {v} for evals', v)
v = rnd(40); s('ai', 'cohere', f'co = cohere.Client("{v}")', v)
v = rnd(32); s('ai', 'mistral', f'MISTRAL_API_KEY={v}', v)
v = 'AIza' + rnd(35, A + '_-'); s('ai', 'gemini', f'genai.configure(api_key="{v}")', v)
v = hexs(64); s('ai', 'together', f'TOGETHER_API_KEY={v}', v)
v = 'sk-' + hexs(32); s('ai', 'deepseek', f'deepseek api key sk: {v}', v)
v = 'nvapi-' + rnd(64, A + '_-'); s('ai', 'nvidia', f'NVIDIA_API_KEY={v}', v)
v = hexs(32); s('ai', 'azure-openai', f'api-key: {v}', v)
v = 'fw_' + rnd(24); s('ai', 'fireworks', f'FIREWORKS_API_KEY="{v}"', v)
v = 'jina_' + rnd(60); s('ai', 'jina', f'jina token {v}', v)
# --- messaging
v = 'xoxb-' + str(R.randrange(10**11, 10**12)) + '-' + str(R.randrange(10**12, 10**13)) + '-' + rnd(24); s('messaging', 'slack-bot', f'SLACK_BOT_TOKEN={v}', v)
v = 'T' + up(8) + '/B' + up(10) + '/' + rnd(24); s('messaging', 'slack-webhook', f'webhook: https://hooks.slack.com/services/{v}', v)
v = str(R.randrange(10**17, 10**18)) + '/' + rnd(68, A + '_-'); s('messaging', 'discord-webhook', f'https://discord.com/api/webhooks/{v}', v.split('/')[1])
v = str(R.randrange(10**9, 10**10)) + ':AA' + rnd(33, A + '_-'); s('messaging', 'telegram', f'bot = telebot.TeleBot("{v}")', v)
v = 'SK' + hexs(32); s('messaging', 'twilio-key', f'twilio api key {v}', v)
v = hexs(32); s('messaging', 'twilio-auth-token', f'TWILIO_AUTH_TOKEN={v}', v)
v = 'SG.' + rnd(22, A + '_-') + '.' + rnd(43, A + '_-'); s('messaging', 'sendgrid', f'sg = SendGridAPIClient("{v}")', v)
v = 'key-' + low(32); s('messaging', 'mailgun', f'-u "api:{v}"', v)
v = hexs(32) + '-us' + str(R.randrange(1, 21)); s('messaging', 'mailchimp', f'mailchimp.setConfig({{apiKey: "{v}"}})', v)
v = hexs(8) + '-' + hexs(4) + '-' + hexs(4) + '-' + hexs(4) + '-' + hexs(12); s('messaging', 'postmark', f'X-Postmark-Server-Token: {v}', v)
v = hexs(8) + '-' + hexs(4) + '-' + hexs(4) + '-' + hexs(4) + '-' + hexs(12) + '@' + hexs(8) + '-' + hexs(4) + '-' + hexs(4) + '-' + hexs(4) + '-' + hexs(12) + '/IncomingWebhook/' + hexs(32) + '/' + hexs(8) + '-' + hexs(4) + '-' + hexs(4) + '-' + hexs(4) + '-' + hexs(12); s('messaging', 'teams-webhook', f'https://contoso.webhook.office.com/webhookb2/{v}', v.split('/IncomingWebhook/')[1][:32])
v = 'AAAA' + rnd(7) + '&key=AIza' + rnd(35) + '&token=' + rnd(43, A + '_-') + '%3D'; s('messaging', 'google-chat-webhook', f'https://chat.googleapis.com/v1/spaces/{v}', v.split('&token=')[1])
v = low(26); s('messaging', 'mattermost-webhook', f'curl -X POST https://chat.example.com/hooks/{v} -d payload', v)
v = rnd(40, A + '_-'); s('messaging', 'pagerduty', f'Authorization: Token token={v}', v)
v = 'xapp-1-A' + up(10) + '-' + str(R.randrange(10**12, 10**13)) + '-' + hexs(64); s('messaging', 'slack-app', f'SLACK_APP_TOKEN={v}', v)
# --- payments
v = 'sk_live_' + rnd(99); s('payments', 'stripe-live', f'Stripe.api_key = "{v}"', v)
v = 'rk_live_' + rnd(99); s('payments', 'stripe-restricted', f'restricted key {v}', v)
v = 'whsec_' + rnd(32); s('payments', 'stripe-webhook', f'STRIPE_WEBHOOK_SECRET={v}', v)
v = 'EAAA' + rnd(60, A + '_-'); s('payments', 'square-access', f'SQUARE_ACCESS_TOKEN={v}', v)
v = 'access_token$production$' + low(16) + '$' + hexs(32); s('payments', 'braintree', f'gateway = braintree.BraintreeGateway(access_token="{v}")', v)
v = 'AQE' + rnd(80, A + '_-+/'); s('payments', 'adyen', f'X-API-Key: {v}', v)
v = 'rzp_live_' + rnd(14); sec = rnd(24); s('payments', 'razorpay', f'razorpay.Client(auth=("{v}", "{sec}"))', sec)
v = rnd(80, A + '-_'); s('payments', 'paypal-secret', f'PAYPAL_CLIENT_SECRET={v}', v)
v = 'pdl_live_apikey_' + rnd(26) + '_' + rnd(22) + '_' + rnd(3); s('payments', 'paddle', f'paddle key {v}', v)
v = 'sq0csp-' + rnd(43, A + '_-'); s('payments', 'square-oauth-secret', f'square application secret {v}', v)
v = rnd(24) + ':' + rnd(48); s('payments', 'coinbase', f'COINBASE_API_SECRET="{v}"', v)
v = 'shpss_' + hexs(32); s('payments', 'shopify-shared', f'shared secret {v}', v)
v = 'FLWSECK-' + hexs(32) + '-X'; s('payments', 'flutterwave', f'FLW_SECRET_KEY={v}', v)
v = 'sk_live_' + hexs(40); s('payments', 'paystack', f'paystack secret {v}', v)
# --- credential URLs
p = pw(); s('urls', 'postgres-url', f'DATABASE_URL=postgresql://app:{p}@db.internal:5432/app', p)
p = pw(); s('urls', 'mysql-url', f'mysql://root:{p}@127.0.0.1:3306/shop', p)
p = rnd(16); s('urls', 'mongodb-srv', f'mongodb+srv://admin:{p}@cluster0.ab1cd.mongodb.net/?retryWrites=true', p)
p = rnd(20); s('urls', 'redis-url', f'REDIS_URL=rediss://default:{p}@redis-123.cloud.example.com:6380', p)
p = pw(); s('urls', 'amqp-url', f'amqp://guest:{p}@rabbit:5672/vhost', p)
p = pw(); s('urls', 'ftp-url', f'ftp://uploader:{p}@files.example.com/in/', p)
p = pw(); s('urls', 'smtp-url', f'EMAIL_URL=smtp+tls://mailer:{p}@smtp.example.com:587', p)
p = pw(); s('urls', 'https-basic', f'git clone https://deploy:{p}@git.example.com/team/app.git', p)
p = pw(); s('urls', 'jdbc-password-param', f'jdbc:postgresql://db:5432/app?user=app&password={p}&ssl=true', p)
p = pw(); s('urls', 'sqlserver-conn', f'Server=tcp:sql.example.net,1433;Database=app;User ID=sa;Password={p};Encrypt=True;', p)
p = pw(); s('urls', 'ldap-url', f'ldaps://cn=admin,dc=example,dc=org:{p}@ldap.example.org', p)
p = pw(); s('urls', 'proxy-url', f'export https_proxy=http://jdoe:{p}@proxy.corp:3128', p)
p = pw(); s('urls', 'odbc-pwd', f'Driver={{ODBC Driver 18}};Server=db;Uid=report;Pwd={p};', p)
p = pw(); s('urls', 'sqlalchemy', f'create_engine("mysql+pymysql://etl:{p}@warehouse/etl")', p)
p = rnd(20); s('urls', 'git-credentials', f'https://alice:{p}@github.com', p)
# --- env and config files
p = pw(); s('config', 'ini-password', f'[database]\nhost = db\nuser = app\npassword = {p}', p)
p = pw(); s('config', 'ini-pass-spaces', f'[smtp]\nsmtp_pass={p}', p)
p = pw(); s('config', 'maven-settings', f'<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>{p}</password>\n</server>', p)
p = pw(); s('config', 'nuget-config', f'<packageSourceCredentials><feed><add key="Username" value="ci" /><add key="ClearTextPassword" value="{p}" /></feed></packageSourceCredentials>', p)
p = rnd(24); s('config', 'redis-requirepass', f'# redis.conf\nrequirepass {p}\nmaxmemory 2gb', p)
p = pw(); s('config', 'redis-masterauth', f'masterauth {p}', p)
p = pw(); s('config', 'wpa-psk', f'network={{\n  ssid="office"\n  psk="{p}"\n}}', p)
p = pw(); s('config', 'yaml-password', f'spring:\n  datasource:\n    username: app\n    password: {p}', p)
p = rnd(32); s('config', 'yaml-client-secret', f'oauth:\n  clientSecret: "{p}"', p)
p = pw(); s('config', 'properties', f'spring.datasource.password={p}\nspring.datasource.url=jdbc:h2:mem', p)
p = pw(); s('config', 'properties-colon', f'db.pass: {p}', p)
p = pw(); s('config', 'dotenv-quoted', f'DB_PASSWORD="{p}"', p)
p = rnd(50, A + '!@#%^&*(-_=+)'); s('config', 'django-secret', f"SECRET_KEY = '{p}'", p)
p = pw(); s('config', 'toml-password', f'[database]\npassword = "{p}"', p)
p = pw(); s('config', 'netrc', f'machine api.example.com login bot password {p}', p)
p = pw(); s('config', 'pgpass', f'db.example.com:5432:app:app:{p}', p)
v = b64(24); s('config', 'docker-config-auth', '{"auths": {"registry.example.com": {"auth": "' + v + '"}}}', v)
v = 'eyJhbGciOiJSUzI1NiIsImtpZCI6Ij' + rnd(40, A + '_-') + '.' + 'eyJpc3Mi' + rnd(60, A + '_-') + '.' + rnd(43, A + '_-'); s('config', 'kubeconfig-token', f'users:\n- name: ci\n  user:\n    token: {v}', v)
p = pw(); s('config', 'xml-attr-password', f'<dataSource url="jdbc:oracle:thin:@db:1521/x" user="app" password="{p}"/>', p)
p = pw(); s('config', 'tomcat-users', f'<user username="admin" password="{p}" roles="manager-gui"/>', p)
p = rnd(32); s('config', 'tfvars', f'db_password = "{p}"', p)
p = pw(); s('config', 'htpasswd-plain-env', f'BASIC_AUTH_PASS={p}', p)
p = pw(); s('config', 'ansible-become', f'ansible_become_pass: {p}', p)
p = pw(); s('config', 'helm-values', f'postgresql:\n  auth:\n    postgresPassword: {p}', p)
p = pw(); s('config', 'mongo-yaml', f'MONGO_INITDB_ROOT_PASSWORD: {p}', p)
p = rnd(40); s('config', 'npmrc-auth', f'_auth={p}', p)
p = pw(); s('config', 'pip-conf', f'[global]\nindex-url = https://user:{p}@pypi.corp/simple', p)
p = pw(); s('config', 'json-passwd', f'{{"smtp": {{"user": "mailer", "passwd": "{p}"}}}}', p)
p = pw(); s('config', 'gradle-properties', f'nexusPassword={p}', p)
p = pw(); s('config', 'xml-element-secret', f'<ClientSecret>{p}</ClientSecret>', p)
# --- private keys
def pem(label): return f'-----BEGIN {label}-----\n' + '\n'.join(b64(48) for _ in range(4)) + f'\n-----END {label}-----'
v = pem('RSA PRIVATE KEY'); s('keys', 'rsa-pem', v, v.split('\n')[2])
v = pem('EC PRIVATE KEY'); s('keys', 'ec-pem', 'key.pem:\n' + v, v.split('\n')[1])
v = pem('OPENSSH PRIVATE KEY'); s('keys', 'openssh', v, v.split('\n')[3])
v = pem('ENCRYPTED PRIVATE KEY'); s('keys', 'pkcs8-encrypted', v, v.split('\n')[1])
v = pem('DSA PRIVATE KEY'); s('keys', 'dsa', v, v.split('\n')[1])
v = pem('PGP PRIVATE KEY BLOCK'); s('keys', 'pgp', v, v.split('\n')[2])
lines = [b64(48) for _ in range(6)]
v = 'PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ed25519-key-20240101\nPublic-Lines: 2\n' + lines[0] + '\n' + lines[1] + '\nPrivate-Lines: 1\n' + lines[2] + '\nPrivate-MAC: ' + hexs(64); s('keys', 'putty-v3', v, lines[2])
lines = [b64(48) for _ in range(6)]
v = 'PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: imported-openssh-key\nPublic-Lines: 1\n' + lines[0] + '\nPrivate-Lines: 2\n' + lines[1] + '\n' + lines[2] + '\nPrivate-MAC: ' + hexs(40); s('keys', 'putty-v2', v, lines[1])
v = 'AGE-SECRET-KEY-1' + rnd(58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L'); s('keys', 'age', f'# created: 2024-01-01\n{v}', v)
v = b64(32); s('keys', 'wireguard', f'[Interface]\nPrivateKey = {v}\nAddress = 10.0.0.2/32', v)
v = rnd(43, A + '_-'); s('keys', 'jwk-d', '{"kty": "EC", "crv": "P-256", "x": "' + rnd(43, A + '_-') + '", "y": "' + rnd(43, A + '_-') + '", "d": "' + v + '"}', v)
v = '0x' + hexs(64); s('keys', 'eth-private-key', f'PRIVATE_KEY={v}', v)
v = hexs(64); s('keys', 'eth-prose', f'the wallet private key is {v}', v)
words = 'abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve acid acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult advance advice aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm album alcohol alert alien all alley allow almost alone alpha already also alter always amateur amazing among amount amused analyst anchor ancient anger angle angry animal ankle announce annual another answer antenna antique anxiety any apart apology appear apple approve april arch arctic area arena argue arm armed armor army around arrange arrest arrive arrow art artefact artist artwork ask aspect assault asset assist assume asthma athlete atom attack attend attitude attract auction audit august aunt author auto autumn average avocado avoid awake aware away awesome awful awkward axis'.split()
m = ' '.join(R.choice(words) for _ in range(12)); s('keys', 'bip39-12', f'seed phrase: {m}', m)
m = ' '.join(R.choice(words) for _ in range(24)); s('keys', 'bip39-24', f'Recovery words for the test wallet:\n{m}', m)
m = ' '.join(R.choice(words) for _ in range(12)); s('keys', 'bip39-mnemonic-env', f'MNEMONIC="{m}"', m)
v = '[' + ','.join(str(R.randrange(256)) for _ in range(64)) + ']'; s('keys', 'solana-keypair', f'~/.config/solana/id.json: {v}', v)
v = pem('PRIVATE KEY').replace('\n', '\\n'); s('keys', 'pem-escaped-json', '{"key": "' + v + '"}', v.split('\\n')[1])
v = b64(1200)[:64]; s('keys', 'p12-base64', f'SIGNING_CERT_P12_BASE64={v}', v)
# --- command-line password flags
p = pw(); s('flags', 'docker-login-p', f'docker login -u ci -p {p} registry.example.com', p)
p = pw(); s('flags', 'redis-cli-a', f'redis-cli -h cache -a {p} ping', p)
p = pw(); s('flags', 'sqlcmd-P', f'sqlcmd -S db -U sa -P {p} -Q "SELECT 1"', p)
p = pw(); s('flags', 'mongosh-p', f'mongosh "mongodb://db:27017" -u admin -p {p} --authenticationDatabase admin', p)
p = pw(); s('flags', 'ldapsearch-w', f'ldapsearch -x -D "cn=admin,dc=ex,dc=org" -w {p} -b dc=ex,dc=org', p)
p = pw(); s('flags', 'htpasswd-b', f'htpasswd -b -c /etc/nginx/.htpasswd admin {p}', p)
p = pw(); s('flags', 'openssl-passout', f'openssl pkcs12 -export -in c.pem -inkey k.pem -out c.p12 -passout pass:{p}', p)
p = pw(); s('flags', 'openssl-passin', f'openssl rsa -in enc.key -passin pass:{p} -out dec.key', p)
p = pw(); s('flags', 'smbclient-U', f'smbclient //fs/share -U alice%{p}', p)
p = pw(); s('flags', 'az-login-p', f'az login --service-principal -u http://app -p {p} --tenant t', p)
p = pw(); s('flags', 'mysql-password-eq', f'mysqldump --user=root --password={p} shop > shop.sql', p)
p = pw(); s('flags', 'psql-env', f'PGPASSWORD={p} psql -h db -U app', p)
p = pw(); s('flags', 'keytool-storepass', f'keytool -importcert -keystore ks.jks -storepass {p} -file ca.crt', p)
p = pw(); s('flags', 'keytool-keypass', f'keytool -genkey -alias app -keypass {p} -keystore ks.jks', p)
p = pw(); s('flags', 'zip-P', f'zip -P {p} backup.zip db.sql', p)
p = pw(); s('flags', '7z-p', f'7z a -p{p} secrets.7z notes/', p)
p = pw(); s('flags', 'gpg-passphrase', f'gpg --batch --passphrase {p} -d backup.gpg', p)
p = pw(); s('flags', 'rabbitmqctl', f'rabbitmqctl add_user deploy {p}', p)
p = pw(); s('flags', 'net-use', f'net use Z: \\\\fs\\share /user:CORP\\alice {p}', p)
p = pw(); s('flags', 'xfreerdp', f'xfreerdp /v:10.0.0.5 /u:admin /p:{p}', p)
p = pw(); s('flags', 'sqlplus', f'sqlplus system/{p}@//db:1521/ORCL', p)
p = pw(); s('flags', 'influx-password', f'influx -username admin -password {p}', p)
p = pw(); s('flags', 'ipmitool-P', f'ipmitool -I lanplus -H bmc -U ADMIN -P {p} power status', p)
p = rnd(40); s('flags', 'mc-alias', f'mc alias set minio http://minio:9000 minioadmin {p}', p)
p = pw(); s('flags', 'wget-password', f'wget --user=bob --password={p} https://files.example.com/a.tgz', p)
p = pw(); s('flags', 'helm-repo-password', f'helm repo add private https://charts.example.com --username ci --password {p}', p)
p = rnd(40, A + '_-'); s('flags', 'kubectl-token', f'kubectl --token={p} get pods', p)
p = pw(); s('flags', 'mount-cifs', f'mount -t cifs //fs/share /mnt -o username=alice,password={p}', p)
p = pw(); s('flags', 'unzip-P', f'unzip -P {p} archive.zip', p)
p = pw(); s('flags', 'snmp-auth', f'snmpwalk -v3 -u mon -l authPriv -a SHA -A {p} -x AES -X {p}x host', p)
p = pw(); s('flags', 'git-askpass-echo', f'echo {p} | sudo -S apt-get update', p)
p = pw(); s('flags', 'pg-conn-string', f'psql "host=db user=app password={p} dbname=app"', p)
p = pw(); s('flags', 'ansible-extra-vars', f'ansible-playbook site.yml -e ansible_password={p}', p)
p = pw(); s('flags', 'hdbsql', f'hdbsql -n hana:30015 -u SYSTEM -p {p} "select 1"', p)
p = pw(); s('flags', 'curl-u-pass', f'curl -u admin:{p} https://jenkins.example.com/api/json', p)
p = pw(); s('flags', 'rclone-pass', f'rclone config create s3 s3 access_key_id AK secret_access_key {p}', p)
# --- HTTP headers and cookies
v = rnd(32); s('http', 'cookie-session', f'Cookie: sessionid={v}; csrftoken={rnd(32)}', v)
v = rnd(40, A + '%'); s('http', 'set-cookie', f'Set-Cookie: __Host-session={v}; Path=/; Secure; HttpOnly', v)
v = rnd(48); s('http', 'curl-cookie', f'curl -b "connect.sid=s%3A{v}" https://app.example.com/me', v)
v = hexs(40); s('http', 'x-api-key', f'curl -H "X-API-Key: {v}" https://api.example.com/v1/things', v)
v = rnd(40); s('http', 'x-auth-token', f'X-Auth-Token: {v}', v)
v = '00' + rnd(40, A + '_-'); s('http', 'okta-ssws', f'Authorization: SSWS {v}', v)
v = rnd(20, A + '_-'); s('http', 'private-token', f'curl --header "PRIVATE-TOKEN: {v}" https://gitlab.example.com/api/v4/projects', v)
v = 'hvs.' + rnd(24); s('http', 'x-vault-token', f'-H "X-Vault-Token: {v}"', v)
v = b64(18); s('http', 'proxy-authorization', f'Proxy-Authorization: Basic {v}', v)
v = rnd(39, A + '_-'); s('http', 'x-goog-api-key', f'x-goog-api-key: AIza{v}', v)
v = rnd(36); s('http', 'apikey-header', f'apikey: {v}', v)
v = rnd(64, A + '+/'); s('http', 'authorization-hmac', f'Authorization: HMAC-SHA256 Credential=abc, Signature={v}', v)
v = rnd(40); s('http', 'python-requests-headers', f'headers = {{"Authorization": f"token {v}"}}', v)
v = rnd(32); s('http', 'cookie-jar-line', f'.example.com\tTRUE\t/\tTRUE\t0\tsession_token\t{v}', v)
v = rnd(32); s('http', 'x-csrf-session', f'X-Session-Token: {v}', v)
v = rnd(43, A + '_-'); s('http', 'access-token-query', f'GET /api/me?access_token={v} HTTP/1.1', v)
# --- passwords in prose
p = pw(); s('prose', 'pw-is', f'the pw is {p} for the staging box', p)
s('prose', 'creds-colon', 'creds root:toor on the lab VM', 'toor')
p = pw(); s('prose', 'login-slash', f'login is admin / {p}', p)
p = pw(); s('prose', 'wifi-password', f'wifi password for the office: {p}', p)
p = pw(); s('prose', 'password-quoted', f'I set the admin password to "{p}" yesterday', p)
p = pw(); s('prose', 'passcode', f'The passcode for the vault UI is {p}.', p)
p = pw(); s('prose', 'use-password', f'Use password {p} when prompted by the installer.', p)
p = pw(); s('prose', 'user-and-pass', f'username: deploy, password: {p}', p)
p = pw(); s('prose', 'de-passwort', f'Das Passwort ist {p}', p)
p = pw(); s('prose', 'fr-mot-de-passe', f'le mot de passe est {p}', p)
p = pw(); s('prose', 'es-contrasena', f'la contraseña es {p}', p)
p = pw(); s('prose', 'credentials-are', f'credentials are jenkins:{p}', p)
p = pw(); s('prose', 'changed-password-to', f'changed the root password to {p} after the incident', p)
p = pw(); s('prose', 'pass-for', f'pass for grafana admin: {p}', p)
p = pw(); s('prose', 'secret-phrase', f'the shared secret is {p}', p)
p = pw(); s('prose', 'pwd-abbrev', f'DB pwd {p} (rotate monthly)', p)

benign = [
 'token: 512 is the chunk size',
 'max_tokens: 4096',
 'tokens: 128000 context window',
 'token_count=1834 after trimming',
 'commit 3f9a1c2e7b4d5f60718293a4b5c6d7e8f9012345 fixed the race',
 'sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
 'image: nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31',
 '"integrity": "sha512-Bo8TmmURKBeJdYsQkJ+fjwvQ5rOyqJKLgOsyq5fnmxLp1rNi3ITmFNAu7xV4ugW+uJhR0kG1PB9ZqcKpa2WKw=="',
 'request id 0f8fad5b-d9cb-469f-a165-70867728950e returned 500',
 'note id 01HZX8K3Q4M5N6P7R8S9T0VWXY',
 'arn:aws:iam::123456789012:role/deploy-role',
 'password: ********',
 'password: <your-password>',
 'docker login -u ci --password-stdin < token.txt',
 'redis-cli -a "$REDIS_PASSWORD" ping',
 'api_key: ${API_KEY}',
 'secret_name: prod-db-credentials',
 'the password is stored in 1Password under "staging db"',
 'PIN codes are 6 digits; the lockout is after 5 tries',
 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHr9cW1kQ2b8Zp4xLq0mN7sVtE3yU5aD6fG8hJ2kL4oP deploy@ci',
 '-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n-----END CERTIFICATE-----',
 '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEq8Z2\n-----END PUBLIC KEY-----',
 'primary key (id, tenant_id)',
 'pk: 42',
 'cache_key: user:{id}:profile',
 'partition key: customer_id',
 'Bearer tokens expire after 3600 s; refresh at 3000 s',
 'auth: required',
 'authentication: oauth2',
 'Cookie consent banner shows once per 30 days',
 'Set-Cookie is stripped by the CDN for static assets',
 '/etc/passwd is world-readable; /etc/shadow is not',
 'mysql -p shop opens the shop database after prompting',
 'psql -h db -U app -W prompts for the password',
 'keytool -list -keystore ks.jks (it prompts for the storepass)',
 'openssl req -new -key k.pem -passin env:KEY_PASS -out r.csr',
 'ETag: "33a64df551425fcc55e4d42a148795d9f25f89d4"',
 'git checkout 9fceb02d0ae598e95dc970b74767f19372d61af8',
 'x-request-id: 7b1c3f0e-2a4d-4e5f-8a9b-0c1d2e3f4a5b',
 'session: 3 of 5 completed',
 'The password reset email uses a 24h link',
 'api-version: 2024-02-01',
 'apiVersion: apps/v1',
 'key: value pairs are sorted alphabetically',
 'access_key_id rotation runs every 90 days',
 'client_secret is read from the secret store at boot',
 'oauth token endpoint is https://auth.example.com/oauth/token',
 'sk-learn is a common misspelling of sklearn',
 'SECRET_KEY_LENGTH = 50',
 'password_min_length: 12',
 'TOKEN_TTL_SECONDS=900',
 'the key word here is idempotent',
 'uuid 123e4567-e89b-12d3-a456-426614174000',
 'md5 d41d8cd98f00b204e9800998ecf8427e of the empty file',
 'Used the abandon ability flag in the test to skip retries',
 'docker run -p 8080:80 nginx',
 'ssh -p 2222 git@example.com',
 'tar -xzf a.tgz -C /opt',
 'zip -r out.zip dist/',
 'htpasswd -c /etc/nginx/.htpasswd admin (prompts twice)',
 'redis requirepass is set from the REDIS_PASSWORD env in the chart',
 'the creds file is ~/.aws/credentials',
 'pw_hash = bcrypt.hashpw(pw, bcrypt.gensalt())',
 'wpa_supplicant reads psk from /etc/wpa_supplicant.conf',
 'JWT header is base64url({"alg":"HS256"})',
 'Build 20240117.3 passed; token budget 2,000',
]
with open('secrets.jsonl', 'w') as f:
    for o in out: f.write(json.dumps(o, ensure_ascii=False) + '\n')
with open('benign.jsonl', 'w') as f:
    for i, b in enumerate(benign): f.write(json.dumps({"name": f"ho-benign-{i:02d}", "text": b}, ensure_ascii=False) + '\n')
from collections import Counter
print(len(out), len(benign), Counter(o['category'] for o in out))
