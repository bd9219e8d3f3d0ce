import { and, eq, or, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { events } from "@/lib/db/schema/events";
import { query } from "@/lib/db/statement";
import { envelopeSelect, LIST_INLINE_BYTES, type EnvelopeRow } from "@/lib/events/event-envelope";
import { filterConditions } from "@/lib/events/list-events";
import { statusCondition } from "@/lib/events/event-status";
import { onEventChange } from "@/lib/events/events-channel";
import { typeCondition, typeMatches } from "@/lib/events/type-filter";
import { longPoll } from "@/lib/db/long-poll";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { takeWaitSlot } from "@/lib/keys/wait-slots";

/** A waiting call ends within 120 s, often much sooner: a short pause is worth retrying after. */
const WAIT_RETRY_S = 5;

/**
 * Long-poll for the first claimable event matching source/type, without claiming it. Woken by NOTIFY when an event
 * becomes claimable or changes state; timers cover what no NOTIFY announces (a lease or retry delay running out).
 * Runs outside any transaction; stops early when `signal` aborts (the client went away). A key already holding
 * KEY_MAX_WAITS waits is refused (wait-slots.ts) before anything is read.
 */
export async function waitForEvent(
  db: Executor,
  opts: { actor: Pick<Actor, "projectId" | "type" | "keyId">; source?: string; type?: string; timeoutMs: number; signal: AbortSignal },
): Promise<EnvelopeRow | null> {
  const release = takeWaitSlot(opts.actor);
  if (!release) {
    throw new AppError("rate_limited", `This key already has ${env().KEY_MAX_WAITS} waiting calls open, the most it may hold at once.`, {
      fix: `Wait for one of this key's waiting calls to return, or retry in ${WAIT_RETRY_S} s; one inbox_wait without source and type sees every event.`,
      details: { retry_after_seconds: WAIT_RETRY_S },
      headers: { "Retry-After": String(WAIT_RETRY_S) },
    });
  }
  try {
    return await waitFor(db, opts);
  } finally {
    release();
  }
}

async function waitFor(
  db: Executor,
  opts: { actor: Pick<Actor, "projectId">; source?: string; type?: string; timeoutMs: number; signal: AbortSignal },
): Promise<EnvelopeRow | null> {
  const waited = await longPoll<EnvelopeRow>({
    // A LISTEN re-established after a lost connection may have missed the arrival: look again then.
    subscribe: (wake) =>
      onEventChange((c) => {
        if (c.project !== opts.actor.projectId || c.status === "done" || c.status === "dead") return;
        if ((opts.source && c.source !== opts.source) || !typeMatches(opts.type, c.type)) return;
        wake();
      }, wake),
    check: async () => {
      const found = await firstClaimable(db, opts);
      return found ? { result: found } : { sleepMs: await msUntilNextChange(db, opts) };
    },
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
  });
  return "result" in waited ? waited.result : null;
}

async function firstClaimable(db: Executor, opts: { actor: Pick<Actor, "projectId">; source?: string; type?: string }) {
  const where = filterConditions(opts.actor.projectId, { status: "pending", source: opts.source, type: opts.type });
  const [row] = await query<EnvelopeRow>(
    db,
    sql`select ${sql.raw(envelopeSelect(LIST_INLINE_BYTES))} from events where ${and(...where)}
      order by events.received_at, events.id limit 1`,
  );
  return row ?? null;
}

/** Milliseconds until the next lease or retry delay of a matching live event runs out (database clock). */
async function msUntilNextChange(db: Executor, opts: { actor: Pick<Actor, "projectId">; source?: string; type?: string }) {
  const [row] = await query<{ ms: number | null }>(
    db,
    sql`select ceil(extract(epoch from min(case when ${events.status} = 'failed' then ${events.availableAt}
        else ${events.leaseExpiresAt} end) - now()) * 1000)::float8 as ms
      from ${events}
      where ${and(
        eq(events.projectId, opts.actor.projectId),
        or(statusCondition.claimed, statusCondition.failed),
        opts.source ? eq(events.source, opts.source) : undefined,
        opts.type ? typeCondition(opts.type) : undefined,
      )}`,
  );
  return row?.ms === null || row?.ms === undefined ? null : Math.max(0, row.ms) + 5;
}
