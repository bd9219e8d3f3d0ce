import { expect, it } from "vitest";
import { authOptions } from "@/lib/auth/next-auth-options";
import { OWNER_PASSWORD, seedOwner } from "@/lib/testing/seed";
import { envSettings } from "@/lib/testing/env-settings";

type Authorize = (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<unknown>;

/** The dashboard's sign-in (next-auth's credentials provider) as Next calls it, with the headers server.ts stamps. */
const authorize = () => (authOptions().providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;
const behindProxy = (client: string) => ({ headers: { "x-brynth-remote-address": "10.0.0.2", "x-forwarded-for": client } });

it("behind TRUST_PROXY throttles wrong passwords per client, so one client's guesses do not lock the owner out everywhere", async () => {
  const proxyEnv = envSettings("TRUST_PROXY");
  proxyEnv.set({ TRUST_PROXY: "1" });
  try {
    const owner = await seedOwner();
    const wrong = { email: owner.email, password: "not the password at all" };
    for (let i = 0; i < 20; i++) expect(await authorize()(wrong, behindProxy(`192.0.2.${i}, 203.0.113.30`))).toBeNull();
    await expect(authorize()(wrong, behindProxy("203.0.113.30"))).rejects.toMatchObject({ code: "rate_limited" });
    // The owner, through the same proxy from another address, still signs in.
    const signedIn = await authorize()({ email: owner.email, password: OWNER_PASSWORD }, behindProxy("203.0.113.31"));
    expect(signedIn).toMatchObject({ id: owner.id });
  } finally {
    proxyEnv.restore();
  }
});
