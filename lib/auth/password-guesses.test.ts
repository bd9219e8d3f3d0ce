import { afterAll, beforeAll, expect, it } from "vitest";
import { authOptions } from "@/lib/auth/next-auth-options";
import { startApiServer } from "@/lib/testing/api-server";
import { envSettings } from "@/lib/testing/env-settings";
import { seedProject } from "@/lib/testing/seed";

/**
 * The owner's password is checked at two doors: the dashboard's sign-in form and HTTP Basic on /mcp and /api/v1.
 * Their allowances were counted apart, so one address guessed 2 x AUTH_FAILURES_PER_MINUTE times a minute (and ran
 * argon2id as often). One allowance per address now serves both (passwordGuesses).
 */
type Authorize = (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<unknown>;
const authorize = () => (authOptions().providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;
const env = envSettings("AUTH_FAILURES_");
const proxy = envSettings("TRUST_PROXY");
let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;
beforeAll(async () => {
  env.set({ AUTH_FAILURES_PER_MINUTE: "3" });
  proxy.set({ TRUST_PROXY: "1" });
  server = await startApiServer();
  seeded = await seedProject();
});
afterAll(async () => {
  await server.close();
  env.restore();
  proxy.restore();
});

it("wrong owner passwords from one address share one allowance across Basic auth and the sign-in form", async () => {
  const guesser = "203.0.113.90";
  const basic = (password: string) =>
    fetch(`${server.url}/api/v1/whoami`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${seeded.owner.email}:${password}`).toString("base64")}`,
        "x-brynth-project": seeded.project.id,
        "x-forwarded-for": guesser,
      },
    }).then((r) => r.status);
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push(await basic(`wrong password ${i}`));
  expect(statuses).toEqual([401, 401, 401, 429]);
  // The same address through the sign-in form: the allowance is spent already.
  const form = authorize()(
    { email: seeded.owner.email, password: "wrong password 9" },
    { headers: { "x-brynth-remote-address": "10.0.0.2", "x-forwarded-for": guesser } },
  );
  await expect(form).rejects.toMatchObject({ code: "rate_limited" });
});
