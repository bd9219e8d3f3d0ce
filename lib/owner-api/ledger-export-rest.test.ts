import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asKey, namesFields, ownerBasic, ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { appendEntry } from "@/lib/ledger/append-entry";
import { getDb } from "@/lib/db/client";
import { EXPORT_COLUMNS } from "@/lib/ledger/export-format";
import type { Actor } from "@/lib/actor";

/** Ledger → Export over owner REST: a script downloads what the screen's export link gives, with its filters. */
let c: Awaited<ReturnType<typeof ownerClient>>;
let other: Awaited<ReturnType<typeof ownerClient>>;
beforeAll(async () => {
  c = await ownerClient("Ledger export");
  other = await ownerClient("Other ledger export");
});
afterAll(async () => {
  await c.server.close();
  await other.server.close();
});

/** The download itself (ownerClient's `call` reads JSON). */
async function download(query: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${c.server.url}/api/v1/owner/ledger/export${query}`, {
    headers: { authorization: ownerBasic, "x-brynth-project": c.seeded.project.id, ...headers },
  });
  return { res, text: await res.text() };
}

const actor = (projectId: string, agent: string): Actor => ({
  type: "key",
  projectId,
  projectName: "p",
  id: "key_test",
  keyId: "key_test",
  scopes: [],
  agent,
  platform: null,
  via: "rest",
});

describe("owner REST: ledger export", () => {
  it("streams every entry, newest first, as CSV past one page, and as NDJSON filtered by op", async () => {
    const db = await getDb();
    const writer = actor(c.seeded.project.id, '=HYPERLINK("x")');
    for (let i = 0; i < 1005; i += 67) {
      await Promise.all(Array.from({ length: Math.min(67, 1005 - i) }, (_, j) => appendEntry(db, { actor: writer, op: "bench.export", subject: `n${i + j}` })));
    }
    await appendEntry(db, { actor: actor(other.seeded.project.id, "theirs"), op: "bench.export", subject: "theirs" });

    const csv = await download("");
    expect(csv.res.status).toBe(200);
    expect(csv.res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.res.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="ledger-${c.seeded.project.id}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
    const lines = csv.text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(EXPORT_COLUMNS.join(","));
    const rows = lines.slice(1).filter((l) => l.split(",")[2] === "bench.export");
    expect(rows).toHaveLength(1005);
    // A formula an agent names itself with is neutralised, as on the screen's export.
    expect(rows[0]).toContain(`"'=HYPERLINK(""x"")"`);
    const seqs = lines.slice(1).map((l) => Number(l.split(",")[0]));
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(csv.text).not.toContain("theirs");

    const nd = await download("?format=ndjson&op=bench.export&subject=n7");
    expect(nd.res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    const entries = nd.text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(entries).toEqual([expect.objectContaining({ op: "bench.export", subject: "n7", agent: '=HYPERLINK("x")' })]);
  });

  it("takes since and until as the screen does, and an empty range is the header alone", async () => {
    const future = await download("?since=9000-01-01T00:00");
    expect(future.text).toBe(`${EXPORT_COLUMNS.join(",")}\r\n`);
    const past = await download("?format=ndjson&until=2000-01-01");
    expect(past.res.status).toBe(200);
    expect(past.text).toBe("");
  });

  it("refuses bad filters by name, before any byte is sent", async () => {
    for (const [query, field] of [
      ["?since=2026-02-30", "since"],
      ["?until=yesterday", "until"],
      ["?format=xlsx", "format"],
      [`?op=${"x".repeat(201)}`, "op"],
      ["?since=0000-01-01T00:00", "since"],
    ]) {
      const { res, text } = await download(query);
      expect(res.status, query).toBe(400);
      expect(namesFields(JSON.parse(text), [field]), text).toBe(true);
    }
  });

  it("is the owner's: no credentials, a wrong password or an API key are refused, and no other project is read", async () => {
    expect((await download("", { authorization: "" })).res.status).toBe(401);
    expect((await download("", { authorization: `Basic ${Buffer.from("owner@example.com:nope").toString("base64")}` })).res.status).toBe(401);
    const key = await c.call("POST", "/keys", { name: "exporter", scopes: ["ledger:read"] });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    expect((await download("", asKey(key.body.secret))).res.status).toBe(401);
    const foreign = await download("", { "x-brynth-project": "prj_doesnotexist" });
    expect(foreign.res.status).toBe(404);
  });
});
