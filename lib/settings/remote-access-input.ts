import { z } from "zod";

/** Extra origins a project reasonably needs (a few browser clients and proxies); more suggests a wildcard by hand. */
export const MAX_ALLOWED_ORIGINS = 20;

/**
 * Why `value` is not a bare http(s) origin, or null. An origin is what a browser sends in `Origin` and what OAuth
 * uses as issuer: scheme, host and port only. A path would make `/mcp` and the issuer disagree with where the app is
 * served (it is served at the root), and a query, fragment or credentials have no meaning in an origin.
 */
export function originProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "is not a URL; write it as https://host or https://host:port";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must start with https:// or http://";
  if (url.username || url.password) return "must not carry a user name or password";
  if (url.search || value.includes("?")) return "must have no query";
  if (url.hash || value.includes("#")) return "must have no fragment";
  if (url.pathname !== "/") return "must have no path (Brynth is served at the root of its address)";
  return null;
}

/** `value` as its canonical origin (lower-case host, default port dropped, no trailing slash). */
export const canonicalOrigin = (value: string) => new URL(value).origin;

/** An origin field; `emptyIsNull` lets a cleared form field mean "none" (the public URL's return to PUBLIC_URL). */
const originField = <E extends boolean>(emptyIsNull: E) =>
  z
    .string()
    .trim()
    .max(300, "Use at most 300 characters.")
    .transform((v, ctx): E extends true ? string | null : string => {
      if (v === "" && emptyIsNull) return null as never;
      const problem = v === "" ? "Fill this in, or remove the line." : originProblem(v);
      if (problem) {
        ctx.addIssue({ code: "custom", message: v === "" ? problem : `${v} ${problem}.` });
        return z.NEVER;
      }
      return canonicalOrigin(v);
    });

/**
 * Settings → Remote access, as owner REST and the dashboard form send it. `public_url` null (or empty) returns to
 * PUBLIC_URL; `allowed_origins` replaces the saved list (ALLOWED_ORIGINS still applies besides it).
 */
export const remoteAccessInput = z
  .object({
    public_url: originField(true)
      .nullable()
      .transform((v) => v ?? null)
      .describe("The instance's public origin (https://host[:port], no path); null or empty returns to PUBLIC_URL."),
    allowed_origins: z
      .array(originField(false))
      .max(MAX_ALLOWED_ORIGINS, `Use at most ${MAX_ALLOWED_ORIGINS} origins.`)
      .transform((list) => [...new Set(list)])
      .describe("Browser origins allowed to call /mcp and the API besides the public URL's own (at most 20)."),
    // A time, judged as one: "garbage" was answered "saved again since it was read" (found by helper-101).
    updated_at: z.iso
      .datetime({ offset: true })
      .nullable()
      .optional()
      .describe("The `updated_at` you read (null: never saved). If the settings were saved since, nothing changes and the answer is CONFLICT."),
  })
  .strict();
export type RemoteAccessInput = z.output<typeof remoteAccessInput>;
