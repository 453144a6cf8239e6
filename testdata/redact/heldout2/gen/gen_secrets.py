import secrets, string, json, base64, uuid, re, hashlib, os

A = string.ascii_letters + string.digits
UP = string.ascii_uppercase + string.digits
LO = string.ascii_lowercase + string.digits
HEX = '0123456789abcdef'
B64 = A + '+/'
B64U = A + '-_'
B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
BECH = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L'


def r(n, alpha=A):
    return ''.join(secrets.choice(alpha) for _ in range(n))


def digits(n):
    return str(secrets.choice('123456789')) + r(n - 1, string.digits)


def b64(nbytes):
    return base64.b64encode(secrets.token_bytes(nbytes)).decode()


def b64u(nbytes):
    return base64.urlsafe_b64encode(secrets.token_bytes(nbytes)).decode().rstrip('=')


def pw(n=None):
    """realistic mixed password: 8-20 chars"""
    n = n or secrets.choice(range(10, 19))
    syms = '!#%*-_.@+='
    while True:
        s = r(n, A + syms)
        if (any(c.isupper() for c in s) and any(c.islower() for c in s)
                and any(c.isdigit() for c in s) and any(c in syms for c in s)
                and s[0] not in '-.'):
            return s


def pw_word():
    words = ['Tundra', 'copper', 'Falcon', 'marble', 'Quartz', 'violet', 'Harbor', 'pepper', 'Glacier', 'orbit']
    return secrets.choice(words) + secrets.choice('!#.-_@') + digits(2) + secrets.choice(words).lower() + r(2, string.digits)


def pem_body(path):
    t = open(path).read()
    lines = t.strip('\n').split('\n')
    # take last block
    start = max(i for i, l in enumerate(lines) if l.startswith('-----BEGIN'))
    end = max(i for i, l in enumerate(lines) if l.startswith('-----END'))
    blk = lines[start:end + 1]
    inner = blk[1:-1]
    # skip headers (Proc-Type etc.)
    if any(':' in l for l in inner[:2]):
        k = inner.index('') + 1
        inner = inner[k:]
    return '\n'.join(blk), '\n'.join(inner)


out = []


def add(cat, shape, text, secret):
    out.append({'category': cat, 'shape': shape, 'text': text, 'secret': secret})


# ---------------------------------------------------------------- cloud
C = 'cloud'
ak = 'AKIA' + r(16, B32)
sk = r(40, B64)
add(C, 'aws-secret-env-pair', f"Deploy box creds (temporary, rotate Friday):\nAWS_ACCESS_KEY_ID={ak}\nAWS_SECRET_ACCESS_KEY={sk}\nAWS_DEFAULT_REGION=eu-west-1", sk)
ak2 = 'AKIA' + r(16, B32)
add(C, 'aws-access-key-id-prose', f"The bucket sync failed because the IAM user key {ak2} was deactivated by the security team on Tuesday.", ak2)
sk3 = r(40, B64)
add(C, 'aws-credentials-ini', f"~/.aws/credentials on the build VM:\n\n[billing-prod]\naws_access_key_id = AKIA{r(16, B32)}\naws_secret_access_key = {sk3}\nregion = us-east-1", sk3)
st = 'IQoJb3JpZ2luX2VjE' + r(300, B64) + '=='
add(C, 'aws-session-token', f"export AWS_SESSION_TOKEN={st}\n(from `aws sts assume-role --role-arn arn:aws:iam::481516234200:role/ci-deployer`)", st)
sk5 = r(40, B64)
add(C, 'aws-cli-configure-set', f"ran `aws configure set aws_secret_access_key {sk5} --profile sandbox` to unblock the terraform plan", sk5)
sk6 = r(40, B64)
add(C, 'aws-json-sts-output', '{\n  "Credentials": {\n    "AccessKeyId": "ASIA' + r(16, B32) + '",\n    "SecretAccessKey": "' + sk6 + '",\n    "Expiration": "2024-06-11T18:22:09Z"\n  }\n}', sk6)
sa_full, sa_body = pem_body('/tmp/c2/sa.pem')
sa_esc = sa_body.replace('\n', '\\n')
sa_json = ('{\n  "type": "service_account",\n  "project_id": "acme-analytics-prod",\n  "private_key_id": "' + r(40, HEX) + '",\n'
           '  "private_key": "-----BEGIN PRIVATE KEY-----\\n' + sa_esc + '\\n-----END PRIVATE KEY-----\\n",\n'
           '  "client_email": "bq-loader@acme-analytics-prod.iam.gserviceaccount.com",\n  "client_id": "' + digits(21) + '",\n'
           '  "token_uri": "https://oauth2.googleapis.com/token"\n}')
