import { Badge } from "@/components/ui/badge";
import type { KeyRestriction } from "@/lib/keys/key-restrictions";

/**
 * A key's reach over the mailbox tools: every mailbox, or one address. A restriction to a deleted mailbox is said
 * plainly, since such a key now reaches no mailbox at all and would otherwise look like any restricted key.
 */
export function KeyMailbox({ mailboxId, restriction }: { mailboxId: string | null; restriction?: KeyRestriction }) {
  if (!mailboxId) return <span className="text-muted-foreground">All mailboxes</span>;
  if (!restriction || restriction.deleted)
    return (
      <Badge variant="outline" className="font-normal text-muted-foreground" title={restriction?.address ?? mailboxId}>
        mailbox deleted
      </Badge>
    );
  return <span className="font-mono text-xs">{restriction.address}</span>;
}
