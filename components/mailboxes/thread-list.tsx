import Link from "next/link";
import { UntrustedText, UntrustedList } from "@/components/ui/untrusted-text";
import { Badge } from "@/components/ui/badge";
import { RelativeTime } from "@/components/ui/relative-time";
import { type ThreadSearch, threadHref } from "@/components/mailboxes/thread-search";
import { cn } from "@/lib/utils";

export type ThreadRowView = {
  id: string;
  subject: string | null;
  preview: string | null;
  senders: string[];
  labels: string[];
  messageCount: number;
  at: string;
};

/** Labels worth a badge in the list: the owner's and agents' own, plus the hidden kinds when they are shown. */
const QUIET = new Set(["received", "sent", "unread"]);

/** The thread list: each row opens its conversation on the right, keeping filters and page in the URL. */
export function ThreadList({ inboxId, rows, search }: { inboxId: string; rows: ThreadRowView[]; search: ThreadSearch }) {
  return (
    <ul className="divide-y" aria-label="Threads">
      {rows.map((t) => {
        const unread = t.labels.includes("unread");
        const selected = search.thread === t.id;
        return (
          <li key={t.id} data-thread-id={t.id}>
            <Link
              href={threadHref(inboxId, search, { thread: t.id })}
              aria-current={selected ? "true" : undefined}
              className={cn(
                "grid grid-cols-1 gap-0.5 px-3 py-2 text-sm hover:bg-muted/50 focus-visible:bg-muted/50 focus-visible:outline-none",
                selected && "bg-muted",
              )}
            >
              <span className="flex items-center gap-2">
                {unread && <span className="size-2 shrink-0 rounded-full bg-primary" role="img" aria-label="Unread" />}
                <span className={cn("min-w-0 flex-1 truncate", unread && "font-semibold")}>
                  <UntrustedList items={t.senders} empty="(no sender)" />
                </span>
                {t.messageCount > 1 && <span className="text-xs tabular-nums text-muted-foreground">{t.messageCount}</span>}
                <RelativeTime date={t.at} className="text-xs text-muted-foreground" />
              </span>
              <span className={cn("truncate", unread ? "font-medium" : "text-foreground/90")}>
                {t.subject ? <UntrustedText text={t.subject} /> : "(no subject)"}
              </span>
              <span className="flex items-center gap-1">
                <span className="min-w-0 flex-1 truncate text-xs text-muted-foreground">{t.preview && <UntrustedText text={t.preview} />}</span>
                {t.labels
                  .filter((l) => !QUIET.has(l))
                  .slice(0, 4)
                  .map((l) => (
                    <Badge
                      key={l}
                      variant={l === "trash" || l === "spam" || l === "blocked" || l === "unauthenticated" ? "warning" : "outline"}
                      className="h-4 px-1 text-[0.65rem]"
                    >
                      {l}
                    </Badge>
                  ))}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
