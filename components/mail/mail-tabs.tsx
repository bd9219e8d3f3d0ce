import Link from "next/link";
import { cn } from "@/lib/utils";

const tabs = [
  { href: "/mail", label: "Mailboxes" },
  { href: "/mail/drafts", label: "Drafts" },
  { href: "/mail/outbound", label: "Outbound mail" },
  { href: "/mail/domains", label: "Domains" },
  { href: "/mail/settings", label: "Mail settings" },
  { href: "/mail/quarantine", label: "Quarantine" },
  { href: "/mail/rejected", label: "Rejected mail" },
  { href: "/mail/lists", label: "Lists" },
] as const;

/** The mail screens' sub-navigation: plain links, so each tab has its own URL. */
export function MailTabs({ current }: { current: (typeof tabs)[number]["href"] }) {
  return (
    <nav aria-label="Mail sections" className="inline-flex h-9 w-fit items-center rounded-lg bg-muted p-[3px] text-sm text-muted-foreground">
      {tabs.map((t) => (
        <Link
          key={t.href}
          href={t.href}
          aria-current={t.href === current ? "page" : undefined}
          className={cn(
            "inline-flex h-full items-center rounded-md px-3 font-medium transition-colors hover:text-foreground",
            t.href === current && "bg-background text-foreground shadow-sm",
          )}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
