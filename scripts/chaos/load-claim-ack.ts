import { call, outcomes } from "./http-call";

/** Short leases, so events whose claim or ack was lost in a fault come back within the run. */
const LEASE_S = 30;
const ACK_ATTEMPTS = 5;

/**
 * `workers` agents sharing one key: each lists pending events of `source`, claims one at random (losing races to
 * the others), then acks it with the claim's lease token, the exact fence. An ack that got no answer is sent again
 * with the same token (repeating an ack is safe and says `repeated`). `completions` counts, per event, the acks
 * answered as a first completion (`repeated: false`); more than one would be an event completed twice.
 */
export async function claimAndAck(opts: { api: string; key: string; source: string; workers: number; until: () => boolean }) {
  const completions = new Map<string, number>();
  const answers = { list: outcomes(), claim: outcomes(), ack: outcomes() };
  const tally = { claims_won: 0, claims_lost_409: 0, acks_first: 0, acks_repeated: 0, acks_refused: 0, acks_unanswered: 0 };
  const worker = async (w: number) => {
    const headers = { authorization: `Bearer ${opts.key}`, "x-brynth-agent": `chaos-worker-${w}` };
    while (!opts.until()) {
      const list = await call("GET", `${opts.api}/events?source=${opts.source}&status=pending&limit=20`, { headers });
      answers.list.add(list);
      const ids: string[] = list.status === 200 ? list.body.events.map((e: { id: string }) => e.id) : [];
      if (ids.length === 0) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      const id = ids[Math.floor(Math.random() * ids.length)];
      const claim = await call("POST", `${opts.api}/events/${id}/claim`, { body: { lease_seconds: LEASE_S }, headers });
      answers.claim.add(claim);
      if (claim.status === 409) tally.claims_lost_409++;
      if (claim.status !== 200) continue;
      tally.claims_won++;
      await ack(id, claim.body.lease_token, w, headers);
    }
  };
  const ack = async (id: string, leaseToken: string, w: number, headers: Record<string, string>) => {
    for (let attempt = 1; attempt <= ACK_ATTEMPTS; attempt++) {
      const res = await call("POST", `${opts.api}/events/${id}/ack`, { body: { lease_token: leaseToken, result: { worker: w } }, headers });
      answers.ack.add(res);
      if (res.status === 200) {
        if (res.body.repeated) tally.acks_repeated++;
        else {
          tally.acks_first++;
          completions.set(id, (completions.get(id) ?? 0) + 1);
        }
        return;
      }
      // A refusal (the lease went to another worker) is final; no answer or a 5xx is worth another try.
      if (res.status >= 400 && res.status < 500) {
        tally.acks_refused++;
        return;
      }
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
    tally.acks_unanswered++;
  };
  await Promise.all(Array.from({ length: opts.workers }, (_, w) => worker(w)));
  return { completions, tally, answers: { list: answers.list.counts, claim: answers.claim.counts, ack: answers.ack.counts } };
}
