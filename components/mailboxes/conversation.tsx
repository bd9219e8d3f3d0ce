import { Download, Paperclip } from "lucide-react";
import { UntrustedText, UntrustedList } from "@/components/ui/untrusted-text";
import { Badge } from "@/components/ui/badge";
import { RelativeTime } from "@/components/ui/relative-time";
import { formatBytes } from "@/components/events/format-bytes";
import { AuthBadges } from "@/components/mailboxes/auth-badges";
import { MessageBody } from "@/components/mailboxes/message-body";
import { cn } from "@/lib/utils";

export type ConversationMessage = {
  id: string;
  from: string | null;
  to: string[];
  cc: string[];
  at: string;
  direction: "inbound" | "outbound";
  labels: string[];
  authentication: { spf: string; dkim: string; dmarc: string } | null;
  local: boolean;
  text: string | null;
  htmlUrl: string | null;
  htmlWithImagesUrl: string | null;
  remoteImages: number;
  attachments: Array<{ id: string; filename: string; size: number; href: string }>;
};

const CATEGORY = new Set(["spam", "blocked", "unauthenticated", "trash"]);

/** The messages of a thread, oldest first, each with its headers, verdicts, body and attachments. */
export function Conversation({ subject, messages }: { subject: string; messages: ConversationMessage[] }) {
  return (
    <ol className="grid gap-3" aria-label="Messages">
      {messages.map((m) => (
        <li key={m.id} data-message-id={m.id} className={cn("grid gap-2 rounded-lg border p-3", m.direction === "outbound" && "bg-muted/30")}>
          <div className="flex items-start gap-3">
            <dl className="grid min-w-0 flex-1 grid-cols-[auto_1fr] gap-x-2 text-xs">
              <dt className="text-muted-foreground">From</dt>
              <dd className="truncate font-medium">{m.from ? <UntrustedText text={m.from} /> : "(unknown)"}</dd>
              <dt className="text-muted-foreground">To</dt>
              <dd className="truncate">
                <UntrustedList items={m.to} empty="—" />
              </dd>
              {m.cc.length > 0 && (
                <>
                  <dt className="text-muted-foreground">Cc</dt>
                  <dd className="truncate">
                    <UntrustedList items={m.cc} empty="—" />
                  </dd>
                </>
              )}
            </dl>
            <RelativeTime date={m.at} className="shrink-0 text-xs text-muted-foreground" />
          </div>
          <div className="flex flex-wrap gap-1">
            {m.direction === "outbound" && <Badge variant="secondary">Sent</Badge>}
            {m.labels
              .filter((l) => CATEGORY.has(l))
              .map((l) => (
                <Badge key={l} variant="warning">
                  {l}
                </Badge>
              ))}
            {m.direction === "inbound" && <AuthBadges verdicts={m.authentication} local={m.local} />}
          </div>
          <MessageBody htmlUrl={m.htmlUrl} htmlWithImagesUrl={m.htmlWithImagesUrl} remoteImages={m.remoteImages} text={m.text} subject={subject} />
          {m.attachments.length > 0 && (
            <ul className="flex flex-wrap gap-2" aria-label="Attachments">
              {m.attachments.map((a) => (
                <li key={a.id}>
                  <a href={a.href} download className="inline-flex items-center gap-1.5 rounded-md border px-2 py-1 text-xs hover:bg-muted">
                    <Paperclip className="size-3" aria-hidden />
                    <UntrustedText text={a.filename} />
                    <span className="text-muted-foreground">{formatBytes(a.size)}</span>
                    <Download className="size-3 text-muted-foreground" aria-hidden />
                  </a>
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}
