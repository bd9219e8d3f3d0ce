"use client";

import * as React from "react";
import { usePathname } from "next/navigation";
import { Menu } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetTitle } from "@/components/ui/sheet";
import { AppSidebar } from "@/components/shell/app-sidebar";
import { Breadcrumbs, type Crumb } from "@/components/shell/breadcrumbs";
import { TopBar } from "@/components/shell/top-bar";
import { findActiveItem } from "@/components/shell/active-nav";
import type { NavItem } from "@/components/shell/nav-icons";

type DashboardShellProps = {
  /** Only screens that exist; the layout builds this list. */
  navItems: readonly NavItem[];
  projectSwitcher?: React.ReactNode;
  sidebarFooter?: React.ReactNode;
  ownerMenu?: React.ReactNode;
  topBarActions?: React.ReactNode;
  /** Replaces the breadcrumb trail derived from the nav and the URL. */
  title?: React.ReactNode;
  children: React.ReactNode;
};

/** "custom-domains" → "Custom domains"; ids such as "evt_3kX9…" are kept as they are. */
function segmentLabel(segment: string): string {
  const text = decodeURIComponent(segment);
  if (!/^[a-z][a-z-]*$/.test(text)) return text;
  const words = text.replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function buildTrail(items: readonly NavItem[], pathname: string): Crumb[] {
  const active = findActiveItem(items, pathname);
  if (!active) return [];
  const base = active.href.replace(/\/+$/, "");
  const trail: Crumb[] = [{ label: active.label, href: active.href }];
  let href = base;
  for (const segment of pathname.slice(base.length).split("/").filter(Boolean)) {
    href = `${href}/${segment}`;
    trail.push({ label: segmentLabel(segment), href });
  }
  return trail;
}

function DashboardShell({ navItems, projectSwitcher, sidebarFooter, ownerMenu, topBarActions, title, children }: DashboardShellProps) {
  const pathname = usePathname();
  const [mobileOpen, setMobileOpen] = React.useState(false);
  const trail = React.useMemo(() => buildTrail(navItems, pathname), [navItems, pathname]);

  // The sheet is md:hidden, but its overlay would linger if the window grows past md while it is open.
  React.useEffect(() => {
    const desktop = window.matchMedia("(min-width: 48rem)");
    const close = () => desktop.matches && setMobileOpen(false);
    desktop.addEventListener("change", close);
    return () => desktop.removeEventListener("change", close);
  }, []);

  return (
    <div className="flex min-h-svh bg-background">
      <a href="#main" className="sr-only z-50 rounded-md bg-background px-3 py-2 text-sm shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
        Skip to content
      </a>
      <aside className="sticky top-0 hidden h-svh w-60 shrink-0 border-r border-sidebar-border md:block">
        <AppSidebar items={navItems} header={projectSwitcher} footer={sidebarFooter} />
      </aside>
      <Sheet open={mobileOpen} onOpenChange={setMobileOpen}>
        <SheetContent side="left" className="w-64 gap-0 p-0 md:hidden" aria-describedby={undefined}>
          <SheetTitle className="sr-only">Navigation</SheetTitle>
          <AppSidebar items={navItems} header={projectSwitcher} footer={sidebarFooter} onNavigate={() => setMobileOpen(false)} />
        </SheetContent>
      </Sheet>
      <div className="flex min-w-0 flex-1 flex-col">
        <TopBar
          leading={
            <Button variant="ghost" size="icon-sm" className="-ml-1 md:hidden" aria-label="Open navigation" onClick={() => setMobileOpen(true)}>
              <Menu />
            </Button>
          }
          title={title ?? <Breadcrumbs items={trail} />}
          actions={topBarActions}
          ownerMenu={ownerMenu}
        />
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-screen-2xl flex-1 px-4 py-6 outline-none md:px-8">
          {children}
        </main>
      </div>
    </div>
  );
}

export { DashboardShell, type DashboardShellProps };
