import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { projectAddress } from "@/lib/mail/project-address";
import { seedProject } from "@/lib/testing/seed";
import { fakeResolver } from "@/lib/mail/__tests__/helpers";
import { addMailbox } from "@/lib/mail/__tests__/mail-store-helpers";
import { SMTPConnection } from "@/lib/mail/__tests__/smtp-connection";

/**
 * The 100-recipient limit counts distinct mailboxes: an RCPT repeating one already accepted in the transaction (as
 * smtp-server keeps it, one envelope entry) takes no place of its own. Before, the listener's list grew by one per
 * RCPT, so after 100 repeats of one address a second, distinct recipient was refused 452 although the transaction
 * held a single mailbox (found by helper-114).
 */
let listener: SmtpListener;
let address: string;
let projectId: string;

beforeAll(async () => {
  const seeded = await seedProject({ name: "RCPT repeats" });
  projectId = seeded.project.id;
  address = await projectAddress(await getDb(), projectId);
  listener = await startSmtpListener({ port: 0, host: "127.0.0.1", resolver: fakeResolver() });
});
afterAll(async () => listener.close());

describe("RCPT repeats", () => {
  it("counts a repeated RCPT once towards the 100-recipient limit", async () => {
    const c = new SMTPConnection(listener.port);
    await c.open();
    await c.cmd("EHLO repeats.example");
    expect(await c.cmd("MAIL FROM:<a@sender.example>")).toMatch(/^250 /);
    for (let i = 0; i < 100; i++) expect(await c.cmd(`RCPT TO:<${i % 2 ? address.toUpperCase() : address}>`)).toMatch(/^250 /);
    const other = await addMailbox(projectId, "second");
    expect(await c.cmd(`RCPT TO:<${other.address}>`)).toMatch(/^250 /);
    await c.close();
  });
});
