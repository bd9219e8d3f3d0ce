import { expect, type Page } from "@playwright/test";
import { navItems } from "../app/(dashboard)/nav";
import type { DetailData } from "./detail-data";

/** The sidebar's screens, the Mailboxes sub-screens, the Events refusals log, a ledger entry and the Disk tabs. */
export const FIXED_SCREENS = [
  ...navItems.map((n) => n.href),
  "/mail/drafts",
  "/mail/outbound",
  "/mail/quarantine",
  "/mail/rejected",
  "/mail/lists",
  "/mail/webhooks",
  "/mail/domains",
  "/mail/settings",
  "/events/refused",
  "/ledger/1",
  // The Disk tabs that page with cursors of their own (the default tab is Keys).
  "/disk?tab=files",
  "/disk?tab=links",
];

/** Detail screens reached from a list: the first link of that shape, when the instance has one yet. */
const DETAILS: Array<{ list: string; link: string }> = [
  { list: "/events", link: 'a[href^="/events/evt_"]' },
  { list: "/approvals?view=history", link: 'a[href^="/approvals/req_"]' },
  { list: "/mail/outbound", link: 'a[href^="/mail/outbound/msg_"]' },
  { list: "/mail", link: 'a[href^="/mail/mbx_"]' },
];

/** Every dashboard screen of the signed-in owner's current project: the fixed ones, then the details it has. */
export async function dashboardScreens(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const d of DETAILS) {
    await page.goto(d.list);
    const href = await page
      .locator(d.link)
      .first()
      .getAttribute("href", { timeout: 2_000 })
      .catch(() => null);
    if (href) found.push(href);
  }
  return [...FIXED_SCREENS, ...found];
}

/**
 * Every detail screen type the dashboard has (each `[param]` route under app/(dashboard), and the views a list opens
 * by its query string), on the objects seedDetailData made. Ids the REST answers gave are used as they are; the
 * event, the outbound message and the thread are taken from the screens that link to them, once they show there.
 */
export async function detailScreens(page: Page, data: DetailData): Promise<string[]> {
  const linked = async (list: string, link: string, hasText?: string) => {
    let href: string | null = null;
    await expect(async () => {
      await page.goto(list);
      const a = page.locator(link).filter(hasText ? { hasText } : {});
      href = await a.first().getAttribute("href", { timeout: 2_000 });
    }, `${list} links to ${link}`).toPass({ timeout: 30_000 });
    return href as unknown as string;
  };
  return [
    await linked("/events", 'a[href^="/events/evt_"]'),
    `/approvals/${data.requestId}`,
    `/approvals/${data.decidedRequestId}`,
    await linked("/mail/outbound", 'a[href^="/mail/outbound/msg_"]'),
    `/mail/${data.inboxId}`,
    // The received HTML mail is unauthenticated (no SPF or DKIM from 127.0.0.1): shown behind its toggle.
    await linked(`/mail/${data.inboxId}?unauth=1`, 'a[href*="thread="]', data.receivedSubject),
    `/mail/drafts?draft=${data.draftId}`,
    `/mail/webhooks?webhook=${data.webhookId}`,
    `/policy?version=${data.policyVersion}`,
    `/disk?tab=keys&key=${encodeURIComponent(data.kvKey)}`,
  ];
}
