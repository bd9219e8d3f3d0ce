import { and, asc, count, eq, inArray, isNull, lt, notExists, sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/lib/db/client";
import { storableString } from "@/lib/db/storable";
import { oauthClients, oauthGrants } from "@/lib/db/schema/oauth";
import { newId } from "@/lib/ids";
import { OAuthError } from "@/lib/oauth/oauth-error";
import { redirectUriProblem } from "@/lib/oauth/redirect-uri";
import { CLIENT_SECRET_PREFIX, newSecret } from "@/lib/oauth/token-format";

/** Clients nobody ever approved are forgotten after a day, and the oldest first past this many. */
const UNUSED_CLIENT_TTL_MS = 24 * 3600_000;
export const MAX_UNUSED_CLIENTS = 1000;

/** Stored as given (a text column, jsonb): a NUL in any of them failed the insert as a 500. */
const text = (max: number) => storableString().trim().min(1).max(max);
const uri = () => storableString().max(2000);

/**
 * RFC 7591 §2 metadata this server reads; the rest of a request is ignored as the RFC says. Only the authorization
 * code flow exists here, so other grant or response types are refused rather than silently dropped.
 */
export const registrationInput = z.looseObject({
  redirect_uris: z.array(uri()).min(1, "at least one redirect URI is needed").max(10),
  client_name: text(200).optional(),
  client_uri: uri().optional(),
  logo_uri: uri().optional(),
  software_id: text(200).optional(),
  software_version: text(100).optional(),
  scope: storableString().max(2000).optional(),
  // RFC 7591 defaults to client_secret_basic; the MCP clients this serves are public, so the default is theirs.
  token_endpoint_auth_method: z.enum(["none", "client_secret_post", "client_secret_basic"]).default("none"),
  grant_types: z
    .array(z.enum(["authorization_code", "refresh_token"]))
    // Every client here starts with a code (response_types ["code"], RFC 7591 §2.1): without it, no exchange could succeed.
    .refine((types) => types.includes("authorization_code"), "must include authorization_code (refresh_token alone gets no first token)")
    .default(["authorization_code", "refresh_token"]),
  response_types: z.array(z.literal("code")).min(1).default(["code"]),
});
export type RegistrationInput = z.output<typeof registrationInput>;

export async function registerClient(db: Executor, input: RegistrationInput) {
  for (const uri of input.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError("invalid_redirect_uri", `redirect_uris: ${problem}`);
  }
  const unapproved = and(
    isNull(oauthClients.lastUsedAt),
    notExists(db.select({ one: sql`1` }).from(oauthGrants).where(eq(oauthGrants.clientId, oauthClients.id))),
  );
  await db.delete(oauthClients).where(and(unapproved, lt(oauthClients.createdAt, new Date(Date.now() - UNUSED_CLIENT_TTL_MS))));
  // Full: the oldest unapproved clients make room. Refusing instead let one party, 20 registrations a minute per
  // address, keep every new MCP client out ("try again tomorrow") for as long as it liked; now it can only push out
  // registrations older than its last 1,000, and a client pushed out registers again when told it is unknown.
  const [{ unused }] = await db.select({ unused: count() }).from(oauthClients).where(isNull(oauthClients.lastUsedAt));
  if (unused >= MAX_UNUSED_CLIENTS) {
    const oldest = db
      .select({ id: oauthClients.id })
      .from(oauthClients)
      .where(unapproved)
      .orderBy(asc(oauthClients.createdAt), asc(oauthClients.id))
      .limit(unused - MAX_UNUSED_CLIENTS + 1);
    await db.delete(oauthClients).where(inArray(oauthClients.id, oldest));
  }
  const confidential = input.token_endpoint_auth_method !== "none";
  const secret = confidential ? newSecret(CLIENT_SECRET_PREFIX) : null;
  const { redirect_uris, client_name, token_endpoint_auth_method, grant_types, response_types, ...rest } = input;
  const metadata = pick(rest, ["client_uri", "logo_uri", "software_id", "software_version", "scope"]);
  const [client] = await db
    .insert(oauthClients)
    .values({
      id: newId("oac"),
      clientName: client_name ?? null,
      redirectUris: redirect_uris,
      tokenEndpointAuthMethod: token_endpoint_auth_method,
      clientSecretHash: secret?.hash ?? null,
      metadata: { ...metadata, grant_types, response_types },
    })
    .returning();
  // RFC 7591 §3.2.1: the registered metadata, and the secret this once.
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    ...(secret ? { client_secret: secret.secret, client_secret_expires_at: 0 } : {}),
    redirect_uris,
    ...(client_name ? { client_name } : {}),
    token_endpoint_auth_method,
    grant_types,
    response_types,
    ...metadata,
  };
}

function pick(o: Record<string, unknown>, keys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) if (typeof o[k] === "string") out[k] = o[k];
  return out;
}
