import { z } from "zod";
import { createWebhook } from "@/lib/mail/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/mail/webhooks/delete-webhook";
import { listWebhooks } from "@/lib/mail/webhooks/list-webhooks";
import { ownerListInput, ownerPageAfter, ownerPageOf } from "@/lib/mail/quarantine/owner-page";
import { ROTATE_WEBHOOK_SECRET_OP, rotateWebhookSecret } from "@/lib/mail/webhooks/rotate-secret";
import { updateWebhook } from "@/lib/mail/webhooks/update-webhook";
import { updateWebhookHeaders } from "@/lib/mail/webhooks/update-webhook-headers";
import { eventTypesField, inboxIdsField, removeHeadersField, webhookHeadersField, webhookUrlField } from "@/lib/mail/webhooks/webhook-fields";
import { openWebhookHeaders } from "@/lib/mail/webhooks/webhook-headers";
import { findWebhook } from "@/lib/mail/webhooks/webhook-scope";
import { openWebhookSecret } from "@/lib/mail/webhooks/webhook-secret";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";
import { ownerWebhookView, ownerWebhookViews } from "@/lib/owner-api/webhook-view";
import { toolOpOf } from "@/lib/tools/registry";

/**
 * The owner's webhooks over REST (the Webhooks screen's actions): every webhook of the project, the agents'
 * included, where an agent's tools reach only its own key's. The fields and their rules are the tools' own
 * (webhook-fields.ts), given top-level in snake_case rather than inside `request`; a change that mirrors a tool
 * takes its ledger op.
 */

const LIST = "owner_webhooks_list";
export const webhookIdField = z.string().regex(/^whk_[A-Za-z0-9]{1,40}$/, "must be a webhook id, `whk_…`");
const byId = z.object({ webhook_id: webhookIdField }).strict();

export const listWebhooksRoute = defineOwnerRoute({
  name: LIST,
  description: "Lists every webhook of the project, agents' included (`created_by` names the key), oldest first; pass `next_page_token` back as `page_token`.",
  input: ownerListInput({}),
  output: z.object({ webhooks: z.array(ownerWebhookView), next_page_token: z.string().nullable() }),
  rest: { method: "GET", path: "/owner/webhooks" },
  handler: async (ctx, input) => {
    const { rows } = await listWebhooks(ctx.db, { actor: ctx.actor, ascending: true, limit: input.limit + 1, after: ownerPageAfter(LIST, ctx.actor, input) });
    const page = ownerPageOf(LIST, ctx.actor, input, rows, (r) => ({ at: r.pageAt, id: r.id }));
    return { webhooks: await ownerWebhookViews(ctx.db, ctx.actor.projectId, page.items), next_page_token: page.nextPageToken };
  },
});

export const getWebhookRoute = defineOwnerRoute({
  name: "owner_webhooks_get",
  description: "One webhook of the project, whoever created it. The secret is not shown again: rotate it for a new one.",
  input: byId,
  output: ownerWebhookView,
  rest: { method: "GET", path: "/owner/webhooks/{webhook_id}" },
  handler: async (ctx, input) => {
    const row = await findWebhook(ctx.db, { actor: ctx.actor, webhookId: input.webhook_id });
    const [view] = await ownerWebhookViews(ctx.db, ctx.actor.projectId, [row]);
    return view as z.input<typeof ownerWebhookView>;
  },
});

export const createWebhookRoute = defineOwnerRoute({
  name: "owner_webhooks_create",
  description:
    "Creates a webhook owned by the owner (no agent key sees it). The `secret` (whsec_…) that signs its deliveries (Standard Webhooks) is returned only in this response.",
  input: z.object({ url: webhookUrlField, event_types: eventTypesField, inbox_ids: inboxIdsField.optional(), enabled: z.boolean().optional() }).strict(),
  output: ownerWebhookView.extend({ secret: z.string() }),
  rest: { method: "POST", path: "/owner/webhooks" },
  status: 201,
  op: toolOpOf("create_webhook"),
  handler: async (ctx, input) => {
    const { webhook } = await createWebhook(ctx.db, {
      actor: ctx.actor,
      webhook: { url: input.url, eventTypes: input.event_types, inboxIds: input.inbox_ids, enabled: input.enabled },
    });
    ctx.subject = webhook.id;
    const [view] = await ownerWebhookViews(ctx.db, ctx.actor.projectId, [webhook]);
    return { ...(view as z.input<typeof ownerWebhookView>), secret: openWebhookSecret(webhook) };
  },
});

