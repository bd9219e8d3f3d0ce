import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailWebhooks } from "@/lib/db/schema/mail-webhooks";
import { fieldError } from "@/lib/disk/field-error";
import {
  MAX_WEBHOOK_HEADERS,
  MAX_WEBHOOK_HEADERS_TOTAL_BYTES,
  mergeWebhookHeaders,
  openWebhookHeaders,
  sealWebhookHeaders,
  type WebhookHeaders,
  webhookHeadersBytes,
} from "@/lib/mail/webhooks/webhook-headers";
import { findWebhook } from "@/lib/mail/webhooks/webhook-scope";

/**
 * update_webhook_headers: sets `headers` (replacing a name already set, in any case) and removes `removeHeaders`
 * (an absent name is no error), keeping at most MAX_WEBHOOK_HEADERS of at most MAX_WEBHOOK_HEADERS_TOTAL_BYTES. The names and
 * values arrive checked (webhook-fields.ts). Returns the headers now sent.
 */
export async function updateWebhookHeaders(
  db: Executor,
  opts: {
    actor: Actor;
    webhookId: string;
    inboxId?: string;
    headers?: WebhookHeaders;
    removeHeaders?: string[];
    /** The field an error names for header `name`, as the caller's body spells it: `request.headers.<name>` (tool). */
    field: (name: string) => string;
  },
): Promise<{ webhookId: string; headers: WebhookHeaders }> {
  const row = await findWebhook(db, { actor: opts.actor, webhookId: opts.webhookId, inboxId: opts.inboxId, lock: true });
  const current = openWebhookHeaders(row);
  const next = mergeWebhookHeaders(current, opts.headers ?? {}, opts.removeHeaders ?? []);
  const names = Object.keys(next);
  if (names.length > MAX_WEBHOOK_HEADERS) {
    // Named by the first header given that does not fit: the ones already set were within the limit.
    const had = new Set(Object.keys(current).map((n) => n.toLowerCase()));
    const fresh = names.filter((n) => !had.has(n.toLowerCase()));
    const over = fresh[MAX_WEBHOOK_HEADERS - (names.length - fresh.length)] ?? names[MAX_WEBHOOK_HEADERS];
    throw fieldError(
      opts.field(over),
      `does not fit: a webhook has at most ${MAX_WEBHOOK_HEADERS} headers, and this would make ${names.length}`,
      "Remove headers with remove_headers, or send fewer.",
    );
  }
  const bytes = webhookHeadersBytes(next);
  // A webhook saved over the limit before it existed may still shrink.
  if (bytes > MAX_WEBHOOK_HEADERS_TOTAL_BYTES && bytes > webhookHeadersBytes(current)) {
    // Named by the largest header given: the one whose change most likely tipped it over.
    const given = Object.entries(opts.headers ?? {}).map(([name, value]) => ({ name, bytes: webhookHeadersBytes({ [name]: value }) }));
    const largest = given.reduce<(typeof given)[number] | undefined>((a, b) => (a && a.bytes >= b.bytes ? a : b), undefined);
    throw fieldError(
      opts.field(largest?.name ?? names[0]),
      `does not fit: a webhook's headers add at most ${MAX_WEBHOOK_HEADERS_TOTAL_BYTES} bytes to a delivery (name, value and 4 bytes each), and this would make ${bytes}`,
      "Shorten the values, or remove headers with remove_headers.",
    );
  }
  await db
    .update(mailWebhooks)
    .set({ headersEnc: sealWebhookHeaders(row.id, next), updatedAt: sql`now()` })
    .where(and(eq(mailWebhooks.projectId, opts.actor.projectId), eq(mailWebhooks.id, row.id)));
  return { webhookId: row.id, headers: next };
}
