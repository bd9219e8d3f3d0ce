import { BookText, HardDrive, Inbox, KeyRound, LayoutDashboard, Mail, RadioTower, Scale, Settings, ShieldCheck, Webhook, type LucideIcon } from "lucide-react";

/**
 * Nav items name their icon instead of passing the component, because the layout (a server component)
 * cannot pass functions to the client sidebar.
 */
export const navIcons = {
  overview: LayoutDashboard,
  approvals: ShieldCheck,
  events: Inbox,
  sources: Webhook,
  mailboxes: Mail,
  disk: HardDrive,
  ledger: BookText,
  channels: RadioTower,
  policy: Scale,
  "api-keys": KeyRound,
  settings: Settings,
} satisfies Record<string, LucideIcon>;

export type NavIconName = keyof typeof navIcons;

export type NavItem = {
  href: string;
  label: string;
  icon: NavIconName;
  /** e.g. the pending-approvals count; hidden when 0, null or undefined. */
  badge?: number | string | null;
};
