import postgres from "postgres";
import { afterAll, beforeAll, expect, it } from "vitest";
import { channelsTurn } from "@/lib/channels/channels-turn";
import { startApiServer } from "@/lib/testing/api-server";
import { envSettings } from "@/lib/testing/env-settings";
import { seedKey, seedProject } from "@/lib/testing/seed";

/**
 * KEY_MAX_CONCURRENT_CALLS held every tool but those that may wait (ask_approval, email_send, file_url, policy_set…),
 * even when they did not wait (`wait_seconds: 0`) and while they wrote, each on a pooled connection: one key's burst
 * of them took as many connections as it liked. Every call now holds a slot, and a wait gives it back as it starts.
 */
const limits = envSettings("KEY_MAX_CONCURRENT_CALLS");
let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;
let secret: string;
const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");

beforeAll(async () => {
  limits.set({ KEY_MAX_CONCURRENT_CALLS: "1" });
  server = await startApiServer();
  seeded = await seedProject();
  secret = (await seedKey(seeded.project.id, ["approvals"], "burst")).secret;
});
afterAll(async () => {
  await server.close();
  limits.restore();
});

async function mostWaiting(path: string, body: (i: number) => unknown): Promise<number> {
  const locker = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  const watcher = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  let unlock = () => {};
  const locked = new Promise<void>((ready) => {
    void locker.begin(async (tx) => {
      // The project's channel turn: a new request shares it (create-request.ts), channel_add takes it.
      await tx`select pg_advisory_xact_lock(hashtextextended(${channelsTurn(seeded.project.id)}, 0))`;
      ready();
      await new Promise<void>((r) => (unlock = r));
    });
  });
  await locked;
  const call = (i: number) =>
    fetch(`${server.url}/api/v1${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify(body(i)),
    });
  let most = 0;
  const calls = Array.from({ length: 5 }, (_, i) => call(i));
  try {
    for (let i = 0; i < 60 && most < 5; i++) {
      const [{ n }] = await watcher`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`;
      most = Math.max(most, n);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    unlock();
    await Promise.all(calls.map((c) => c.then((r) => r.text()).catch(() => {})));
    await locker.end();
    await watcher.end();
  }
  return most;
}

it.runIf(onPostgres)("control: channel_add (not a waiting tool) is held to the cap", async () => {
  expect(await mostWaiting("/channels", (i) => ({ kind: "email", address: `c${i}@example.org` }))).toBe(1);
});

it.runIf(onPostgres)("one key's non-waiting ask_approval calls hold at most KEY_MAX_CONCURRENT_CALLS connections", async () => {
  expect(await mostWaiting("/approvals", (i) => ({ action: "refund", summary: `Refund ${i}?`, wait_seconds: 0 }))).toBeLessThanOrEqual(1);
});

it("gives a waiting call's slot back while it waits: the key's next call runs meanwhile", async () => {
  const stop = new AbortController();
  let answered = false;
  const waiting = fetch(`${server.url}/api/v1/approvals`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify({ action: "refund", summary: "Waits", wait_seconds: 60 }),
    signal: stop.signal,
  })
    .then(() => void (answered = true))
    .catch(() => {});
  // With its one slot held by the wait, this call would queue behind it for a minute.
  const whoami = await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${secret}` } });
  expect(whoami.status).toBe(200);
  expect(answered).toBe(false);
  stop.abort();
  await waiting;
});
