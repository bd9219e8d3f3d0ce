import type { Executor } from "@/lib/db/client";
import type { ApprovalChannel } from "@/lib/db/schema/approvals";
import { findByVerifyToken, verifyChannel } from "@/lib/channels/verify-channel";
import { maskAddress } from "@/lib/channels/channel-view";

const TOKEN = /^[A-Za-z0-9]{20,64}$/;

/** What the verification page shows for a token (read-only). */
export async function verifyLinkView(db: Executor, token: string) {
  const channel = TOKEN.test(token) ? await findByVerifyToken(db, token, "email") : null;
  return channel ? { label: channel.label, address: maskAddress(channel.address) } : null;
}

/** The POST from the verification page: verifies once; null when the token is unknown, used or expired. */
export async function confirmEmailChannel(tx: Executor, token: string): Promise<ApprovalChannel | null> {
  const channel = TOKEN.test(token) ? await findByVerifyToken(tx, token, "email") : null;
  return channel ? verifyChannel(tx, { channel }) : null;
}
