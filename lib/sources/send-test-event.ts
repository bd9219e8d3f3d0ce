import { randomUUID } from "node:crypto";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { Source } from "@/lib/db/schema/events";
import { randomBase62 } from "@/lib/ids";
import { findSourceByName } from "@/lib/sources/find-source";
import { receiveWebhook, sourceSecrets } from "@/lib/sources/receive-webhook";
import { DEFAULT_SIGNATURE_HEADER } from "@/lib/sources/verify/generic-hmac";
import { hmacSha256 } from "@/lib/sources/verify/hmac";
import { standardWebhooksKey } from "@/lib/sources/verify/standard-webhooks";

export const TEST_EVENT_TYPE = "brynth.test";

function testBody(source: Source): string {
  const body: Record<string, unknown> = {
    id: `evt_test_${randomBase62(16)}`,
    type: TEST_EVENT_TYPE,
    created: Math.floor(Date.now() / 1000),
    data: { message: `Test event for the source ${source.name}, sent from the Brynth dashboard.` },
  };
  if (source.typeField) {
    // Put the type where this source reads it from.
    const path = source.typeField.split(".");
    let at = body;
    for (const key of path.slice(0, -1)) at = (at[key] = typeof at[key] === "object" && at[key] ? at[key] : {}) as Record<string, unknown>;
    at[path[path.length - 1]] = TEST_EVENT_TYPE;
  }
  return JSON.stringify(body);
}

/** Signs a delivery exactly as the provider would, so the test crosses the same verification as real traffic. */
function signedHeaders(source: Source, body: string): Headers {
  const headers = new Headers({ "content-type": "application/json", "user-agent": "Brynth-Test/1.0" });
  const [secret] = sourceSecrets(source);
  const now = Math.floor(Date.now() / 1000);
  if (source.idHeader) headers.set(source.idHeader, randomUUID());
  switch (source.verification) {
    case "stripe":
      headers.set("stripe-signature", `t=${now},v1=${hmacSha256(secret, `${now}.${body}`).toString("hex")}`);
      break;
    case "github":
      headers.set("x-github-event", "ping");
      headers.set("x-github-delivery", randomUUID());
      headers.set("x-hub-signature-256", `sha256=${hmacSha256(secret, body).toString("hex")}`);
      break;
    case "hmac_sha256":
      headers.set(source.signatureHeader ?? DEFAULT_SIGNATURE_HEADER, hmacSha256(secret, body).toString("hex"));
      break;
    case "standard_webhooks": {
      const id = `msg_${randomBase62(20)}`;
      headers.set("webhook-id", id);
      headers.set("webhook-timestamp", String(now));
      headers.set("webhook-signature", `v1,${hmacSha256(standardWebhooksKey(secret)!, `${id}.${now}.${body}`).toString("base64")}`);
      break;
    }
    case "none":
      break;
  }
  return headers;
}

/** "Send test event" on the Sources screen: a signed delivery through the real intake path. */
export async function sendTestEvent(tx: Executor, opts: { actor: Actor; name: string }) {
  const source = await findSourceByName(tx, opts.actor.projectId, opts.name);
  const body = testBody(source);
  const result = await receiveWebhook(tx, {
    source,
    body: new TextEncoder().encode(body),
    headers: signedHeaders(source, body),
  });
  return result;
}
