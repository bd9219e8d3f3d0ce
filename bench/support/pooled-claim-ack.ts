import { percentiles } from "./load";

type Http = (method: string, url: string, body?: string, headers?: Record<string, string>) => Promise<{ status: number; body: string }>;

/**
 * One claim + ack per job over REST, counted: a claim lost to another consumer (409) is a lost race; a job claimed
 * twice is a double claim. `summary` gives the figures every claim + ack phase reports.
 */
export function claimAckJobs(http: Http, base: string, auth: Record<string, string>) {
  const wins = new Map<string, number>();
  const latencies: number[] = [];
  const start = performance.now();
  const tally = { jobs: 0, lostRaces: 0, lists: 0 };
  const job = async (id: string) => {
    const t = performance.now();
    const claim = await http("POST", `${base}/api/v1/events/${id}/claim`, "{}", auth);
    if (claim.status === 409) {
      tally.lostRaces++;
      return;
    }
    if (claim.status !== 200) throw new Error(`claim ${claim.status} ${claim.body}`);
    wins.set(id, (wins.get(id) ?? 0) + 1);
    const ack = await http("POST", `${base}/api/v1/events/${id}/ack`, JSON.stringify({ result: "ok" }), auth);
    if (ack.status !== 200) throw new Error(`ack ${ack.status} ${ack.body}`);
    latencies.push(performance.now() - t);
    tally.jobs++;
  };
  const summary = () => ({
    jobs: tally.jobs,
    jobs_per_s: Math.round(tally.jobs / ((performance.now() - start) / 1000)),
    lost_races_409: tally.lostRaces,
    lists_of_100: tally.lists,
    double_claims: [...wins.values()].filter((n) => n > 1).length,
    claim_ack_ms: percentiles(latencies),
  });
  return { job, tally, summary };
}

/**
 * Claim + ack over REST by `consumers` that share one queue of the `source`'s pending events: whichever finds it
 * empty reads the next page of 100 for all, so the run measures claim + ack rather than listing. Stops after
 * `seconds` or when the source is drained (`drained` says which); latencies are per job (claim, then ack).
 */
export async function pooledClaimAck(opts: { http: Http; base: string; key: string; source: string; consumers: number; seconds: number }) {
  const { http, base } = opts;
  const auth = { authorization: `Bearer ${opts.key}`, "content-type": "application/json" };
  const { job, tally, summary } = claimAckJobs(http, base, auth);
  const end = performance.now() + opts.seconds * 1000;
  // the shared queue, the page after it, and the one read in flight that every idle consumer awaits
  const pool = { queue: [] as string[], cursor: null as string | null, drained: false, reading: null as Promise<void> | null };
  const refill = () =>
    (pool.reading ??= (async () => {
      const from = pool.cursor ? `&cursor=${encodeURIComponent(pool.cursor)}` : "";
      const res = await http("GET", `${base}/api/v1/events?source=${encodeURIComponent(opts.source)}&limit=100${from}`, undefined, auth);
      if (res.status !== 200) throw new Error(`list ${res.status} ${res.body}`);
      const body = JSON.parse(res.body) as { events: { id: string }[]; next_cursor: string | null };
      tally.lists++;
      pool.drained = body.events.length === 0 && !pool.cursor;
      pool.queue.push(...body.events.map((e) => e.id).reverse());
      pool.cursor = body.next_cursor;
    })().finally(() => (pool.reading = null)));
  await Promise.all(
    Array.from({ length: opts.consumers }, async () => {
      while (performance.now() < end) {
        if (pool.queue.length === 0) {
          if (pool.drained) return;
          await refill();
          continue;
        }
        await job(pool.queue.pop() as string);
      }
    }),
  );
  return { ...summary(), drained: pool.drained };
}
