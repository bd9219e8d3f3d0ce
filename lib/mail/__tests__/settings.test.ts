import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { mailRelays } from "@/lib/db/schema/mail";
import { resetEnvCache } from "@/lib/env";
import { digest } from "@/lib/ledger/canonical";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { relayFor } from "@/lib/mail/outbound/relay-config";
import { closeRelayTransports } from "@/lib/mail/outbound/relay-transport";
import { sendEmail } from "@/lib/mail/outbound/send-email";
import { listOutbound } from "@/lib/mail/outbound/list-outbound";
import { quotaUsage } from "@/lib/mail/outbound/reserve-quota";
import { relayInput, relaySetLedger, removeRelay, relayView, saveRelay } from "@/lib/mail/relay/save-relay";
import { runOwnerAction } from "@/lib/auth/owner-action";
import { testRelay } from "@/lib/mail/relay/test-relay";
import { seedProject } from "@/lib/testing/seed";
import { startSink } from "@/lib/mail/__tests__/helpers";

/** The Mail settings screen's relay (encrypted password, test message) and the Outbound mail screen's list. */
let sink: Awaited<ReturnType<typeof startSink>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  delete process.env.SMTP_RELAY_URL;
  resetEnvCache();
  sink = await startSink();
  seeded = await seedProject({ name: "Settings" });
});
afterAll(async () => {
  closeRelayTransports();
  await sink.close();
});

const tx = async <T>(fn: (db: Parameters<Parameters<Awaited<ReturnType<typeof getDb>>["transaction"]>[0]>[0]) => Promise<T>) => (await getDb()).transaction(fn);

describe("relay settings", () => {
  it("stores the password encrypted, never shows or ledgers it, and keeps it when left blank", async () => {
    // As the Mail settings screen saves it: through the owner pipeline, with the screen's ledger declaration.
    const ctx = { owner: seeded.owner, sessionId: "ses_test", project: seeded.project, projects: [seeded.project], actor: seeded.actor };
    const input = { host: "127.0.0.1", port: sink.port, security: "none" as const, username: "agent-mail", password: "s3cret-pass" };
    const res = await runOwnerAction(ctx, relayInput, (c, i) => saveRelay(c.db, { actor: c.actor, ...i }), relaySetLedger, input);
    const saved = res.ok ? res.data : res;
    expect(saved).toEqual({ host: "127.0.0.1", port: sink.port, security: "none", username: "agent-mail", hasPassword: true });
    const db = await getDb();
    const [row] = await db.select().from(mailRelays).where(eq(mailRelays.projectId, seeded.project.id));
    expect(row.passwordEnc).not.toContain("s3cret-pass");
    expect(JSON.stringify(await relayView(db, { projectId: seeded.project.id }))).not.toContain("s3cret");
    const entries = await db.select().from(ledgerEntries).where(eq(ledgerEntries.op, "mail.relay_set"));
    expect(entries).toHaveLength(1);
    expect(entries[0].inputDigest).toBe(digest({ host: "127.0.0.1", port: sink.port, security: "none", username: "agent-mail", password_given: true }));

    await tx((t) => saveRelay(t, { actor: seeded.actor, host: "127.0.0.1", port: sink.port, security: "none", username: "agent-mail" }));
    expect((await relayFor(db, seeded.project.id))!.password).toBe("s3cret-pass");
    await expect(tx((t) => saveRelay(t, { actor: seeded.actor, host: "bad host!", port: 0, security: "none" }))).rejects.toMatchObject({
      code: "validation_error",
    });
  });

  it("keeps the stored password only for the host and security it was saved with: another one needs it typed again", async () => {
    const db = await getDb();
    const before = (await db.select().from(mailRelays).where(eq(mailRelays.projectId, seeded.project.id)))[0];
    // Before: saved, and the next send logged in to attacker.example with the stored password.
    const moved = { actor: seeded.actor, host: "attacker.example", port: 25, security: "none" as const, username: "agent-mail" };
    await expect(tx((t) => saveRelay(t, moved))).rejects.toMatchObject({
      code: "validation_error",
      details: [{ field: "password", message: expect.stringContaining("enter the password again") }],
    });
    // A downgrade to plain text on the same host is refused the same way; the row is as it was.
    await expect(tx((t) => saveRelay(t, { ...moved, host: before.host, port: before.port, security: "tls" }))).rejects.toMatchObject({
      details: [{ field: "password" }],
    });
    expect((await db.select().from(mailRelays).where(eq(mailRelays.projectId, seeded.project.id)))[0]).toEqual(before);
    // The port and the username may change; a new password or none at all may go anywhere.
    await tx((t) => saveRelay(t, { ...moved, host: before.host, port: before.port + 1, security: before.security, username: "renamed" }));
    expect((await relayFor(db, seeded.project.id))!.password).toBe("s3cret-pass");
    await tx((t) => saveRelay(t, { ...moved, password: "new-pass" }));
    expect((await relayFor(db, seeded.project.id))!.password).toBe("new-pass");
    await tx((t) => saveRelay(t, { ...moved, host: "other.example", clearPassword: true }));
    expect(await relayView(db, { projectId: seeded.project.id })).toMatchObject({ host: "other.example", hasPassword: false });
    await tx((t) =>
      saveRelay(t, { actor: seeded.actor, host: "127.0.0.1", port: sink.port, security: "none", username: "agent-mail", password: "s3cret-pass" }),
    );
  });

  it("sends a test message through the relay, logging in with the stored credentials", async () => {
    const res = await tx((db) => testRelay(db, { actor: seeded.actor, to: "owner@example.com" }));
    expect(res.response).toMatch(/^250/);
    expect(sink.received.at(-1)!.to).toEqual(["owner@example.com"]);
    expect(sink.logins.at(-1)).toEqual({ username: "agent-mail", password: "s3cret-pass" });
    await expect(tx((db) => testRelay(db, { actor: seeded.actor, to: "not an address" }))).rejects.toMatchObject({ code: "validation_error" });
  });

  it("uses the project relay for email_send, and refuses outside mail again once it is removed", async () => {
    await tx((db) =>
      sendEmail(db, { actor: seeded.actor, to: ["x@example.net"], subject: "via project relay", text: "t", attachments: [], reply_to_inbox: true }),
    );
    await drainJobs();
    expect(sink.received.at(-1)!.to).toEqual(["x@example.net"]);
    await tx((db) => removeRelay(db, { actor: seeded.actor }));
    await expect(
      tx((db) => sendEmail(db, { actor: seeded.actor, to: ["x@example.net"], subject: "s", text: "t", attachments: [], reply_to_inbox: true })),
    ).rejects.toMatchObject({ code: "service_unavailable" });
    await expect(tx((db) => testRelay(db, { actor: seeded.actor, to: "owner@example.com" }))).rejects.toMatchObject({ code: "service_unavailable" });
  });
});

describe("outbound list", () => {
  it("pages through a batch whose messages share one timestamp without skipping any", async () => {
    const { actor, project } = await seedProject();
    const to = Array.from({ length: 25 }, (_, i) => `p${i}@brynth.localhost`);
    await tx((db) => sendEmail(db, { actor, to, subject: "paged", text: "t", attachments: [], reply_to_inbox: true }));
    const db = await getDb();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listOutbound(db, { projectId: project.id, cursor, limit: 10 });
      seen.push(...page.items.flatMap((m) => m.to));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen.sort()).toEqual([...to].sort());
    expect((await listOutbound(db, { projectId: project.id, status: "sent" })).items).toHaveLength(0);
    expect((await quotaUsage(db, project.id)).day.used).toBe(25);
  });
});
