"use client";

import { revealInvisible } from "@/lib/text/reveal-invisible";
import { UntrustedText } from "@/components/ui/untrusted-text";
import * as React from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatBytes } from "@/components/events/format-bytes";
import { StatusBadge } from "@/components/events/status-badge";
import type { ActionResult } from "@/lib/auth/owner-action";
import type { EventStatus } from "@/lib/db/schema/events";
import { plural } from "@/lib/utils";

export type EventRowView = {
  id: string;
  source: string;
  type: string;
  status: EventStatus;
  receivedAt: string;
  attempts: number;
  payloadSize: number;
  lastError: string | null;
  trust: string;
};

type Props = {
  events: EventRowView[];
  requeueAction: (input: { eventIds: string[] }) => Promise<ActionResult<{ requeued: number }>>;
};

const requeueable = (s: EventStatus) => s === "dead" || s === "failed";

/** Event rows; dead and failed ones can be selected and requeued together. */
export function EventsTable({ events, requeueAction }: Props) {
  const router = useRouter();
  const [selected, setSelected] = React.useState<Set<string>>(new Set());
  const [pending, startTransition] = React.useTransition();
  const selectable = events.filter((e) => requeueable(e.status));
  const allSelected = selectable.length > 0 && selectable.every((e) => selected.has(e.id));

  function toggle(id: string, on: boolean) {
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  function requeue() {
    startTransition(async () => {
      const res = await requeueAction({ eventIds: [...selected] });
      if (!res.ok) return void toast.error(res.error);
      toast.success(`${plural(res.data.requeued, "event")} requeued`);
      setSelected(new Set());
      router.refresh();
    });
  }

  return (
    <div className="grid grid-cols-1 gap-2">
      {selectable.length > 0 && (
        <div className="flex items-center gap-2 text-sm">
          <Button size="xs" variant="outline" disabled={selected.size === 0 || pending} onClick={requeue}>
            {pending ? "Requeueing…" : `Requeue selected (${selected.size})`}
          </Button>
        </div>
      )}
      <div className="rounded-lg border">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead className="w-8">
                {selectable.length > 0 && (
                  <Checkbox
                    aria-label="Select all dead and failed events on this page"
                    checked={allSelected}
                    onCheckedChange={(on) => setSelected(on ? new Set(selectable.map((e) => e.id)) : new Set())}
                  />
                )}
              </TableHead>
              <TableHead>Received</TableHead>
              <TableHead>Source</TableHead>
              <TableHead>Type</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Attempts</TableHead>
              <TableHead className="text-right">Size</TableHead>
              <TableHead>Last error</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {events.map((e) => (
              <TableRow key={e.id} data-state={selected.has(e.id) ? "selected" : undefined}>
                <TableCell>
                  {requeueable(e.status) && (
                    <Checkbox aria-label={`Select ${e.id}`} checked={selected.has(e.id)} onCheckedChange={(on) => toggle(e.id, on === true)} />
                  )}
                </TableCell>
                <TableCell className="text-muted-foreground">
                  <Link href={`/events/${e.id}`} className="hover:underline">
                    <RelativeTime date={e.receivedAt} />
                  </Link>
                </TableCell>
                <TableCell>
                  <UntrustedText text={e.source} />
                </TableCell>
                <TableCell className="max-w-64 truncate font-mono text-xs" title={revealInvisible(e.type)}>
                  <Link href={`/events/${e.id}`} className="hover:underline">
                    <UntrustedText text={e.type} />
                  </Link>
                </TableCell>
                <TableCell>
                  <StatusBadge status={e.status} />
                </TableCell>
                <TableCell className="text-right tabular-nums">{e.attempts}</TableCell>
                <TableCell className="text-right text-muted-foreground tabular-nums">{formatBytes(e.payloadSize)}</TableCell>
                <TableCell className="max-w-72 truncate text-xs text-muted-foreground" title={e.lastError ?? undefined}>
                  {e.lastError ? <UntrustedText text={e.lastError} /> : ""}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