add(C, 'gcp-sa-json-private-key', "Service account key for the BigQuery loader (pasted from the console download):\n" + sa_json, sa_esc)
pkid = r(40, HEX)
add(C, 'gcp-sa-private-key-id', f'"private_key_id": "{pkid}", "client_email": "ci@infra-shared-1.iam.gserviceaccount.com"', pkid)
azk = b64(64)
add(C, 'azure-storage-connstr', f"AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=acmelogsprod;AccountKey={azk};EndpointSuffix=core.windows.net", azk)
sig = b64(32).replace('+', '%2B').replace('/', '%2F').replace('=', '%3D')
add(C, 'azure-sas-url', f"Upload URL for the nightly export: https://acmebackups.blob.core.windows.net/exports/db.bak?sv=2022-11-02&ss=b&srt=co&sp=rwlac&se=2024-09-30T23:59:59Z&st=2024-06-01T00:00:00Z&spr=https&sig={sig}", sig)
sbk = b64(32)
add(C, 'azure-servicebus-connstr', f'"ServiceBus": "Endpoint=sb://acme-orders.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={sbk}"', sbk)
azs = r(3, A) + secrets.choice('78') + 'Q~' + r(34, A + '._~-')
add(C, 'azure-client-secret', f"App registration 'grafana-sso' client secret: {azs} (expires in 12 months, tenant 72f988bf-86f1-41af-91ab-2d7cd011db47)", azs)
cosk = b64(64)
add(C, 'azure-cosmos-key', f"COSMOS_ENDPOINT=https://acme-catalog.documents.azure.com:443/\nCOSMOS_KEY={cosk}", cosk)
do = 'dop_v1_' + r(64, HEX)
add(C, 'digitalocean-pat', f"doctl auth init -t {do}", do)
doo = 'doo_v1_' + r(64, HEX)
add(C, 'digitalocean-oauth', f"DIGITALOCEAN_ACCESS_TOKEN: {doo}", doo)
spk = r(43, A + '/+')
add(C, 'digitalocean-spaces-secret', f"Spaces bucket acme-media (fra1): key DO00{r(16, UP)} secret {spk}", spk)
ali_s = r(30, A)
add(C, 'alibaba-ak-pair', f"aliyun configure --mode AK --access-key-id LTAI5t{r(18, A)} --access-key-secret {ali_s} --region cn-hangzhou", ali_s)
ali_id = 'LTAI5t' + r(18, A)
add(C, 'alibaba-access-key-id', f"OSS uploader uses AccessKeyId {ali_id}; secret is in the vault.", ali_id)
ibm = r(44, A + '_-')
add(C, 'ibm-cloud-apikey', f"ibmcloud login --apikey {ibm} -r us-south", ibm)
ibm2 = r(44, A + '_-')
add(C, 'ibm-cos-hmac-json', '{\n  "apikey": "' + ibm2 + '",\n  "endpoints": "https://control.cloud-object-storage.cloud.ibm.com/v2/endpoints",\n  "iam_apikey_description": "Auto-generated for key crn:v1:bluemix:public:cloud-object-storage"\n}', ibm2)
oci = 'ocid1.credential.oc1..' + r(60, LO)
gsk = r(40, B64)
add(C, 'gcs-hmac-secret', f"GCS interop HMAC for the rclone remote: access_key_id = GOOG1E{r(55, UP)} secret_access_key = {gsk}", gsk)

# ---------------------------------------------------------------- developer platforms
D = 'devplatform'
g = 'ghp_' + r(36)
add(D, 'github-classic-pat', f"Used my PAT {g} for the release script since the app token lacked workflow scope.", g)
g = 'github_pat_11' + r(20, UP) + '_' + r(59)
add(D, 'github-fine-grained-pat', f"GH_TOKEN={g}", g)
g = 'ghs_' + r(36)
add(D, 'github-app-installation', f"installation token (1h): {g}", g)
g = 'gho_' + r(36)
add(D, 'github-oauth-hosts-yml', f"~/.config/gh/hosts.yml\ngithub.com:\n    user: mkovac\n    oauth_token: {g}\n    git_protocol: ssh", g)
g = 'glpat-' + r(20, A + '-_')
add(D, 'gitlab-pat', f"GITLAB_TOKEN={g} # api + read_registry scopes", g)
g = 'glrt-' + r(20, A + '-_')
add(D, 'gitlab-runner-token', f"gitlab-runner register --non-interactive --url https://gitlab.internal.example.com --token {g} --executor docker", g)
g = 'gldt-' + r(20, A + '-_')
add(D, 'gitlab-deploy-token', f"deploy token for the helm chart repo: username gitlab+deploy-token-41, password {g}", g)
g = 'ATBB' + r(32)
add(D, 'bitbucket-app-password', f"Bitbucket app password for the mirror job (user ci-mirror): {g}", g)
g = 'npm_' + r(36)
add(D, 'npm-automation-token', f"NPM_TOKEN={g} - automation token, publish-only", g)
g = 'pypi-AgEIcHlwaS5vcmc' + r(140, B64U)
add(D, 'pypi-token-twine', f"TWINE_USERNAME=__token__ TWINE_PASSWORD={g} twine upload dist/*", g)
g = 'dckr_pat_' + r(27, A + '-_')
add(D, 'dockerhub-pat', f"Docker Hub PAT for acmebot (read/write): {g}", g)
g = 'HRKU-AA' + r(58, A + '_-')
add(D, 'heroku-api-key-new', f"heroku authorizations:create output -> Token: {g}", g)
g = str(uuid.uuid4())
add(D, 'heroku-api-key-uuid', f"HEROKU_API_KEY={g}", g)
g = r(24)
add(D, 'vercel-token', f"vercel deploy --prod --token {g} --scope acme-web", g)
g = 'nfp_' + r(36)
add(D, 'netlify-pat', f"NETLIFY_AUTH_TOKEN={g}\nNETLIFY_SITE_ID={uuid.uuid4()}", g)
g = r(40, A + '_-')
add(D, 'cloudflare-api-token', f"Cloudflare token with Zone.DNS edit on example.com: {g}", g)
g = r(37, HEX)
add(D, 'cloudflare-global-key', f"CF_API_EMAIL=ops@example.com\nCF_API_KEY={g}", g)
g = 'ATATT3xFfGF0' + r(170, A + '_-') + '=' + r(8, UP)
add(D, 'atlassian-api-token', f"Jira automation uses basic auth with jira-bot@example.com and API token {g}", g)
g = 'AKCp8' + r(68)
add(D, 'jfrog-api-key', f"artifactory: X-JFrog-Art-Api {g}", g)
g = r(32, HEX)
add(D, 'sentry-dsn', f"SENTRY_DSN=https://{g}@o{digits(6)}.ingest.sentry.io/{digits(16)}", g)
g = 'sntrys_' + b64u(120)
add(D, 'sentry-org-auth-token', f"SENTRY_AUTH_TOKEN={g} sentry-cli sourcemaps upload ./dist", g)
g = r(32, HEX)
add(D, 'datadog-api-key', f"DD_API_KEY={g} DD_SITE=datadoghq.eu docker run -d --name dd-agent gcr.io/datadoghq/agent:7", g)
g = r(40, HEX)
add(D, 'datadog-app-key', f"datadog app key for the SLO exporter: {g}", g)
g = 'NRAK-' + r(27, UP)
add(D, 'newrelic-user-key', f"NEW_RELIC_API_KEY={g}", g)
g = 'pul-' + r(40, HEX)
add(D, 'pulumi-token', f"PULUMI_ACCESS_TOKEN={g}", g)
g = r(14, A) + '.atlasv1.' + r(67, A)
add(D, 'terraform-cloud-token', 'credentials "app.terraform.io" {\n  token = "' + g + '"\n}', g)
g = 'hvs.' + r(90, A + '_-')
add(D, 'vault-token-env', f"VAULT_ADDR=https://vault.internal.example.com:8200 VAULT_TOKEN={g}", g)
g = 'shpat_' + r(32, HEX)
add(D, 'shopify-admin-token', f"Shopify admin API access token for acme-store.myshopify.com: {g}", g)
g = 'lin_api_' + r(40)
add(D, 'linear-api-key', f"LINEAR_API_KEY={g}", g)
g = 'secret_' + r(43)
add(D, 'notion-integration', f"Notion integration token for the changelog sync: {g}", g)

