import type * as React from "react";
import type { LucideIcon } from "lucide-react";
import { Button } from "@/components/ui/button";

type RowActionButtonProps = Omit<React.ComponentProps<typeof Button>, "variant" | "size" | "aria-label"> & {
  icon: LucideIcon;
  /** What it does to which row (`Edit https://…`): the visible word alone repeats on every row. */
  label: string;
};

/**
 * One of a table row's actions: a small ghost button with its icon and word. It passes on what a dialog or menu
 * trigger adds (onClick, state, ref), so it can stand as a trigger itself.
 */
export function RowActionButton({ icon: Icon, label, children, ...props }: RowActionButtonProps) {
  return (
    <Button variant="ghost" size="xs" aria-label={label} {...props}>
      <Icon aria-hidden />
      {children}
    </Button>
  );
}
