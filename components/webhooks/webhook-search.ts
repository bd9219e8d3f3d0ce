import { z } from "zod";
import { attemptOutcomes } from "@/lib/mail/webhooks/list-webhook-attempts";

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => v || undefined);

/** The delivery log's time windows, in hours. */
export const attemptWindows = { "1h": 1, "24h": 24, "7d": 24 * 7, "30d": 24 * 30 } as const;

/** The Webhooks screen's URL: the delivery log's filters and page token, so a view can be shared and Back works. */
export const webhookSearch = z.object({
  webhook: text(64),
  outcome: z.enum(attemptOutcomes).optional(),
  type: text(64),
  window: z.enum(Object.keys(attemptWindows) as [keyof typeof attemptWindows]).optional(),
  cursor: text(600),
});
export type WebhookSearch = z.infer<typeof webhookSearch>;

const keys = ["webhook", "outcome", "type", "window", "cursor"] as const;

/** The current filters plus changes (undefined drops a key); a filter change starts again at the first page. */
export function webhooksHref(raw: Record<string, string | undefined>, changes: Record<string, string | undefined> = {}) {
  const q = new URLSearchParams();
  for (const key of keys) {
    const value = key in changes ? changes[key] : raw[key];
    if (value) q.set(key, value);
  }
  return q.size ? `/mail/webhooks?${q}#deliveries` : "/mail/webhooks";
}