# ---------------------------------------------------------------- AI providers
I = 'ai'
g = 'sk-proj-' + r(74, A + '-_') + 'T3BlbkFJ' + r(74, A + '-_')
add(I, 'openai-project-key', f"OPENAI_API_KEY={g}", g)
g = 'sk-' + r(20) + 'T3BlbkFJ' + r(20)
add(I, 'openai-legacy-key', f"old key from the 2023 prototype, still works: {g}", g)
g = 'sk-svcacct-' + r(74, A + '-_') + 'T3BlbkFJ' + r(74, A + '-_')
add(I, 'openai-svcacct-key', f"client = OpenAI(api_key=\"{g}\")", g)
g = 'sk-ant-api03-' + r(93, A + '-_') + 'AA'
add(I, 'anthropic-api-key', f"export ANTHROPIC_API_KEY={g}", g)
g = 'sk-ant-admin01-' + r(93, A + '-_') + 'AA'
add(I, 'anthropic-admin-key', f"admin key for the usage report cron: {g}", g)
g = 'sk-ant-oat01-' + r(93, A + '-_') + 'AA'
add(I, 'anthropic-oauth-token', f"CLAUDE_CODE_OAUTH_TOKEN={g}", g)
g = 'AIza' + r(35, A + '-_')
add(I, 'gemini-api-key', f"GEMINI_API_KEY={g}", g)
g = 'AIza' + r(35, A + '-_')
add(I, 'google-maps-key-url', f"curl 'https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key={g}'", g)
g = 'hf_' + r(34, string.ascii_letters)
add(I, 'huggingface-token', f"huggingface-cli login --token {g}", g)
g = r(40)
add(I, 'cohere-key', f"co = cohere.Client(\"{g}\")", g)
g = 'r8_' + r(37)
add(I, 'replicate-token', f"REPLICATE_API_TOKEN={g}", g)
g = r(32)
add(I, 'mistral-key', f"MISTRAL_API_KEY={g}", g)
g = 'gsk_' + r(52)
add(I, 'groq-key', f"Groq key for the latency bake-off: {g}", g)
g = 'pplx-' + r(48)
add(I, 'perplexity-key', f"PERPLEXITY_API_KEY=\"{g}\"", g)
g = 'xai-' + r(80)
add(I, 'xai-key', f"XAI_API_KEY={g}", g)
g = 'sk-' + r(32, HEX)
add(I, 'deepseek-key', f"deepseek: base_url https://api.deepseek.com, api_key {g}", g)
g = r(32, HEX)
add(I, 'azure-openai-key', f"curl https://acme-eastus.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-06-01 -H \"api-key: {g}\" -d @req.json", g)
g = 'tgp_v1_' + r(43, A + '-_')
add(I, 'together-key', f"TOGETHER_API_KEY={g}", g)
g = 'fw_' + r(24)
add(I, 'fireworks-key', f"fireworks api key: {g}", g)
g = 'pcsk_' + r(5) + '_' + r(63)
add(I, 'pinecone-key', f"PINECONE_API_KEY={g}", g)
g = 'lsv2_pt_' + r(32, HEX) + '_' + r(10, HEX)
add(I, 'langsmith-key', f"LANGCHAIN_API_KEY={g}\nLANGCHAIN_TRACING_V2=true", g)

