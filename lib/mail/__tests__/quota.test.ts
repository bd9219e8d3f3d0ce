import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { getDb, getHandle } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { resetEnvCache } from "@/lib/env";
import { quotaUsage } from "@/lib/mail/outbound/reserve-quota";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";
import { restCall } from "@/lib/tools/events/__tests__/tool-client";

/** email_send's limits: per project, per UTC day and month, exact under concurrency. */
let server: Awaited<ReturnType<typeof startApiServer>>;

beforeAll(async () => {
  server = await startApiServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  delete process.env.EMAIL_DAILY_LIMIT;
  delete process.env.EMAIL_MONTHLY_LIMIT;
  resetEnvCache();
});

const send = (secret: string, to: string[]) => restCall(server.url, secret, "POST", "/emails", { to, subject: "Hi", text: "Hello" });
const messagesOf = async (projectId: string) =>
  (await (await getDb()).select({ n: count() }).from(mailMessages).where(eq(mailMessages.projectId, projectId)))[0].n;
const rcpts = (n: number) => Array.from({ length: n }, (_, i) => `r${i}@brynth.localhost`);

describe("email_send quotas", () => {
  it("counts messages (one per recipient) against the day and refuses what would go over", async () => {
    process.env.EMAIL_DAILY_LIMIT = "3";
    resetEnvCache();
    const { secret, project } = await seedProject();
    expect((await send(secret, rcpts(2))).status).toBe(200);
    const over = await send(secret, rcpts(2));
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe("QUOTA_EXCEEDED");
    expect(over.body.error.fix).toContain("00:00 UTC");
    expect((await send(secret, rcpts(1))).status).toBe(200);
    expect((await send(secret, rcpts(1))).body.error.code).toBe("QUOTA_EXCEEDED");
    expect(await messagesOf(project.id)).toBe(3);
    expect(await quotaUsage(await getDb(), project.id)).toMatchObject({ day: { used: 3, limit: 3 } });
  });

  it("applies the monthly limit too, and each project has its own", async () => {
    process.env.EMAIL_MONTHLY_LIMIT = "2";
    resetEnvCache();
    const a = await seedProject();
    const b = await seedProject();
    expect((await send(a.secret, rcpts(2))).status).toBe(200);
    const over = await send(a.secret, rcpts(1));
    expect(over.body.error.code).toBe("QUOTA_EXCEEDED");
    expect(over.body.error.message).toContain("month");
    expect((await send(b.secret, rcpts(2))).status).toBe(200);
  });

  it("accepts exactly 50 of 60 simultaneous single-recipient sends (PostgreSQL)", async () => {
    if ((await getHandle()).kind !== "postgres") return; // PGlite runs one statement at a time: no real race
    const { secret, project } = await seedProject();
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => send(secret, [`race${i}@brynth.localhost`])));
    const ok = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 429 && r.body.error.code === "QUOTA_EXCEEDED").length;
    expect(ok).toBe(50);
    expect(refused).toBe(10);
    expect(await messagesOf(project.id)).toBe(50);
    expect((await quotaUsage(await getDb(), project.id)).day.used).toBe(50);
  });
});
