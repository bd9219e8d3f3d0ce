import { createHash } from "node:crypto";
import type { Source } from "@/lib/db/schema/events";
import { AppError } from "@/lib/errors";
import { MAX_TYPE_LENGTH } from "@/lib/events/insert-event";
import { refuseDeepJson } from "@/lib/json/json-depth";
import { standardHeaderName } from "@/lib/sources/verify/standard-webhooks";
import { looksDuplicated } from "@/lib/sources/verify/hmac";
import { sliceWhole, toWellFormed } from "@/lib/text/well-formed";

/** Headers worth keeping with an event: what it is and which delivery it was. Never signatures or auth. */
const KEPT_HEADERS = [
  "content-type",
  "user-agent",
  "x-github-event",
  "x-github-delivery",
  "x-github-hook-id",
  "x-github-hook-installation-target-id",
  "x-github-hook-installation-target-type",
  "webhook-id",
  "webhook-timestamp",
];
const MAX_DEDUPE_LENGTH = 300;

export interface Delivery {
  type: string;
  dedupeKey: string | null;
  /**
   * The key a build before e76f25b stored this delivery under (its id header), when it differs: a provider's retry
   * of a delivery stored before an upgrade must still find that event.
   */
  priorDedupeKey: string | null;
  headers: Record<string, string>;
  contentType: string | null;
  body: { json: string } | { raw: Uint8Array };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * JSON is kept as its exact text; anything else (or JSON that does not parse) is stored raw, never rejected. JSON
 * nested past JSON_MAX_DEPTH is refused, as at the API: every reader of the event would have to walk it.
 */
function readBody(bytes: Uint8Array, contentType: string | null): { json: string; value: unknown } | null {
  const ct = (contentType ?? "").toLowerCase();
  let text: string;
  let jsonBytes = bytes;
  try {
    text = utf8.decode(bytes);
  } catch {
    return null;
  }
  if (ct.startsWith("application/x-www-form-urlencoded")) {
    // GitHub's form content type: the JSON travels as the one `payload` field.
    const form = new URLSearchParams(text);
    const payload = form.get("payload");
    if (payload === null || [...form.keys()].length !== 1) return null;
    text = payload;
    jsonBytes = Buffer.from(payload);
  } else if (ct && !/^application\/([\w.+-]+\+)?json\b/.test(ct) && !ct.startsWith("text/json")) {
    return null;
  }
  if (!text.trim()) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  refuseDeepJson(jsonBytes);
  return { json: text, value };
}

function field(value: unknown, path: string): unknown {
  let v = value;
  for (const key of path.split(".")) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/**
 * A type or id from the payload as stored: no NUL, no lone surrogate (jsonb refuses one: a batch holding such an
 * event fell back to one INSERT per event), not split inside an emoji.
 */
const asType = (v: unknown) =>
  typeof v === "string" || typeof v === "number" ? sliceWhole(toWellFormed(String(v).replaceAll("\0", "").trim()), MAX_TYPE_LENGTH) || null : null;

function typeOf(source: Source, value: unknown, headers: Pick<Headers, "get">): string {
  if (source.typeField) return asType(field(value, source.typeField)) ?? "webhook";
  if (source.verification === "github") {
    // The whole type within the limit, cut on a whole character: the header and the action together could pass it,
    // and the store's plain cut split an emoji into U+FFFD.
    const event = asType(headers.get("x-github-event")) ?? "unknown";
    const action = asType(field(value, "action"));
    return (action ? asType(`${event}.${action}`) : event) ?? "unknown";
  }
  return asType(field(value, "type")) ?? "webhook";
}

function deliveryIdHeader(header: string | null, headers: Pick<Headers, "get">): string | null {
  const v = header ? headers.get(header)?.trim() : undefined;
  if (!v) return null;
  if (looksDuplicated(v)) {
    throw new AppError("bad_request", `The ${header} header was sent more than once.`, { fix: "Send each header once." });
  }
  return v.slice(0, MAX_DEDUPE_LENGTH);
}

/** The delivery id header a source names (its id_header, else its scheme's), as earlier builds keyed every delivery. */
function namedId(source: Source, headers: Pick<Headers, "get">): string | null {
  // Read even where the key is another, so a delivery id header sent twice is refused whatever the source.
  const fallback =
    source.verification === "github" ? "x-github-delivery" : source.verification === "standard_webhooks" ? standardHeaderName(headers, "id") : null;
  return deliveryIdHeader(source.idHeader ?? fallback, headers);
}

function dedupeKeyOf(source: Source, bytes: Uint8Array, value: unknown, headers: Pick<Headers, "get">, named: string | null): string | null {
  const bodyHash = () => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  // GitHub and a plain HMAC sign the body and nothing else: no delivery id header (X-GitHub-Delivery, the configured
  // id_header) is covered and there is no timestamp, so a captured delivery resent under a fresh id would pass as a
  // new event, at any later time. What was signed is the delivery's identity instead: a redelivery (same body, same
  // id) and a replay (same body, any id) both find the first event. A real event's body names its object and when it
  // changed, so two real events do not share one; a sender whose bodies repeat must sign something that changes.
  if (source.verification === "github" || source.verification === "hmac_sha256") return bodyHash();
  // Stripe and Standard Webhooks sign the delivery's id (the body's `id`, the webhook-id header): that is its
  // identity, whatever id_header says, since a header they do not sign could be changed to pass a replay (within the
  // timestamp's 5 minutes) as a new event. A Stripe body without an id is known by what was signed, its bytes.
  if (source.verification === "stripe") return asType(field(value, "id")) ?? bodyHash();
  if (source.verification === "standard_webhooks") return source.idHeader ? deliveryIdHeader(standardHeaderName(headers, "id"), headers) : named;
  return named;
}

/** What a verified delivery becomes: type, dedupe key, kept headers, and the body as JSON text or raw bytes. */
export function readDelivery(source: Source, bytes: Uint8Array, headers: Pick<Headers, "get">): Delivery {
  const contentType = headers.get("content-type");
  const parsed = readBody(bytes, contentType);
  const kept: Record<string, string> = {};
  for (const name of [...KEPT_HEADERS, ...(source.idHeader ? [source.idHeader] : [])]) {
    const v = headers.get(name);
    if (v !== null) kept[name] = v.slice(0, 1000);
  }
  const named = namedId(source, headers);
  const dedupeKey = dedupeKeyOf(source, bytes, parsed?.value, headers, named);
  return {
    type: typeOf(source, parsed?.value, headers),
    dedupeKey,
    priorDedupeKey: named !== null && named !== dedupeKey ? named : null,
    headers: kept,
    contentType: parsed ? "application/json" : (contentType?.slice(0, 200) ?? null),
    body: parsed ? { json: parsed.json } : { raw: bytes },
  };
}
