import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailListEntries } from "@/lib/db/schema/mail";
import { listCandidates } from "@/lib/mail/inbound/list-verdict";

export interface BlockedMessage {
  id: string;
  mailboxId: string;
  fromAddress: string | null;
  /** It answered this mailbox's own mail, so the `reply` lists applied (inboundContext's rule). */
  isReply: boolean;
}

interface Entry {
  scope: string;
  direction: string;
  type: "allow" | "block";
  entry: string;
}

/**
 * Which list entry blocks each message, said against the lists as they are now (the store keeps only the verdict,
 * not the entry): the deciding entry as listVerdict picks it, or the allow list that leaves the sender out. Two
 * statements for a whole page.
 */
export async function blockReasons(db: Executor, projectId: string, rows: BlockedMessage[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (rows.length === 0) return out;
  const candidates = [...new Set(rows.flatMap((r) => listCandidates(r.fromAddress)))];
  const scopes = ["", ...new Set(rows.map((r) => r.mailboxId))];
  const scope = sql<string>`coalesce(${mailListEntries.mailboxId}, '')`;
  const inScope = and(eq(mailListEntries.projectId, projectId), inArray(scope, scopes), inArray(mailListEntries.direction, ["receive", "reply"]));
  const [matches, allows] = await Promise.all([
    candidates.length === 0
      ? []
      : db
          .select({ scope, direction: mailListEntries.direction, type: mailListEntries.type, entry: mailListEntries.entry })
          .from(mailListEntries)
          .where(and(inScope, inArray(mailListEntries.entry, candidates))),
    db
      .selectDistinct({ scope, direction: mailListEntries.direction })
      .from(mailListEntries)
      .where(and(inScope, eq(mailListEntries.type, "allow"))),
  ]);
  const allowSet = new Set(allows.map((a) => `${a.scope}\u0000${a.direction}`));
  for (const r of rows) out.set(r.id, reasonFor(r, matches, allowSet));
  return out;
}

function reasonFor(r: BlockedMessage, matches: Entry[], allowSet: Set<string>): string {
  const direction = r.isReply ? "reply" : "receive";
  const mine = new Set(listCandidates(r.fromAddress));
  for (const scope of [r.mailboxId, ""]) {
    const where = scope ? "this mailbox's" : "the project's";
    const best = matches.filter((m) => m.scope === scope && m.direction === direction && mine.has(m.entry)).sort((a, b) => specificity(b) - specificity(a))[0];
    if (best?.type === "block") return `On ${where} ${direction} block list: ${best.entry}`;
    if (best) return `Allowed now by ${where} ${direction} entry ${best.entry} (the lists changed after it arrived)`;
    if (allowSet.has(`${scope}\u0000${direction}`)) return `Not on ${where} ${direction} allow list`;
  }
  return "No list entry refuses this sender now (the lists changed after it arrived)";
}

/** listVerdict's order (lib/mail/inbound/list-verdict.ts): an address over any domain, a subdomain over its parent, allow on a tie. */
const specificity = (m: Pick<Entry, "entry" | "type">) => (m.entry.includes("@") ? 10_000 : m.entry.length) * 2 + (m.type === "allow" ? 1 : 0);
