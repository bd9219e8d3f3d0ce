import { and, count, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { closedHourRollup } from "@/lib/charts/closed-hour-rollup";
import type { Actor } from "@/lib/actor";
import { getDb, type Executor } from "@/lib/db/client";
import { sealProject } from "@/lib/ledger/seal-entries";
import { apiKeys } from "@/lib/db/schema/keys";
import { ledgerEntries, ledgerHeads } from "@/lib/db/schema/ledger";
import { query } from "@/lib/db/statement";

type Scope = { actor: Pick<Actor, "projectId"> };

const HOUR = 3_600_000;
/** The longest window the Overview asks for (its per-key chart's 7 days). */
const KEEP_HOURS = 7 * 24 + 1;

/**
 * Sealed entries per hour, principal and agent label, for hours that closed kept per process: the Overview's "last
 * 24 h" and per-key chart over 7 days read each closed hour once, then only the last hour or so per load (the
 * (project_id, ts) index, which like every reader's index covers sealed entries only; the few of the last moment are
 * sealed within a fraction of a second).
 */
const principalHours = closedHourRollup("ledger-principal-hours", {
  keepHours: KEEP_HOURS,
  read: (db, projectId, from, to) =>
    query<{ hour: number; who: string; kind: string; keyId: string | null; agent: string | null; n: number }>(
      db,
      sql`select (floor(extract(epoch from ts) / 3600) * ${HOUR})::bigint as hour,
            coalesce(key_id, actor_type || coalesce(':' || actor_id, '')) as who, min(actor_type) as kind, min(key_id) as key_id, agent,
            count(*)::int as n
          from ${ledgerEntries}
          where project_id = ${projectId} and seq is not null and ts >= ${from.toISOString()}::timestamptz
            ${to ? sql`and ts < ${to.toISOString()}::timestamptz` : sql``}
          group by 1, 2, agent`,
    ),
});

/** Sealed entries, all of them or since a moment (the Overview's "last 24 h"). */
export async function countLedgerEntries(db: Executor, opts: Scope & { since?: Date; now?: Date }): Promise<number> {
  if (opts.since) {
    const rows = await principalHours.rows(db, { projectId: opts.actor.projectId, since: opts.since, now: opts.now ?? new Date() });
    return rows.reduce((n, r) => n + r.n, 0);
  }
  const [row] = await db
    .select({ n: count() })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.projectId, opts.actor.projectId), isNotNull(ledgerEntries.seq)));
  return Number(row?.n ?? 0);
}

export type PrincipalActivity = {
  /** `key_…`, `owner:<id>`, `system` — one row per principal, never per agent label. */
  id: string;
  kind: "key" | "owner" | "system";
  /** The key's name, "Owner" or "Brynth"; a deleted key falls back to its id. */
  label: string;
  /** The agent labels this principal sent (a key used by Claude Code and by a script sends two), busiest first. */
  agents: string[];
  entries: number;
};

/**
 * The busiest principals since a moment, for the overview chart. Grouped by the key (or the owner, or the system),
 * not by the agent label: one key that sent "claude-code" and "codex" is one bar with both labels under it, so a key's
 * activity is never split across bars nor two keys with one label merged into one.
 */
export async function ledgerEntriesByKey(db: Executor, opts: Scope & { since: Date; limit?: number; now?: Date }): Promise<PrincipalActivity[]> {
  const rows = await principalHours.rows(db, { projectId: opts.actor.projectId, since: opts.since, now: opts.now ?? new Date() });
  // A handful of rows per hour, folded here per principal, then per label.
  const byWho = new Map<string, { kind: string; keyId: string | null; entries: number; agents: Map<string, number> }>();
  for (const r of rows) {
    const p = byWho.get(r.who) ?? { kind: r.kind, keyId: r.keyId, entries: 0, agents: new Map<string, number>() };
    p.entries += r.n;
    if (r.agent !== null) p.agents.set(r.agent, (p.agents.get(r.agent) ?? 0) + r.n);
    byWho.set(r.who, p);
  }
  const top = [...byWho].sort((a, b) => b[1].entries - a[1].entries || a[0].localeCompare(b[0])).slice(0, opts.limit ?? 8);
  const keyIds = top.flatMap(([, p]) => (p.keyId ? [p.keyId] : []));
  const names = new Map(
    keyIds.length
      ? (
          await db
            .select({ id: apiKeys.id, name: apiKeys.name })
            .from(apiKeys)
            .where(and(eq(apiKeys.projectId, opts.actor.projectId), inArray(apiKeys.id, keyIds)))
        ).map((k) => [k.id, k.name])
      : [],
  );
  return top.map(([who, p]) => ({
    id: who,
    kind: p.kind === "key" || p.kind === "owner" ? p.kind : "system",
    label: p.kind === "owner" ? "Owner" : p.kind === "system" ? "Brynth" : ((p.keyId && names.get(p.keyId)) ?? p.keyId ?? who),
    agents: [...p.agents].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([a]) => a),
    entries: p.entries,
  }));
}

/** The latest seq of the project's chain (0 when empty): the verify button's progress total. */
export async function ledgerHeadSeq(db: Executor, opts: Scope): Promise<number> {
  await sealProject(await getDb(), opts.actor.projectId);
  const [head] = await db.select({ seq: ledgerHeads.seq }).from(ledgerHeads).where(eq(ledgerHeads.projectId, opts.actor.projectId));
  return head ? Number(head.seq) : 0;
}
