import { OWNER, server } from "./fixtures";

/** The owner's HTTP Basic credentials, as a script would send them to owner REST. */
export const ownerAuth = `Basic ${Buffer.from(`${OWNER.email}:${OWNER.password}`).toString("base64")}`;

/**
 * One call to the instance's REST API (`/api/v1…`), as the owner unless `auth` says otherwise (an agent's
 * `Bearer key`); its JSON answer, or an error naming the path, status and body.
 */
export async function rest<T>(path: string, init: { method?: string; auth?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: init.auth ?? ownerAuth, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return body as T;
}
