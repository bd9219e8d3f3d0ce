"use client";

import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RelativeTime } from "@/components/ui/relative-time";
import { ListTable } from "@/components/ui/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import type { ActionResult } from "@/lib/auth/owner-action";
import type { ListDirectionView } from "@/components/mailboxes/list-entries-search";

export type ListEntryRowView = { entry: string; entryType: "email" | "domain"; reason: string | null; createdAt: string };

type Props = {
  type: "allow" | "block";
  direction: ListDirectionView;
  /** The mailbox whose list this is; undefined for the project's global list. */
  inboxId?: string;
  /** "this mailbox's" or "the project's", for the confirmation. */
  owner: string;
  rows: ListEntryRowView[];
  removeAction: (input: {
    inboxId?: string;
    direction: ListDirectionView;
    type: "allow" | "block";
    entry: string;
  }) => Promise<ActionResult<{ entry: string; removed: boolean }>>;
};

/** The entries of one list, each removable after a confirmation naming it. */
export function ListEntriesTable({ type, direction, inboxId, owner, rows, removeAction }: Props) {
  const router = useRouter();
  const list = `${owner} ${direction} ${type} list`;
  return (
    <ListTable columns={["Entry", "Reason", "Added"]} actions label={`${type === "allow" ? "Allow" : "Block"} list`}>
      {rows.map((r) => (
        <TableRow key={r.entry} data-entry={r.entry}>
          <TableCell className="pl-4">
            <span className="font-mono text-xs">{r.entry}</span>{" "}
            {r.entryType === "domain" && (
              <Badge variant="outline" title="Also matches its subdomains">
                domain
              </Badge>
            )}
          </TableCell>
          <TableCell className="max-w-72 truncate text-sm text-muted-foreground" title={r.reason ?? undefined}>
            {r.reason ?? "—"}
          </TableCell>
          <TableCell className="text-muted-foreground">
            <RelativeTime date={r.createdAt} />
          </TableCell>
          <TableCell className="pr-4 text-right">
            <ConfirmDialog
              trigger={
                <Button size="xs" variant="ghost" className="text-destructive hover:text-destructive" aria-label={`Remove ${r.entry}`}>
                  Remove
                </Button>
              }
              title={`Remove ${r.entry}?`}
              description={`It comes off ${list}; mail already stored stays where it is.`}
              actionLabel="Remove entry"
              onConfirm={async () => {
                const res = await removeAction({ inboxId, direction, type, entry: r.entry });
                if (!res.ok) throw new Error(res.error);
                toast.success(`${r.entry} removed from ${list}`);
                router.refresh();
              }}
            />
          </TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
