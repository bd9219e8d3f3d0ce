import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { kvEntries } from "@/lib/db/schema/disk";
import { AppError } from "@/lib/errors";
import { digest } from "@/lib/ledger/canonical";
import { runOwnerAction } from "@/lib/auth/owner-action";
import type { OwnerContext } from "@/lib/auth/current-owner";
import { setKey } from "@/lib/disk/set-key";
import { seedProject } from "@/lib/testing/seed";
import { toolOpOf } from "@/lib/tools/registry";

// The owner action client is a ledger pipeline: the action declares its op, names its subject, and the entry is
// written with its change — or neither is, when the action fails.
async function owner(): Promise<OwnerContext> {
  const s = await seedProject();
  return { owner: s.owner, sessionId: "ses_test", project: s.project, projects: [s.project], actor: s.actor };
}

const entriesOf = async (projectId: string, op: string) =>
  (await getDb())
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.projectId, projectId), eq(ledgerEntries.op, op)));

const schema = z.object({ key: z.string().min(1), secret: z.string().optional() });

describe("owner actions", () => {
  it("write the entry of the op they declare, with the subject the action names and the tool's op when they mirror one", async () => {
    const ctx = await owner();
    const op = toolOpOf("kv_set");
    const res = await runOwnerAction(
      ctx,
      schema,
      async (c, input) => {
        c.subject = input.key;
        return setKey(c.db, { actor: c.actor, key: input.key, value: 1 });
      },
      { op, input: ({ secret: _secret, ...rest }) => rest },
      { key: "k1", secret: "hunter2" },
    );
    expect(res.ok).toBe(true);
    const [entry] = await entriesOf(ctx.project.id, op);
    expect(entry).toMatchObject({ op: "kv.set", subject: "k1", actorType: "owner", inputDigest: digest({ key: "k1" }) });
    expect(entry.outputDigest).toMatch(/^sha256:/);
  });

  it("write nothing, neither the change nor the entry, when the action fails or its input is refused", async () => {
    const ctx = await owner();
    const failed = await runOwnerAction(
      ctx,
      schema,
      async (c, input) => {
        await setKey(c.db, { actor: c.actor, key: input.key, value: 2 });
        throw new AppError("CONFLICT", "No.");
      },
      { op: "test.fail" },
      { key: "k2" },
    );
    expect(failed).toEqual({ ok: false, error: "No." });
    const refused = await runOwnerAction(ctx, schema, async () => "never", { op: "test.fail" }, { key: "" });
    expect(refused.ok === false && refused.fieldErrors?.key).toBeTruthy();
    expect(await entriesOf(ctx.project.id, "test.fail")).toEqual([]);
    const db = await getDb();
    expect(
      await db
        .select()
        .from(kvEntries)
        .where(and(eq(kvEntries.projectId, ctx.project.id), eq(kvEntries.key, "k2"))),
    ).toEqual([]);
  });

  it("refuse text the database cannot store on its field, running nothing (a NUL failed the query; a lone surrogate became U+FFFD)", async () => {
    const ctx = await owner();
    let ran = false;
    for (const key of ["a\u0000b", "a\ud800b"]) {
      const res = await runOwnerAction(ctx, schema, async () => void (ran = true), { op: "test.unstorable" }, { key });
      expect(res).toMatchObject({ ok: false, fieldErrors: { key: expect.stringMatching(/^Must not contain a (NUL character|lone surrogate)/) } });
    }
    expect(ran).toBe(false);
    // A record's __proto__ key, read in the input as sent: the parsed record has lost it (a prototype set).
    const record = z.object({ headers: z.record(z.string(), z.string()) });
    const proto = await runOwnerAction(
      ctx,
      record,
      async () => void (ran = true),
      { op: "test.unstorable" },
      JSON.parse('{"headers":{"__proto__":"v","x-a":"b"}}'),
    );
    expect(proto).toMatchObject({ ok: false, fieldErrors: { "headers.__proto__": expect.stringContaining("__proto__") } });
    expect(ran).toBe(false);
    expect(await entriesOf(ctx.project.id, "test.unstorable")).toEqual([]);
  });

  it("wait on the outside world before their transaction: its answer reaches the action, its refusal is the action's error", async () => {
    const ctx = await owner();
    const db = await getDb();
    // On PostgreSQL: the prepare step's session has no transaction open (PGlite has no pg_stat_activity's xact_start).
    const open = process.env.DATABASE_URL?.startsWith("postgres")
      ? async () =>
          (
            await db.execute<{ n: number }>(
              "select count(*)::int as n from pg_stat_activity where datname = current_database() and xact_start is not null and pid <> pg_backend_pid()",
            )
          )[0].n
      : async () => 0;
    let openWhilePreparing = -1;
    const prepare = async (_c: unknown, input: { key: string }) => {
      openWhilePreparing = await open();
      return `looked up ${input.key}`;
    };
    const res = await runOwnerAction(ctx, schema, async (c) => c.prepared, { op: "test.prepared" }, { key: "k3" }, prepare);
    expect(res).toEqual({ ok: true, data: "looked up k3" });
    expect(openWhilePreparing).toBe(0);
    expect(await entriesOf(ctx.project.id, "test.prepared")).toHaveLength(1);

    let ran = false;
    const refuse = async () => {
      throw new AppError("validation_error", "key: refused by the outside world.", { details: [{ field: "key", message: "Refused" }] });
    };
    const refused = await runOwnerAction(ctx, schema, async () => void (ran = true), { op: "test.prepared" }, { key: "k4" }, refuse);
    expect(refused).toMatchObject({ ok: false, fieldErrors: { key: "Refused." } });
    expect(ran).toBe(false);
    expect(await entriesOf(ctx.project.id, "test.prepared")).toHaveLength(1);
  });

  it("that declare no op change nothing in the ledger", async () => {
    const ctx = await owner();
    const before = await (await getDb()).select().from(ledgerEntries).where(eq(ledgerEntries.projectId, ctx.project.id));
    const res = await runOwnerAction(ctx, schema, async () => "read", undefined, { key: "x" });
    expect(res).toEqual({ ok: true, data: "read" });
    const after = await (await getDb()).select().from(ledgerEntries).where(eq(ledgerEntries.projectId, ctx.project.id));
    expect(after).toHaveLength(before.length);
  });
});
