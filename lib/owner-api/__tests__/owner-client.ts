import { startApiServer } from "@/lib/testing/api-server";
import { lastLedgerEntry } from "@/lib/testing/ledger";
import { OWNER_EMAIL, OWNER_PASSWORD, seedProject } from "@/lib/testing/seed";

export const ownerBasic = `Basic ${Buffer.from(`${OWNER_EMAIL}:${OWNER_PASSWORD}`).toString("base64")}`;

/** Headers that make `call` an agent's: its API key in place of the owner's credentials. */
export const asKey = (secret: string) => ({ authorization: `Bearer ${secret}` });

/**
 * A real API server and a fresh project, and `call` for owner REST on it with HTTP Basic, as a script would.
 * `entry` is the project's newest ledger entry of an op: what the dashboard's twin action writes too.
 */
export async function ownerClient(name: string) {
  const server = await startApiServer();
  const seeded = await seedProject({ name });
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { authorization: ownerBasic, "content-type": "application/json", "x-brynth-project": seeded.project.id, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field by the tests
    return { status: res.status, body: (await res.json()) as any };
  }
  const entry = (op: string) => lastLedgerEntry(seeded.project.id, op);
  return { server, seeded, call, entry };
}

/** The shape every refused call has: a validation_error that names each field. */
export function namesFields(body: { error: { code: string; message: string; details?: { field: string }[] } }, fields: string[]) {
  const named = (body.error.details ?? []).map((d) => d.field);
  return body.error.code === "validation_error" && fields.every((f) => named.includes(f) || body.error.message.includes(f));
}
