import Link from "next/link";
import { revealInvisible } from "@/lib/text/reveal-invisible";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { ListChecks } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { Actor } from "@/lib/actor";
import type { ActionResult } from "@/lib/auth/owner-action";
import { getDb } from "@/lib/db/client";
import { browseKeys } from "@/lib/disk/browse-keys";
import { STATE_PREFIX } from "@/lib/disk/key-rules";
import { KeyViewer } from "@/components/disk/key-viewer";
import type { SaveKeyAction } from "@/components/disk/key-editor-dialog";
import { diskHref, formatBytes } from "@/components/disk/format";

type Props = {
  actor: Actor;
  after?: string;
  before?: string;
  selected?: string;
  saveAction: SaveKeyAction;
  deleteAction: (input: { key: string; ifVersion: number }) => Promise<ActionResult<unknown>>;
};

/** Task states (`state/{task_id}`) with their notes: where each agent's unfinished work stands. */
export async function StatesPanel({ actor, after, before, selected, saveAction, deleteAction }: Props) {
  const page = await browseKeys(await getDb(), { actor, prefix: STATE_PREFIX, after, before, limit: 50 });
  const first = page.rows[0]?.key;
  const last = page.rows[page.rows.length - 1]?.key;
  if (page.rows.length === 0 && !after && !before) {
    return (
      <EmptyState
        icon={ListChecks}
        title="No task states"
        description="Agents save where a task stands with state_save (e.g. before waiting on an approval) and resume it with state_load."
      />
    );
  }
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <div className="grid content-start gap-3">
        <div className="rounded-lg border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead className="pl-4">Task</TableHead>
                <TableHead>Note</TableHead>
                <TableHead className="text-right">Size</TableHead>
                <TableHead className="pr-4">Saved</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {page.rows.map((r) => {
                const taskId = r.key.slice(STATE_PREFIX.length);
                return (
                  <TableRow key={r.key} data-state={r.key === selected ? "selected" : undefined}>
                    <TableCell className="max-w-56 truncate pl-4 font-mono text-xs">
                      <Link href={diskHref({ tab: "states", after, before, key: r.key })} className="hover:underline" title={revealInvisible(taskId)}>
                        <UntrustedText text={taskId} />
                      </Link>
                    </TableCell>
                    <TableCell className="max-w-80 truncate text-muted-foreground" title={r.note ? revealInvisible(r.note) : undefined}>
                      {r.note ? <UntrustedText text={r.note} /> : "—"}
                    </TableCell>
                    <TableCell className="text-right text-muted-foreground tabular-nums">{formatBytes(r.sizeBytes)}</TableCell>
                    <TableCell className="pr-4 text-muted-foreground">
                      <RelativeTime date={r.updatedAt} />
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </div>
        <Pagination
          prevHref={page.hasPrev && first !== undefined ? diskHref({ tab: "states", before: first }) : null}
          nextHref={page.hasNext && last !== undefined ? diskHref({ tab: "states", after: last }) : null}
        />
      </div>
      {selected !== undefined && <KeyViewer actor={actor} keyName={selected} prefix="" saveAction={saveAction} deleteAction={deleteAction} />}
    </div>
  );
}
