import { eq } from "drizzle-orm";
import { safeEqual } from "@/lib/crypto/hash";
import type { Executor } from "@/lib/db/client";
import { unstorableText } from "@/lib/db/storable";
import { oauthClients, type OauthClient } from "@/lib/db/schema/oauth";
import { OAuthError } from "@/lib/oauth/oauth-error";
import { hashSecret } from "@/lib/oauth/token-format";

/**
 * The client of a token or revocation request (RFC 6749 §2.3): a public client names itself with `client_id`; a
 * confidential one proves itself with its secret, by HTTP Basic or in the body, as it registered. Basic's parts are
 * form-encoded (§2.3.1). A wrong secret and an unknown client are the same 401.
 */
export async function authenticateClient(db: Executor, authorization: string | null, form: Map<string, string>): Promise<OauthClient> {
  let id = form.get("client_id");
  let secret = form.get("client_secret");
  let via: "none" | "client_secret_post" | "client_secret_basic" = secret === undefined ? "none" : "client_secret_post";
  if (authorization?.toLowerCase().startsWith("basic ")) {
    const decoded = Buffer.from(authorization.slice(6).trim(), "base64").toString("utf8");
    const sep = decoded.indexOf(":");
    if (sep < 0 || secret !== undefined) throw invalidClient();
    const basicId = formDecode(decoded.slice(0, sep));
    if (id !== undefined && id !== basicId) throw invalidClient();
    id = basicId;
    secret = formDecode(decoded.slice(sep + 1));
    via = "client_secret_basic";
  }
  if (!id) throw new OAuthError("invalid_request", "client_id is missing.");
  // No client's id holds a NUL, and PostgreSQL refuses one in the lookup (a Basic `%00` failed it as a 500).
  if (unstorableText(id)) throw invalidClient();
  const [client] = await db.select().from(oauthClients).where(eq(oauthClients.id, id));
  if (!client) throw invalidClient();
  if (client.tokenEndpointAuthMethod === "none") {
    if (via !== "none") throw invalidClient();
    return client;
  }
  if (via === "none" || !secret || !client.clientSecretHash || !safeEqual(hashSecret(secret), client.clientSecretHash)) throw invalidClient();
  return client;
}

/** A Basic credential part, form-decoded (§2.3.1); a broken `%` escape is a failed authentication, not a server error. */
function formDecode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, " "));
  } catch {
    throw invalidClient();
  }
}

const invalidClient = () =>
  new OAuthError("invalid_client", "Client authentication failed: unknown client_id, or a wrong or missing secret.", 401, {
    "WWW-Authenticate": 'Basic realm="brynth"',
  });
