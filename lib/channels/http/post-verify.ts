import { getDb } from "@/lib/db/client";
import { isAllowedOrigin } from "@/lib/http/request-info";
import { sealSoon } from "@/lib/ledger/seal-entries";
import { confirmEmailChannel } from "@/lib/channels/verify-link";

/** POST /verify/<token>/confirm, from the verification page's button; redirects back with the outcome. */
export async function postVerify(req: Request, token: string): Promise<Response> {
  if (!/^[A-Za-z0-9]{20,64}$/.test(token)) return new Response("Not found.", { status: 404 });
  if (!isAllowedOrigin(req.headers.get("origin"))) return new Response("Origin not allowed.", { status: 403 });
  const db = await getDb();
  const channel = await db.transaction((tx) => confirmEmailChannel(tx, token));
  if (channel) sealSoon(channel.projectId);
  const result = channel ? channel.status : "invalid";
  return new Response(null, { status: 303, headers: { location: `/verify/${token}?result=${result}` } });
}
