import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { call, outcomes } from "./http-call";

/** Attempts per delivery: a provider resends an unanswered delivery with the same webhook-id. */
const ATTEMPTS = 4;

/**
 * `senders` providers POSTing Standard Webhooks deliveries to `hookUrl` until `until()` says stop. Each attempt is
 * signed afresh (new timestamp, same webhook-id), as providers do. `acknowledged` maps each webhook-id answered 2xx
 * to the event id the answer named; a delivery never answered 2xx is not counted as delivered.
 */
export async function sendWebhooks(opts: { hookUrl: string; secret: string; senders: number; until: () => boolean }) {
  const signer = new Webhook(opts.secret);
  const acknowledged = new Map<string, string>();
  const answers = outcomes();
  const tally = { deliveries: 0, resent: 0, duplicate_answers: 0, given_up: 0 };
  const run = randomBytes(4).toString("hex");
  let n = 0;
  const deliver = async () => {
    const id = `msg_chaos_${run}_${n++}`;
    const body = JSON.stringify({ type: "chaos.delivery", id, sent_at: new Date().toISOString() });
    tally.deliveries++;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      if (attempt > 1) {
        tally.resent++;
        await new Promise((r) => setTimeout(r, 250 * attempt));
      }
      const at = new Date();
      const headers = { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signer.sign(id, at, body) };
      const res = await call("POST", opts.hookUrl, { raw: body, headers: { ...headers, "content-type": "application/json" } });
      answers.add(res);
      if (res.status >= 200 && res.status < 300) {
        if (res.body.duplicate) tally.duplicate_answers++;
        acknowledged.set(id, res.body.event_id);
        return;
      }
    }
    tally.given_up++;
  };
  await Promise.all(
    Array.from({ length: opts.senders }, async () => {
      while (!opts.until()) await deliver();
    }),
  );
  return { acknowledged, tally, answers: answers.counts };
}
