import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { Mailbox } from "@/lib/db/schema/mail";
import { fieldError } from "@/lib/disk/field-error";
import { plainAddress } from "@/lib/mail/outbound/address-rules";
import type { StoredMessage } from "@/lib/mail/lookup/find-message";
import type { SendRequest } from "@/lib/mail/send/send-request";
import type { AttachmentInput } from "@/lib/mail/send/attachment-input";
import { sliceWhole } from "@/lib/text/well-formed";
import { SEND_SUBJECT_MAX_CHARS } from "@/lib/tools/mailboxes/send-fields";

/** What a reply or forward caller may say; everything left out is derived from the original (or empty). */
export interface DerivedSendInput {
  to?: string[];
  cc?: string[];
  bcc?: string[];
  replyTo?: string[];
  /** Drafts may set their own subject; reply_to_message never passes one. */
  subject?: string;
  text?: string | null;
  html?: string | null;
  labels?: string[];
  attachments?: AttachmentInput[];
  headers?: Record<string, string>;
  replyAll?: boolean;
}

/** A long conversation's References would grow without bound: the first id (the thread's root) and the newest ones. */
const MAX_REFERENCES = 50;

const RE = /^re\s*(?:\[\d+\]|\(\d+\))?\s*:/i;

/**
 * `<prefix> <original>` unless it already starts so, held to the rule a subject an agent types meets: one line, at
 * most SEND_SUBJECT_MAX_CHARS. An outsider's encoded-word subject may decode to CR LF: the stored reply said
 * "Re: a\r\nBcc: x" while the recipient got it flattened; and it was not capped, a 3000-character word became a
 * 2001-character header line (found by helper-118).
 */
export function derivedSubject(prefix: string, already: RegExp, subject: string | null): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const s = (subject ?? "").replace(/[\u0000-\u0008\u000a-\u001f\u007f]+/g, " ").trim();
  const full = already.test(s) ? s : `${prefix} ${s}`.trimEnd();
  return sliceWhole(full, SEND_SUBJECT_MAX_CHARS).trimEnd();
}

/** `Re: <original>`, never `Re: Re: …`. */
export const replySubject = (subject: string | null) => derivedSubject("Re:", RE, subject);

/** RFC 5322 §3.6.4: the parent's References (or its In-Reply-To) followed by the parent's own Message-ID. */
export function replyReferences(original: Pick<StoredMessage, "references" | "inReplyTo" | "rfcMessageId">): string[] {
  const base = original.references.length > 0 ? original.references : original.inReplyTo ? [original.inReplyTo] : [];
  const all = [...new Set([...base, ...(original.rfcMessageId ? [original.rfcMessageId] : [])])];
  return all.length <= MAX_REFERENCES ? all : [all[0], ...all.slice(all.length - (MAX_REFERENCES - 1))];
}

/** Addresses in order, each once (case-insensitively), without any in `minus`. */
function distinct(list: readonly string[], minus: readonly string[]): string[] {
  const seen = new Set(minus.map((a) => a.toLowerCase()));
  const out: string[] = [];
  for (const a of list) {
    const k = a.toLowerCase();
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(a);
  }
  return out;
}

/**
 * Derived recipients come from someone else's headers, which may hold addresses an agent could not give itself (a
 * quoted local part `"a, b"@x`, an IP literal): the relay's envelope cannot carry them as written, and one was
 * silently left out while the message showed it as a recipient. Such a reply is refused, naming the field to use.
 */
function assertPlain(list: readonly string[], field: string): void {
  const odd = list.find((a) => !plainAddress.safeParse(a).success);
  if (odd === undefined) return;
  throw fieldError(
    field,
    `the original names ${JSON.stringify(odd)}, which is not a plain address local@domain that can be replied to`,
    "Give the recipients yourself in to (and cc), as plain addresses.",
  );
}

/**
 * A reply to a stored message as a send (reply_to_message, reply drafts): subject `Re: …`, the original's thread,
 * In-Reply-To its Message-ID and References the chain plus it. Recipients: the original's Reply-To, else its From;
 * answering our own sent message goes back to its recipients. `replyAll` adds the original's to and cc, never our
 * own address. Recipients the caller gives replace the derived ones (replyAll with them is refused earlier, by zod).
 */
export async function replyRequest(
  _db: Executor,
  o: { actor: Actor; mailbox: Mailbox; original: StoredMessage; input: DerivedSendInput },
): Promise<SendRequest> {
  const { original: m, input } = o;
  const own = [o.mailbox.address];
  const ours = m.direction === "outbound";
  const primary = ours ? m.to : m.replyToAddresses.length > 0 ? m.replyToAddresses : m.fromAddress ? [m.fromAddress] : [];
  const to = input.to ?? distinct(primary, ours ? [] : own);
  const cc = input.cc ?? (input.replyAll ? distinct(ours ? m.cc : [...m.to, ...m.cc], [...own, ...to]) : []);
  if (input.to === undefined) assertPlain(to, "to");
  if (input.cc === undefined) assertPlain(cc, "replyAll");
  return {
    kind: "reply",
    to,
    cc,
    bcc: input.bcc ?? [],
    replyTo: input.replyTo ?? [],
    subject: input.subject ?? replySubject(m.subject),
    text: input.text ?? null,
    html: input.html ?? null,
    labels: input.labels ?? [],
    headers: input.headers ?? {},
    attachments: input.attachments ?? [],
    kept: [],
    thread: { id: m.threadId, inReplyTo: m.rfcMessageId, references: replyReferences(m), inReplyToMessageId: m.id },
    inReplyToMessageId: m.id,
    forwardOfMessageId: null,
    replyAll: input.replyAll ?? false,
  };
}
