import { z } from "zod";
import { addSource, addSourceInput, MAX_SOURCES_PER_PROJECT } from "@/lib/sources/add-source";
import { listSources } from "@/lib/sources/list-sources";
import { removeSource } from "@/lib/sources/remove-source";
import { rotateSecretInput, rotateSourceSecret } from "@/lib/sources/rotate-source-secret";
import { sendTestEvent } from "@/lib/sources/send-test-event";
import { sourceName } from "@/lib/sources/source-input";
import { sourceShape } from "@/lib/tools/events/source-shape";
import { toolOpOf } from "@/lib/tools/registry";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";

/** The Sources screen over owner REST: the same domain functions and ledger ops as its actions (app/(dashboard)/sources). */

/** A secret leaves no trace in the ledger, not even inside a digest (a weak one could be guessed from it). */
const withoutSecret = <T extends { secret?: unknown }>({ secret: _secret, ...rest }: T) => rest;
const byName = z.object({ name: sourceName }).strict();

export const listSourcesRoute = defineOwnerRoute({
  name: "owner_sources_list",
  description: "Lists the project's event sources (webhook URL or email address), never their secrets.",
  input: z.object({}).strict(),
  output: z.object({ sources: z.array(sourceShape) }),
  rest: { method: "GET", path: "/owner/sources" },
  handler: async (ctx) => ({ sources: await listSources(ctx.db, { actor: ctx.actor }) }),
});

export const addSourceRoute = defineOwnerRoute({
  name: "owner_sources_add",
  description:
    'Adds an event source. Webhook: `{type: "webhook", name, verification, secret}` returns the `url` to paste in the provider; email: `{type: "email", name}` returns the project address. The secret is stored encrypted and never returned.' +
    ` A project has at most ${MAX_SOURCES_PER_PROJECT} sources (QUOTA_EXCEEDED past that).`,
  input: addSourceInput,
  output: sourceShape,
  rest: { method: "POST", path: "/owner/sources" },
  status: 201,
  op: toolOpOf("source_add"),
  ledgerInput: withoutSecret,
  handler: async (ctx, input) => {
    const view = await addSource(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = view.id;
    return view;
  },
});

export const removeSourceRoute = defineOwnerRoute({
  name: "owner_sources_remove",
  description: "Removes a source: its URL stops accepting at once; events already received stay.",
  input: byName,
  output: z.object({ name: z.string() }),
  rest: { method: "DELETE", path: "/owner/sources/{name}" },
  op: toolOpOf("source_remove"),
  handler: async (ctx, input) => {
    const row = await removeSource(ctx.db, { actor: ctx.actor, name: input.name });
    ctx.subject = row.id;
    return { name: row.name };
  },
});

export const testSourceRoute = defineOwnerRoute({
  name: "owner_sources_test",
  description: "Sends a correctly signed test delivery (type `brynth.test`) through the source's real intake path.",
  input: byName,
  output: z.object({ id: z.string().describe("The event the delivery became."), duplicate: z.boolean() }),
  rest: { method: "POST", path: "/owner/sources/{name}/test" },
  status: 201,
  op: "source.test",
  handler: async (ctx, input) => {
    const result = await sendTestEvent(ctx.db, { actor: ctx.actor, name: input.name });
    ctx.subject = result.id;
    return result;
  },
});

export const rotateSourceSecretRoute = defineOwnerRoute({
  name: "owner_sources_rotate_secret",
  description: "Replaces a webhook source's secret; the old one keeps verifying for `grace_hours` (default 24).",
  input: rotateSecretInput,
  output: z.object({ source_id: z.string(), name: z.string(), previous_valid_until: z.string().nullable() }),
  rest: { method: "POST", path: "/owner/sources/{name}/rotate-secret" },
  op: "source.rotate_secret",
  ledgerInput: withoutSecret,
  handler: async (ctx, input) => {
    const rotated = await rotateSourceSecret(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = rotated.source_id;
    return rotated;
  },
});
