import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { ApiRequest } from "@/lib/http/api-request";
import { errorResponse } from "@/lib/http/json-response";
import { readForm } from "@/lib/http/read-body";
import { isAllowedOrigin } from "@/lib/http/request-info";
import { appendEntry } from "@/lib/ledger/append-entry";
import { channelActor } from "@/lib/channels/channel-actor";
import { DECIDE_OP } from "@/lib/approvals/decide-request";
import { decideByEmailLink, emailLinkView } from "@/lib/approvals/email-links";
import { personVerdictInput, type PersonVerdict } from "@/lib/approvals/person-verdict";

const MAX_FORM_BYTES = 64 * 1024;

const back = (token: string, query = "") => new Response(null, { status: 303, headers: { location: `/decide/${token}${query}` } });

/**
 * A text box's value as the person typed it. Browsers post every line break as CRLF while the box's maxlength (the
 * schema's limits) counted it once: a comment of many lines that fit the box would otherwise be refused as too long.
 */
const typedText = (form: URLSearchParams, name: string) => String(form.get(name) ?? "").replace(/\r\n?/g, "\n");

/** The form's `choice` (approve, deny, needs_context, answer, option:<n>) plus `comment` / `text` → a verdict. */
function verdictFrom(form: URLSearchParams, options: string[]): PersonVerdict | null {
  const choice = String(form.get("choice") ?? "");
  const comment = typedText(form, "comment").trim() || undefined;
  const text = typedText(form, "text");
  const m = /^option:([0-4])$/.exec(choice);
  const raw = m ? { outcome: "option", option: options[Number(m[1])], comment } : { outcome: choice, comment, text };
  const parsed = personVerdictInput.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/**
 * POST /decide/<token>/submit, from the page an emailed link opens. Plain HTML form, so it works without
 * JavaScript; the result is shown by redirecting back to the page (303), which reads the link's new state.
 */
export async function postEmailDecision(req: ApiRequest, token: string): Promise<Response> {
  if (req.method !== "POST") return errorResponse(new AppError("method_not_allowed", "Use the page's form.", { headers: { Allow: "POST" } }));
  if (!/^[A-Za-z0-9]{20,64}$/.test(token)) return errorResponse(new AppError("not_found", "Not found."));
  if (!isAllowedOrigin(req.headers.get("origin"))) return errorResponse(new AppError("forbidden", "Origin not allowed."));
  let form: URLSearchParams;
  try {
    form = await readForm(req, MAX_FORM_BYTES);
  } catch (err) {
    return errorResponse(err);
  }
  const db = await getDb();
  const view = await emailLinkView(db, token);
  if (!view.request) return back(token);
  const verdict = verdictFrom(form, view.request.options);
  if (!verdict) return back(token, "?error=incomplete");
  try {
    // This handler is the decision's pipeline: its entry is the channel's, written with the decision.
    await db.transaction(async (tx) => {
      const { request, channel } = await decideByEmailLink(tx, { token, verdict });
      await appendEntry(tx, { actor: channelActor(channel), op: DECIDE_OP, subject: request.id, input: verdict, output: { status: request.status } });
    });
  } catch (err) {
    if (err instanceof AppError) return back(token, `?error=${encodeURIComponent(err.code)}`);
    throw err;
  }
  return back(token);
}