# ---------------------------------------------------------------- messaging
M = 'messaging'
g = 'xoxb-' + digits(12) + '-' + digits(13) + '-' + r(24)
add(M, 'slack-bot-token', f"SLACK_BOT_TOKEN={g}", g)
g = 'xoxp-' + digits(12) + '-' + digits(12) + '-' + digits(13) + '-' + r(32, HEX)
add(M, 'slack-user-token', f"my personal slack token (for the export script): {g}", g)
g = 'xapp-1-A' + r(10, UP) + '-' + digits(13) + '-' + r(64, HEX)
add(M, 'slack-app-token', f"SLACK_APP_TOKEN={g} # socket mode", g)
t = r(24)
add(M, 'slack-webhook', f"alerts go to https://hooks.slack.com/services/T{r(10, UP)}/B{r(10, UP)}/{t}", t)
t = r(24)
add(M, 'slack-webhook-curl', f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"deploy done\"}}' https://hooks.slack.com/services/T0{r(8, UP)}/B0{r(9, UP)}/{t}", t)
uid = digits(18)
g = base64.b64encode(uid.encode()).decode().rstrip('=') + '.' + r(6, A + '-_') + '.' + r(38, A + '-_')
add(M, 'discord-bot-token', f"DISCORD_TOKEN={g}", g)
t = r(68, A + '-_')
add(M, 'discord-webhook', f"build notifications: https://discord.com/api/webhooks/{digits(19)}/{t}", t)
g = digits(10) + ':AA' + r(33, A + '-_')
add(M, 'telegram-bot-token', f"Telegram bot @acme_oncall_bot token {g}", g)
g = digits(9) + ':AA' + r(33, A + '-_')
add(M, 'telegram-api-url', f"curl https://api.telegram.org/bot{g}/sendMessage -d chat_id=-100{digits(10)} -d text=hi", g)
t = r(32, HEX)
add(M, 'twilio-auth-token', f"TWILIO_ACCOUNT_SID=AC{r(32, HEX)}\nTWILIO_AUTH_TOKEN={t}", t)
t = r(32)
add(M, 'twilio-api-key-secret', f"Twilio API key SK{r(32, HEX)} with secret {t}", t)
g = 'SG.' + r(22, A + '-_') + '.' + r(43, A + '-_')
add(M, 'sendgrid-key', f"SENDGRID_API_KEY='{g}'", g)
g = 'key-' + r(32, HEX)
add(M, 'mailgun-key-legacy', f"curl -s --user 'api:{g}' https://api.mailgun.net/v3/mg.example.com/messages", g)
g = r(32, HEX) + '-' + r(8, HEX) + '-' + r(8, HEX)
add(M, 'mailgun-key-new', f"MAILGUN_API_KEY={g}", g)
t = r(32, HEX)
add(M, 'teams-webhook', f"Teams incoming webhook for #release: https://acme.webhook.office.com/webhookb2/{uuid.uuid4()}@{uuid.uuid4()}/IncomingWebhook/{t}/{uuid.uuid4()}/V2{r(40, A + '-_')}", t)
g = r(8, HEX) + '-' + r(4, HEX) + '-' + r(4, HEX) + '-' + r(4, HEX) + '-' + r(12, HEX)
add(M, 'postmark-server-token', f"X-Postmark-Server-Token: {g}", g)
g = 'xkeysib-' + r(64, HEX) + '-' + r(16)
add(M, 'brevo-key', f"BREVO_API_KEY={g}", g)
g = r(32, HEX) + '-us21'
add(M, 'mailchimp-key', f"mailchimp api key {g}", g)
g = 'o.' + r(32)
add(M, 'pushbullet-token', f"Access-Token: {g}", g)
g = r(30, LO)
add(M, 'pushover-token', f"pushover app token={g} user=u{r(29, LO)}", g)

# ---------------------------------------------------------------- payments
P = 'payments'
g = 'sk_live_51' + r(97)
add(P, 'stripe-live-secret', f"STRIPE_SECRET_KEY={g}", g)
g = 'rk_live_51' + r(97)
add(P, 'stripe-restricted', f"restricted key for the reporting job (read-only charges): {g}", g)
g = 'whsec_' + r(32)
add(P, 'stripe-webhook-secret', f"stripe listen printed: Ready! Your webhook signing secret is {g} (^C to quit)", g)
g = 'sk_test_51' + r(97)
add(P, 'stripe-test-secret', f"stripe.api_key = \"{g}\"", g)
g = 'access_token$production$' + r(16, LO) + '$' + r(32, HEX)
add(P, 'braintree-access-token', f"PAYPAL_ACCESS_TOKEN={g}", g)
g = r(32, HEX)
add(P, 'braintree-private-key', f"braintree:\n  environment: production\n  merchant_id: {r(16, LO)}\n  public_key: {r(16, LO)}\n  private_key: {g}", g)
g = r(80, A + '-_')
add(P, 'paypal-client-secret', f"PAYPAL_CLIENT_ID=A{r(79, A + '-_')}\nPAYPAL_CLIENT_SECRET=E{g}", 'E' + g)
g = 'EAAA' + r(60, A + '-_')
add(P, 'square-access-token', f"SQUARE_ACCESS_TOKEN={g}", g)
g = 'sq0csp-' + r(43, A + '-_')
add(P, 'square-oauth-secret', f"Square OAuth app secret {g}", g)
g = 'AQE' + r(10) + 'Pu' + r(20) + '+' + r(40) + '=-' + r(44, A + '/+') + '=-' + r(16, A + '^>#@]')
add(P, 'adyen-api-key', f"X-API-Key for Adyen live: {g}", g)
g = r(24)
add(P, 'razorpay-secret', f"RAZORPAY_KEY_ID=rzp_live_{r(14)}\nRAZORPAY_KEY_SECRET={g}", g)
g = 'sk_live_' + r(40, HEX)
add(P, 'paystack-secret', f"curl https://api.paystack.co/transaction -H \"Authorization: Bearer {g}\"", g)
g = r(30, HEX)
add(P, 'plaid-secret', f"PLAID_CLIENT_ID={r(24, HEX)} PLAID_SECRET={g} PLAID_ENV=production", g)
g = 'FLWSECK-' + r(32, HEX) + '-X'
add(P, 'flutterwave-secret', f"flutterwave secret key {g}", g)
g = 'sk_live_' + r(24)
add(P, 'checkout-style-sk', f"payments-service/.env.production: CHECKOUT_SECRET_KEY={g}", g)
g = 'live_' + r(30)
add(P, 'mollie-key', f"Mollie API key (live): {g}", g)
g = 'pdl_live_apikey_' + r(26, LO) + '_' + r(27) + '_' + r(3)
add(P, 'paddle-key', f"PADDLE_API_KEY={g}", g)

