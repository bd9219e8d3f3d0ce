import Link from "next/link";
import { UntrustedText, UntrustedList } from "@/components/ui/untrusted-text";
import { Paperclip } from "lucide-react";
import { RelativeTime } from "@/components/ui/relative-time";
import { DraftStatusBadge } from "@/components/mailboxes/draft-status-badge";
import type { DraftSendStatus } from "@/lib/db/schema/mail-send";
import { cn } from "@/lib/utils";

export type DraftListRow = {
  id: string;
  href: string;
  mailbox: string;
  subject: string | null;
  recipients: string[];
  status: DraftSendStatus | null;
  sendAt: string | null;
  updatedAt: string;
  files: number;
  agent: string | null;
};

/** The drafts of every mailbox, newest change first; the open one is marked. */
export function DraftsList({ rows, current }: { rows: DraftListRow[]; current: string | null }) {
  return (
    <ul aria-label="Drafts" className="divide-y">
      {rows.map((d) => (
        <li key={d.id} data-draft-id={d.id} aria-current={d.id === current ? "true" : undefined}>
          <Link href={d.href} className={cn("grid min-w-0 grid-cols-1 gap-1 px-3 py-2 text-sm hover:bg-muted/50", d.id === current && "bg-muted")}>
            <div className="flex items-center justify-between gap-2">
              <span className="min-w-0 truncate font-medium">{d.subject ? <UntrustedText text={d.subject} /> : "(no subject)"}</span>
              <DraftStatusBadge status={d.status} />
            </div>
            <div className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
              <span className="min-w-0 truncate">
                {d.mailbox} → <UntrustedList items={d.recipients} empty="no recipients yet" />
              </span>
              <span className="flex shrink-0 items-center gap-1">
                {d.files > 0 && <Paperclip className="size-3" aria-label={`${d.files} attachments`} />}
                {d.sendAt ? (
                  <>
                    sends <RelativeTime date={d.sendAt} />
                  </>
                ) : (
                  <RelativeTime date={d.updatedAt} />
                )}
              </span>
            </div>
            {d.agent && (
              <span className="text-xs text-muted-foreground">
                by <UntrustedText text={d.agent} />
              </span>
            )}
          </Link>
        </li>
      ))}
    </ul>
  );
}
