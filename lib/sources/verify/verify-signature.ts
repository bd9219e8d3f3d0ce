import type { Verification } from "@/lib/db/schema/events";
import { verifyGithub } from "@/lib/sources/verify/github";
import { verifyHmac } from "@/lib/sources/verify/generic-hmac";
import { OK, type Verdict } from "@/lib/sources/verify/hmac";
import { verifyStandardWebhooks } from "@/lib/sources/verify/standard-webhooks";
import { verifyStripe } from "@/lib/sources/verify/stripe";

export interface VerifyInput {
  verification: Verification;
  /** Current secret first, then a rotated-out one still in its grace period. */
  secrets: string[];
  signatureHeader: string | null;
  body: Uint8Array;
  headers: Pick<Headers, "get">;
  nowS?: number;
}

/** Checks a delivery over its raw bytes, before anything is parsed or stored. */
export function verifySignature(v: VerifyInput): Verdict {
  const nowS = v.nowS ?? Math.floor(Date.now() / 1000);
  switch (v.verification) {
    case "none":
      return OK;
    case "stripe":
      return verifyStripe(v.body, v.headers, v.secrets, nowS);
    case "github":
      return verifyGithub(v.body, v.headers, v.secrets);
    case "hmac_sha256":
      return verifyHmac(v.body, v.headers, v.secrets, v.signatureHeader);
    case "standard_webhooks":
      return verifyStandardWebhooks(v.body, v.headers, v.secrets, nowS);
  }
}
