import { afterEach, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { approvalsHarness, ok } from "@/lib/approvals/__tests__/helpers";
import { addMailbox } from "@/lib/mail/__tests__/mail-store-helpers";

/**
 * Tools that wait (`transaction: false`) commit their work before their ledger entry is written. When that INSERT
 * failed, the caller was told 503 "retry in a few seconds" about work already done, and the retry did it again: a
 * second email, a second request to a person, an approval used up with no link given (found by helper-108).
 * The fault: a trigger on ledger_entries that raises what a statement_timeout raises, for one op, `times` times (a
 * sequence counts, as it is not rolled back with the failed statement).
 */
async function failEntries(op: string | null, times = 1) {
  const db = await getDb();
  await query(db, sql.raw("drop trigger if exists fail_entry on ledger_entries"));
  if (!op) return;
  await query(db, sql.raw("drop sequence if exists fail_entry_seq"));
  await query(db, sql.raw("create sequence fail_entry_seq"));
  await query(
    db,
    sql.raw(`create or replace function fail_entry() returns trigger language plpgsql as $$
      begin
        if new.op = '${op}' and nextval('fail_entry_seq') <= ${times} then
          raise exception 'canceling statement due to statement timeout' using errcode = '57014';
        end if;
        return new;
      end $$`),
  );
  await query(db, sql.raw("create trigger fail_entry before insert on ledger_entries for each row execute function fail_entry()"));
}

const { h, call, decide, setPolicy } = approvalsHarness();
const count = async (text: string) => Number((await query<{ n: number }>(await getDb(), sql.raw(text)))[0].n);
const entries = (op: string) => count(`select count(*) as n from ledger_entries where project_id = '${h.seeded.project.id}' and op = '${op}'`);

afterEach(() => failEntries(null));

describe("a waiting tool whose work committed", () => {
  it("email_send answers what it queued when its entry fails once, and ledgers it on the retry of the entry", async () => {
    const mbx = await addMailbox(h.seeded.project.id, "once");
    await failEntries("email.send");
    ok(await call("email_send", { to: [mbx.address], subject: "Invoice 41", text: "pay", wait_seconds: 0 }));
    expect(
      await count(`select count(*) as n from mail_messages where project_id = '${h.seeded.project.id}' and subject = 'Invoice 41' and direction = 'outbound'`),
    ).toBe(1);
    expect(await entries("email.send")).toBe(1);
  });

  it("email_send answers what it queued even when the entry cannot be written, and logs the loss", async () => {
    const mbx = await addMailbox(h.seeded.project.id, "never");
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const before = await entries("email.send");
    await failEntries("email.send", 100);
    ok(await call("email_send", { to: [mbx.address], subject: "Invoice 42", text: "pay", wait_seconds: 0 }));
    expect(
      await count(`select count(*) as n from mail_messages where project_id = '${h.seeded.project.id}' and subject = 'Invoice 42' and direction = 'outbound'`),
    ).toBe(1);
    expect(await entries("email.send")).toBe(before);
    expect(logged).toHaveBeenCalledWith(expect.stringContaining("email_send: its work committed but its ledger entry could not be written"), expect.anything());
    logged.mockRestore();
  });

  it("ask_approval returns the request it made", async () => {
    await failEntries("ask.approval");
    const asked = ok(await call("ask_approval", { action: "db.drop", summary: "Drop it?", wait_seconds: 0 }));
    expect(await count(`select count(*) as n from approval_requests where project_id = '${h.seeded.project.id}' and summary = 'Drop it?'`)).toBe(1);
    expect(asked.request_id).toMatch(/^req_/);
  });

  it("file_url gives the link its approval was spent on", async () => {
    ok(await call("file_put", { path: "r/q.pdf", content_base64: Buffer.from("%PDF").toString("base64"), content_type: "application/pdf" }));
    await setPolicy([{ id: "links-need-ok", tool: "file_url", effect: "require_approval" }]);
    const asked = ok(await call("file_url", { path: "r/q.pdf", expires_in: 600, wait_seconds: 0 }));
    await decide(asked.request_id as string, { outcome: "approve" });
    await failEntries("file.url");
    const link = ok(await call("file_url", { path: "r/q.pdf", expires_in: 600, approval: asked.request_id, wait_seconds: 0 }));
    expect(link.url).toMatch(/^http/);
    expect(await count(`select count(*) as n from disk_links where project_id = '${h.seeded.project.id}' and revoked_at is null`)).toBe(1);
  });
});
