import type { Executor } from "@/lib/db/client";
import { sendSystemEmail } from "@/lib/mail/send-system-email";

export interface SystemMail {
  projectId: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Links only the recipient may hold: withheld from the copy agents can read (send-system-email.ts). */
  secrets?: string[];
}

/**
 * The one door from approvals to the mail engine: a message from the project address, queued in the caller's
 * transaction (marked Auto-Submitted, outside the agents' quota). Throws service_unavailable when the address is
 * outside this instance and no relay is set.
 */
export async function queueSystemMail(tx: Executor, mail: SystemMail): Promise<void> {
  await sendSystemEmail(tx, { ...mail, subject: mail.subject.replace(/[\r\n]+/g, " ") });
}
