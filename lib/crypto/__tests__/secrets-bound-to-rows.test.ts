import { createCipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { callbackSecret } from "@/lib/approvals/callbacks/callback-secret";
import { appSecret } from "@/lib/crypto/app-secret";
import { decryptSecret, UnreadableSecretError } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import { SECRETS_BOUND_UPGRADE } from "@/lib/crypto/upgrade-sealed-secrets";
import { getDb } from "@/lib/db/client";
import { migrateDb } from "@/lib/db/migrate";
import { approvalSettings } from "@/lib/db/schema/approvals";
import { sources } from "@/lib/db/schema/events";
import { mailRelays } from "@/lib/db/schema/mail";
import { dataUpgrades } from "@/lib/db/schema/upgrades";
import { relayFor } from "@/lib/mail/outbound/relay-config";
import { saveRelay } from "@/lib/mail/relay/save-relay";
import { sourceCache } from "@/lib/sources/find-source";
import { startApiServer } from "@/lib/testing/api-server";
import { seedSource } from "@/lib/testing/events";
import { seedProject } from "@/lib/testing/seed";

/**
 * Secrets at rest are bound to their table, row and column: one moved in SQL to another row is refused where it
 * lands, secrets sealed by the previous version (v1) are re-sealed once at start-up, and a v1 one pasted in later is
 * refused for good.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
let one: Awaited<ReturnType<typeof seedProject>>;
let two: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  server = await startApiServer();
  one = await seedProject({ name: "One" });
  two = await seedProject({ name: "Two" });
});
afterAll(() => server.close());

/** What encryptSecret wrote before this change (v1: AES-256-GCM without associated data), byte for byte. */
function sealV1(plain: string): string {
  const key = Buffer.from(hkdfSync("sha256", appSecret(), Buffer.alloc(0), "brynth:secret-box", 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

const deliver = (url: string, secret: string, body = JSON.stringify({ type: "test.ping", n: randomBytes(4).toString("hex") })) =>
  fetch(url, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", "x-signature": createHmac("sha256", secret).update(body).digest("hex") },
  });

const sealedOf = async (sourceId: string) => (await (await getDb()).select().from(sources).where(eq(sources.id, sourceId)))[0];

async function setSourceSecret(sourceId: string, sealed: string) {
  const db = await getDb();
  await db.update(sources).set({ secretEnc: sealed }).where(eq(sources.id, sourceId));
  sourceCache.invalidate(db);
}

/** Swaps a column's values between two rows, as someone with write access to the database could. */
async function swap(table: string, column: string, key: string, a: string, b: string) {
  const db = await getDb();
  await db.execute(
    sql.raw(
      `update ${table} set ${column} = case ${key} when '${a}' then (select ${column} from ${table} where ${key} = '${b}') else (select ${column} from ${table} where ${key} = '${a}') end where ${key} in ('${a}', '${b}')`,
    ),
  );
}

describe("a secret moved to another row", () => {
  it("leaves both webhook sources unable to verify, refused as unverifiable (401), never a 500", async () => {
    const a = await seedSource(one.actor, { name: "swap-a", verification: "hmac_sha256", secret: "secret-of-source-a" });
    const b = await seedSource(one.actor, { name: "swap-b", verification: "hmac_sha256", secret: "secret-of-source-b" });
    expect((await deliver(a.url!, "secret-of-source-a")).status).toBe(200);
    expect((await deliver(b.url!, "secret-of-source-b")).status).toBe(200);

    await swap("sources", "secret_enc", "id", a.id, b.id);
    sourceCache.invalidate(await getDb());

    // Signed with the secret that now sits in each row, or with the row's own: neither is accepted.
    for (const [url, secret] of [
      [a.url!, "secret-of-source-b"],
      [a.url!, "secret-of-source-a"],
      [b.url!, "secret-of-source-a"],
      [b.url!, "secret-of-source-b"],
    ]) {
      const res = await deliver(url, secret);
      expect(res.status).toBe(401);
      const { error } = await res.json();
      expect(error.code).toBe("unauthorized");
      expect(error.message).toMatch(/cannot be decrypted/);
    }
  });

  it("makes two projects' callback secrets unusable instead of signing with the other project's", async () => {
    const db = await getDb();
    const secretOne = await callbackSecret(db, one.project.id);
    const secretTwo = await callbackSecret(db, two.project.id);
    expect(secretOne).not.toBe(secretTwo);

    await swap("approval_settings", "callback_secret_enc", "project_id", one.project.id, two.project.id);

    for (const project of [one.project.id, two.project.id]) {
      const err = await callbackSecret(db, project).catch((e) => e);
      expect(err).toMatchObject({ code: "service_unavailable" });
      expect(err.message).toMatch(/callback signing secret cannot be used/);
    }
  });

  it("makes two projects' relay passwords unusable instead of logging in with the other project's", async () => {
    const db = await getDb();
    await saveRelay(db, { actor: one.actor, host: "relay.example.com", port: 587, security: "starttls", username: "one", password: "password-one" });
    await saveRelay(db, { actor: two.actor, host: "relay.example.com", port: 587, security: "starttls", username: "two", password: "password-two" });
    expect((await relayFor(db, one.project.id))!.password).toBe("password-one");

    await swap("mail_relays", "password_enc", "project_id", one.project.id, two.project.id);

    for (const project of [one.project.id, two.project.id]) {
      const err = await relayFor(db, project).catch((e) => e);
      expect(err).toMatchObject({ code: "service_unavailable" });
      expect(err.message).toMatch(/relay's stored password cannot be used/);
    }
  });

  it("is refused when moved between the columns of one row", async () => {
    const db = await getDb();
    const [row] = await db.select().from(approvalSettings).where(eq(approvalSettings.projectId, two.project.id));
    const [relay] = await db.select().from(mailRelays).where(eq(mailRelays.projectId, two.project.id));
    expect(() => decryptSecret(row.callbackSecretEnc!, secretSlot(approvalSettings.telegramTokenEnc, two.project.id))).toThrow(UnreadableSecretError);
    expect(() => decryptSecret(relay.passwordEnc!, secretSlot(sources.secretEnc, two.project.id))).toThrow(UnreadableSecretError);
  });
});

describe("secrets sealed by the previous version (v1)", () => {
  it("are re-sealed bound to their row at start-up and keep working", async () => {
    const db = await getDb();
    const src = await seedSource(two.actor, { name: "legacy", verification: "hmac_sha256", secret: "legacy-secret" });
    await setSourceSecret(src.id, sealV1("legacy-secret"));
    await saveRelay(db, { actor: two.actor, host: "relay.example.com", port: 587, security: "starttls", password: "legacy-password" });
    await db
      .update(mailRelays)
      .set({ passwordEnc: sealV1("legacy-password") })
      .where(eq(mailRelays.projectId, two.project.id));
    await db
      .update(approvalSettings)
      .set({ callbackSecretEnc: sealV1("whsec_bGVnYWN5") })
      .where(eq(approvalSettings.projectId, two.project.id));
    // A database the previous version left: the upgrade has not run on it.
    await db.delete(dataUpgrades).where(eq(dataUpgrades.name, SECRETS_BOUND_UPGRADE));

    // Two instances starting together: one upgrade, and neither overwrites the other's work.
    await Promise.all([migrateDb(), migrateDb()]);
    sourceCache.invalidate(db);

    expect((await sealedOf(src.id)).secretEnc).toMatch(/^v2\./);
    expect((await deliver(src.url!, "legacy-secret")).status).toBe(200);
    expect((await relayFor(db, two.project.id))!.password).toBe("legacy-password");
    expect(await callbackSecret(db, two.project.id)).toBe("whsec_bGVnYWN5");
    const [done] = await db.select().from(dataUpgrades).where(eq(dataUpgrades.name, SECRETS_BOUND_UPGRADE));
    expect(done).toBeDefined();
  });

  it("are refused once the upgrade has run, even after another start-up", async () => {
    const db = await getDb();
    const src = await seedSource(two.actor, { name: "pasted", verification: "hmac_sha256", secret: "pasted-secret" });
    // A v1 ciphertext of the right secret, e.g. from an old backup: it names no row, so it could come from any.
    await setSourceSecret(src.id, sealV1("pasted-secret"));

    const res = await deliver(src.url!, "pasted-secret");
    expect(res.status).toBe(401);
    expect((await res.json()).error.message).toMatch(/cannot be decrypted/);
    expect(() => decryptSecret(sealV1("pasted-secret"), secretSlot(sources.secretEnc, src.id))).toThrow(/old v1 format/);

    // The one-time upgrade does not run again, so it never binds a pasted v1 secret to the row it was pasted into.
    await migrateDb();
    sourceCache.invalidate(db);
    expect((await sealedOf(src.id)).secretEnc).toMatch(/^v1\./);
    expect((await deliver(src.url!, "pasted-secret")).status).toBe(401);
  });
});
