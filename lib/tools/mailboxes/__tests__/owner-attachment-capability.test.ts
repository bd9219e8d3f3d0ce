import { afterAll, beforeAll, expect, it } from "vitest";
import { encode } from "next-auth/jwt";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { getDb } from "@/lib/db/client";
import { nextAuthSecret } from "@/lib/auth/auth-secret";
import { startOwnerSession } from "@/lib/owners/owner-sessions";
import { endOwnerSession, END_SESSION_OP } from "@/lib/owners/end-owner-session";
import { ledgeredTransaction } from "@/lib/ledger/ledgered-transaction";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";
import { seedMailbox, seedReceivedMail } from "@/lib/testing/mail-fixture";

/**
 * get_attachment's capability "rechecks the issuer's current grant and activity" (mailboxes spec). A key's link
 * answers 410 once the key is revoked; the owner's, asked for with the dashboard session's cookie, served the bytes
 * after that session ended (sign-out, Settings → revoke), since its claim named no issuer. It names the session now.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer();
});
afterAll(async () => {
  await server.close();
});

it("an owner's get_attachment link stops working once the owner session that asked for it has ended", async () => {
  const { project, owner, actor } = await seedProject();
  const mail = await seedReceivedMail(project.id, (await seedMailbox(project.id)).id);
  const db = await getDb();
  const session = await startOwnerSession(db, { ownerId: owner.id, userAgent: "test", ip: "127.0.0.1" });
  const token = await encode({ token: { sid: session.id, sub: owner.id }, secret: nextAuthSecret() });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { cookie: `next-auth.session-token=${token}`, origin: server.url, "x-brynth-project": project.id } },
  });
  const client = new Client({ name: "owner", version: "1.0.0" });
  await client.connect(transport);
  const res = await client.callTool({ name: "get_attachment", arguments: { threadId: mail.thread, attachmentId: mail.attachment } });
  expect(res.isError, JSON.stringify(res.content)).toBeFalsy();
  const url = (res.structuredContent as { download_url: string }).download_url;
  expect((await fetch(url)).status).toBe(200); // served while the session is live
  await client.close().catch(() => {});

  await ledgeredTransaction(db, { actor, op: END_SESSION_OP, input: { sessionId: session.id } }, (tx, entry) => {
    entry.subject = session.id;
    return endOwnerSession(tx, { actor, sessionId: session.id });
  });
  expect((await fetch(url)).status).toBe(410);
});
