import { fieldError } from "@/lib/disk/field-error";
import { MAX_RECIPIENTS } from "@/lib/mail/outbound/limits";
import type { SendRequest } from "@/lib/mail/send/send-request";

/**
 * At most 50 recipients across to, cc and bcc, counted on recipients a reply derived from the original (its Reply-To,
 * or replyAll's copies), which the tool's schema never saw. reply_to_message and reply drafts share it, so a draft
 * cannot hold a send that reply_to_message would refuse. Named by what made the list: replyAll, or `to`.
 */
export function checkDerivedRecipientCount(request: Pick<SendRequest, "to" | "cc" | "bcc">, replyAll: boolean | undefined): void {
  const n = request.to.length + request.cc.length + request.bcc.length;
  if (n <= MAX_RECIPIENTS) return;
  throw fieldError(
    replyAll ? "replyAll" : "to",
    `the reply would go to ${n} recipients, more than ${MAX_RECIPIENTS}`,
    replyAll ? "Reply without replyAll, or give at most 50 recipients in to, cc and bcc." : "Give at most 50 recipients yourself in to, cc and bcc.",
  );
}
