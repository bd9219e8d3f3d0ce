import { describe, expect, it } from "vitest";
import Stripe from "stripe";
import { sign as signGithub } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import { createHmac, randomBytes } from "node:crypto";
import { verifySignature, type VerifyInput } from "@/lib/sources/verify/verify-signature";

const stripe = new Stripe("sk_test_unused");
const enc = (s: string) => new TextEncoder().encode(s);
/** One fixed clock for signing and checking, so the tolerance edges are exact. */
const NOW = Math.floor(Date.now() / 1000);
const now = () => NOW;
const body = JSON.stringify({ id: "evt_1", type: "invoice.paid", data: { object: { amount: 1200 } } });

function check(v: Partial<VerifyInput> & Pick<VerifyInput, "verification" | "secrets" | "headers">, payload = body) {
  return verifySignature({ signatureHeader: null, body: enc(payload), nowS: NOW, ...v });
}

describe("stripe", () => {
  const secret = "whsec_test_secret_value";
  const header = (opts: { timestamp?: number; secret?: string; payload?: string } = {}) =>
    stripe.webhooks.generateTestHeaderString({ payload: opts.payload ?? body, secret: opts.secret ?? secret, timestamp: opts.timestamp });

  it("accepts a signature made by the stripe library", () => {
    expect(check({ verification: "stripe", secrets: [secret], headers: new Headers({ "stripe-signature": header() }) })).toEqual({ ok: true });
  });

  it("accepts several v1 values when one of them matches", () => {
    const good = header()
      .split(",")
      .find((p) => p.startsWith("v1="))!;
    const t = header().split(",")[0];
    const value = `${t},v1=${"0".repeat(64)},${good},v0=${"1".repeat(64)}`;
    expect(check({ verification: "stripe", secrets: [secret], headers: new Headers({ "stripe-signature": value }) }).ok).toBe(true);
  });

  it("rejects a wrong secret, a changed body and a missing header", () => {
    const h = new Headers({ "stripe-signature": header({ secret: "whsec_other" }) });
    expect(check({ verification: "stripe", secrets: [secret], headers: h }).ok).toBe(false);
    const tampered = new Headers({ "stripe-signature": header() });
    expect(check({ verification: "stripe", secrets: [secret], headers: tampered }, body.replace("1200", "9999")).ok).toBe(false);
    expect(check({ verification: "stripe", secrets: [secret], headers: new Headers() })).toMatchObject({ ok: false, reason: expect.stringMatching(/missing/) });
  });

  it("rejects timestamps outside 300 s in either direction and accepts the edges", () => {
    for (const [offset, ok] of [
      [-301, false],
      [301, false],
      [-300, true],
      [300, true],
    ] as const) {
      const h = new Headers({ "stripe-signature": header({ timestamp: now() + offset }) });
      expect(check({ verification: "stripe", secrets: [secret], headers: h }).ok, `offset ${offset}`).toBe(ok);
    }
  });

  it("rejects malformed and duplicated headers", () => {
    const good = header();
    for (const value of ["garbage", "t=,v1=", `t=abc,${good.split(",")[1]}`, good.replace(/v1=[0-9a-f]+/, "v1=xyz"), `${good}, ${good}`, "t=1"]) {
      expect(check({ verification: "stripe", secrets: [secret], headers: new Headers({ "stripe-signature": value }) }).ok, value).toBe(false);
    }
    const dup = new Headers();
    dup.append("stripe-signature", good);
    dup.append("stripe-signature", good);
    expect(check({ verification: "stripe", secrets: [secret], headers: dup }).ok).toBe(false);
  });

  it("accepts the previous secret during a rotation", () => {
    const h = new Headers({ "stripe-signature": header({ secret: "whsec_old_secret" }) });
    expect(check({ verification: "stripe", secrets: [secret, "whsec_old_secret"], headers: h }).ok).toBe(true);
  });
});

describe("github", () => {
  const secret = "It's a Secret to Everybody";
  it("accepts a signature made by @octokit/webhooks-methods", async () => {
    const h = new Headers({ "x-hub-signature-256": await signGithub(secret, body) });
    expect(check({ verification: "github", secrets: [secret], headers: h })).toEqual({ ok: true });
  });

  it("rejects a wrong secret, a changed body, malformed and duplicated headers", async () => {
    const sig = await signGithub(secret, body);
    expect(check({ verification: "github", secrets: ["other secret"], headers: new Headers({ "x-hub-signature-256": sig }) }).ok).toBe(false);
    expect(check({ verification: "github", secrets: [secret], headers: new Headers({ "x-hub-signature-256": sig }) }, `${body} `).ok).toBe(false);
    for (const value of ["sha1=abc", sig.slice(0, -2), sig.replace("sha256=", ""), `sha256=${"z".repeat(64)}`]) {
      expect(check({ verification: "github", secrets: [secret], headers: new Headers({ "x-hub-signature-256": value }) }).ok, value).toBe(false);
    }
    const dup = new Headers();
    dup.append("x-hub-signature-256", sig);
    dup.append("x-hub-signature-256", sig);
    expect(check({ verification: "github", secrets: [secret], headers: dup }).ok).toBe(false);
    expect(check({ verification: "github", secrets: [secret], headers: new Headers() }).ok).toBe(false);
  });
});

