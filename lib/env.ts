import { z } from "zod";

/**
 * The one configuration module. Every setting has an embedded default so `npm start` works with no setup; a wrong
 * value stops start-up with a message naming the variable. Read lazily (never at import) so `next build` and tests
 * can set the environment first.
 */
const bool = z
  .enum(["1", "0", "true", "false", "yes", "no"])
  .transform((v) => v === "1" || v === "true" || v === "yes");
const list = z.string().transform((v) => v.split(",").map((s) => s.trim()).filter(Boolean));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  /** Public base URL of this instance, used in links, key instructions and webhook URLs. */
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  /** Postgres URL; unset means embedded PGlite under DATA_DIR. `memory://` is an in-memory PGlite (tests). */
  DATABASE_URL: z
    .string()
    .refine((v) => /^(postgres|postgresql|memory):\/\//.test(v), "must start with postgres:// or memory://")
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Key material for encrypting secrets at rest and signing links; generated into DATA_DIR when unset. */
  APP_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  OWNER_EMAIL: z.email().optional(),
  OWNER_PASSWORD: z.string().min(10, "must be at least 10 characters").optional(),
  /** Extra browser origins allowed to call /mcp and the API (comma-separated). */
  ALLOWED_ORIGINS: list.default([]),
  /** Largest JSON body accepted by /mcp and /api/v1, in bytes. */
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(2 * 1024 * 1024),
  /** Failed key authentications allowed per client address per minute before 429. */
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /** Trust X-Forwarded-For / X-Forwarded-Proto (behind a reverse proxy). */
  TRUST_PROXY: bool.default(false),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /** Largest webhook body accepted at /hooks/…, in bytes; larger deliveries get 413 before any parsing. */
  WEBHOOK_MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(5 * 1024 * 1024),
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
