import { domainToASCII } from "node:url";
import { authenticate } from "mailauth";
import type { MailAuthVerdicts } from "@/lib/db/schema/mail";
import type { MailDnsResolver } from "@/lib/mail/inbound/dns-resolver";
import { mailHostname } from "@/lib/mail/domains/mail-domain-name";
import { fromDisagreement, undersizedPass } from "@/lib/mail/inbound/from-agreement";

/**
 * SPF, DKIM and DMARC computed here with mailauth from the SMTP session (client IP, HELO, MAIL FROM) and the
 * message. Any Authentication-Results header the sender put in is ignored: only these verdicts are stored.
 * A DNS failure gives `temperror` verdicts, never a refused message. DMARC stands only for the From shown
 * (`from`, the parsed sender) and only on a signature that covers the whole body (from-agreement.ts): otherwise it
 * is `fail`, and DKIM resting on unsigned text is `policy` (RFC 8601), each with the reason first in `details`.
 */
export async function authenticateMessage(
  raw: Buffer,
  opts: { ip: string; helo: string | null; sender: string | null; from: string | null; resolver: MailDnsResolver },
): Promise<MailAuthVerdicts> {
  const end = headerEnd(raw);
  const lines = headerLines(raw, end);
  if (lines > MAX_HEADER_LINES) {
    // Nothing judged passes: the message is unauthenticated, as one whose checks all failed (a spoof must not get
    // past DMARC by padding its header).
    const why = `brynth: the header has ${lines} lines, more than the ${MAX_HEADER_LINES} authentication reads`;
    return { spf: "permerror", dkim: "permerror", dmarc: "permerror", details: why };
  }
  try {
    const fromDomain = opts.from ? domainToASCII(opts.from.slice(opts.from.lastIndexOf("@") + 1)).toLowerCase() || null : null;
    const res = await authenticate(signaturesToVerify(raw, MAX_DKIM_SIGNATURES, fromDomain, end), {
      ip: opts.ip,
      helo: opts.helo ?? undefined,
      sender: asciiSender(opts.sender ?? ""),
      mta: mailHostname(),
      resolver: opts.resolver,
      disableArc: true,
      disableBimi: true,
    });
    const results = res.dkim?.results ?? [];
    const passes = results.filter((r) => r.status?.result === "pass");
    const passing = passes.find((r) => !r.status?.underSized) ?? passes[0];
    const dmarc = res.dmarc || null;
    const problem =
      fromDisagreement(res.dkim?.headerFrom ?? [], opts.from) ??
      (dmarc?.status?.result === "pass"
        ? undersizedPass({ unsignedBytes: Number(dmarc.alignment?.dkim?.underSized ?? 0), spfAligned: Boolean(dmarc.alignment?.spf?.result) })
        : null);
    return {
      spf: (res.spf && res.spf.status?.result) || "none",
      dkim: !passing ? (results[0]?.status?.result ?? "none") : passing.status?.underSized ? "policy" : "pass",
      dmarc: problem ? "fail" : dmarc?.status?.result || "none",
      dkim_domain: passing?.signingDomain ?? null,
      details: `${problem ? `brynth: ${problem}\n` : ""}${(res.headers ?? "").trim()}`.slice(0, 4000),
    };
  } catch (err) {
    return {
      spf: "temperror",
      dkim: "temperror",
      dmarc: "temperror",
      details: `authentication failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500),
    };
  }
}

/**
 * DKIM signatures verified per message. mailauth verifies every one, each with a key lookup (one after another, up to
 * MAIL_DNS_TIMEOUT_MS each on a name server the sender runs) and each `l=` value with a hash of the whole body: 300
 * signatures on a 133 KB message hashed 30 MB, 1,000 on 206 KB stalled the process 3 s, and slow lookups held the
 * listener's byte budget until every other sender got 452 (found by helper-116). RFC 6376 §6.1 lets a verifier
 * limit how many it checks; mail carries one to three.
 */
export const MAX_DKIM_SIGNATURES = 5;

/** A DKIM-Signature field's length at most: a 2048-bit signature with a long h= list is under 2,000 characters. */
export const MAX_SIGNATURE_CHARS = 8192;

/**
 * The message with at most `max` of its DKIM-Signature fields, every other byte as it came (the signatures cover
 * them; latin1 reads one character a byte). Those whose d= aligns with the From domain are kept first, since DMARC
 * rests on them, then the topmost (the last hops'): keeping the topmost alone dropped the author's own signature
 * below five forwarders', and genuine mail failed DMARC (found by helper-123). Fields are told apart as mailauth
 * tells them: a line starting with any white space continues the field, and the name is what precedes the colon,
 * trimmed; `DKIM-Signature\f:` was verified by mailauth and not counted here (found by helper-123).
 */
export function signaturesToVerify(raw: Buffer, max: number, fromDomain: string | null, end = headerEnd(raw)): Buffer {
  const head = raw.subarray(0, end).toString("latin1");
  const fields = head.split(/(?<=\n)(?=\S)/);
  const signatures = fields.flatMap((f, i) => (fieldName(f) === "dkim-signature" ? [i] : []));
  // A signature longer than any real one is not verified: mailauth scans every header field for each name of its h=
  // list, and one h= of 120,000 names over 4,000 header lines held the event loop 5-8 s (found by helper-124).
  const oversized = signatures.filter((i) => fields[i].length > MAX_SIGNATURE_CHARS);
  if (signatures.length <= max && oversized.length === 0) return raw;
  const aligned = (i: number) => aligns(signingDomain(fields[i]), fromDomain);
  const usable = signatures.filter((i) => !oversized.includes(i));
  const keep = new Set([...usable.filter(aligned), ...usable.filter((i) => !aligned(i))].slice(0, max));
  const kept = fields.filter((_, i) => !signatures.includes(i) || keep.has(i));
  return Buffer.concat([Buffer.from(kept.join(""), "latin1"), raw.subarray(end)]);
}

const fieldName = (field: string) => {
  const colon = field.indexOf(":");
  return colon < 0 ? null : field.slice(0, colon).trim().toLowerCase();
};

const signingDomain = (field: string) => /[:;]\s*d\s*=\s*([^;\s]+)/i.exec(field)?.[1]?.toLowerCase() ?? null;

/** Relaxed alignment, near enough for choosing: one domain is the other or under it. */
function aligns(d: string | null, from: string | null): boolean {
  if (!d || !from) return false;
  return d === from || from.endsWith(`.${d}`) || d.endsWith(`.${from}`);
}

/**
 * Header lines (folded ones included) authentication reads at most. mailauth joins a field's folded lines with a
 * concat and a splice each, quadratic: one header folded over 30,000 lines (120 KB) held the event loop 5 s, over
 * 1,000,000 (4 MB, far under the message limit) more than ten minutes, and everything of the process with it
 * (found by helper-114). Real mail has a few hundred.
 */
export const MAX_HEADER_LINES = 5000;

/** Where the header block ends: after the line before the first empty one (CRLF, or a bare LF as some clients send). */
function headerEnd(raw: Buffer): number {
  const crlf = raw.indexOf("\r\n\r\n");
  const lf = raw.indexOf("\n\n");
  return Math.min(crlf < 0 ? raw.length : crlf + 2, lf < 0 ? raw.length : lf + 1);
}

function headerLines(raw: Buffer, end: number): number {
  let n = 0;
  for (let at = raw.indexOf(10); at >= 0 && at < end && n <= MAX_HEADER_LINES; at = raw.indexOf(10, at + 1)) n++;
  return n;
}

/**
 * The SMTP server hands over an IDN envelope sender in Unicode (`info@bücher.example`), and mailauth's SPF gives a
 * domain it cannot look up `none` without asking DNS: a sender of an IDN domain never passed SPF. Its ASCII form
 * is the same domain, and what DNS holds.
 */
function asciiSender(sender: string): string {
  const at = sender.lastIndexOf("@");
  const domain = sender.slice(at + 1);
  return /[^\p{ASCII}]/u.test(domain) ? `${sender.slice(0, at + 1)}${domainToASCII(domain) || domain}` : sender;
}

/** Our own mailboxes delivering to each other: signed by us, no hop to check. */
export const localVerdicts = (): MailAuthVerdicts => ({ spf: "pass", dkim: "pass", dmarc: "pass", local: true, details: "delivered locally by this instance" });
