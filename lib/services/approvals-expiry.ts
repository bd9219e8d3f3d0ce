import { getDb } from "@/lib/db/client";
import { expireRequests } from "@/lib/approvals/expire-requests";
import type { Service } from "@/lib/services/start-services";

const SWEEP_MS = 1000;
const g = globalThis as { __brynthExpiryTimer?: NodeJS.Timeout };

/**
 * Expires overdue requests every second, so each one gets its `expired` status and `request.resolved` event (and
 * callback) even when no agent is waiting on it. Waiters and request_status expire their own request at once.
 */
export const approvalsExpiry: Service = {
  name: "approvals expiry",
  async start() {
    const db = await getDb();
    let running = false;
    const sweep = async () => {
      if (running) return;
      running = true;
      try {
        while ((await db.transaction((tx) => expireRequests(tx, { limit: 100 }))).length === 100);
      } catch (err) {
        console.error("[brynth] approvals expiry failed", err);
      } finally {
        running = false;
      }
    };
    if (g.__brynthExpiryTimer) clearInterval(g.__brynthExpiryTimer);
    const timer = setInterval(sweep, SWEEP_MS);
    timer.unref();
    g.__brynthExpiryTimer = timer;
    await sweep();
    return async () => {
      clearInterval(timer);
      if (g.__brynthExpiryTimer === timer) g.__brynthExpiryTimer = undefined;
    };
  },
};