describe("hmac_sha256", () => {
  const secret = "shared-secret-123";
  const mac = (s = secret, payload = body) => createHmac("sha256", s).update(payload).digest();

  it("accepts hex, base64, base64url and a sha256= prefix in the default header", () => {
    for (const value of [mac().toString("hex"), mac().toString("base64"), mac().toString("base64url"), `sha256=${mac().toString("hex")}`]) {
      expect(check({ verification: "hmac_sha256", secrets: [secret], headers: new Headers({ "x-signature": value }) }).ok, value).toBe(true);
    }
  });

  it("reads a configured header and ignores the default one then", () => {
    const h = new Headers({ "x-acme-sig": mac().toString("hex") });
    expect(check({ verification: "hmac_sha256", secrets: [secret], headers: h, signatureHeader: "x-acme-sig" }).ok).toBe(true);
    const wrongHeader = new Headers({ "x-signature": mac().toString("hex") });
    expect(check({ verification: "hmac_sha256", secrets: [secret], headers: wrongHeader, signatureHeader: "x-acme-sig" }).ok).toBe(false);
  });

  it("rejects a wrong secret, malformed and duplicated values", () => {
    expect(check({ verification: "hmac_sha256", secrets: [secret], headers: new Headers({ "x-signature": mac("nope").toString("hex") }) }).ok).toBe(false);
    for (const value of ["not-a-signature", mac().toString("hex").slice(2), `${mac().toString("hex")}, ${mac().toString("hex")}`]) {
      expect(check({ verification: "hmac_sha256", secrets: [secret], headers: new Headers({ "x-signature": value }) }).ok, value).toBe(false);
    }
  });
});

describe("standard_webhooks", () => {
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const signed = (opts: { at?: Date; id?: string; key?: string } = {}) => {
    const id = opts.id ?? "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W";
    const at = opts.at ?? new Date(NOW * 1000);
    return new Headers({
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(opts.key ?? secret).sign(id, at, body),
    });
  };

  it("accepts a signature made by the standardwebhooks package", () => {
    expect(check({ verification: "standard_webhooks", secrets: [secret], headers: signed() })).toEqual({ ok: true });
  });

  it("accepts the svix-* headers Svix-hosted providers send (401 before), and a secret without whsec_", () => {
    const h = signed();
    const svix = new Headers({
      "svix-id": h.get("webhook-id")!,
      "svix-timestamp": h.get("webhook-timestamp")!,
      "svix-signature": h.get("webhook-signature")!,
    });
    expect(check({ verification: "standard_webhooks", secrets: [secret], headers: svix })).toEqual({ ok: true });
    // As Svix's verifier does, svix-* is read first: a forged webhook-id beside it changes nothing, a changed svix-id fails.
    svix.set("webhook-id", "msg_other");
    expect(check({ verification: "standard_webhooks", secrets: [secret], headers: svix }).ok).toBe(true);
    svix.set("svix-id", "msg_other");
    expect(check({ verification: "standard_webhooks", secrets: [secret], headers: svix }).ok).toBe(false);
    expect(check({ verification: "standard_webhooks", secrets: [secret.slice("whsec_".length)], headers: signed() })).toEqual({ ok: true });
    expect(check({ verification: "standard_webhooks", secrets: ["not base64!"], headers: signed() }).ok).toBe(false);
  });

  it("accepts one matching signature among several", () => {
    const h = signed();
    h.set("webhook-signature", `v1,${Buffer.alloc(32).toString("base64")} ${h.get("webhook-signature")}`);
    expect(check({ verification: "standard_webhooks", secrets: [secret], headers: h }).ok).toBe(true);
  });

  it("rejects old and future timestamps, another key, a changed id and missing headers", () => {
    expect(check({ verification: "standard_webhooks", secrets: [secret], headers: signed({ at: new Date((NOW - 301) * 1000) }) }).ok).toBe(false);
    expect(check({ verification: "standard_webhooks", secrets: [secret], headers: signed({ at: new Date((NOW + 301) * 1000) }) }).ok).toBe(false);
    const other = `whsec_${randomBytes(24).toString("base64")}`;
    expect(check({ verification: "standard_webhooks", secrets: [secret], headers: signed({ key: other }) }).ok).toBe(false);
    const h = signed();
    h.set("webhook-id", "msg_other");
    expect(check({ verification: "standard_webhooks", secrets: [secret], headers: h }).ok).toBe(false);
    const missing = signed();
    missing.delete("webhook-timestamp");
    expect(check({ verification: "standard_webhooks", secrets: [secret], headers: missing }).ok).toBe(false);
    const dup = signed();
    dup.append("webhook-timestamp", dup.get("webhook-timestamp")!);
    expect(check({ verification: "standard_webhooks", secrets: [secret], headers: dup }).ok).toBe(false);
  });
});

describe("none", () => {
  it("accepts anything", () => {
    expect(check({ verification: "none", secrets: [], headers: new Headers() }).ok).toBe(true);
  });
});
