import { z } from "zod";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";
import { readSavedRemoteAccess } from "@/lib/settings/remote-access";
import { remoteAccessInput } from "@/lib/settings/remote-access-input";
import { remoteAccessView } from "@/lib/settings/remote-access-view";
import { SAVE_REMOTE_ACCESS_OP, saveRemoteAccess } from "@/lib/settings/save-remote-access";

/** Settings → Remote access over owner REST: the dashboard form's twin (app/(dashboard)/settings/remote-access-actions.ts). */

const remoteAccessShape = z.object({
  public_url: z.string().nullable().describe("The saved public URL; null when PUBLIC_URL applies."),
  allowed_origins: z.array(z.string()).describe("The saved extra origins."),
  effective_public_url: z.string().describe("What applies: the OAuth issuer, /mcp's resource and the origin of attachment links."),
  env_public_url: z.string().describe("PUBLIC_URL (or its default): the value when none is saved; its host is always served."),
  effective_allowed_origins: z.array(z.string()).describe("Every origin allowed besides the public URL's: PUBLIC_URL's, ALLOWED_ORIGINS and the saved ones."),
  updated_at: z.string().nullable(),
});

export const getRemoteAccessRoute = defineOwnerRoute({
  name: "owner_remote_access_get",
  description: "How this instance is reached from outside (instance-wide): the saved public URL and extra allowed origins, and what applies.",
  input: z.object({}).strict(),
  output: remoteAccessShape,
  rest: { method: "GET", path: "/owner/settings/remote-access" },
  // Read in the route's transaction, not through the cache: a script sees what is saved, even just now elsewhere.
  handler: async (ctx) => remoteAccessView(await readSavedRemoteAccess(ctx.db)),
});

export const setRemoteAccessRoute = defineOwnerRoute({
  name: "owner_remote_access_set",
  description:
    "Saves the public URL (an http(s) origin, no path; null returns to PUBLIC_URL) and the extra allowed origins (at most 20), for every project of the instance. Every instance applies it at once. OAuth tokens are bound to the public URL's /mcp: changing it makes connected apps authorize again.",
  input: remoteAccessInput,
  output: remoteAccessShape,
  rest: { method: "PUT", path: "/owner/settings/remote-access" },
  op: SAVE_REMOTE_ACCESS_OP,
  handler: async (ctx, input) => {
    ctx.subject = "remote_access";
    return remoteAccessView(await saveRemoteAccess(ctx.db, { ownerId: ctx.owner.id, ...input }));
  },
});
