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
 * depends on what else the machine is doing, so it tells what two idle cores could serve.
 */
export async function serverCpuPerCall<T extends { requests: number }>(serverPid: number, database: string, fn: () => Promise<T>) {
  const node0 = processCpuMs(serverPid);
  const pg0 = postgresCpuMs(database);
  const result = await fn();
  const n = Math.max(1, result.requests);
  const node = (processCpuMs(serverPid) - node0) / n;
  const pg = (postgresCpuMs(database) - pg0) / n;
  return {
    ...result,
    server_cpu_ms_per_call: { api: Number(node.toFixed(3)), postgres: Number(pg.toFixed(3)) },
    implied_rps_on_2_idle_cores: Math.round(2000 / (node + pg)),
  };
}
