import type { NavItem } from "@/components/shell/nav-icons";

/**
 * The dashboard navigation, in the UI brief's order. A screen is listed here only once it exists; each screen's
 * author adds its line. Badges (live counts) are filled in by the layout.
 */
export const navItems: NavItem[] = [
  { href: "/", label: "Overview", icon: "overview" },
  { href: "/approvals", label: "Approvals", icon: "approvals" },
  { href: "/events", label: "Events", icon: "events" },
  { href: "/sources", label: "Sources", icon: "sources" },
  { href: "/mail", label: "Mailboxes", icon: "mailboxes" },
  { href: "/disk", label: "Disk", icon: "disk" },
  { href: "/ledger", label: "Ledger", icon: "ledger" },
  { href: "/channels", label: "Channels", icon: "channels" },
  { href: "/policy", label: "Policy", icon: "policy" },
  { href: "/api-keys", label: "API keys", icon: "api-keys" },
  { href: "/settings", label: "Settings", icon: "settings" },
];
