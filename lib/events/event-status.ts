import { sql, type SQL } from "drizzle-orm";
import { events, type EventStatus } from "@/lib/db/schema/events";

/** Claims per event before the next failure sends it to `dead` (spec: "dead after 5 attempts"). */
export const MAX_ATTEMPTS = 5;

const { status, availableAt, leaseExpiresAt, attempts } = events;

/**
 * Nothing rewrites rows when a lease or a retry delay runs out, so a row's status is read through the clock:
 * an expired lease is `pending` again (or `dead` once its attempts are used up), and a `failed` row whose retry
 * delay has passed is `pending`. Conditions on live rows repeat the partial index's predicate so the planner
 * uses `events_live_idx`, which finished rows have left.
 */
export const isLive: SQL = sql`${status} in ('pending', 'failed', 'claimed')`;

/**
 * One CASE rather than ORs over status: with ORs the planner bitmap-scans the status index and sorts every live
 * row; this way it walks the live index in received_at order and stops at the page size.
 */
export const isClaimable: SQL = sql`(${isLive} and (case ${status}
  when 'pending' then true
  when 'failed' then ${availableAt} <= now()
  else ${leaseExpiresAt} <= now() and ${attempts} < ${MAX_ATTEMPTS} end))`;

export const statusCondition: Record<EventStatus, SQL> = {
  pending: isClaimable,
  claimed: sql`(${isLive} and ${status} = 'claimed' and ${leaseExpiresAt} > now())`,
  failed: sql`(${isLive} and ${status} = 'failed' and ${availableAt} > now())`,
  done: sql`(${status} = 'done')`,
  dead: sql`(${status} = 'dead' or (${isLive} and ${status} = 'claimed' and ${leaseExpiresAt} <= now() and ${attempts} >= ${MAX_ATTEMPTS}))`,
};

/** The status as callers see it, computed with the database clock. */
export const effectiveStatus = sql<EventStatus>`(case
  when ${status} = 'claimed' and ${leaseExpiresAt} <= now() then (case when ${attempts} >= ${MAX_ATTEMPTS} then 'dead' else 'pending' end)
  when ${status} = 'failed' and ${availableAt} <= now() then 'pending'
  else ${status} end)`;
