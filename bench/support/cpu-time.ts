import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 10; // Linux USER_HZ is 100

/** CPU time (user + system, ms) a process has used so far, from /proc. */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** CPU time of the Postgres backends serving one database (their process titles name it). */
export function postgresCpuMs(database: string): number {
  let total = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (cmd.startsWith("postgres:") && cmd.includes(` ${database} `)) total += processCpuMs(Number(pid));
    } catch {}
  }
  return total;
}

/**
 * CPU the server side (API process + its Postgres backends) spent per call during `fn`: unlike calls/s, it hardly
 * depends on what else the machine is doing, so it tells what two idle cores could serve. The load generator's
 * own CPU (this process) is given too: on this machine it shares the same two cores, so
 * `machine_bound_rps` — two cores over all three — is the most this run could have measured.
 */
export async function serverCpuPerCall<T extends object>(
  serverPid: number | null, // null: no API process (a raw SQL baseline)
  database: string,
  fn: () => Promise<T>,
  count: (r: T) => number = (r) => (r as { requests?: number }).requests ?? 0,
) {
  const apiCpuMs = () => (serverPid === null ? 0 : processCpuMs(serverPid));
  const node0 = apiCpuMs();
  const pg0 = postgresCpuMs(database);
  const self0 = process.cpuUsage();
  const result = await fn();
  const self = process.cpuUsage(self0);
  const n = Math.max(1, count(result));
  const node = (apiCpuMs() - node0) / n;
  const pg = (postgresCpuMs(database) - pg0) / n;
  const load = (self.user + self.system) / 1000 / n;
  return {
    ...result,
    server_cpu_ms_per_call: { api: Number(node.toFixed(3)), postgres: Number(pg.toFixed(3)), load_generator: Number(load.toFixed(3)) },
    implied_rps_on_2_idle_cores: Math.round(2000 / (node + pg)),
    machine_bound_rps: Math.round(2000 / (node + pg + load)),
  };
}
