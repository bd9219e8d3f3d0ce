import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { type MailRelay, mailRelays, relaySecurities } from "@/lib/db/schema/mail";
import { fieldError } from "@/lib/disk/field-error";
import { encryptSecret } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import { parseOrThrow } from "@/lib/validation";

export const relayInput = z.object({
  host: z
    .string()
    .trim()
    .min(1)
    .max(253)
    .regex(/^[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:.]+\]$/, "must be a host name or IP address"),
  // A JSON number over REST and from the form (which sends its number box as one): `true`, `[587]`, "0x24b" are not ports.
  port: z.number().int().min(1).max(65535),
  security: z.enum(relaySecurities),
  username: z.string().trim().max(200).optional(),
  /** Blank keeps the stored password; `clearPassword` removes it. */
  password: z.string().max(500).optional(),
  clearPassword: z.boolean().optional(),
});
export type RelayInput = z.input<typeof relayInput>;

/** How saving the relay is ledgered by its pipeline: never the password, not even digested. */
export const relaySetLedger = {
  op: "mail.relay_set",
  input: ({ password, ...rest }: z.output<typeof relayInput>) => ({ ...rest, password_given: Boolean(password) }),
};

/** The project's relay (Mail settings screen). The password is encrypted at rest and never shown again. */
export async function saveRelay(db: Executor, opts: { actor: Actor } & RelayInput) {
  const input = parseOrThrow(relayInput, opts);
  const [existing] = await db.select().from(mailRelays).where(eq(mailRelays.projectId, opts.actor.projectId));
  if (existing?.passwordEnc && !input.password && !input.clearPassword && movesPassword(existing, input)) {
    throw fieldError(
      "password",
      "enter the password again: the stored one is sent only to the host and security it was saved with",
      "Type the relay's password again, or remove the stored one.",
    );
  }
  const passwordEnc = input.clearPassword
    ? null
    : input.password
      ? encryptSecret(input.password, secretSlot(mailRelays.passwordEnc, opts.actor.projectId))
      : (existing?.passwordEnc ?? null);
  const values = { host: input.host, port: input.port, security: input.security, username: input.username || null, passwordEnc };
  await db
    .insert(mailRelays)
    .values({ projectId: opts.actor.projectId, ...values })
    .onConflictDoUpdate({ target: mailRelays.projectId, set: { ...values, updatedAt: sql`now()` } });
  return { host: values.host, port: values.port, security: values.security, username: values.username, hasPassword: passwordEnc !== null };
}

/**
 * Whether keeping the stored password would hand it to another server, or over a weaker channel: whoever changes
 * the host (a stolen session, a mistyped name) must know the password to keep one, or the relay's login would be
 * sent to a host of their choosing.
 */
function movesPassword(existing: Pick<MailRelay, "host" | "security">, next: Pick<z.output<typeof relayInput>, "host" | "security">): boolean {
  return existing.host.toLowerCase() !== next.host.toLowerCase() || existing.security !== next.security;
}

/** Back to SMTP_RELAY_URL (or no relay). */
export async function removeRelay(db: Executor, opts: { actor: Actor }) {
  await db.delete(mailRelays).where(eq(mailRelays.projectId, opts.actor.projectId));
}

/** What the Mail settings screen shows: never the password. */
export async function relayView(db: Executor, opts: { projectId: string }) {
  const [row] = await db.select().from(mailRelays).where(eq(mailRelays.projectId, opts.projectId));
  if (!row) return null;
  return { host: row.host, port: row.port, security: row.security, username: row.username, hasPassword: row.passwordEnc !== null, updatedAt: row.updatedAt };
}
