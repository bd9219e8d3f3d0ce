import { getDb } from "@/lib/db/client";
import { sweepDisk } from "@/lib/disk/sweep-disk";
import { sweepErasures } from "@/lib/blob/sweep-erasures";
import type { Service } from "@/lib/services/start-services";

const SWEEP_MS = 60_000;

/**
 * Abandoned uploads, expired keys and erased files (lib/disk/sweep-disk.ts), and deleted projects' blobs
 * (lib/blob/sweep-erasures.ts), once a minute. Every instance may run
 * it: the sweep claims its rows, so passes on several instances never collide.
 */
export const diskJanitor: Service = {
  name: "disk janitor",
  async start() {
    const db = await getDb();
    let running: Promise<unknown> | null = null;
    const pass = () => {
      running ??= Promise.all([sweepDisk(db), sweepErasures(db)])
        .catch((err) => console.error("[brynth] disk janitor pass failed", err))
        .finally(() => (running = null));
    };
    pass();
    const timer = setInterval(pass, SWEEP_MS);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await running;
    };
  },
};