export const updateWebhookRoute = defineOwnerRoute({
  name: "owner_webhooks_update",
  description:
    "Changes a webhook, agents' included: only the fields given. `event_types` replaces the list; `inbox_ids` replaces the mailboxes (empty: every mailbox); `enabled: true` turns a disabled one back on and clears its failures.",
  input: z
    .object({
      webhook_id: webhookIdField,
      url: webhookUrlField.optional(),
      event_types: eventTypesField.optional(),
      inbox_ids: inboxIdsField.optional(),
      enabled: z.boolean().optional(),
    })
    .strict(),
  output: ownerWebhookView,
  rest: { method: "PATCH", path: "/owner/webhooks/{webhook_id}" },
  op: toolOpOf("update_webhook"),
  handler: async (ctx, input) => {
    ctx.subject = input.webhook_id;
    const row = await updateWebhook(ctx.db, {
      actor: ctx.actor,
      webhookId: input.webhook_id,
      changes: { url: input.url, eventTypes: input.event_types, inboxIds: input.inbox_ids, enabled: input.enabled },
    });
    const [view] = await ownerWebhookViews(ctx.db, ctx.actor.projectId, [row]);
    return view as z.input<typeof ownerWebhookView>;
  },
});

export const deleteWebhookRoute = defineOwnerRoute({
  name: "owner_webhooks_delete",
  description: "Deletes a webhook, agents' included; its pending deliveries are cancelled and its delivery log is kept. Idempotent.",
  input: byId,
  output: z.object({ webhook_id: z.string(), cancelled_deliveries: z.number().int() }),
  rest: { method: "DELETE", path: "/owner/webhooks/{webhook_id}" },
  op: toolOpOf("delete_webhook"),
  handler: async (ctx, input) => {
    ctx.subject = input.webhook_id;
    const r = await deleteWebhook(ctx.db, { actor: ctx.actor, webhookId: input.webhook_id });
    return { webhook_id: r.webhookId, cancelled_deliveries: r.cancelled };
  },
});

export const rotateWebhookSecretRoute = defineOwnerRoute({
  name: "owner_webhooks_rotate_secret",
  description:
    "Gives a webhook a new signing secret, returned only in this response. For 24 hours deliveries carry two signatures (new and old secret), so the receiver can switch without refusing one.",
  input: byId,
  output: z.object({ webhook_id: z.string(), secret: z.string(), previous_secret_until: z.string().nullable() }),
  rest: { method: "POST", path: "/owner/webhooks/{webhook_id}/rotate-secret" },
  op: ROTATE_WEBHOOK_SECRET_OP,
  handler: async (ctx, input) => {
    ctx.subject = input.webhook_id;
    const r = await rotateWebhookSecret(ctx.db, { actor: ctx.actor, webhookId: input.webhook_id });
    return { webhook_id: r.id, secret: r.secret, previous_secret_until: r.previousSecretUntil?.toISOString() ?? null };
  },
});

const headersOut = z.object({ webhook_id: z.string(), headers: z.record(z.string(), z.string()) });

export const getWebhookHeadersRoute = defineOwnerRoute({
  name: "owner_webhooks_headers_get",
  description: "A webhook's custom headers with their values, as get_webhook_headers gives its creator.",
  input: byId,
  output: headersOut,
  rest: { method: "GET", path: "/owner/webhooks/{webhook_id}/headers" },
  handler: async (ctx, input) => {
    const row = await findWebhook(ctx.db, { actor: ctx.actor, webhookId: input.webhook_id });
    return { webhook_id: row.id, headers: openWebhookHeaders(row) };
  },
});

export const updateWebhookHeadersRoute = defineOwnerRoute({
  name: "owner_webhooks_headers_update",
  description:
    "Sets custom headers (`headers`, replacing a name already set in any case) and removes others (`remove_headers`; an absent name is no error). At most 20; values up to 1 KB, no CR/LF, 8 KB in all; reserved names are refused.",
  input: z.object({ webhook_id: webhookIdField, headers: webhookHeadersField.optional(), remove_headers: removeHeadersField.optional() }).strict(),
  output: headersOut,
  rest: { method: "PATCH", path: "/owner/webhooks/{webhook_id}/headers" },
  op: toolOpOf("update_webhook_headers"),
  // Header values are secrets (tokens): the entry digests their names only, going in and coming back.
  ledgerInput: (input) => ({ webhook_id: input.webhook_id, header_names: Object.keys(input.headers ?? {}), remove_headers: input.remove_headers ?? [] }),
  ledgerOutput: (out) => ({ webhook_id: out.webhook_id, header_names: Object.keys(out.headers) }),
  handler: async (ctx, input) => {
    ctx.subject = input.webhook_id;
    const r = await updateWebhookHeaders(ctx.db, {
      actor: ctx.actor,
      webhookId: input.webhook_id,
      headers: input.headers,
      removeHeaders: input.remove_headers,
      field: (name) => `headers.${name}`,
    });
    return { webhook_id: r.webhookId, headers: r.headers };
  },
});
