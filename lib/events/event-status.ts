import { sql, type SQL } from "drizzle-orm";
import type { EventStatus } from "@/lib/db/schema/events";

/** Claims per event before the next failure sends it to `dead` (spec: "dead after 5 attempts"). */
export const MAX_ATTEMPTS = 5;

/*
 * Each condition is written once as SQL text over `events`, for hand-written hot-path statements (claim-event.ts,
 * list-events.ts), and wrapped as drizzle SQL for the builder queries.
 */

/**
 * Nothing rewrites rows when a lease or a retry delay runs out, so a row's status is read through the clock:
 * an expired lease is `pending` again (or `dead` once its attempts are used up), and a `failed` row whose retry
 * delay has passed is `pending`. Conditions on live rows repeat the partial index's predicate so the planner
 * uses `events_live_idx`, which finished rows have left.
 */
export const IS_LIVE = `events.status in ('pending', 'failed', 'claimed')`;

/**
 * One CASE rather than ORs over status: with ORs the planner bitmap-scans the status index and sorts every live
 * row; this way it walks the live index in received_at order and stops at the page size.
 */
export const IS_CLAIMABLE = `(${IS_LIVE} and (case events.status
  when 'pending' then true
  when 'failed' then events.available_at <= now()
  else events.lease_expires_at <= now() and events.attempts < ${MAX_ATTEMPTS} end))`;

export const STATUS_CONDITION: Record<EventStatus, string> = {
  pending: IS_CLAIMABLE,
  claimed: `(${IS_LIVE} and events.status = 'claimed' and events.lease_expires_at > now())`,
  failed: `(${IS_LIVE} and events.status = 'failed' and events.available_at > now())`,
  done: `(events.status = 'done')`,
  dead: `(events.status = 'dead' or (${IS_LIVE} and events.status = 'claimed' and events.lease_expires_at <= now() and events.attempts >= ${MAX_ATTEMPTS}))`,
};

/** The status as callers see it, computed with the database clock. */
export const EFFECTIVE_STATUS = `(case
  when events.status = 'claimed' and events.lease_expires_at <= now() then (case when events.attempts >= ${MAX_ATTEMPTS} then 'dead' else 'pending' end)
  when events.status = 'failed' and events.available_at <= now() then 'pending'
  else events.status end)`;

export const isLive: SQL = sql.raw(IS_LIVE);
export const isClaimable: SQL = sql.raw(IS_CLAIMABLE);
export const statusCondition = Object.fromEntries(Object.entries(STATUS_CONDITION).map(([status, text]) => [status, sql.raw(text)])) as Record<
  EventStatus,
  SQL
>;
export const effectiveStatus = sql<EventStatus>`${sql.raw(EFFECTIVE_STATUS)}`;
