import { getDb } from "@/lib/db/client";
import { sealAllPending } from "@/lib/ledger/seal-entries";
import type { Service } from "@/lib/services/start-services";

const SWEEP_MS = 1000;

/** Chains entries no in-process sealer picked up (a crash between commit and seal, or work done by jobs). */
export const ledgerSealer: Service = {
  name: "ledger sealer",
  async start() {
    const db = await getDb();
    await sealAllPending(db);
    let running = false;
    const timer = setInterval(async () => {
      if (running) return;
      running = true;
      await sealAllPending(db).catch((err) => console.error("[brynth] ledger sweep failed", err));
      running = false;
    }, SWEEP_MS);
    timer.unref();
    return async () => clearInterval(timer);
  },
};
