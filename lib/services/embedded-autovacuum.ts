import { getHandle } from "@/lib/db/client";
import { autovacuumPass } from "@/lib/db/autovacuum-pass";
import type { Service } from "@/lib/services/start-services";

/** As autovacuum's naptime: each minute the statistics say which tables need work (a pass over none costs a query). */
const EVERY_MS = 60_000;

/**
 * Embedded PGlite only: the autovacuum a PostgreSQL server runs itself (lib/db/autovacuum-pass.ts says why). On
 * PostgreSQL this service does nothing.
 */
export const embeddedAutovacuum: Service = {
  name: "embedded autovacuum",
  async start() {
    const handle = await getHandle();
    if (handle.kind !== "pglite") return async () => {};
    let running: Promise<unknown> | null = null;
    const pass = () => {
      running ??= autovacuumPass(handle.db)
        .catch((err) => console.error("[brynth] embedded autovacuum failed", err))
        .finally(() => (running = null));
    };
    const timer = setInterval(pass, EVERY_MS);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await running;
    };
  },
};
