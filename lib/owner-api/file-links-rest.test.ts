import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namesFields, ownerClient } from "@/lib/owner-api/__tests__/owner-client";

/** Disk → Links over owner REST: a script lists the public links that work and stops one, as the dashboard does. */
let c: Awaited<ReturnType<typeof ownerClient>>;
let other: Awaited<ReturnType<typeof ownerClient>>;
beforeAll(async () => {
  c = await ownerClient("File links");
  other = await ownerClient("Other file links");
});
afterAll(async () => {
  await c.server.close();
  await other.server.close();
});

async function linkTo(client: typeof c, path: string) {
  await client.call("PUT", "/owner/policy/draft", { policy: { rules: [{ id: "links", tool: "file_url", effect: "auto_approve" }] } });
  await client.call("POST", "/owner/policy/apply", {});
  expect((await client.call("PUT", `/files/${path}`, { content_base64: Buffer.from("hello").toString("base64") })).status).toBe(200);
  const made = await client.call("POST", "/file-urls", { path, expires_in: 600 });
  expect(made.body.link_id, JSON.stringify(made.body)).toBeTruthy();
  return made.body as { url: string; link_id: string };
}

describe("owner REST: public file links", () => {
  it("lists the links that work, revokes one (ledgered), and the link stops serving", async () => {
    const link = await linkTo(c, "reports/q3.txt");
    expect((await fetch(link.url)).status).toBe(200);
    const listed = await c.call("GET", "/owner/file-links");
    expect(listed.body.links).toEqual([expect.objectContaining({ id: link.link_id, path: "reports/q3.txt", size_bytes: 5, downloads: 1, key_id: null })]);
    expect(await c.call("DELETE", `/owner/file-links/${link.link_id}`)).toEqual({ status: 200, body: { revoked: true } });
    expect((await c.entry("file.link_revoke"))?.subject).toBe(link.link_id);
    expect((await fetch(link.url)).status).not.toBe(200);
    expect((await c.call("GET", "/owner/file-links")).body.links).toEqual([]);
    expect((await c.call("DELETE", `/owner/file-links/${link.link_id}`)).status).toBe(404);
  });

  it("pages every link however many an agent made, and refuses a page token of another list", async () => {
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await linkTo(c, `many/${i}.txt`)).link_id);
    const seen: string[] = [];
    let token: string | null = null;
    do {
      const query: string = token ? `?limit=2&page_token=${encodeURIComponent(token)}` : "?limit=2";
      const page = await c.call("GET", `/owner/file-links${query}`);
      expect(page.status).toBe(200);
      expect(page.body.links.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.links.map((l: { id: string }) => l.id));
      token = page.body.next_page_token;
    } while (token);
    // Newest first, each once: the fifth link made is the first listed.
    expect(seen).toEqual(made.toReversed());
    const first = await c.call("GET", "/owner/file-links?limit=2");
    const foreign = await other.call("GET", `/owner/file-links?limit=2&page_token=${encodeURIComponent(first.body.next_page_token)}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.code).toBe("validation_error");
    expect(namesFields(foreign.body, ["page_token"])).toBe(true);
  });

  it("never lists nor revokes another project's link", async () => {
    const theirs = await linkTo(other, "theirs.txt");
    expect((await c.call("GET", "/owner/file-links")).body.links.map((l: { id: string }) => l.id)).not.toContain(theirs.link_id);
    expect((await c.call("DELETE", `/owner/file-links/${theirs.link_id}`)).status).toBe(404);
    expect((await fetch(theirs.url)).status).toBe(200);
  });
});
