import { z } from "zod";
import { changeChannel } from "@/lib/db/change-channel";

const change = z.object({ project: z.string(), mailbox: z.string().nullable() });
export type MailEventChange = z.infer<typeof change>;

/**
 * "New mail events in this mailbox" notices, of every project (listeners filter): a notice carries no event, a
 * listener reads mail_events after the last `seq` it saw (webhook fan-out, the live stream). One notice per
 * mailbox per transaction however many events it wrote (emitMailEvent).
 */
const channel = changeChannel("brynth_mail_events", change);

export const MAIL_EVENTS_CHANNEL = channel.name;
/** Told after `db`'s commit (change-channel.ts). */
export const notifyMailEvents = channel.notify;
export const onMailEvents = channel.subscribe;
