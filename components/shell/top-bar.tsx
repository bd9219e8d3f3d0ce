import type * as React from "react";
import { cn } from "@/lib/utils";

type TopBarProps = {
  /** Left of everything, e.g. the mobile menu button. */
  leading?: React.ReactNode;
  /** The page title or a Breadcrumbs trail (whose last crumb is the title). */
  title?: React.ReactNode;
  /** Right side before the owner menu, e.g. a live-connection indicator. */
  actions?: React.ReactNode;
  ownerMenu?: React.ReactNode;
  className?: string;
};

function TopBar({ leading, title, actions, ownerMenu, className }: TopBarProps) {
  return (
    <header
      data-slot="top-bar"
      className={cn(
        "sticky top-0 z-30 flex h-14 shrink-0 items-center gap-3 border-b bg-background/95 px-4 backdrop-blur supports-[backdrop-filter]:bg-background/80 md:px-6",
        className,
      )}
    >
      {leading}
      <div className="flex min-w-0 flex-1 items-center">
        {typeof title === "string" ? <span className="truncate text-sm font-medium">{title}</span> : title}
      </div>
      {(actions || ownerMenu) && (
        <div className="flex shrink-0 items-center gap-2">
          {actions}
          {ownerMenu}
        </div>
      )}
    </header>
  );
}

export { TopBar, type TopBarProps };
