import { getDb } from "@/lib/db/client";
import { statement } from "@/lib/db/statement";
import { newId } from "@/lib/ids";
import { noNul } from "@/lib/mail/mail-blob";

export interface Rejection {
  remoteIp: string | null;
  helo: string | null;
  mailFrom: string | null;
  rcpt: string;
  code: number;
  reason: string;
}

/**
 * One row when the refusal belongs to a project: the recipient is one of its mailboxes (disabled ones included),
 * else its domain is one of the project's custom domains. Refusals for the shared default domain's unknown
 * addresses and for foreign domains belong to nobody and are not kept.
 */
const insertRejection = statement<
  never,
  [id: string, rcpt: string, domain: string, ip: string | null, helo: string | null, from: string | null, code: string, reason: string]
>(`
  insert into mail_rejections (id, project_id, mailbox_id, remote_ip, helo, mail_from, rcpt, smtp_code, reason)
  select $1, coalesce(m.project_id, d.project_id), m.id, $4, $5, $6, $2, $7, $8
  from (select 1) as one
  left join lateral (select id, project_id from mailboxes where address = $2 and deleted_at is null limit 1) m on true
  left join lateral (select project_id from mail_domains where domain = $3 and project_id is not null limit 1) d on true
  where coalesce(m.project_id, d.project_id) is not null`);

/** Writes in flight at once; past this a refusal is only logged (a flood of refusals must not queue without end). */
const MAX_PENDING = 32;
let pending = 0;

/**
 * Rows kept per recipient domain a minute. Anyone may connect and name unknown addresses of a project's domain, one
 * RCPT after another, and each refusal was a row kept 30 days: a sender at line rate wrote thousands a second into
 * the owner's database. Past this a refusal is still answered, just not recorded: the screen shows what the flood
 * looked like, not every line of it.
 */
const PER_DOMAIN_PER_MINUTE = 60;
const recorded = new Map<string, { count: number; resetAt: number }>();

function mayRecord(domain: string): boolean {
  const now = Date.now();
  const entry = recorded.get(domain);
  if (!entry || entry.resetAt <= now) {
    // Domains here are mostly this instance's; a 452's recipient may be any, so the map is bounded anyway.
    if (recorded.size >= 1000) recorded.clear();
    recorded.set(domain, { count: 1, resetAt: now + 60_000 });
    return true;
  }
  return ++entry.count <= PER_DOMAIN_PER_MINUTE;
}

/**
 * Records an SMTP-time refusal for the owner's "why did my mail not arrive" (Rejected mail screen), in the
 * background: the SMTP reply never waits for it, and a failure is logged, never answered to the client.
 */
export function recordRejection(r: Rejection, onError: (err: unknown) => void): Promise<void> {
  if (pending >= MAX_PENDING) {
    onError(new Error(`rejection of ${r.rcpt} not recorded: ${MAX_PENDING} writes already pending`));
    return Promise.resolve();
  }
  const rcpt = r.rcpt.trim().toLowerCase().slice(0, 320);
  const domain = rcpt.slice(rcpt.lastIndexOf("@") + 1);
  if (!mayRecord(domain)) return Promise.resolve();
  pending++;
  const clip = (s: string | null) => (s === null ? null : noNul(s).slice(0, 320));
  return getDb()
    .then((db) => insertRejection(db, newId("rej"), rcpt, domain, r.remoteIp, clip(r.helo), clip(r.mailFrom), String(r.code), r.reason.slice(0, 500)))
    .then(
      () => undefined,
      (err) => onError(err),
    )
    .finally(() => pending--);
}
