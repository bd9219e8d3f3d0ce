import { beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { getDb } from "@/lib/db/client";
import type { AppError } from "@/lib/errors";
import { rotateSecretInput, rotateSourceSecret } from "@/lib/sources/rotate-source-secret";
import { findSourceByName } from "@/lib/sources/find-source";
import { receiveWebhook } from "@/lib/sources/receive-webhook";
import { sendTestEvent, TEST_EVENT_TYPE } from "@/lib/sources/send-test-event";
import { sourceActivity } from "@/lib/sources/source-activity";
import { seedProject } from "@/lib/testing/seed";
import { eventsOf, seedSource } from "@/lib/testing/events";

const stripe = new Stripe("sk_test_unused");
let p: Awaited<ReturnType<typeof seedProject>>;
beforeAll(async () => {
  p = await seedProject();
});

describe("dashboard operations on sources", () => {
  it("sends a signed test event through verification for every scheme", async () => {
    const db = await getDb();
    const configs = [
      { name: "t-stripe", verification: "stripe" as const, secret: "whsec_testing123" },
      { name: "t-github", verification: "github" as const, secret: "gh-secret-123" },
      { name: "t-hmac", verification: "hmac_sha256" as const, secret: "hmac-secret-1", signature_header: "x-my-sig", type_field: "meta.kind" },
      { name: "t-svix", verification: "standard_webhooks" as const, secret: `whsec_${randomBytes(24).toString("base64")}` },
      { name: "t-none", verification: "none" as const },
    ];
    for (const c of configs) {
      await seedSource(p.actor, c);
      const { id } = await db.transaction((tx) => sendTestEvent(tx, { actor: p.actor, name: c.name }));
      const [event] = await eventsOf(p.actor, { source: c.name });
      expect(event.id, c.name).toBe(id);
      expect(event.type, c.name).toBe(c.verification === "github" ? "ping" : TEST_EVENT_TYPE);
    }
    const activity = await sourceActivity(db, { projectId: p.project.id, names: configs.map((c) => c.name) });
    expect([...activity.values()].map((a) => a.pending)).toEqual([1, 1, 1, 1, 1]);
    expect([...activity.values()].every((a) => a.lastReceivedAt instanceof Date)).toBe(true);
  });

  it("rotates a secret: the new one verifies, the old one only during the grace period", async () => {
    const db = await getDb();
    await seedSource(p.actor, { name: "rot", verification: "stripe", secret: "whsec_old_secret" });
    const deliver = async (secret: string) => {
      const payload = JSON.stringify({ id: `evt_${randomBytes(6).toString("hex")}`, type: "rotation.check" });
      const source = await findSourceByName(db, p.project.id, "rot");
      const headers = new Headers({ "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret }), "content-type": "application/json" });
      return db
        .transaction((tx) => receiveWebhook(tx, { source, body: new TextEncoder().encode(payload), headers }))
        .then(() => "ok")
        .catch((err: AppError) => err.code);
    };
    await db.transaction((tx) => rotateSourceSecret(tx, { actor: p.actor, name: "rot", secret: "whsec_new_secret", grace_hours: 24 }));
    expect(await deliver("whsec_new_secret")).toBe("ok");
    expect(await deliver("whsec_old_secret")).toBe("ok");
    await db.transaction((tx) => rotateSourceSecret(tx, { actor: p.actor, name: "rot", secret: "whsec_newest_secret", grace_hours: 0 }));
    expect(await deliver("whsec_newest_secret")).toBe("ok");
    expect(await deliver("whsec_new_secret")).toBe("unauthorized");
  });

  it("refuses a new or rotated secret with a leading or trailing space or line break", async () => {
    const db = await getDb();
    const why = /secret: .*leading or trailing space or line break.*never match/;
    await seedSource(p.actor, { name: "rot-ws", verification: "github", secret: "gh-secret-123" });
    for (const bad of ["gh-secret-456\n", "gh-secret-456 ", "\ngh-secret-456"]) {
      await expect(db.transaction((tx) => rotateSourceSecret(tx, { actor: p.actor, name: "rot-ws", secret: bad, grace_hours: 0 }))).rejects.toMatchObject({
        code: "validation_error",
        message: expect.stringMatching(why),
      });
      // The dashboard's form parses with the same input schema.
      const parsed = rotateSecretInput.safeParse({ name: "rot-ws", secret: bad });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]).toMatchObject({ path: ["secret"], message: expect.stringMatching(/leading or trailing space or line break/) });
      await expect(seedSource(p.actor, { name: "add-ws", verification: "github", secret: bad })).rejects.toMatchObject({
        code: "validation_error",
        message: expect.stringMatching(why),
      });
    }
    await db.transaction((tx) => rotateSourceSecret(tx, { actor: p.actor, name: "rot-ws", secret: "gh-secret-456", grace_hours: 0 }));
  });

  it("refuses to rotate a source without verification", async () => {
    const db = await getDb();
    await seedSource(p.actor, { name: "plain", verification: "none" });
    await expect(
      db.transaction((tx) => rotateSourceSecret(tx, { actor: p.actor, name: "plain", secret: "whatever-123", grace_hours: 0 })),
    ).rejects.toMatchObject({ code: "validation_error" });
  });
});
