import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * PGlite has no lock of its own and a second process on the same directory corrupts it: an exclusive-create pid
 * file refuses a second start. A pid that is gone, a zombie or ourselves counts as stale (RUNTIME-FACTS).
 */
export function acquireDataDirLock(dir: string): () => void {
  const file = join(dir, "brynth.pid");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      return () => {
        try {
          if (readFileSync(file, "utf8") === String(process.pid)) unlinkSync(file);
        } catch {}
      };
    } catch {
      const pid = Number(readFileSync(file, "utf8"));
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new Error(
          `The data directory ${dir} is in use by process ${pid}. Stop it first, or set DATABASE_URL to share a Postgres database between instances.`,
        );
      }
      try {
        unlinkSync(file);
      } catch {}
    }
  }
  throw new Error(`Could not lock the data directory ${dir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true;
  }
}
