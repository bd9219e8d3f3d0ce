import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { revokeKey } from "@/lib/keys/revoke-key";
import { OWNER_EMAIL, OWNER_PASSWORD, seedKey } from "@/lib/testing/seed";
import { waitForRequest } from "@/lib/approvals/wait-for-request";
import { approvalsHarness, ok } from "@/lib/approvals/__tests__/helpers";

const { h, call } = approvalsHarness();
const basic = `Basic ${Buffer.from(`${OWNER_EMAIL}:${OWNER_PASSWORD}`).toString("base64")}`;

describe("the approvals stream", () => {
  it("tells a subscriber about new and decided requests of its project", async () => {
    const ctrl = new AbortController();
    const res = await fetch(`${h.url}/api/v1/approvals/stream`, { headers: { authorization: `Bearer ${h.seeded.secret}` }, signal: ctrl.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const reader = res.body!.getReader();
    let text = "";
    const id = ok(await call("ask_human", { question: "Live?", wait_seconds: 0 })).request_id as string;
    const decided = fetch(`${h.url}/api/v1/requests/${id}/decision`, {
      method: "POST",
      headers: { authorization: basic, "content-type": "application/json", "x-brynth-project": h.seeded.project.id },
      body: JSON.stringify({ outcome: "answer", text: "yes" }),
    });
    while (!text.includes(`"status":"answered"`)) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain(`event: request\ndata: {"id":"${id}","status":"pending"}`);
    expect(text).toContain(`{"id":"${id}","status":"answered"}`);
    expect((await decided).status).toBe(200);
    ctrl.abort();
  });

  it("ends a key's stream the moment the key is revoked, before any later request reaches it", async () => {
    const doomed = await seedKey(h.seeded.project.id, ["approvals"], "to be revoked");
    const res = await fetch(`${h.url}/api/v1/approvals/stream`, { headers: { authorization: `Bearer ${doomed.secret}` } });
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes(": stream open")) text += new TextDecoder().decode((await reader.read()).value);
    await (await getDb()).transaction((tx) => revokeKey(tx, { actor: h.seeded.actor, keyId: doomed.key.id }));
    const ended = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text;
        text += new TextDecoder().decode(value);
      }
    })();
    const timeout = new Promise<string>((_, reject) => setTimeout(() => reject(new Error("the revoked key's stream is still open")), 5000));
    await Promise.race([ended, timeout]);
    const id = ok(await call("ask_human", { question: "Secret?", wait_seconds: 0 })).request_id as string;
    expect(text).not.toContain(id);
  });

  it("refuses a key without the approvals scope", async () => {
    const { secret } = await seedKey(h.seeded.project.id, ["disk"], "disk only");
    const res = await fetch(`${h.url}/api/v1/approvals/stream`, { headers: { authorization: `Bearer ${secret}` } });
    expect(res.status).toBe(403);
  });
});

describe("owner REST decision", () => {
  const post = (id: string, body: unknown, auth = basic) =>
    fetch(`${h.url}/api/v1/requests/${id}/decision`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json", "x-brynth-project": h.seeded.project.id },
      body: JSON.stringify(body),
    });

  it("decides as the owner, refuses API keys and answers bad input with validation_error", async () => {
    const id = ok(await call("ask_approval", { action: "x", summary: "Go?", options: ["Half"], wait_seconds: 0 })).request_id as string;
    expect((await post(id, { outcome: "approve" }, `Bearer ${h.seeded.secret}`)).status).toBe(401);
    expect((await (await post(id, { outcome: "maybe" })).json()).error.code).toBe("validation_error");
    expect((await (await post(id, { outcome: "needs_context" })).json()).error.code).toBe("validation_error");
    // A field the outcome does not take is refused by name, never dropped from a decision made anyway.
    for (const [body, field] of [
      [{ outcome: "approve", text: "only up to 50 EUR" }, "text"],
      [{ outcome: "deny", option: "Half" }, "option"],
      [{ outcome: "needs_context", comment: "Which customer?", text: "Which customer?" }, "text"],
    ] as const) {
      const stray = await (await post(id, body)).json();
      expect(stray.error.code).toBe("validation_error");
      expect(stray.error.message).toContain(field);
    }
    const res = await post(id, { outcome: "option", option: "Half" });
    expect(await res.json()).toMatchObject({ request_id: id, status: "modified", decided_by: `owner:${OWNER_EMAIL}` });
    const again = await post(id, { outcome: "deny" });
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe("ALREADY_DECIDED");
    expect((await post("req_unknown1", { outcome: "deny" })).status).toBe(404);
  });
});

describe("waiting", () => {
  it("stops early when the caller goes away", async () => {
    const id = ok(await call("ask_human", { question: "Anyone there?", wait_seconds: 0 })).request_id as string;
    const ctrl = new AbortController();
    const order: string[] = [];
    setTimeout(() => (order.push("aborted"), ctrl.abort()), 200);
    // A wait longer than the test's timeout: only the abort can end it.
    const row = await waitForRequest(await getDb(), { projectId: h.seeded.project.id, requestId: id, timeoutMs: 600_000, signal: ctrl.signal });
    order.push("returned");
    expect(row.status).toBe("pending");
    expect(order).toEqual(["aborted", "returned"]);
  });
});
