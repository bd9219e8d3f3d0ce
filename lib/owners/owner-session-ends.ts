import type { Executor } from "@/lib/db/client";
import { publish } from "@/lib/db/change-channel";
import { afterCommit } from "@/lib/db/transaction";

/** Notified after a commit that ended owner sessions: live streams opened with one close (credential-ends.ts). */
export const OWNER_SESSIONS_CHANNEL = "brynth_owner_sessions";

export function announceOwnerSessionsEnded(db: Executor): void {
  afterCommit(db, () => publish(OWNER_SESSIONS_CHANNEL, null));
}
