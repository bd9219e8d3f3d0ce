import type { NavItem } from "@/components/shell/nav-icons";

/**
 * The longest href that equals the path or is a parent of it, so an overview at "/" or "/p/acme" does not
 * stay highlighted on every page beneath it.
 */
export function findActiveItem(items: readonly NavItem[], pathname: string): NavItem | undefined {
  let best: NavItem | undefined;
  for (const item of items) {
    const base = item.href.replace(/\/+$/, "") || "/";
    const matches = pathname === base || pathname.startsWith(base === "/" ? "/" : `${base}/`);
    if (matches && (!best || base.length > best.href.replace(/\/+$/, "").length)) best = item;
  }
  return best;
}
