import { Link2 } from "lucide-react";
import { revealInvisible } from "@/lib/text/reveal-invisible";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { ListTable } from "@/components/ui/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import type { Actor } from "@/lib/actor";
import type { ActionResult } from "@/lib/auth/owner-action";
import { getDb } from "@/lib/db/client";
import { listActiveLinks } from "@/lib/disk/list-links";
import { DeleteButton } from "@/components/disk/delete-button";
import { formatBytes } from "@/components/disk/format";

type Props = { actor: Actor; revokeAction: (input: { linkId: string }) => Promise<ActionResult<unknown>> };

/** Public links that still work: what is shared, until when, how often it was downloaded; revoke any of them. */
export async function LinksPanel({ actor, revokeAction }: Props) {
  const links = await listActiveLinks(await getDb(), { actor });
  if (links.length === 0) {
    return (
      <EmptyState
        icon={Link2}
        title="No active links"
        description="Links made with file_url (or the Link button on a file) appear here until they expire or are revoked."
      />
    );
  }
  return (
    <ListTable columns={["File", { label: "Size", align: "right" }, "Made by", "Created", "Expires", { label: "Downloads", align: "right" }]} actions>
      {links.map((l) => (
        <TableRow key={l.id}>
          <TableCell className="max-w-80 truncate pl-4 font-mono text-xs" title={revealInvisible(l.path)}>
            <UntrustedText text={l.path} />
          </TableCell>
          <TableCell className="text-right text-muted-foreground tabular-nums">{formatBytes(l.sizeBytes)}</TableCell>
          <TableCell className="font-mono text-xs text-muted-foreground">{l.keyId ?? "dashboard"}</TableCell>
          <TableCell className="text-muted-foreground">
            <RelativeTime date={l.createdAt} />
          </TableCell>
          <TableCell className="text-muted-foreground">
            <RelativeTime date={l.expiresAt} />
          </TableCell>
          <TableCell className="text-right tabular-nums">{l.downloads}</TableCell>
          <TableCell className="pr-4 text-right">
            <DeleteButton
              name={l.id}
              kind="link"
              actionLabel="Revoke"
              description={`The link to ${revealInvisible(l.path)} stops working at once. The file stays.`}
              onDelete={revokeAction.bind(null, { linkId: l.id })}
            />
          </TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