# ---------------------------------------------------------------- credential URLs
U = 'credurl'
p = pw(); add(U, 'postgres-url', f"DATABASE_URL=postgres://app_rw:{p}@db-primary.internal.example.com:5432/orders?sslmode=require", p)
p = pw(); add(U, 'postgresql-url-psql', f"psql \"postgresql://reporting:{p}@10.20.4.17/analytics\" -c 'select count(*) from events'", p)
p = pw(); add(U, 'mongodb-srv', f"MONGO_URI=mongodb+srv://atlas-admin:{p}@cluster0.ab1cd.mongodb.net/prod?retryWrites=true&w=majority", p)
p = pw(); add(U, 'mysql-url', f"spring.datasource.url wasn't enough, so we used SQLALCHEMY_DATABASE_URI=mysql+pymysql://legacy:{p}@mysql-02.corp.example.com:3306/crm", p)
p = pw(); add(U, 'redis-url-nouser', f"REDIS_URL=redis://:{p}@cache.internal:6379/0", p)
p = pw(); add(U, 'rediss-url-user', f"celery broker: rediss://default:{p}@redis-17321.c1.eu-west-1.ec2.cloud.redislabs.com:17321", p)
p = pw(); add(U, 'amqp-url', f"CELERY_BROKER_URL=amqp://worker:{p}@rabbitmq.svc.cluster.local:5672/%2F", p)
t = 'ghp_' + r(36); add(U, 'git-https-token', f"git remote set-url origin https://x-access-token:{t}@github.com/acme/platform.git", t)
t = 'glpat-' + r(20, A + '-_'); add(U, 'git-clone-gitlab-oauth2', f"git clone https://oauth2:{t}@gitlab.example.com/infra/ansible.git", t)
p = pw(); add(U, 'ftp-url', f"legacy vendor drop: ftp://acme_upload:{p}@ftp.partner-logistics.example.net/incoming/", p)
p = pw(); add(U, 'smtp-url', f"EMAIL_URL=smtp+tls://notifications@example.com:{p}@smtp.office365.com:587", p)
p = pw(); add(U, 'jdbc-inline-password', f"jdbc:sqlserver://sql-prod-01.corp.example.com:1433;databaseName=Billing;user=svc_billing;password={p};encrypt=true", p)
p = pw(); add(U, 'http-basic-in-url', f"Prometheus remote write: https://metrics:{p}@prom.example.com/api/v1/write", p)
p = pw(); add(U, 'sftp-url', f"rclone copy ./out sftp://deploy:{p}@files.example.org:22/var/www/static", p)
p = pw(); add(U, 'elasticsearch-url', f"ES_URL=https://elastic:{p}@es-logs-7f3a.es.us-central1.gcp.cloud.es.io:9243", p)
p = pw(); add(U, 'mssql-odbc-connstr', f"Driver={{ODBC Driver 18 for SQL Server}};Server=tcp:acme-sql.database.windows.net,1433;Database=inventory;Uid=inv_app;Pwd={p};Encrypt=yes;", p)
p = pw(); add(U, 'kafka-sasl-jaas', f"sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"{r(16, UP)}\" password=\"{p}\";", p)
p = pw(); add(U, 'proxy-url', f"export https_proxy=http://jdoe:{p}@proxy.corp.example.com:3128", p)

