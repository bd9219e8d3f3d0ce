import { createHash } from "node:crypto";

/**
 * The Message-ID of mail that came without one, made from its bytes: a sender retries with the same bytes, so a
 * redelivery is recognised and skipped as for any Message-ID (inbound-context.ts). Without it, mail whose commit
 * succeeded for one project but failed for another (or whose 250 was lost) was stored again on each retry. The
 * `.invalid` domain (RFC 2606) says the id was never the sender's; MTAs add one the same way (RFC 5322 §3.6.4 says a
 * message SHOULD have one).
 */
export const contentMessageId = (raw: Buffer): string => `${createHash("sha256").update(raw).digest("hex").slice(0, 40)}@no-message-id.invalid`;
