import { log } from "./log";

/** How often each instance is asked, as an orchestrator's readiness probe would (Kubernetes: every 10 s by default). */
const EVERY_MS = 250;

/**
 * Each instance's GET /readyz, polled through the run the way a balancer polls it: the answers are counted per
 * instance (`ready`, `stopping`, `unavailable_timeout`, `unavailable_unreachable`, or why none came) and each change
 * is logged, so the report shows what the faults looked like from outside. Plain fetch: a probe that waits out the
 * database check is not the load's slowest answer.
 */
export function watchReadiness(instances: { name: string; base: string }[], until: () => boolean) {
  const counts = instances.map(() => ({}) as Record<string, number>);
  const changes: string[] = [];
  const last: string[] = instances.map(() => "");
  const ask = async (base: string) => {
    try {
      const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(3_000) });
      const body = (await res.json()) as { status: string; checks?: { database?: string } };
      return body.status === "unavailable" ? `unavailable_${body.checks?.database}` : body.status;
    } catch (err) {
      return (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    }
  };
  const done = Promise.all(
    instances.map(async ({ name, base }, i) => {
      while (!until()) {
        const label = await ask(base);
        counts[i][label] = (counts[i][label] ?? 0) + 1;
        if (label !== last[i]) {
          if (last[i]) log(`${name} /readyz: ${label}`);
          changes.push(`${name}: ${label}`);
          last[i] = label;
        }
        await new Promise((r) => setTimeout(r, EVERY_MS));
      }
    }),
  );
  return { done, report: () => ({ per_instance: Object.fromEntries(instances.map((x, i) => [x.name, counts[i]])), changes }) };
}
