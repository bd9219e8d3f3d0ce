import type { Executor } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { listCandidates, listVerdict } from "@/lib/mail/inbound/list-verdict";
import { sendListContext } from "@/lib/mail/send/statements";

/**
 * The send lists (mailboxes spec, design L1): each recipient is checked against the mailbox's own list, then the
 * project's; the most specific entry decides, and a non-empty allow list refuses everyone not on it. The first
 * refused recipient is a POLICY_DENIED naming its field and the entry, before anything is written.
 */
export async function checkSendLists(
  db: Executor,
  o: { projectId: string; mailboxId: string; fields: Array<{ field: string; address: string }> },
): Promise<void> {
  const candidates = [...new Set(o.fields.flatMap((f) => listCandidates(f.address)))];
  const [ctx] = await sendListContext(db, o.projectId, o.mailboxId, candidates);
  const all = ctx.matches ?? [];
  if (all.length === 0 && !ctx.ownAllow && !ctx.projectAllow) return;
  for (const f of o.fields) {
    const mine = new Set(listCandidates(f.address));
    const matches = all.filter((m) => mine.has(m.entry));
    if (!listVerdict(matches, { own: ctx.ownAllow, project: ctx.projectAllow })) continue;
    const block = matches.find((m) => m.type === "block");
    const list = block ? "send/block" : "send/allow";
    const entry = block?.entry ?? null;
    const why = block ? `is on the ${block.own ? "inbox's" : "project's"} send block list (entry ${entry})` : "is not on the send allow list";
    throw new AppError("POLICY_DENIED", `${f.field}: ${f.address} ${why}. Nothing was sent.`, {
      fix: "Remove this recipient. Only the owner or a key with list_entry_delete can change the send lists.",
      details: { field: f.field, list, entry, address: f.address },
    });
  }
}
