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
  { href: "/mail/webhooks", label: "Webhooks" },
] as const;

/**
 * The mail screens' sub-navigation: plain links, so each tab has its own URL. On a phone the row scrolls sideways
 * on its own instead of widening the page; inactive tabs use the foreground colour dimmed, as muted grey on the
 * muted background falls short of 4.5:1.
 */
export function MailTabs({ current }: { current: (typeof tabs)[number]["href"] }) {
  return (
    <nav
      aria-label="Mail sections"
      className="inline-flex h-9 w-fit max-w-full items-center overflow-x-auto rounded-lg bg-muted p-[3px] text-sm text-foreground/75"
    >
      {tabs.map((t) => (
        <Link
          key={t.href}
          href={t.href}
          aria-current={t.href === current ? "page" : undefined}
          className={cn(
            "inline-flex h-full shrink-0 items-center rounded-md px-3 font-medium whitespace-nowrap transition-colors hover:text-foreground",
            t.href === current && "bg-background text-foreground shadow-sm",
          )}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
