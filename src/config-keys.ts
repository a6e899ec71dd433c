// Every configuration key: its kind, default and description (config.ts reads and checks them; the
// README's table lists them in this order).
import { DEFAULT_LDAP_ATTRIBUTES } from "./core/ldap-settings";

export type Kind = "string" | "integer" | "boolean" | "list" | "bytes" | "oidc-providers" | "saml-idps" | "ldap-attributes" | "footer-links";

export interface KeySpec {
  kind: Kind;
  default: unknown;
  description: string;
  secret?: boolean;
}

export const GiB = 1024 ** 3;
export const MiB = 1024 ** 2;

/** Every configuration key. Names follow the spec and InvenioRDM where they exist. */
export const CONFIG_KEYS = {
  HOST: { kind: "string", default: "127.0.0.1", description: "Address the server listens on." },
  PORT: { kind: "integer", default: 5000, description: "Port the server listens on." },
  WORKERS: {
    kind: "string",
    default: "1",
    description:
      "Serving processes of `cairn serve` on this machine, sharing its port (Linux spreads the connections between them): a number, or auto for one per CPU core. A crashed one is started again. Elsewhere than Linux one process serves.",
  },
  BASE_URL: {
    kind: "string",
    default: "",
    description: "Public URL of the service, used in every link. Default: https://HOST:PORT (http:// with HTTP).",
  },
  APP_ALLOWED_HOSTS: {
    kind: "list",
    default: [],
    description: "Host names accepted in the Host header. Default: the host of BASE_URL (and the other loopback names when it is one). Others get 400.",
  },
  APP_TRUSTED_PROXIES: {
    kind: "list",
    default: [],
    description:
      "Addresses or CIDR ranges (10.0.0.0/8) of reverse proxies whose X-Forwarded-For is believed: the client is the last address they did not add. Empty: the socket's peer is the client (InvenioRDM counts proxies with WSGI_PROXIES; a list cannot be fooled by a client that reaches the server directly).",
  },
  CORS_ORIGINS: {
    kind: "list",
    default: ["*"],
    description:
      "Origins whose browser scripts may call the API (https://app.example.org), * for any (safe: tokens travel in the Authorization header, not in cookies). Empty: no CORS headers.",
  },
  RATELIMIT_ENABLED: {
    kind: "boolean",
    default: true,
    description:
      "Limit requests per user (with a token) or per client address (without); over the limit a 429 with Retry-After. Clients on the loopback address are not limited unless APP_TRUSTED_PROXIES is set.",
  },
  RATELIMIT_AUTHENTICATED_USER: {
    kind: "string",
    default: "25000 per hour;1000 per minute",
    description: "Limits for requests with a token, per user (InvenioRDM's default; Flask-Limiter notation, ; between limits).",
  },
  RATELIMIT_GUEST_USER: { kind: "string", default: "5000 per hour;500 per minute", description: "Limits for requests without a token, per client address (InvenioRDM's default)." },
  THEME_SITENAME: { kind: "string", default: "Cairn", description: "Name of the repository: the publisher of records that name none, in exports." },
  THEME_LOGO: {
    kind: "string",
    default: "",
    description: "Image file (PNG, SVG, JPEG or WebP) shown in the pages' header instead of the site name, which becomes its text alternative. Empty: the name as text.",
  },
  THEME_PRIMARY_COLOR: {
    kind: "string",
    default: "",
    description:
      "The pages' primary colour (#rrggbb or #rgb): buttons, links, highlights. Button text is black or white, whichever reads better; links are darkened where needed to stay readable. Empty: Cairn's blue.",
  },
  THEME_FRONTPAGE_INTRO: {
    kind: "string",
    default: "",
    description: "HTML shown on the front page under the site name, sanitised as record descriptions are (no scripts, styles or event attributes).",
  },
  THEME_FOOTER_LINKS: {
    kind: "footer-links",
    default: [],
    description:
      'Links in every page\'s footer: [[THEME_FOOTER_LINKS]] tables in cairn.toml with title and url (https://…, http://… or a path such as /about); CAIRN_THEME_FOOTER_LINKS takes the same as a JSON array ([{"title": "Privacy", "url": "/privacy"}]).',
  },
  HTTP: { kind: "boolean", default: false, description: "Serve plain HTTP (behind a TLS-terminating proxy, or in tests)." },
  TLS_CERT: { kind: "string", default: "", description: "PEM certificate file. Default: a self-signed one made on first start in DATA/tls/." },
  TLS_KEY: { kind: "string", default: "", description: "PEM private key file for TLS_CERT." },
  DATABASE_URL: {
    kind: "string",
    default: "",
    description:
      "PostgreSQL database for everything cairn.db holds (postgres://user:password@host:5432/database; sslmode=require or verify-full in the query for TLS). Also read from DATABASE_URL. Empty: SQLite, the file cairn.db in the data directory.",
    secret: true,
  },
  SEARCH_DEFAULT_PAGE_SIZE: { kind: "integer", default: 10, description: "Items per page when a search gives no size." },
  SEARCH_MAX_PAGE_SIZE: { kind: "integer", default: 1000, description: "Largest accepted size (clients such as zen4R ask for 1,000); larger is a 400." },
  SEARCH_MAX_RESULTS_WINDOW: { kind: "integer", default: 10000, description: "Largest page*size; beyond it a 400." },
  SEARCH_READERS: {
    kind: "integer",
    default: 1,
    description:
      "Worker threads that run record searches, each on its own read-only connection, so a costly search never holds up other requests. 0: searches run on the request thread.",
  },
  SEARCH_TIMEOUT_MS: {
    kind: "integer",
    default: 10000,
    description: "Time budget of one record search (with SEARCH_READERS of 1 or more): a search still running then is stopped and answered 503.",
  },
  RDM_SEARCH_SORT_OPTIONS: {
    kind: "list",
    default: ["bestmatch", "newest", "oldest", "updated-desc", "updated-asc", "version", "mostviewed", "mostdownloaded"],
    description: "Sort options record searches offer (InvenioRDM's RDM_SEARCH sort list); others are a 400.",
  },
  MAX_CONTENT_LENGTH: { kind: "bytes", default: 10 * MiB, description: "Largest JSON request body in bytes; beyond it 413." },
  RECORDS_RESOURCES_FILES_ALLOWED_DOMAINS: {
    kind: "list",
    default: [],
    description: "Host names that fetched files (storage class F) may be downloaded from. Empty: fetching refused.",
  },
  RDM_ALLOW_METADATA_ONLY_RECORDS: { kind: "boolean", default: true, description: "Allow records without files." },
  FILES_LINKS_ABSOLUTE: {
    kind: "boolean",
    default: false,
    description:
      "Render file-endpoint links absolute (as InvenioRDM does) instead of the spec's path-only form; turn on for the REST docs' upload.py and other requests-based scripts.",
  },
  RDM_ALLOW_RESTRICTED_RECORDS: { kind: "boolean", default: true, description: "Allow restricted records." },
  RDM_RECORDS_MAX_FILES_COUNT: { kind: "integer", default: 100, description: "Most files per record." },
  RDM_FILES_DEFAULT_MAX_FILE_SIZE: { kind: "bytes", default: 50 * GiB, description: "Largest file in bytes; beyond it 413." },
  RDM_FILES_DEFAULT_QUOTA_SIZE: {
    kind: "bytes",
    default: 10 * 10 ** 9,
    description:
      "Most bytes one draft or record holds, all its files together (InvenioRDM's per-record bucket quota, 10 GB); an administrator sets another for one record (POST /api/records/{id}/quota). An upload beyond it is a 400 naming the quota and the space left.",
  },
  RDM_FILES_DEFAULT_USER_QUOTA_SIZE: {
    kind: "bytes",
    default: 0,
    description:
      "Most bytes one user's files take across all their drafts and records together; 0: no limit. An administrator sets another for one user (POST /api/records/users/{id}/quota). InvenioRDM's setting of this name only sizes a new record's bucket: Cairn's counts the user's total.",
  },
  FILES_VERIFY_INTERVAL_DAYS: { kind: "integer", default: 14, description: "Each stored file is re-hashed this often (0: every hour) by the integrity job." },
  FILES_STORAGE: {
    kind: "string",
    default: "local",
    description: "Where file bytes are kept: local (DATA/files/objects) or s3 (an S3-compatible bucket: AWS S3, MinIO, Garage, Ceph RGW, Backblaze B2, Wasabi).",
  },
  S3_ENDPOINT: { kind: "string", default: "", description: "URL of the S3-compatible service (https://s3.example.org:9000). Default: AWS S3 of S3_REGION." },
  S3_BUCKET: { kind: "string", default: "", description: "Bucket holding the files (it must exist). Required with FILES_STORAGE = s3." },
  S3_REGION: { kind: "string", default: "us-east-1", description: "Region the requests are signed for (MinIO, Garage and Ceph accept us-east-1 unless set otherwise)." },
  S3_ACCESS_KEY_ID: { kind: "string", default: "", description: "Access key of the S3 account." },
  S3_SECRET_ACCESS_KEY: { kind: "string", default: "", description: "Secret key of the S3 account.", secret: true },
  S3_PREFIX: { kind: "string", default: "", description: "Prefix of every object key (files/ keeps them apart in a shared bucket); an object's key is this and its id." },
  S3_PRESIGNED_DOWNLOADS: {
    kind: "boolean",
    default: false,
    description:
      "Answer a file download with a 302 to a short-lived presigned URL of the bucket instead of streaming the bytes through Cairn (the permission checks still run first).",
  },
  S3_PRESIGNED_EXPIRES_SECONDS: { kind: "integer", default: 300, description: "How long a presigned download URL stays valid." },
  DATACITE_ENABLED: { kind: "boolean", default: false, description: "Register DOIs with DataCite." },
  DATACITE_PREFIX: { kind: "string", default: "", description: "DOI prefix (e.g. 10.1234). No prefix: DOIs are off." },
  DATACITE_USERNAME: { kind: "string", default: "", description: "DataCite repository account." },
  DATACITE_PASSWORD: { kind: "string", default: "", description: "DataCite repository password.", secret: true },
  DATACITE_TEST_MODE: { kind: "boolean", default: true, description: "Use DataCite's test service." },
  DATACITE_FORMAT: { kind: "string", default: "{prefix}/{id}", description: "How a DOI is formed from the prefix and record id." },
  DATACITE_URL: { kind: "string", default: "", description: "DataCite REST API URL. Default: by DATACITE_TEST_MODE." },
  DATACITE_DATACENTER_SYMBOL: {
    kind: "string",
    default: "",
    description: "DataCite data centre symbol shown in OAI-PMH oai_datacite records. Default: DATACITE_USERNAME, else CAIRN.",
  },
  OAISERVER_ID_PREFIX: {
    kind: "string",
    default: "",
    description: "Namespace of OAI-PMH identifiers (oai:PREFIX:record-id). Default: the host name of BASE_URL.",
  },
  OAISERVER_PAGE_SIZE: { kind: "integer", default: 100, description: "Records, headers or sets per OAI-PMH list response." },
  OAISERVER_RESUMPTION_TOKEN_EXPIRE_SECONDS: {
    kind: "integer",
    default: 3600,
    description: "How long an OAI-PMH resumption token stays valid (it survives restarts).",
  },
  ADMIN_EMAIL: {
    kind: "string",
    default: "admin@localhost",
    description: "E-mail address of the administrator created on first start (`serve --admin-email`); also OAI-PMH Identify's adminEmail unless OAISERVER_ADMIN_EMAIL is set.",
  },
  BROWSER: {
    kind: "string",
    default: "",
    description:
      "Program that opens the front page on the desktop start (`cairn` with no command): called with the URL as its one argument. Default: xdg-open on Linux, open on macOS, cmd /c start on Windows.",
  },
  OAISERVER_ADMIN_EMAIL: {
    kind: "string",
    default: "",
    description: "adminEmail of OAI-PMH Identify. Default: the first administrator's e-mail address.",
  },
  COMMUNITIES_LOGO_MAX_FILE_SIZE: { kind: "bytes", default: 10 ** 6, description: "Largest community logo in bytes (InvenioRDM's default, 10^6); beyond it 400." },
  COMMUNITIES_SEARCH_SORT_OPTIONS: {
    kind: "list",
    default: ["bestmatch", "newest", "oldest", "updated-desc", "updated-asc", "version"],
    description: "Sort options community searches offer (InvenioRDM's COMMUNITIES_SEARCH sort list); others are a 400.",
  },
  COMMUNITIES_CREATION: {
    kind: "string",
    default: "anyone",
    description: "Who may create communities: anyone (every signed-in user, as InvenioRDM) or administrators.",
  },
  COMMUNITIES_OAI_SETS_PREFIX: { kind: "string", default: "user-", description: "OAI-PMH set of each public community: this prefix and its slug (Zenodo's user-<slug>)." },
  VOCABULARIES_ROR_DUMP_URL: {
    kind: "string",
    default: "https://zenodo.org/api/records/6347574",
    description:
      "Where the newest ROR data dump is found (the Vocabularies screen's download, as InvenioRDM's ror-http origin): a record answering a signposting linkset with one application/zip item (InvenioRDM's concept record of the ROR dump), or a records search whose first hit has a .zip file.",
  },
  MAIL_SERVER: { kind: "string", default: "", description: "SMTP host. Empty: mail stays in the outbox table only." },
  MAIL_PORT: { kind: "integer", default: 587, description: "SMTP port." },
  MAIL_USERNAME: { kind: "string", default: "", description: "SMTP user." },
  MAIL_PASSWORD: { kind: "string", default: "", description: "SMTP password.", secret: true },
  MAIL_USE_TLS: { kind: "boolean", default: true, description: "STARTTLS on the SMTP connection." },
  MAIL_USE_SSL: { kind: "boolean", default: false, description: "Implicit TLS on the SMTP connection." },
  MAIL_DEFAULT_SENDER: { kind: "string", default: "cairn@localhost", description: "From address of outgoing mail." },
  ACCOUNTS_DEFAULT_USER_VISIBILITY: {
    kind: "string",
    default: "public",
    description: "Profile visibility of new accounts: public (listed in the users directory; e-mail stays hidden) or restricted.",
  },
  ACCOUNTS_REGISTERABLE: { kind: "boolean", default: false, description: "Anyone may make an account at /signup. Off: accounts are made by administrators only." },
  ACCOUNTS_REGISTER_ALLOWED_DOMAINS: {
    kind: "list",
    default: [],
    description:
      "E-mail domains a new account may have, by sign-up or a first sign-in through a provider, an IdP or the directory (uni.example also takes its subdomains, dept.uni.example); existing accounts are not affected. Empty: any.",
  },
  ACCOUNTS_MODERATION: {
    kind: "string",
    default: "off",
    description:
      "off, or first-publish: a new user's first publication waits as a user-moderation request to the administrators; approving it publishes it and verifies the user (their later publications go straight through), blocking the user tombstones what they published.",
  },
  ACCOUNTS_CONFIRM_EMAIL: {
    kind: "boolean",
    default: true,
    description: "A new account confirms its e-mail address through a one-use link (valid 24 hours) before it may sign in. Accounts administrators make are confirmed.",
  },
  ACCOUNTS_LOCAL_LOGIN_ENABLED: {
    kind: "boolean",
    default: true,
    description:
      "Password sign-in on /login. Off: /login shows only the sign-in providers' buttons; /login?local=1 still shows the password form, through which only administrators may sign in (to administer the repository while its identity provider is down).",
  },
  OAUTHCLIENT_AUTO_REDIRECT_TO_EXTERNAL_LOGIN: {
    kind: "boolean",
    default: false,
    description: "With exactly one sign-in provider and ACCOUNTS_LOCAL_LOGIN_ENABLED off, /login goes straight to that provider (/login?local=1 still shows the password form).",
  },
  JOBS_CONCURRENCY: { kind: "integer", default: 2, description: "Background jobs run at once." },
  JOBS_POLL_INTERVAL_MS: { kind: "integer", default: 1000, description: "How often the worker looks for due jobs." },
  JOBS_RETENTION_DAYS: { kind: "integer", default: 14, description: "Finished jobs older than this are pruned." },
  BACKUP_DIR: {
    kind: "string",
    default: "",
    description: "Folder the scheduled backup writes to (dated snapshots sharing one pool of files; outside the data directory). Empty: no scheduled backups.",
  },
  BACKUP_SCHEDULE: {
    kind: "string",
    default: "daily",
    description: "When the scheduled backup runs: hourly, daily, weekly, an interval between runs (6h, 2d; at least 5m), or HH:MM (every day at that UTC time).",
  },
  BACKUP_KEEP: { kind: "integer", default: 7, description: "Snapshots the scheduled backup keeps in BACKUP_DIR; older ones are removed after each backup." },
  STATS_ENABLED: { kind: "boolean", default: true, description: "Count record views and file downloads (COUNTER rules) and show them on records and in POST /api/stats." },
  STATS_EVENTS_RETENTION_DAYS: { kind: "integer", default: 90, description: "Raw view/download events older than this are deleted once aggregated; daily totals are kept." },
  STATS_AGGREGATE_INTERVAL_MS: {
    kind: "integer",
    default: 5000,
    description: "Longest wait before new views and downloads are folded into the totals (they show within this plus a second).",
  },
  OIDC_PROVIDERS: {
    kind: "oidc-providers",
    default: [],
    secret: true,
    description:
      "OpenID Connect sign-in providers (Keycloak, Entra ID, Google, Okta, ORCID): [[OIDC_PROVIDERS]] tables in cairn.toml with name, title, issuer, client_id, client_secret, scopes, claims, trust_email, sync_groups, type (oidc or orcid); CAIRN_OIDC_PROVIDERS takes the same as a JSON array. Each is a button on /login; register {BASE_URL}/oauth/authorized/{name} as its redirect URI.",
  },
  SAML_IDPS: {
    kind: "saml-idps",
    default: [],
    description:
      "SAML 2.0 identity providers (Shibboleth, ADFS, eduGAIN): [[SAML_IDPS]] tables in cairn.toml with name, title, metadata_file or metadata_url, attributes, trust_email, sync_groups, entity_id; CAIRN_SAML_IDPS takes the same as a JSON array. Each is a button on /login; give the IdP {BASE_URL}/saml/metadata/{name}.",
  },
  LDAP_URL: {
    kind: "string",
    default: "",
    description: "LDAP or Active Directory server for password sign-in on /login (ldaps://ldap.example.org, ldap://…:389). Empty: off. Tried after local accounts.",
  },
  LDAP_START_TLS: { kind: "boolean", default: false, description: "Upgrade an ldap:// connection with StartTLS before any bind." },
  LDAP_TLS_CA_FILE: { kind: "string", default: "", description: "PEM file of CA certificates trusted for the directory, besides the system's and Bun's own." },
  LDAP_BIND_DN: { kind: "string", default: "", description: "DN of the service account that searches for the person's entry. Empty: the search is anonymous." },
  LDAP_BIND_PASSWORD: { kind: "string", default: "", description: "Password of LDAP_BIND_DN.", secret: true },
  LDAP_SEARCH_BASE: { kind: "string", default: "", description: "DN people are searched under (the whole subtree), such as ou=people,dc=uni,dc=example." },
  LDAP_USER_FILTER: {
    kind: "string",
    default: "(|(uid={login})(mail={login}))",
    description: "Filter finding the person's entry; {login} is the typed name, escaped (RFC 4515). Exactly one entry must match.",
  },
  LDAP_ATTRIBUTES: {
    kind: "ldap-attributes",
    default: DEFAULT_LDAP_ATTRIBUTES,
    description:
      "Attributes holding the person's facts: a table with email (mail), name (displayName, else cn), affiliation (none), groups (memberOf: each DN's CN names a group).",
  },
  LDAP_SYNC_GROUPS: { kind: "boolean", default: false, description: "The directory's groups become the person's group memberships at each sign-in." },
  LDAP_TITLE: { kind: "string", default: "Directory account", description: 'The directory\'s name in messages ("Directory account did not sign you in: …").' },
  LOG_REQUESTS: { kind: "boolean", default: false, description: "Log one line per request to stderr." },
} satisfies Record<string, KeySpec>;

export type ConfigKey = keyof typeof CONFIG_KEYS;