# ---------------------------------------------------------------- env and config files
F = 'config'
p = pw(); add(F, 'dotenv-db-password', f".env.local\nDB_HOST=localhost\nDB_USER=app\nDB_PASSWORD={p}\nDB_NAME=app_dev", p)
g = r(64, HEX); add(F, 'dotenv-secret-key-base', f"SECRET_KEY_BASE={g}\nRAILS_ENV=production", g)
g = b64(50); add(F, 'django-secret-key', f"settings/prod.py:\nSECRET_KEY = '{g}'", g)
p = pw(); add(F, 'ini-password', f"[database]\nhost = pg.internal\nuser = etl\npassword = {p}\nport = 5432", p)
p = pw(); add(F, 'maven-settings-xml', f"<settings>\n  <servers>\n    <server>\n      <id>acme-releases</id>\n      <username>deployer</username>\n      <password>{p}</password>\n    </server>\n  </servers>\n</settings>", p)
p = pw(); add(F, 'webconfig-connstr', f"<connectionStrings>\n  <add name=\"Default\" connectionString=\"Data Source=SQL01;Initial Catalog=Portal;User ID=portal_app;Password={p}\" providerName=\"System.Data.SqlClient\" />\n</connectionStrings>", p)
p = pw(); add(F, 'docker-compose-env', f"services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: {p}\n      POSTGRES_DB: app", p)
p = pw(); add(F, 'k8s-secret-stringdata', f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: payments-db\ntype: Opaque\nstringData:\n  username: payments\n  password: \"{p}\"", p)
raw = pw(); enc = base64.b64encode(raw.encode()).decode()
add(F, 'k8s-secret-data-b64', f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: redis-auth\ndata:\n  redis-password: {enc}", enc)
p = pw(); add(F, 'ansible-vars', f"group_vars/db.yml:\nmysql_root_password: \"{p}\"\nmysql_bind_address: 0.0.0.0", p)
p = pw(); add(F, 'java-properties', f"application-prod.properties\nspring.datasource.username=orders\nspring.datasource.password={p}\nspring.jpa.hibernate.ddl-auto=validate", p)
t = 'npm_' + r(36); add(F, 'npmrc-authtoken', f"//registry.npmjs.org/:_authToken={t}\n@acme:registry=https://npm.pkg.github.com", t)
t = 'ghp_' + r(36); add(F, 'npmrc-github-packages', f".npmrc\n//npm.pkg.github.com/:_authToken={t}", t)
t = 'pypi-AgEIcHlwaS5vcmc' + r(120, B64U); add(F, 'pypirc', f"[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = {t}", t)
p = pw(); add(F, 'netrc', f"~/.netrc\nmachine artifacts.example.com\n  login ci-reader\n  password {p}", p)
p = pw(); add(F, 'pgpass', f"~/.pgpass (chmod 600):\ndb-replica.internal:5432:*:readonly:{p}", p)
t = 'ghp_' + r(36); add(F, 'git-credentials', f"~/.git-credentials\nhttps://mkovac:{t}@github.com", t)
p = pw(); add(F, 'toml-config', f"[server.auth]\nadmin_user = \"root\"\nadmin_password = \"{p}\"", p)
g = r(32, A); add(F, 'json-config-client-secret', '{\n  "oauth": {\n    "client_id": "portal-web",\n    "client_secret": "' + g + '",\n    "issuer": "https://sso.example.com/realms/acme"\n  }\n}', g)
p = pw(); add(F, 'nuget-config', f"<packageSourceCredentials>\n  <acme-feed>\n    <add key=\"Username\" value=\"build\" />\n    <add key=\"ClearTextPassword\" value=\"{p}\" />\n  </acme-feed>\n</packageSourceCredentials>", p)
t = b64(48); add(F, 'docker-config-json-auth', '~/.docker/config.json:\n{\n  "auths": {\n    "registry.example.com": {\n      "auth": "' + t + '"\n    }\n  }\n}', t)
p = pw(); add(F, 'wpa-supplicant', f"network={{\n    ssid=\"ACME-Lab\"\n    psk=\"{p}\"\n}}", p)
p = pw(); add(F, 'helm-values-yaml', f"postgresql:\n  auth:\n    username: keycloak\n    password: {p}\n    database: keycloak", p)
g = r(64, HEX); add(F, 'jwt-secret-env', f"JWT_SIGNING_SECRET={g}", g)

# ---------------------------------------------------------------- private keys
K = 'privkey'
full, body = pem_body('/tmp/c2/rsa.pem'); add(K, 'pem-rsa-pkcs1', "bastion key (old, pre-rotation):\n```\n" + full + "\n```", body)
full, body = pem_body('/tmp/c2/ec.pem'); add(K, 'pem-ec-p256', "TLS key for api-staging.example.com:\n" + full, body)
full, body = pem_body('/tmp/c2/ec384.pem'); add(K, 'pem-ec-p384-with-params', "openssl ecparam output for the signing service:\n" + open('/tmp/c2/ec384.pem').read(), body)
full, body = pem_body('/tmp/c2/pk8.pem'); add(K, 'pem-pkcs8-ed25519', "webhook signer key -> " + full, body)
full, body = pem_body('/tmp/c2/enc.pem'); add(K, 'pem-pkcs8-encrypted', "encrypted (passphrase in 1Password):\n" + full, body)
full, body = pem_body('/tmp/c2/rsa_enc.pem'); add(K, 'pem-rsa-proc-type-encrypted', open('/tmp/c2/rsa_enc.pem').read(), body)
full, body = pem_body('/tmp/c2/id_ed'); add(K, 'openssh-ed25519', "~/.ssh/id_ed25519 from the CI runner:\n" + full + "\n", body)
full, body = pem_body('/tmp/c2/id_ec'); add(K, 'openssh-ecdsa', "    " + full.replace('\n', '\n    '), body.replace('\n', '\n    '))
full, body = pem_body('/tmp/c2/id_ed_enc'); add(K, 'openssh-ed25519-encrypted', full, body)
priv_line = b64(48)
ppk = ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-20240611\nPublic-Lines: 2\n"
       "AAAAC3NzaC1lZDI1NTE5AAAAIB" + r(42, B64) + "\n" + r(16, B64) + "\nPrivate-Lines: 1\n" + priv_line + "\nPrivate-MAC: " + r(64, HEX))
add(K, 'putty-ppk-v3', "key for the Windows jump host (saved as jump.ppk):\n" + ppk, priv_line)
blines = ['lQVYBGZ' + r(57, B64)] + [r(64, B64) for _ in range(14)] + [r(40, B64) + '=']
pgp_body = '\n'.join(blines)
pgp = "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + pgp_body + "\n=" + r(4, B64) + "\n-----END PGP PRIVATE KEY BLOCK-----"
add(K, 'pgp-private-block', "release signing key export (gpg --export-secret-keys --armor):\n" + pgp, pgp_body)
d = b64u(32)
add(K, 'jwk-ec-d', '{"kty":"EC","crv":"P-256","kid":"sig-2024-06","x":"' + b64u(32) + '","y":"' + b64u(32) + '","d":"' + d + '","use":"sig","alg":"ES256"}', d)
d = b64u(256)
add(K, 'jwk-rsa-d', '{\n  "kty": "RSA",\n  "n": "' + b64u(256) + '",\n  "e": "AQAB",\n  "d": "' + d + '",\n  "p": "' + b64u(128) + '"\n}', d)
g = 'AGE-SECRET-KEY-1' + r(58, BECH)
add(K, 'age-secret-key', f"# created: 2024-06-11T10:03:44+02:00\n# public key: age1{r(58, BECH.lower())}\n{g}", g)
g = 'AGE-SECRET-KEY-1' + r(58, BECH)
add(K, 'age-key-sops-env', f"SOPS_AGE_KEY={g} sops -d secrets.enc.yaml", g)
xprv = 'xprv9s21ZrQH143K' + r(95, '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz')
add(K, 'bip32-xprv', f"test wallet master key {xprv}", xprv)
full, body = pem_body('/tmp/c2/rsa.pem')
jsonish = full.replace('\n', '\\n')
add(K, 'pem-rsa-in-json-escaped', '{"tls": {"key": "' + jsonish + '"}}', body.replace('\n', '\\n'))

