import { describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { getDb, getHandle } from "@/lib/db/client";
import { listen } from "@/lib/db/notify";

describe("listen", () => {
  it("tries the LISTEN again for the next subscriber after one failed, instead of failing every later one", async () => {
    // A LISTEN refused while the database was away (a restart) stayed cached as a rejected promise: every later
    // inbox_wait and approval wait on that instance failed with an internal error until the process restarted.
    const handle = await getHandle();
    const driver = (handle.kind === "postgres" ? handle.sql : handle.pglite) as { listen: (...args: unknown[]) => Promise<unknown> };
    const spy = vi.spyOn(driver, "listen").mockRejectedValueOnce(new Error("connection refused"));
    try {
      await expect(listen("test_relisten", () => {})).rejects.toThrow("connection refused");
      const got: string[] = [];
      const stop = await listen("test_relisten", (p) => got.push(p));
      try {
        await (await getDb()).execute(sql`select pg_notify('test_relisten', 'back')`);
        await expect.poll(() => got, { timeout: 5000 }).toEqual(["back"]);
      } finally {
        stop();
      }
    } finally {
      spy.mockRestore();
    }
  });
});
