import MailComposer from "nodemailer/lib/mail-composer";
import { dkimVerify } from "mailauth";
import { afterAll, beforeAll } from "vitest";
import { getDb } from "@/lib/db/client";
import type { Mailbox } from "@/lib/db/schema/mail";
import { resetEnvCache } from "@/lib/env";
import { dkimTxt, fakeResolver, startSink } from "@/lib/mail/__tests__/helpers";
import { ensureDefaultDomain } from "@/lib/mail/domains/default-domain";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { closeRelayTransports } from "@/lib/mail/outbound/relay-transport";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { projectWithKey } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";

/**
 * What an outbound message looks like at the relay: a relay sink, a project with a key and a mailbox (`ctx`, filled
 * in beforeAll), mail from an outsider received into that mailbox, and the bytes that arrived for a sent message.
 */
export function outboundSink() {
  const ctx = {} as { sink: Awaited<ReturnType<typeof startSink>>; p: Awaited<ReturnType<typeof projectWithKey>>; box: Mailbox };
  beforeAll(async () => {
    ctx.sink = await startSink();
    process.env.SMTP_RELAY_URL = ctx.sink.url;
    process.env.EMAIL_DAILY_LIMIT = "1000";
    resetEnvCache();
    ctx.p = await projectWithKey("Outbound MIME");
    ctx.box = await seedMailbox(ctx.p.project.id);
  });
  afterAll(async () => {
    closeRelayTransports();
    await ctx.sink.close();
    delete process.env.SMTP_RELAY_URL;
    delete process.env.EMAIL_DAILY_LIMIT;
    resetEnvCache();
  });
  return {
    ctx,
    /** The raw bytes the relay received for a sent message (`msg_…`), whose Message-ID starts with it. */
    arrived: (messageId: string) => {
      const got = ctx.sink.bodies.find((b) => b.raw.toString().includes(`<${messageId}@`));
      if (!got) throw new Error(`${messageId} did not reach the relay`);
      return got.raw;
    },
    /** Mail from an outsider received through the real pipeline into the mailbox (nodemailer options, or raw bytes). */
    inbound: async (mail: Record<string, unknown> | Buffer) => {
      const raw = Buffer.isBuffer(mail)
        ? mail
        : await new MailComposer({ from: "Ada <ada@example.org>", to: ctx.box.address, subject: "Orig", text: "orig text", ...mail }).compile().build();
      const [stored] = await receiveMessage(raw, { mailFrom: "ada@example.org", recipients: [ctx.box], remote: "local" });
      return stored.messageId;
    },
    /** mailauth's verdict on the first DKIM signature, against the default domain's published key. */
    dkim: async (raw: Buffer) => {
      const domain = await ensureDefaultDomain(await getDb());
      const v = await dkimVerify(raw, { resolver: fakeResolver(dkimTxt(domain)) });
      return v.results[0]?.status.result;
    },
  };
}

/** The longest line of a message, in bytes: RFC 5322 §2.1.1 allows 998. */
export const longestLine = (raw: Buffer) =>
  Math.max(
    ...raw
      .toString("latin1")
      .split("\r\n")
      .map((l) => l.length),
  );