# ---------------------------------------------------------------- command-line password flags
L = 'cli'
p = pw(); add(L, 'mysql-p-attached', f"mysql -h db.internal -u root -p{p} -e 'SHOW PROCESSLIST'", p)
p = pw(); add(L, 'mysql-password-long', f"mysqldump --user=backup --password={p} --single-transaction shop > shop.sql", p)
p = pw(); add(L, 'pgpassword-env', f"PGPASSWORD={p} psql -h pg-01.internal -U migrator -d billing -f 0042_add_index.sql", p)
p = pw(); add(L, 'sshpass', f"sshpass -p '{p}' ssh -o StrictHostKeyChecking=no admin@192.168.10.14", p)
p = pw(); add(L, 'curl-u', f"curl -u jenkins:{p} https://jenkins.example.com/job/nightly/build", p)
p = pw(); add(L, 'docker-login-p', f"docker login registry.example.com -u ci -p {p}", p)
p = pw(); add(L, 'redis-cli-a', f"redis-cli -h cache.internal -a {p} --no-auth-warning INFO memory", p)
p = pw(); add(L, 'mongodump-password', f"mongodump --uri mongodb://mongo-1.internal:27017 --username backup --password '{p}' --authenticationDatabase admin", p)
p = pw(); add(L, 'sqlcmd-P', f"sqlcmd -S sql-prod-01 -U sa -P \"{p}\" -Q \"SELECT @@VERSION\"", p)
p = pw(); add(L, 'ldapsearch-w', f"ldapsearch -x -H ldaps://ldap.corp.example.com -D 'cn=svc-jira,ou=svc,dc=corp,dc=example,dc=com' -w '{p}' -b 'dc=corp,dc=example,dc=com' '(uid=mkovac)'", p)
p = pw(); add(L, 'openssl-passin', f"openssl pkcs12 -in client.p12 -nodes -passin pass:{p} -out client.pem", p)
p = pw(); add(L, 'keytool-storepass', f"keytool -importcert -alias corp-root -file root.crt -keystore truststore.jks -storepass {p} -noprompt", p)
p = pw(); add(L, 'htpasswd-b', f"htpasswd -b -c /etc/nginx/.htpasswd grafana {p}", p)
p = pw(); add(L, 'az-login-p', f"az login --service-principal -u http://acme-ci -p {p} --tenant contoso.onmicrosoft.com", p)
t = 'hvs.' + r(90, A + '_-'); add(L, 'vault-login', f"vault login {t}", t)
t = 'eyJhbGciOiJSUzI1NiIsImtpZCI6I' + r(40, B64U) + '.eyJpc3MiOiJrdWJlcm5ldGVzL3NlcnZpY2VhY2NvdW50Ii' + r(300, B64U) + '.' + r(342, B64U)
add(L, 'kubectl-token', f"kubectl --server https://k8s-api.internal:6443 --token={t} get pods -n payments", t)
p = pw(); add(L, 'helm-repo-add-password', f"helm repo add acme https://charts.example.com --username ci --password {p}", p)
t = 'ghp_' + r(36); add(L, 'git-clone-token-url', f"git clone https://{t}@github.com/acme/infra-secrets.git", t)
p = pw(); add(L, 'smbclient-U', f"smbclient //fs01/share -U 'CORP\\backup%{p}' -c 'ls'", p)
p = pw(); add(L, 'rabbitmqctl-add-user', f"rabbitmqctl add_user telemetry '{p}'", p)
p = pw(); add(L, 'psql-conninfo-password', f"psql \"host=10.0.3.9 dbname=postgres user=postgres password={p}\"", p)
p = pw(); add(L, 'wget-password', f"wget --user=mirror --password='{p}' https://repo.example.com/private/pkg.tar.gz", p)
p = pw(); add(L, 'net-use-user', f"net use Z: \\\\nas01\\media /user:CORP\\jdoe {p}", p)
p = pw(); add(L, 'mosquitto-pub-P', f"mosquitto_pub -h mqtt.example.com -u sensor01 -P '{p}' -t plant/temp -m 21.4", p)
p = pw(); add(L, 'zip-password', f"7z a -p{p} -mhe=on export.7z ./customer-export/", p)

