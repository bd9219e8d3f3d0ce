import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { isAllowedOrigin } from "@/lib/http/request-info";
import { sealSoon } from "@/lib/ledger/seal-entries";
import { decideByEmailLink, emailLinkView } from "@/lib/approvals/email-links";
import { personVerdictInput, type PersonVerdict } from "@/lib/approvals/person-verdict";

const MAX_FORM_BYTES = 64 * 1024;

const back = (token: string, query = "") => new Response(null, { status: 303, headers: { location: `/decide/${token}${query}` } });

/** The form's `choice` (approve, deny, needs_context, answer, option:<n>) plus `comment` / `text` → a verdict. */
function verdictFrom(form: FormData, options: string[]): PersonVerdict | null {
  const choice = String(form.get("choice") ?? "");
  const comment = String(form.get("comment") ?? "").trim() || undefined;
  const text = String(form.get("text") ?? "");
  const m = /^option:([0-4])$/.exec(choice);
  const raw = m ? { outcome: "option", option: options[Number(m[1])], comment } : { outcome: choice, comment, text };
  const parsed = personVerdictInput.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/**
 * POST /decide/<token>/submit, from the page an emailed link opens. Plain HTML form, so it works without
 * JavaScript; the result is shown by redirecting back to the page (303), which reads the link's new state.
 */
export async function postEmailDecision(req: Request, token: string): Promise<Response> {
  if (!/^[A-Za-z0-9]{20,64}$/.test(token)) return new Response("Not found.", { status: 404 });
  if (!isAllowedOrigin(req.headers.get("origin"))) return new Response("Origin not allowed.", { status: 403 });
  if (Number(req.headers.get("content-length") ?? 0) > MAX_FORM_BYTES) return new Response("Too large.", { status: 413 });
  const db = await getDb();
  const view = await emailLinkView(db, token);
  if (!view.request) return back(token);
  const verdict = verdictFrom(await req.formData(), view.request.options);
  if (!verdict) return back(token, "?error=incomplete");
  try {
    await db.transaction((tx) => decideByEmailLink(tx, { token, verdict }));
    sealSoon(view.request.projectId);
  } catch (err) {
    if (err instanceof AppError) return back(token, `?error=${encodeURIComponent(err.code)}`);
    throw err;
  }
  return back(token);
}
