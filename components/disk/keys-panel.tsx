import Link from "next/link";
import { revealInvisible } from "@/lib/text/reveal-invisible";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { KeyRound } from "lucide-react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Pagination } from "@/components/ui/pagination";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { Actor } from "@/lib/actor";
import { getDb } from "@/lib/db/client";
import { browseKeys } from "@/lib/disk/browse-keys";
import { KeyViewer } from "@/components/disk/key-viewer";
import { KeyEditorDialog, type SaveKeyAction } from "@/components/disk/key-editor-dialog";
import { diskHref, formatBytes } from "@/components/disk/format";
import type { ActionResult } from "@/lib/auth/owner-action";

const PAGE = 50;

type Props = {
  actor: Actor;
  prefix: string;
  after?: string;
  before?: string;
  selected?: string;
  saveAction: SaveKeyAction;
  deleteAction: (input: { key: string; ifVersion: number }) => Promise<ActionResult<unknown>>;
};

/** KV keys by prefix with a value viewer/editor for the selected key. */
export async function KeysPanel({ actor, prefix, after, before, selected, saveAction, deleteAction }: Props) {
  const page = await browseKeys(await getDb(), { actor, prefix, after, before, limit: PAGE });
  const first = page.rows[0]?.key;
  const last = page.rows[page.rows.length - 1]?.key;
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <div className="grid content-start gap-3">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <form action="/disk" className="flex items-end gap-2">
            <div className="grid gap-1.5">
              <Label htmlFor="kv-prefix">Key prefix</Label>
              <Input id="kv-prefix" name="prefix" defaultValue={prefix} placeholder="orders/" className="h-8 w-64 font-mono text-xs" />
            </div>
            <Button type="submit" variant="outline" size="sm">
              Filter
            </Button>
          </form>
          <KeyEditorDialog saveAction={saveAction} prefix={prefix} />
        </div>
        {page.rows.length === 0 ? (
          <EmptyState
            icon={KeyRound}
            title={prefix ? `No keys start with “${prefix}”` : "No keys yet"}
            description="Agents save JSON with kv_set; you can also add a key here."
          />
        ) : (
          <div className="rounded-lg border">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead className="pl-4">Key</TableHead>
                  <TableHead className="text-right">Size</TableHead>
                  <TableHead>Expires</TableHead>
                  <TableHead className="pr-4">Updated</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {page.rows.map((r) => (
                  <TableRow key={r.key} data-state={r.key === selected ? "selected" : undefined}>
                    <TableCell className="max-w-80 truncate pl-4 font-mono text-xs">
                      <Link href={diskHref({ prefix, after, before, key: r.key })} className="hover:underline" title={revealInvisible(r.key)}>
                        <UntrustedText text={r.key} />
                      </Link>
                    </TableCell>
                    <TableCell className="text-right text-muted-foreground tabular-nums">{formatBytes(r.sizeBytes)}</TableCell>
                    <TableCell className="text-muted-foreground">{r.expiresAt ? <RelativeTime date={r.expiresAt} /> : "Never"}</TableCell>
                    <TableCell className="pr-4 text-muted-foreground">
                      <RelativeTime date={r.updatedAt} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
        <Pagination
          prevHref={page.hasPrev && first !== undefined ? diskHref({ prefix, before: first }) : null}
          nextHref={page.hasNext && last !== undefined ? diskHref({ prefix, after: last }) : null}
        />
      </div>
      {selected !== undefined && <KeyViewer actor={actor} keyName={selected} prefix={prefix} saveAction={saveAction} deleteAction={deleteAction} />}
    </div>
  );
}