# ---------------------------------------------------------------- HTTP headers and cookies
H = 'http'
t = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.' + base64.urlsafe_b64encode(json.dumps({"sub": digits(7), "name": "m.kovac", "iat": 1718000000, "exp": 1718086400}).encode()).decode().rstrip('=') + '.' + b64u(32)
add(H, 'bearer-jwt', f"curl -H 'Authorization: Bearer {t}' https://api.example.com/v2/orders?limit=5", t)
t = r(40, A + '-._~'); add(H, 'bearer-opaque', f"GET /v1/me HTTP/1.1\nHost: api.internal.example.com\nAuthorization: Bearer {t}\nAccept: application/json", t)
raw = f"svc-backup:{pw()}"; t = base64.b64encode(raw.encode()).decode()
add(H, 'basic-b64', f"Authorization: Basic {t}", t)
t = 'ghp_' + r(36); add(H, 'token-scheme-github', f"curl -H \"Authorization: token {t}\" https://api.github.com/repos/acme/platform/actions/runs", t)
t = r(32, HEX); add(H, 'digest-response', f'Authorization: Digest username="admin", realm="camera", nonce="{r(32, HEX)}", uri="/ISAPI/System/status", qop=auth, nc=00000001, cnonce="{r(16, HEX)}", response="{t}"', t)
t = r(48); add(H, 'x-api-key', f"X-API-Key: {t}", t)
t = 'sk-ant-api03-' + r(93, A + '-_') + 'AA'
add(H, 'x-api-key-anthropic-curl', f"curl https://api.anthropic.com/v1/messages -H \"x-api-key: {t}\" -H \"anthropic-version: 2023-06-01\"", t)
t = '00' + r(40, A + '-_'); add(H, 'okta-ssws', f"Authorization: SSWS {t}", t)
t = r(36, LO + '-') + ':fx'; add(H, 'deepl-auth-key', f"Authorization: DeepL-Auth-Key {t}", t)
t = b64u(32); add(H, 'cookie-session', f"Cookie: session={t}; theme=dark; _ga=GA1.2.{digits(9)}.{digits(10)}", t)
t = r(32, LO); add(H, 'set-cookie-sessionid', f"Set-Cookie: sessionid={t}; Path=/; HttpOnly; Secure; SameSite=Lax", t)
t = 's%3A' + r(32, A + '-_') + '.' + r(43, A + '%'); add(H, 'connect-sid-cookie', f"copied from devtools: connect.sid={t}", t)
t = r(40, HEX); add(H, 'x-auth-token', f"X-Auth-Token: {t}", t)
t = r(64, A); add(H, 'apikey-scheme', f"Authorization: ApiKey {t}", t)
t = 'AKIA' + r(16, B32); s = r(64, HEX)
add(H, 'aws-sigv4-header', f"Authorization: AWS4-HMAC-SHA256 Credential={t}/20240611/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature={s}", t)
t = 'ya29.a0' + r(160, A + '-_'); add(H, 'google-oauth-access', f"Authorization: Bearer {t}", t)
t = r(64, HEX); add(H, 'private-token-gitlab', f"curl --header \"PRIVATE-TOKEN: glpat-{t[:20]}\" https://gitlab.example.com/api/v4/projects", f"glpat-{t[:20]}")
t = r(43, A + '-_'); add(H, 'cookie-rails-session', f"Cookie: _acme_session={t}%3D%3D--{r(40, HEX)}", t)
t = r(32, HEX); add(H, 'python-requests-headers', f"requests.get(url, headers={{\"Authorization\": \"Bearer {t}\", \"Accept\": \"application/json\"}})", t)

# ---------------------------------------------------------------- passwords in prose
R = 'prose'
p = pw(); add(R, 'wifi-password', f"Office move notes: the wifi password is {p} (network ACME-Guest-5G).", p)
p = pw(); add(R, 'admin-slash', f"Grafana login is admin / {p} until SSO lands.", p)
p = 'hunter2-' + r(6, A + '!#'); add(R, 'admin-slash-hunter2', f"login is admin / {p} on the old Jenkins", p)
p = pw(); add(R, 'pw-for-staging', f"pw for staging: {p}", p)
p = pw(); add(R, 'passphrase-quoted', f"Use passphrase '{p}' to unlock the backup key.", p)
p = pw(); add(R, 'creds-colon', f"Router creds: user `netadmin`, password `{p}`.", p)
p = pw(); add(R, 'root-password-was', f"The root password on the Proxmox host was reset to {p} during the outage.", p)
p = pw(); add(R, 'pass-is', f"Nas login: pass is {p}", p)
p = pw(); add(R, 'german', f"Das WLAN-Passwort im Besprechungsraum lautet {p}.", p)
p = pw(); add(R, 'spanish', f"La contraseña del servidor de pruebas es {p} y el usuario es deploy.", p)
p = pw(); add(R, 'french', f"Le mot de passe du compte admin est : {p}", p)
p = pw(); add(R, 'portuguese', f"A senha do banco de homologação é {p}.", p)
p = pw(); add(R, 'italian', f"La password del NAS è {p}, non cambiarla senza avvisare.", p)
p = pw(); add(R, 'japanese', f"検証環境の管理者パスワードは {p} です。", p)
p = pw(); add(R, 'chinese', f"测试服务器的密码是 {p}，用户名 root。", p)
p = pw(); add(R, 'russian', f"Пароль от тестовой базы: {p}", p)
p = pw(); add(R, 'dutch', f"Het wachtwoord voor de VPN is {p}.", p)
p = pw_word(); add(R, 'word-combo-password', f"Set the shared vault password to {p} for the offsite; tell nobody outside ops.", p)
p = pw(); add(R, 'pin-and-password', f"Laptop handover: BitLocker recovery is in Intune, local account 'setup' password {p}.", p)
p = pw(); add(R, 'changed-to', f"changed the postgres superuser password to \"{p}\" after the contractor left", p)

# ---------------------------------------------------------------- write
shapes = [o['shape'] for o in out]
assert len(shapes) == len(set(shapes)), [s for s in shapes if shapes.count(s) > 1]
for o in out:
    assert o['secret'] in o['text'], o['shape']
    assert len(o['secret']) >= 6, o['shape']
with open('/work/wt/corpus2/secrets.jsonl', 'w') as f:
    for o in out:
        f.write(json.dumps(o, ensure_ascii=False) + '\n')
from collections import Counter
print(len(out), Counter(o['category'] for o in out))
