import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { seedMailbox, seedReceivedMail } from "@/lib/testing/mail-fixture";
import { seedProject } from "@/lib/testing/seed";
import { otherKey, receiveReply, type Seeded } from "./mail-actors";

/**
 * Design Appendix B: list_threads answers `GET /threads?inbox_id=` and, as AgentMail's clients call it, the alias
 * `GET /inboxes/{inbox_id}/threads`: the same tool, the same arguments, the same answer.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Seeded;

beforeAll(async () => {
  server = await startApiServer();
  seeded = await seedProject({ name: "Rest aliases" });
});
afterAll(async () => {
  await server.close();
});

async function get(path: string, secret = seeded.secret) {
  const res = await fetch(`${server.url}/api/v1${path}`, { headers: { authorization: `Bearer ${secret}` } });
  return { status: res.status, json: await res.json() };
}

describe("GET /inboxes/{inbox_id}/threads", () => {
  it("lists the inbox's threads as GET /threads?inbox_id= does, filters and pages included", async () => {
    const box = await seedMailbox(seeded.project.id);
    const first = await seedReceivedMail(seeded.project.id, box.id);
    await receiveReply(seeded.project.id, box.id, first.message);
    await seedReceivedMail(seeded.project.id, box.id);
    await seedReceivedMail(seeded.project.id, (await seedMailbox(seeded.project.id)).id);

    const alias = await get(`/inboxes/${box.id}/threads?limit=1`);
    const canonical = await get(`/threads?inbox_id=${box.id}&limit=1`);
    expect(alias.status, JSON.stringify(alias.json)).toBe(200);
    expect(alias.json).toEqual(canonical.json);
    expect(alias.json.count).toBe(1);
    // The token is bound to the same arguments, whichever path carried inbox_id.
    const next = await get(`/inboxes/${box.id}/threads?limit=1&page_token=${encodeURIComponent(alias.json.next_page_token)}`);
    expect(next.status).toBe(200);
    expect(next.json.threads[0].thread_id).not.toBe(alias.json.threads[0].thread_id);
    expect(next.json.threads[0].inbox_id).toBe(box.id);
    // By address too, and an unknown argument is refused as on the canonical path.
    expect((await get(`/inboxes/${encodeURIComponent(box.address)}/threads`)).json.count).toBe(2);
    const bogus = await get(`/inboxes/${box.id}/threads?bogus=1`);
    expect(bogus.status).toBe(400);
    expect(bogus.json.error.code).toBe("validation_error");
  });

  it("keeps the key's restriction: another inbox is NOT_FOUND, and the scope is still message_read", async () => {
    const mine = await seedMailbox(seeded.project.id);
    const theirs = await seedMailbox(seeded.project.id);
    const restricted = await otherKey(seeded, ["message_read"], mine.id);
    expect((await get(`/inboxes/${theirs.id}/threads`, restricted.secret)).status).toBe(404);
    expect((await get(`/inboxes/${mine.id}/threads`, restricted.secret)).status).toBe(200);
    const unscoped = await otherKey(seeded, ["inbox_read"]);
    const refused = await get(`/inboxes/${mine.id}/threads`, unscoped.secret);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("missing_permission");
  });
});
