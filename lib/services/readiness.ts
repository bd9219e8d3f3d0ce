import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { serverStarting } from "@/lib/services/server-starting";
import { serverStopping } from "@/lib/services/server-stopping";

/** How long a probe waits for the database before it says so: a probe's own timeout should be longer (README). */
const DATABASE_CHECK_TIMEOUT_MS = 2_000;
/** A check's answer serves every probe for this long, so probes, which need no credentials, cost at most one query a second. */
const FRESH_MS = 1_000;

export type DatabaseCheck = "ok" | "unreachable" | "timeout";
export type Readiness = { status: "ready" | "unavailable"; checks: { database: DatabaseCheck } } | { status: "starting" | "stopping" };

let last: { at: number; result: DatabaseCheck } | undefined;
/**
 * The one query outstanding: a database that does not answer holds one, never one per probe. One that has not
 * settled after ABANDON_MS is left to itself and another is sent, so a query lost on a broken connection does not
 * keep the instance unready after the database is back.
 */
let query: { result: Promise<DatabaseCheck>; since: number } | undefined;
const ABANDON_MS = 10_000;
let reported: DatabaseCheck = "ok";

/**
 * Whether this instance should be sent traffic (GET /readyz): not before its services have started (server-starting.ts),
 * not while it stops (a balancer then moves its clients on before the drain cuts anything), and not while the
 * database, which every request but the probes needs, does not answer within DATABASE_CHECK_TIMEOUT_MS.
 */
export async function readiness(): Promise<Readiness> {
  if (serverStopping().aborted) return { status: "stopping" };
  if (serverStarting()) return { status: "starting" };
  const database = await databaseCheck();
  return { status: database === "ok" ? "ready" : "unavailable", checks: { database } };
}

async function databaseCheck(): Promise<DatabaseCheck> {
  const now = performance.now();
  if (last && now - last.at < FRESH_MS) return last.result;
  if (!query || now - query.since > ABANDON_MS) {
    const sent = { result: selectOne(), since: now };
    sent.result.finally(() => query === sent && (query = undefined));
    query = sent;
  }
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(resolve, DATABASE_CHECK_TIMEOUT_MS, "timeout")));
  const result = await Promise.race([query.result, timedOut]).finally(() => clearTimeout(timer));
  last = { at: performance.now(), result };
  if (result !== reported) {
    console.log(result === "ok" ? "[brynth] readiness: the database answers again" : `[brynth] readiness: not ready, database ${result}`);
    reported = result;
  }
  return result;
}

function selectOne(): Promise<DatabaseCheck> {
  return getDb()
    .then((db) => db.execute(sql`select 1`))
    .then(
      () => "ok" as const,
      (err) => {
        // The probe's answer names no cause (it needs no credentials); the log does.
        if (reported === "ok") console.error("[brynth] readiness: the database check failed:", err instanceof Error ? err.message : err);
        return "unreachable" as const;
      },
    );
}

/** Tests only: the next probe checks the database again. */
export function resetReadiness(): void {
  last = undefined;
  query = undefined;
  reported = "ok";
}
