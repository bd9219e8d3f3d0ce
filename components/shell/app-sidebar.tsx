"use client";

import type * as React from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/lib/utils";
import { findActiveItem } from "@/components/shell/active-nav";
import { navIcons, type NavItem } from "@/components/shell/nav-icons";
import { BrynthMark } from "@/components/shell/brynth-mark";

type AppSidebarProps = {
  items: readonly NavItem[];
  /** Rendered at the top, e.g. the project switcher. */
  header?: React.ReactNode;
  /** Rendered at the bottom, e.g. version or docs link. */
  footer?: React.ReactNode;
  /** Called after a link is chosen (the mobile sheet closes itself with it). */
  onNavigate?: () => void;
  className?: string;
};

function AppSidebar({ items, header, footer, onNavigate, className }: AppSidebarProps) {
  const pathname = usePathname();
  const active = findActiveItem(items, pathname);

  return (
    <div data-slot="app-sidebar" className={cn("flex h-full w-full flex-col bg-sidebar text-sidebar-foreground", className)}>
      <div className="flex h-14 shrink-0 items-center gap-2 border-b border-sidebar-border px-3">
        <BrynthMark label="Brynth" />
        {header && <div className="min-w-0 flex-1">{header}</div>}
      </div>
      <nav aria-label="Main" className="flex-1 overflow-y-auto p-2">
        <ul className="grid gap-0.5">
          {items.map((item) => {
            const Icon = navIcons[item.icon];
            const isActive = item === active;
            const showBadge = item.badge !== undefined && item.badge !== null && item.badge !== 0;
            return (
              <li key={item.href}>
                <Link
                  href={item.href}
                  onClick={onNavigate}
                  aria-current={isActive ? "page" : undefined}
                  className={cn(
                    "flex h-8 items-center gap-2.5 rounded-md px-2 text-sm text-sidebar-foreground/80 transition-colors outline-none hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-[3px] focus-visible:ring-sidebar-ring/50",
                    isActive && "bg-sidebar-accent font-medium text-sidebar-accent-foreground",
                  )}
                >
                  <Icon aria-hidden className="size-4 shrink-0" />
                  <span className="truncate">{item.label}</span>
                  {showBadge && (
                    <span
                      data-slot="nav-badge"
                      className="ml-auto min-w-5 rounded-full bg-primary px-1.5 text-center text-[0.7rem] leading-5 font-medium text-primary-foreground tabular-nums"
                    >
                      {item.badge}
                    </span>
                  )}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      {footer && <div className="shrink-0 border-t border-sidebar-border p-2">{footer}</div>}
    </div>
  );
}

export { AppSidebar, type AppSidebarProps };
