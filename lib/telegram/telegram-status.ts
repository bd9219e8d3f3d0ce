import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalSettings } from "@/lib/db/schema/approvals";
import { botMode } from "@/lib/telegram/bot-mode";

/** What the Channels screen shows about the project's bot; never the token. */
export async function telegramStatus(db: Executor, projectId: string) {
  const [row] = await db.select().from(approvalSettings).where(eq(approvalSettings.projectId, projectId));
  return {
    configured: Boolean(row?.telegramTokenEnc),
    username: row?.telegramUsername ?? null,
    error: row?.telegramError ?? null,
    mode: botMode(),
  };
}
