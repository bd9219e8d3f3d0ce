import { createServer } from "node:net";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { toErrorBody } from "@/lib/errors";

/** Real driver errors, rendered: an unreachable or restarting database is 503 with Retry-After, not a 500. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

const expectUnavailable = (err: unknown) => {
  const { status, headers, body } = toErrorBody(err);
  expect(status).toBe(503);
  expect(headers).toMatchObject({ "Retry-After": "5" });
  expect(body).toMatchObject({ code: "service_unavailable", message: expect.stringContaining("database") });
};

describe("a database that cannot be reached", () => {
  it("renders a refused connection as 503 service_unavailable with Retry-After", async () => {
    const sql = postgres(`postgres://postgres@127.0.0.1:${await freePort()}/postgres`, { max: 1, connect_timeout: 2 });
    const err = await sql`select 1`.catch((e: unknown) => e);
    await sql.end({ timeout: 1 });
    expectUnavailable(err);
  });

  it.runIf(process.env.DATABASE_URL?.startsWith("postgres"))("renders a backend ended by the server (as in a restart) the same way", async () => {
    const victim = postgres(process.env.DATABASE_URL!, { max: 1 });
    const killer = postgres(process.env.DATABASE_URL!, { max: 1 });
    try {
      const [{ pid }] = await victim`select pg_backend_pid() as pid`;
      const running = victim`select pg_sleep(5)`.catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 200));
      await killer`select pg_terminate_backend(${pid})`;
      const err = await running;
      // postgres.js reports the server's 57P01 or, when the socket closes first, its own CONNECTION_CLOSED.
      expect(["57P01", "CONNECTION_CLOSED"]).toContain((err as { code?: string }).code);
      expectUnavailable(err);
    } finally {
      await victim.end({ timeout: 1 });
      await killer.end({ timeout: 1 });
    }
  });

  it("leaves other errors a 500", () => {
    expect(toErrorBody(Object.assign(new Error("duplicate key"), { code: "23505" })).status).toBe(500);
  });
});
