import type { Executor } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

export interface SystemMail {
  projectId: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The one door from approvals to the mail engine: queues a message from the project address in the caller's transaction. */
export async function queueSystemMail(_tx: Executor, _mail: SystemMail): Promise<void> {
  throw new AppError("service_unavailable", "Email is not available yet.");
}
