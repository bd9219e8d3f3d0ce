import { afterEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { commitInbound } from "@/lib/mail/inbound/commit-batcher";
import { envSettings } from "@/lib/testing/env-settings";

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");
const smtpEnv = envSettings("SMTP_");
afterEach(() => smtpEnv.restore());

describe("inbound commits", () => {
  // PGlite runs one statement at a time and times none out; the listener's own deadline covers it there.
  it.runIf(onPostgres)("end a statement that outlasts SMTP_STORE_TIMEOUT_MS, so a stuck commit frees its connection", async () => {
    smtpEnv.set({ SMTP_STORE_TIMEOUT_MS: "1000" });
    const err = await commitInbound((tx) => tx.execute(sql`select pg_sleep(20)`)).then(
      () => null,
      (e: Error) => e,
    );
    // drizzle names the query and keeps PostgreSQL's error as the cause.
    expect((err?.cause as Error | undefined)?.message).toMatch(/statement timeout/);
  });

  it("never starts a work whose caller stopped waiting", async () => {
    const gaveUp = new AbortController();
    gaveUp.abort(new Error("answered 451"));
    let ran = false;
    await expect(
      commitInbound(
        async () => {
          ran = true;
        },
        { signal: gaveUp.signal },
      ),
    ).rejects.toThrow("answered 451");
    expect(ran).toBe(false);
  });
});
