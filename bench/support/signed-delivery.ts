import { createHmac, randomBytes } from "node:crypto";

/** A Stripe-sized webhook delivery (~700 bytes), unique each time, with its hex HMAC-SHA256 under `secret`. */
export function signedDelivery(n: number, secret: string) {
  const body = JSON.stringify({
    id: `evt_${n}_${randomBytes(6).toString("hex")}`,
    type: "invoice.paid",
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: `in_${n}`,
        amount_due: 1200,
        currency: "eur",
        customer: "cus_123",
        lines: [{ amount: 1200, description: "Pro plan" }],
        metadata: { order: String(n), note: "x".repeat(400) },
      },
    },
  });
  return { body, signature: createHmac("sha256", secret).update(body).digest("hex") };
}
