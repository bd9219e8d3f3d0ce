import { describe, expect, it } from "vitest";
import { ownerBasic } from "@/lib/owner-api/__tests__/owner-client";
import { seedProject } from "@/lib/testing/seed";
import { useTwoInstances } from "@/lib/testing/spawn-instance";

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");
/** Well under the 10 s after which an instance reads the setting again anyway: only the NOTIFY can be this quick. */
const PROPAGATION = { timeout: 5000, interval: 25 };

const issuer = async (url: string) => ((await (await fetch(`${url}/.well-known/oauth-authorization-server`)).json()) as { issuer: string }).issuer;

// Instances share state only through Postgres; PGlite is single-process by design (data-dir lock).
describe.runIf(onPostgres)("Settings → Remote access on two instances", () => {
  const instances = useTwoInstances();

  it("a public URL saved on one instance is the OAuth issuer on the other at once, and so is its removal", async () => {
    const { project } = await seedProject({ name: "Remote access, two instances" });
    // B has read the setting (nothing saved: its own PUBLIC_URL) and listens for changes.
    expect(await issuer(instances.b.url)).toBe(instances.b.url);
    await expect.poll(() => issuer(instances.b.url), PROPAGATION).toBe(instances.b.url);
    const put = (body: unknown) =>
      fetch(`${instances.a.url}/api/v1/owner/settings/remote-access`, {
        method: "PUT",
        headers: { authorization: ownerBasic, "content-type": "application/json", "x-brynth-project": project.id },
        body: JSON.stringify(body),
      });
    expect((await put({ public_url: "https://brynth.example.test", allowed_origins: [] })).status).toBe(200);
    expect(await issuer(instances.a.url)).toBe("https://brynth.example.test");
    await expect.poll(() => issuer(instances.b.url), PROPAGATION).toBe("https://brynth.example.test");
    expect((await put({ public_url: null, allowed_origins: [] })).status).toBe(200);
    await expect.poll(() => issuer(instances.b.url), PROPAGATION).toBe(instances.b.url);
  });
});
