import type * as React from "react";
import { Table, TableBody, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/lib/utils";

export type ListColumn = string | { label: string; align: "right" };

/**
 * A bordered list of rows under a header: the shape of every list screen. The edge columns get the row's padding, and
 * `actions` adds a last, unlabelled column (named for screen readers) for each row's buttons or menu.
 */
export function ListTable({
  columns,
  actions = false,
  label,
  children,
}: {
  columns: readonly ListColumn[];
  actions?: boolean;
  label?: string;
  children: React.ReactNode;
}) {
  const heads = columns.map((c) => (typeof c === "string" ? { label: c, align: undefined } : c));
  const count = heads.length + (actions ? 1 : 0);
  const edge = (i: number) => cn(i === 0 && "pl-4", i === count - 1 && "pr-4");
  return (
    <div className="rounded-lg border">
      <Table aria-label={label}>
        <TableHeader>
          <TableRow>
            {heads.map((h, i) => (
              <TableHead key={h.label} className={cn(edge(i), h.align === "right" && "text-right") || undefined}>
                {h.label}
              </TableHead>
            ))}
            {actions && (
              <TableHead className={edge(count - 1)}>
                <span className="sr-only">Actions</span>
              </TableHead>
            )}
          </TableRow>
        </TableHeader>
        <TableBody>{children}</TableBody>
      </Table>
    </div>
  );
}
