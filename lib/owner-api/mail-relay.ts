import { z } from "zod";
import { relaySecurities } from "@/lib/db/schema/mail";
import { relayInput, relaySetLedger, relayView, removeRelay, saveRelay } from "@/lib/mail/relay/save-relay";
import { testRelay } from "@/lib/mail/relay/test-relay";
import { env } from "@/lib/env";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";

/** Mail settings → relay over owner REST: the same domain functions and ledger ops as app/(dashboard)/mail/actions.ts. */

const relayShape = z.object({
  host: z.string(),
  port: z.number().int(),
  security: z.enum(relaySecurities),
  username: z.string().nullable(),
  has_password: z.boolean(),
});

/** The REST fields are snake_case; the domain's schema (shared with the dashboard form) checks them again. */
const putInput = relayInput.omit({ clearPassword: true }).extend({ clear_password: z.boolean().optional() }).strict();
const asDomain = ({ clear_password, ...rest }: z.output<typeof putInput>) => ({ ...rest, clearPassword: clear_password });

export const getRelayRoute = defineOwnerRoute({
  name: "owner_relay_get",
  description:
    "The project's SMTP relay for mail outside this instance (never the password). `relay` is null when none is saved; `env_relay` says whether SMTP_RELAY_URL applies then.",
  input: z.object({}).strict(),
  output: z.object({ relay: relayShape.extend({ updated_at: z.string() }).nullable(), env_relay: z.boolean() }),
  rest: { method: "GET", path: "/owner/mail/relay" },
  handler: async (ctx) => {
    const view = await relayView(ctx.db, { projectId: ctx.actor.projectId });
    return {
      relay: view && {
        host: view.host,
        port: view.port,
        security: view.security,
        username: view.username,
        has_password: view.hasPassword,
        updated_at: view.updatedAt.toISOString(),
      },
      env_relay: Boolean(env().SMTP_RELAY_URL),
    };
  },
});

export const setRelayRoute = defineOwnerRoute({
  name: "owner_relay_set",
  description:
    "Saves the project's SMTP relay. `security`: `starttls`, `tls` or `none`. A missing `password` keeps the stored one; `clear_password: true` removes it. The password is stored encrypted and never ledgered.",
  input: putInput,
  output: relayShape,
  rest: { method: "PUT", path: "/owner/mail/relay" },
  op: relaySetLedger.op,
  ledgerInput: (input) => relaySetLedger.input(asDomain(input)),
  handler: async (ctx, input) => {
    ctx.subject = ctx.actor.projectId;
    const saved = await saveRelay(ctx.db, { actor: ctx.actor, ...asDomain(input) });
    return { host: saved.host, port: saved.port, security: saved.security, username: saved.username, has_password: saved.hasPassword };
  },
});

export const removeRelayRoute = defineOwnerRoute({
  name: "owner_relay_remove",
  description: "Removes the project's relay: SMTP_RELAY_URL applies again, if set.",
  input: z.object({}).strict(),
  output: z.object({ removed: z.literal(true) }),
  rest: { method: "DELETE", path: "/owner/mail/relay" },
  op: "mail.relay_remove",
  handler: async (ctx) => {
    ctx.subject = ctx.actor.projectId;
    await removeRelay(ctx.db, { actor: ctx.actor });
    return { removed: true as const };
  },
});

export const testRelayRoute = defineOwnerRoute({
  name: "owner_relay_test",
  description: "Sends one DKIM-signed test message from the project address through the relay and returns its answer (503 with the answer when it refuses).",
  input: z.object({ to: z.string().min(3).max(254) }).strict(),
  output: z.object({ response: z.string(), origin: z.enum(["project", "env"]) }),
  rest: { method: "POST", path: "/owner/mail/relay/test" },
  op: "mail.relay_test",
  // The SMTP conversation writes nothing: it runs before the transaction, which holds only the ledger entry.
  prepare: (ctx, input) => testRelay(ctx.db, { actor: ctx.actor, to: input.to }),
  handler: async (ctx) => {
    ctx.subject = ctx.actor.projectId;
    return ctx.prepared;
  },
});
