import { isIP } from "node:net";
import { z } from "zod";

/**
 * The one configuration module. Every setting has an embedded default so `npm start` works with no setup; a wrong
 * value stops start-up with a message naming the variable. Read lazily (never at import) so `next build` and tests
 * can set the environment first.
 */
const bool = z.enum(["1", "0", "true", "false", "yes", "no"]).transform((v) => v === "1" || v === "true" || v === "yes");
const list = z.string().transform((v) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean),
);

function isIpOrCidr(entry: string): boolean {
  const [ip, bits, ...rest] = entry.split("/");
  const family = isIP(ip);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

/** Where a reverse proxy beside the app connects from: loopback, private and carrier-grade NAT, link-local, ULA. */
const PRIVATE_NETWORKS = [
  "127.0.0.0/8",
  "10.0.0.0/8",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "100.64.0.0/10",
  "169.254.0.0/16",
  "::1/128",
  "fc00::/7",
  "fe80::/10",
];

const trustProxy = z.string().transform((v, ctx): false | string[] => {
  const word = v.trim().toLowerCase();
  if (["", "0", "false", "no"].includes(word)) return false;
  if (["1", "true", "yes"].includes(word)) return PRIVATE_NETWORKS;
  const entries = v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.every((e) => isIpOrCidr(e))) return entries;
  ctx.addIssue({ code: "custom", message: "must be true, false, or the proxies' IP addresses or CIDR ranges (e.g. 10.0.0.5, 172.18.0.0/16)" });
  return z.NEVER;
});

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  /**
   * Public base URL of this instance, used in links, key instructions and webhook URLs. Settings → Remote access can
   * set another (lib/settings/remote-access.ts), which then is the OAuth issuer and the origin CORS and capability
   * links are bound to; this one stays the default, and its host stays served.
   */
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  /** Postgres URL; unset means embedded PGlite under DATA_DIR. `memory://` is an in-memory PGlite (tests). */
  DATABASE_URL: z
    .string()
    .refine((v) => /^(postgres|postgresql|memory):\/\//.test(v), "must start with postgres:// or memory://")
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * PostgreSQL cancels a statement of a pooled connection that runs longer than this, and the caller gets
   * `service_unavailable`: a slow query never holds a connection for good. Work that is long by nature (ledger
   * verification, a project's deletion, exports, migrations) lifts it for itself. 0 leaves the server's setting.
   * PGlite times nothing out.
   */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(30_000),
  /** PostgreSQL closes a pooled connection whose transaction sat idle this long, freeing its locks. 0 leaves the server's setting. */
  DATABASE_IDLE_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  /** Key material for encrypting secrets at rest and signing links; generated into DATA_DIR when unset. */
  APP_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  OWNER_EMAIL: z.email().optional(),
  OWNER_PASSWORD: z.string().min(10, "must be at least 10 characters").optional(),
  /** Extra browser origins allowed to call /mcp and the API (comma-separated); Settings → Remote access adds more. */
  ALLOWED_ORIGINS: list.default([]),
  /**
   * Extra Host names (`host` or `host:port`) the HTTP server answers, besides the PUBLIC_URL host and the loopback
   * names; any other Host gets 421 (DNS rebinding, ARCHITECTURE §8).
   */
  ALLOWED_HOSTS: list.default([]),
  /** Largest JSON body accepted by /mcp and /api/v1, in bytes. */
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(2 * 1024 * 1024),
  /**
   * Bytes of request bodies (over 64 KB, streamed) read at once over all requests; a body that would pass it gets
   * 503 with Retry-After. Keep it well above WEBHOOK_MAX_BODY_BYTES and MAX_BODY_BYTES.
   */
  MAX_INFLIGHT_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024 * 1024)
    .default(256 * 1024 * 1024),
  /** Failed key authentications allowed per client address per minute before 429. */
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /** Calls per API key per minute, on each instance (a token bucket: bursts up to this many); 0 turns it off. */
  KEY_CALLS_PER_MINUTE: z.coerce.number().int().min(0).default(6000),
  /**
   * Waiting calls (inbox_wait, and approval waits) one API key may hold at once, on each instance. One more
   * inbox_wait gets 429; an approval tool past it answers at once, as with wait_seconds 0 (status pending).
   */
  KEY_MAX_WAITS: z.coerce.number().int().min(1).max(10_000).default(20),
  /**
   * Tool calls one API key runs at once, on each instance; more wait their turn (lib/keys/call-slots.ts). Unset: the
   * pool less two connections, so one key's burst never holds the whole pool. Waiting calls are bounded by KEY_MAX_WAITS.
   */
  KEY_MAX_CONCURRENT_CALLS: z.coerce.number().int().min(1).max(10_000).optional(),
  /**
   * Deliveries per webhook source per minute, on each instance (a token bucket: bursts up to this many); one more
   * gets 429 with Retry-After, which providers retry. A leaked URL of a source that checks no signature cannot then
   * fill the database at the speed of the network. 0 turns it off.
   */
  SOURCE_DELIVERIES_PER_MINUTE: z.coerce.number().int().min(0).default(6000),
  /**
   * Requests to /hooks/ URLs that name no live source, per client address per minute, on each instance (a token
   * bucket); past it the client gets 429 with Retry-After without a database lookup. 0 turns it off.
   */
  UNKNOWN_HOOKS_PER_MINUTE: z.coerce.number().int().min(0).default(60),
  /**
   * Requests one API key (or OAuth grant) may have waiting for a person at once, over every instance: each one
   * notifies the approvers' channels, so a looping agent could otherwise send thousands of messages a minute.
   */
  KEY_MAX_PENDING_REQUESTS: z.coerce.number().int().min(1).max(100_000).default(100),
  /** Live streams (/api/v1/stream, WebSocket or SSE, and the approvals stream) one API key may hold open at once, on each instance. */
  STREAM_MAX_PER_KEY: z.coerce.number().int().min(1).max(10_000).default(20),
  /**
   * Open HTTP connections one client address (an IPv6 client's /64) may hold at once, on each instance; one more
   * reads 429 and is closed. Not applied to a trusted proxy's connections (TRUST_PROXY), which carry all its clients. 0 turns it off.
   */
  HTTP_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).max(1_000_000).default(256),
  /**
   * On shutdown (SIGTERM, Ctrl-C), how long requests in flight may finish (drain-server.ts): no new connection is
   * taken, long-polls and live streams end at once with answers that say to ask again, and a connection still busy
   * at the end is cut. A second signal stops at once.
   */
  HTTP_STOP_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  /**
   * Trust X-Forwarded-For / X-Forwarded-Host (behind a reverse proxy), each by its last entry (the nearest proxy's),
   * on connections from the proxy only (trusted-proxy.ts): `true` for peers on loopback and private networks, or the
   * proxies' addresses and CIDR ranges.
   */
  TRUST_PROXY: trustProxy.default(false),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /** Largest webhook body accepted at /hooks/…, in bytes; larger deliveries get 413 before any parsing. */
  WEBHOOK_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(5 * 1024 * 1024),
  /** S3 bucket for disk files; unset means the local filesystem store under DATA_DIR/blobs. */
  S3_BUCKET: z.string().min(3).max(63).optional(),
  /** S3-compatible endpoint (MinIO, R2, s3rver…); unset means AWS S3 itself. */
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  /** Credentials for S3; unset means the SDK's default chain (AWS_* variables, instance role). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Path-style URLs (`endpoint/bucket/key`) instead of bucket subdomains; most S3-compatible servers need it. */
  S3_FORCE_PATH_STYLE: bool.default(false),
  /** The instance's mail domain: project addresses are `<name>@MAIL_DOMAIN`. Publish its MX, SPF, DKIM and DMARC records. */
  MAIL_DOMAIN: z
    .string()
    .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i, "must be a domain name")
    .transform((v) => v.toLowerCase())
    .default("brynth.localhost"),
  /** Host name of this SMTP server (EHLO banner, MX target in the DNS records); default: the PUBLIC_URL host. */
  MAIL_HOSTNAME: z.string().min(1).optional(),
  /** Inbound SMTP listener port; 0 turns the listener off. */
  SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(2525),
  /** Address the SMTP listener binds to; default HOST. */
  SMTP_HOST: z.string().min(1).optional(),
  /** Open SMTP connections per instance, and per client address; more get 421 and are closed. */
  SMTP_MAX_CLIENTS: z.coerce.number().int().min(1).max(100_000).default(200),
  SMTP_MAX_CLIENTS_PER_IP: z.coerce.number().int().min(1).max(100_000).default(10),
  /** An SMTP client silent this long is disconnected. */
  SMTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  /** One SMTP command (a DATA transfer included) must finish within this long. */
  SMTP_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(300_000),
  /**
   * A received message must be stored within this long after its DATA ends, else the client gets 451 and retries
   * (a redelivered Message-ID is skipped). Each statement of an inbound transaction is held to it too, so a commit
   * stuck behind a lock ends instead of holding the message, its SMTP session and a connection for good.
   */
  SMTP_STORE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  /**
   * Bytes of incoming messages the SMTP listener holds in memory at once, over all connections; a message that
   * does not fit gets 452 and is retried by its sender. Keep it at least MAIL_MAX_MESSAGE_BYTES.
   */
  SMTP_MAX_INFLIGHT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024 * 1024)
    .default(256 * 1024 * 1024),
  /** PEM files of the listener's certificate and key: STARTTLS is offered when both are set. */
  SMTP_TLS_CERT: z.string().min(1).optional(),
  SMTP_TLS_KEY: z.string().min(1).optional(),
  /**
   * SMTP clients (IPs or CIDRs, comma-separated) whose `X-Spam-Flag`/`X-Spam-Status` verdicts are believed: a spam
   * filter in front of this listener. From anyone else those headers are the sender's own word and are ignored.
   */
  TRUSTED_RELAYS: list.refine((v) => v.every((e) => isIpOrCidr(e)), "must be IP addresses or CIDR ranges (e.g. 10.0.0.5, 192.168.0.0/16)").default([]),
  /** Largest inbound message, in bytes: bigger ones get 552 and nothing is stored. */
  MAIL_MAX_MESSAGE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(200 * 1024 * 1024)
    .default(25 * 1024 * 1024),
  /**
   * Outbound relay for every project without its own (Mail settings screen), e.g.
   * `smtp://user:pass@smtp.example.com:587` (STARTTLS when offered) or `smtps://user:pass@smtp.example.com:465`.
   */
  SMTP_RELAY_URL: z
    .string()
    .refine((v) => /^smtps?:\/\/[^/]+/.test(v), "must be smtp://[user:pass@]host[:port] or smtps://…")
    .optional(),
  /** email_send messages per project per UTC day. */
  EMAIL_DAILY_LIMIT: z.coerce.number().int().min(0).default(50),
  /** email_send messages per project per UTC calendar month. */
  EMAIL_MONTHLY_LIMIT: z.coerce.number().int().min(0).default(1000),
  /** Delivery attempts per outbound message before it fails (`email.failed`). */
  MAIL_DELIVERY_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  /** First retry delay of a failed delivery in seconds, doubled per attempt (with jitter), capped at one hour. */
  MAIL_RETRY_BASE_SECONDS: z.coerce.number().min(0).max(3600).default(60),
  /** DNS timeout for SPF/DKIM/DMARC checks of inbound mail and for the Domains screen's DNS check. */
  MAIL_DNS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  /** Jobs one process runs at the same time. */
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  /**
   * Webhook deliveries and approval callbacks one process runs at the same time, in their own lane beside
   * JOBS_CONCURRENCY's: slow or hanging endpoints (10 s each) fill these slots, never the ones outbound mail needs. 32: the successes that finish
   * together commit together (lib/jobs/finish-group.ts) and their rows are read with one query, so more slots cost
   * few more round trips, and the lane keeps up with hundreds of deliveries a second (bench/webhooks.ts).
   */
  JOBS_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(32),
  /**
   * Requests one webhook, or one project's approval callbacks to one origin, have in flight at once on each instance;
   * one more waits, unattempted, until one of them ends (lib/jobs/endpoint-slots.ts). So an endpoint that starts to
   * hang holds at most this many of the lane's slots during the 10 s its requests take to time out (for a webhook,
   * until its breaker trips).
   */
  JOBS_WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  /**
   * The share of each lane's slots (JOBS_CONCURRENCY, JOBS_WEBHOOK_CONCURRENCY) one project holds, in percent, at
   * least one slot: past it, other projects' due jobs come first and the project leaves one slot free (in a lane of
   * 8 or more), so a project whose endpoints hang or who queued 100k jobs never holds up another's
   * (lib/jobs/job-runner.ts). 100: no share.
   */
  JOBS_PROJECT_SHARE_PERCENT: z.coerce.number().int().min(1).max(100).default(25),
  /**
   * On shutdown (SIGTERM, Ctrl-C), how long jobs already running may finish before they are aborted (and retried
   * later, by this instance or another): a webhook or a message sent but not yet recorded as sent would go twice.
   */
  JOBS_STOP_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  /** How often an idle job runner looks for due jobs; NOTIFY wakes it at once for new ones. */
  JOBS_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  /**
   * Hosts (`host` or `host:port`) that outbound requests to user URLs (approval callbacks) may reach although they
   * resolve to private or loopback addresses, and over plain http. Only for tests and trusted local receivers.
   */
  OUTBOUND_ALLOW_HOSTS: list.default([]),
  /** Telegram Bot API base URL; tests point it at a local fake server. */
  TELEGRAM_API_ROOT: z.url().default("https://api.telegram.org"),
  /**
   * How bots receive updates: `auto` uses a webhook when PUBLIC_URL is https, else long polling; `polling` and
   * `webhook` force one.
   */
  TELEGRAM_MODE: z.enum(["auto", "polling", "webhook"]).default("auto"),
});

export type Env = z.infer<typeof schema>;

export class ConfigError extends Error {}

let cached: (Env & { publicUrl: string }) | undefined;

export function env(): Env & { publicUrl: string } {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  cached = { ...e, publicUrl };
  return cached;
}

/** Tests change the environment between runs of one process. */
export function resetEnvCache() {
  cached = undefined;
}
