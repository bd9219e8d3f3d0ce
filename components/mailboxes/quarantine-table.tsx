"use client";

import { revealInvisible } from "@/lib/text/reveal-invisible";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RelativeTime } from "@/components/ui/relative-time";
import { ListTable } from "@/components/ui/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import { QuarantineCategoryBadge } from "@/components/mailboxes/quarantine-category-badge";
import type { ActionResult } from "@/lib/auth/owner-action";
import type { QuarantineCategory } from "@/lib/mail/quarantine/quarantine-categories";

export type QuarantineRowView = {
  id: string;
  mailboxAddress: string;
  from: string | null;
  fromName: string | null;
  subject: string | null;
  preview: string | null;
  category: QuarantineCategory;
  reason: string;
  receivedAt: string;
};

type Act = (input: { messageId: string }) => Promise<ActionResult<unknown>>;
type Props = { rows: QuarantineRowView[]; releaseAction: Act; deleteAction: Act };

const subjectOf = (r: QuarantineRowView) => r.subject || "(no subject)";

/** Quarantined messages; each can be released to its mailbox or deleted, after a confirmation naming it. */
export function QuarantineTable({ rows, releaseAction, deleteAction }: Props) {
  const router = useRouter();

  async function run(action: Act, r: QuarantineRowView, done: string) {
    const res = await action({ messageId: r.id });
    // Thrown, the dialog shows it as a toast and stays open.
    if (!res.ok) throw new Error(res.error);
    toast.success(done);
    router.refresh();
  }

  return (
    <ListTable columns={["Received", "Mailbox", "From", "Subject", "Why it is here"]} actions>
      {rows.map((r) => (
        <TableRow key={r.id} data-message-id={r.id} className="align-top">
          <TableCell className="pl-4 text-muted-foreground">
            <RelativeTime date={r.receivedAt} />
          </TableCell>
          <TableCell className="font-mono text-xs">{r.mailboxAddress}</TableCell>
          <TableCell className="max-w-56 truncate" title={r.from ? revealInvisible(r.from) : undefined}>
            {r.fromName && (
              <>
                <UntrustedText text={r.fromName} />{" "}
              </>
            )}
            {r.from ? (
              <UntrustedText text={r.from} className={r.fromName ? "text-xs text-muted-foreground" : undefined} />
            ) : (
              <span className="text-muted-foreground">—</span>
            )}
          </TableCell>
          <TableCell className="max-w-72">
            <div className="truncate font-medium" title={revealInvisible(subjectOf(r))}>
              <UntrustedText text={subjectOf(r)} />
            </div>
            {r.preview && (
              <div className="truncate text-xs text-muted-foreground">
                <UntrustedText text={r.preview} />
              </div>
            )}
          </TableCell>
          <TableCell>
            <QuarantineCategoryBadge category={r.category} reason={r.reason} />
          </TableCell>
          <TableCell className="pr-4">
            <div className="flex justify-end gap-1">
              <ConfirmDialog
                trigger={
                  <Button size="xs" variant="outline">
                    Release
                  </Button>
                }
                title={`Release “${revealInvisible(subjectOf(r))}”?`}
                description={`It moves into ${r.mailboxAddress} as normal mail: agents see it in their lists and webhooks get message.received. Release only mail you trust.`}
                actionLabel="Release"
                destructive={false}
                onConfirm={() => run(releaseAction, r, `Released to ${r.mailboxAddress}`)}
              />
              <ConfirmDialog
                trigger={
                  <Button size="xs" variant="ghost" className="text-destructive hover:text-destructive">
                    Delete
                  </Button>
                }
                title={`Delete “${revealInvisible(subjectOf(r))}” from ${r.from ? revealInvisible(r.from) : "an unknown sender"}?`}
                description="The message and its attachments are deleted for good; this cannot be undone."
                actionLabel="Delete message"
                onConfirm={() => run(deleteAction, r, "Message deleted")}
              />
            </div>
          </TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
