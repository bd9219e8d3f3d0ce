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
import { ownerPageOf, ownerPageRead } from "@/lib/mail/quarantine/owner-page";
import { Pagination } from "@/components/ui/pagination";
import Link from "next/link";
import { DeleteButton } from "@/components/disk/delete-button";
import { diskHref, formatBytes } from "@/components/disk/format";

type Props = {
  actor: Actor;
  /** The page token from the URL, absent on the first page. */
  cursor?: string;
  revokeAction: (input: { linkId: string }) => Promise<ActionResult<unknown>>;
};

const PAGE = 100;
const LIST = "dashboard_file_links";

/** Public links that still work: what is shared, until when, how often it was downloaded; revoke any of them. */
export async function LinksPanel({ actor, cursor, revokeAction }: Props) {
  const paged = { limit: PAGE, page_token: cursor };
  const token = ownerPageRead(LIST, actor, paged);
  if (token && "problem" in token) {
    return (
      <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive">
        This page link is not one this screen made.{" "}
        <Link href={diskHref({ tab: "links" })} className="underline underline-offset-2">
          Start from the newest
        </Link>
      </p>
    );
  }
  const rows = await listActiveLinks(await getDb(), { actor, limit: PAGE + 1, after: token?.key ?? null });
  const { items: links, nextPageToken } = ownerPageOf(LIST, actor, paged, rows, (l) => ({ at: l.pageAt, id: l.id }));
  if (links.length === 0 && !cursor) {
    return (
      <EmptyState
        icon={Link2}
        title="No active links"
        description="Links made with file_url (or the Link button on a file) appear here until they expire or are revoked."
      />
    );
  }
  return (
    <>
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
      <Pagination prevHref={cursor ? diskHref({ tab: "links" }) : null} nextHref={nextPageToken ? diskHref({ tab: "links", cursor: nextPageToken }) : null} />
    </>
  );
}
