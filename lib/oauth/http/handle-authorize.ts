import { getDb } from "@/lib/db/client";
import { unstorableText } from "@/lib/db/storable";
import { AppError } from "@/lib/errors";
import type { ApiRequest } from "@/lib/http/api-request";
import { corsOrigin } from "@/lib/http/cors";
import { readBody } from "@/lib/http/read-body";
import { authenticateOwner } from "@/lib/auth/authenticate-owner";
import { ledgeredTransaction } from "@/lib/ledger/ledgered-transaction";
import { approveConsent } from "@/lib/oauth/approve-consent";
import { checkAuthorizeRequest, redirectWith } from "@/lib/oauth/authorize-request";
import { oauthIssuer } from "@/lib/oauth/oauth-config";
import { choicePage, errorPage, returnToClient } from "@/lib/oauth/http/oauth-pages";
import { ownerActor } from "@/lib/owner-api/owner-actor";
import { isScope } from "@/lib/keys/scopes";

export const AUTHORIZE_PATH = "/oauth/authorize";
/** The owner's consent page (app/oauth/consent), which posts the decision back here. */
export const CONSENT_PATH = "/oauth/consent";
/** Ledger ops of the owner's two answers on the consent page. */
export const APPROVE_OP = "oauth.approve";
export const DENY_OP = "oauth.deny";

/**
 * The authorization endpoint. GET checks the request and sends the browser to the consent page (or the error back to
 * the client, or an error page when the client or redirect URI is in doubt); the consent page POSTs the owner's
 * decision here. The POST is an owner action: the dashboard cookie, and an Origin that is ours (SameSite=Lax already
 * keeps the cookie off other sites' POSTs; the Origin check makes it explicit, as other owner actions do).
 */
export async function handleAuthorize(req: ApiRequest): Promise<Response> {
  try {
    if (req.method === "GET" || req.method === "HEAD") return await start(req);
    if (req.method === "POST") return await decide(req);
    return new Response(null, { status: 405, headers: { Allow: "GET, POST" } });
  } catch (err) {
    if (err instanceof AppError && err.code === "validation_error") return choicePage(err.message);
    if (err instanceof AppError && err.status < 500) return errorPage(err.status, err.message);
    throw err;
  }
}

async function start(req: ApiRequest): Promise<Response> {
  const query = new URL(req.url).searchParams;
  const check = await checkAuthorizeRequest(await getDb(), query);
  if (!check.ok) return "page" in check ? errorPage(400, check.page) : redirectError(check);
  return new Response(null, { status: 302, headers: { Location: `${CONSENT_PATH}?${query.toString()}`, "cache-control": "no-store" } });
}

async function decide(req: ApiRequest): Promise<Response> {
  const origin = req.headers.get("origin");
  if (!origin || !corsOrigin(origin)) {
    return errorPage(403, `The decision must be posted from ${new URL(oauthIssuer()).origin}, this instance's own consent page.`);
  }
  if (!(req.headers.get("content-type") ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded")) {
    return errorPage(415, "The decision must be a form submission.");
  }
  const { owner } = await authenticateOwner(req);
  const form = new URLSearchParams(Buffer.from(await readBody(req, 64 * 1024)).toString("utf8"));
  // Before any lookup: a mailbox_id of `%00` failed the mailbox's query as a 500.
  for (const [field, value] of form) {
    const problem = unstorableText(value);
    if (problem) return choicePage(`${field}: must not contain ${problem}.`);
  }
  const db = await getDb();
  const check = await checkAuthorizeRequest(db, new URLSearchParams(form.get("request") ?? ""));
  if (!check.ok) return "page" in check ? errorPage(400, check.page) : returnToClient(errorUrl(check));
  const { request } = check;
  const decision = form.get("decision");
  if (decision !== "approve" && decision !== "deny") return errorPage(400, "decision: must be approve or deny.");
  const actor = await ownerActor(db, owner, form.get("project_id"), "dashboard");
  if (decision === "deny") {
    // A refusal is the owner's act too: the project's ledger shows which client was turned away, and when.
    const input = { client_id: request.client.id, requested_scopes: request.scopes };
    await ledgeredTransaction(db, { actor, op: DENY_OP, input }, async (_tx, entry) => {
      entry.subject = request.client.id;
      return { error: "access_denied" };
    });
    return returnToClient(
      redirectWith(request.redirectUri, {
        error: "access_denied",
        error_description: "The owner denied the request.",
        state: request.state,
        iss: oauthIssuer(),
      }),
    );
  }
  const scopes = [...new Set(form.getAll("scope"))];
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length) return errorPage(400, `scope: unknown scope ${unknown.join(", ")}.`);
  const mailboxId = form.get("mailbox_id") || null;
  const input = { client_id: request.client.id, scopes, mailbox_id: mailboxId };
  // The entry digests the call's output, so the code stays out of it: a digest of a secret is still no place for one.
  let code = "";
  await ledgeredTransaction(db, { actor, op: APPROVE_OP, input }, async (tx, entry) => {
    entry.subject = request.client.id;
    code = (await approveConsent(tx, { actor, ownerId: owner.id, request, scopes, mailboxId })).code;
    return input;
  });
  return returnToClient(redirectWith(request.redirectUri, { code, state: request.state, iss: oauthIssuer() }));
}

type RedirectError = { redirect: string; error: string; description: string; state: string | null };

const errorUrl = (check: RedirectError) =>
  redirectWith(check.redirect, { error: check.error, error_description: check.description, state: check.state, iss: oauthIssuer() });

/** GET only: after a form POST the answer goes back by returnToClient, which the consent page's CSP allows. */
function redirectError(check: RedirectError): Response {
  return new Response(null, { status: 302, headers: { Location: errorUrl(check), "cache-control": "no-store" } });
}
