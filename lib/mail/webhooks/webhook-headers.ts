import { decryptSecret, encryptSecret } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import { mailWebhooks } from "@/lib/db/schema/mail-webhooks";

/** At most this many custom headers per webhook, each value at most this many bytes (design §1.4). */
export const MAX_WEBHOOK_HEADERS = 20;
export const MAX_WEBHOOK_HEADER_BYTES = 1024;
/**
 * All custom headers together, as sent (`name: value` plus CRLF each): 20 full values would make about 21 KB, over
 * the 16 KB a Node receiver accepts in all (its default maxHeaderSize, nginx's buffers are 8 KB a line) and over the
 * 19,000 bytes get_webhook_headers may answer over MCP. 8 KB leaves room for the signature headers of each delivery.
 */
export const MAX_WEBHOOK_HEADERS_TOTAL_BYTES = 8192;

/** The bytes `headers` add to a request: each as `name: value\r\n`. */
export const webhookHeadersBytes = (headers: WebhookHeaders): number =>
  Object.entries(headers).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + Buffer.byteLength(value) + 4, 0);

/** RFC 9110 §5.6.2 `token`: what a header name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Names a delivery sets itself or that change how the request is framed or routed: a custom header may not
 * replace them (design §2.10 e). `webhook-*` are the Standard Webhooks signature headers. User-Agent may be set.
 */
const RESERVED = new Set([
  "host",
  "content-length",
  "content-type",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
  "proxy-authorization",
  "proxy-connection",
]);

export function webhookHeaderProblem(name: string): string | null {
  if (!TOKEN.test(name) || name.length > 256) return "is not a valid header name (letters, digits and !#$%&'*+-.^_`|~ only)";
  const lower = name.toLowerCase();
  if (RESERVED.has(lower) || lower.startsWith("webhook-")) return "is reserved: Brynth sets it on every delivery";
  return null;
}

/**
 * What node:http puts in a header value (its `checkInvalidHeaderChar`): tab, visible ASCII and space, and Latin-1.
 * Anything else (other control characters, "日本") makes every request throw before it is sent, so a webhook
 * holding it would fail each delivery until it is switched off: it is refused when set instead.
 */
const UNSENDABLE = /[^\t\x20-\x7e\x80-\xff]/;

export function webhookHeaderValueProblem(value: string): string | null {
  if (value.includes("\r") || value.includes("\n") || value.includes("\u0000")) return "must not contain CR, LF or NUL";
  if (UNSENDABLE.test(value)) return "must hold only printable ASCII, tab and Latin-1 characters (HTTP cannot carry the others in a header)";
  if (Buffer.byteLength(value) > MAX_WEBHOOK_HEADER_BYTES) return `must be at most ${MAX_WEBHOOK_HEADER_BYTES} bytes`;
  return null;
}

export type WebhookHeaders = Record<string, string>;

/** The headers as stored (`headers_enc`: encrypted JSON bound to the webhook's row); null for none. */
export const sealWebhookHeaders = (webhookId: string, headers: WebhookHeaders): string | null =>
  Object.keys(headers).length === 0 ? null : encryptSecret(JSON.stringify(headers), secretSlot(mailWebhooks.headersEnc, webhookId));

export function openWebhookHeaders(row: { id: string; headersEnc: string | null }): WebhookHeaders {
  if (!row.headersEnc) return {};
  return JSON.parse(decryptSecret(row.headersEnc, secretSlot(mailWebhooks.headersEnc, row.id))) as WebhookHeaders;
}

/**
 * `headers` set over `current` (a name matching one already set, in any case, replaces it and takes the new
 * spelling), then `remove` taken out (any case; an absent name is no error).
 */
export function mergeWebhookHeaders(current: WebhookHeaders, headers: WebhookHeaders, remove: readonly string[]): WebhookHeaders {
  const out = new Map<string, [string, string]>();
  for (const [name, value] of Object.entries(current)) out.set(name.toLowerCase(), [name, value]);
  for (const [name, value] of Object.entries(headers)) out.set(name.toLowerCase(), [name, value]);
  for (const name of remove) out.delete(name.toLowerCase());
  return Object.fromEntries(out.values());
}
