import Link from "next/link";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { RelativeTime } from "@/components/ui/relative-time";
import { ListTable } from "@/components/ui/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import { DeleteMailboxButton } from "@/components/mailboxes/delete-mailbox-button";
import type { ActionResult } from "@/lib/auth/owner-action";

export type MailboxRowView = {
  id: string;
  address: string;
  displayName: string | null;
  status: "active" | "disabled";
  sendPolicy: "direct" | "approval" | "read_only";
  isDefault: boolean;
  unread: number;
  lastActivityAt: string | null;
};

const policyLabel = { direct: "Direct", approval: "Needs approval", read_only: "Read only" } as const;

type Props = {
  rows: MailboxRowView[];
  deleteAction: (input: { inboxId: string }) => Promise<ActionResult<{ id: string; address: string }>>;
};

/** One row per mailbox: the address opens its mail client. */
export function MailboxesTable({ rows, deleteAction }: Props) {
  return (
    <ListTable columns={["Address", "Display name", "Status", "Send policy", { label: "Unread", align: "right" }, "Last activity"]} actions>
      {rows.map((m) => (
        <TableRow key={m.id} data-mailbox-id={m.id}>
          <TableCell className="pl-4">
            <div className="flex items-center gap-1">
              <Link href={`/mail/${m.id}`} className="font-mono text-xs hover:underline">
                {m.address}
              </Link>
              <CopyButton value={m.address} label={`Copy ${m.address}`} size="icon-xs" />
              {m.isDefault && <Badge variant="secondary">Project address</Badge>}
            </div>
          </TableCell>
          <TableCell>{m.displayName ? <UntrustedText text={m.displayName} /> : <span className="text-muted-foreground">—</span>}</TableCell>
          <TableCell>{m.status === "active" ? <Badge variant="success">Active</Badge> : <Badge variant="warning">Disabled</Badge>}</TableCell>
          <TableCell className="text-muted-foreground">{policyLabel[m.sendPolicy]}</TableCell>
          <TableCell className="text-right tabular-nums">
            {m.unread > 0 ? <span className="font-medium">{m.unread}</span> : <span className="text-muted-foreground">0</span>}
          </TableCell>
          <TableCell className="text-muted-foreground">{m.lastActivityAt ? <RelativeTime date={m.lastActivityAt} /> : "—"}</TableCell>
          <TableCell className="pr-4 text-right">
            <DeleteMailboxButton inboxId={m.id} address={m.address} deleteAction={deleteAction} />
          </TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
