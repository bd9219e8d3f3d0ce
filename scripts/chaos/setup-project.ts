import { randomBytes } from "node:crypto";
import { call } from "./http-call";

/**
 * What an operator does first, over the owner REST API and then with the key: a key for the load, and a Standard
 * Webhooks source to send to. The owner comes from OWNER_EMAIL / OWNER_PASSWORD (a headless install), so its
 * default project is the one used.
 */
export async function setupProject(api: string, owner: { email: string; password: string }, source: string) {
  const basic = `Basic ${Buffer.from(`${owner.email}:${owner.password}`).toString("base64")}`;
  const made = await call("POST", `${api}/keys`, {
    body: { name: "chaos", scopes: ["admin", "inbox:read", "inbox:write", "disk", "ledger:read"] },
    headers: { authorization: basic },
  });
  if (made.status !== 201) throw new Error(`creating a key failed: ${made.status} ${JSON.stringify(made.body)}`);
  const key: string = made.body.secret;
  const auth = { authorization: `Bearer ${key}` };
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const added = await call("POST", `${api}/sources`, { body: { type: "webhook", name: source, verification: "standard_webhooks", secret }, headers: auth });
  if (added.status !== 201 && added.status !== 200) throw new Error(`source_add failed: ${added.status} ${JSON.stringify(added.body)}`);
  const whoami = await call("GET", `${api}/whoami`, { headers: auth });
  if (whoami.status !== 200) throw new Error(`whoami failed: ${whoami.status} ${JSON.stringify(whoami.body)}`);
  return { key, auth, secret, hookUrl: added.body.url as string, projectId: whoami.body.project.id as string };
}
