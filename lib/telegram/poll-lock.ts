import { getHandle } from "@/lib/db/client";

/**
 * Telegram allows one getUpdates per bot at a time, so with several instances on one Postgres only the holder of
 * this session advisory lock polls. PGlite is one process: no lock. Returns the release, or null if another holds it.
 */
export async function takePollLock(projectId: string): Promise<(() => Promise<void>) | null> {
  const handle = await getHandle();
  if (handle.kind !== "postgres") return async () => {};
  const conn = await handle.sql!.reserve();
  const [row] = await conn`select pg_try_advisory_lock(hashtext(${`brynth-telegram:${projectId}`})) as ok`;
  if (!row.ok) {
    conn.release();
    return null;
  }
  return async () => {
    await conn`select pg_advisory_unlock(hashtext(${`brynth-telegram:${projectId}`}))`.catch(() => {});
    conn.release();
  };
}
