import nodemailer from "nodemailer";
import { z } from "zod";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { parseOrThrow } from "@/lib/validation";
import { signingKey } from "@/lib/mail/domains/domain-key";
import { defaultMailbox } from "@/lib/mail/project-address";
import { plainAddress } from "@/lib/mail/outbound/address-rules";
import { composeMessage } from "@/lib/mail/outbound/compose-message";
import { relayFor } from "@/lib/mail/outbound/relay-config";
import { transportOptions } from "@/lib/mail/outbound/relay-transport";

/**
 * The Mail settings screen's "send test message": a signed message from the project address straight through the
 * relay, waiting for its answer, so the owner sees at once whether host, TLS and login work. Not queued, not
 * counted toward the agents' limits.
 */
export async function testRelay(db: Executor, opts: { actor: Actor; to: string }) {
  const { to } = parseOrThrow(z.object({ to: plainAddress }), { to: opts.to });
  const relay = await relayFor(db, opts.actor.projectId);
  if (!relay) throw new AppError("service_unavailable", "No relay is configured.", { fix: "Save the relay settings first, or set SMTP_RELAY_URL." });
  const mailbox = await defaultMailbox(db, opts.actor.projectId);
  const id = newId("msg");
  const message = {
    rfcMessageId: `${id}@${mailbox.address.split("@")[1]}`,
    to: [to],
    cc: [],
    subject: "Brynth relay test",
    text: `This is a test message from ${mailbox.address}, sent through ${relay.host}:${relay.port}. If you can read it, outbound mail works.`,
    html: null,
    inReplyTo: null,
    references: [],
    headers: { "Auto-Submitted": "auto-generated" },
    customHeaders: {},
    replyToAddresses: [],
    createdAt: new Date(),
  };
  const raw = await composeMessage({
    message,
    from: { address: mailbox.address, name: mailbox.displayName },
    attachments: [],
    key: await signingKey(db, mailbox.domainId),
  });
  const transport = nodemailer.createTransport(transportOptions(relay));
  let response: string;
  try {
    const info = await transport.sendMail({ envelope: { from: mailbox.address, to: [to] }, raw });
    response = String(info.response ?? "250 OK");
  } catch (err) {
    const text = (err as { response?: string }).response ?? (err instanceof Error ? err.message : String(err));
    throw new AppError("service_unavailable", `The relay refused or could not be reached: ${text}`.slice(0, 500), {
      fix: "Check host, port, TLS mode and login, then try again.",
    });
  } finally {
    transport.close();
  }
  return { response, origin: relay.origin };
}
