import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { env } from "@/lib/env";

const g = globalThis as { __brynthSecret?: Buffer };

/**
 * APP_SECRET from the environment, else a random one generated once into DATA_DIR/app-secret (mode 0600), so
 * encrypted secrets survive restarts with no configuration. Several instances must share APP_SECRET by env.
 */
export function appSecret(): Buffer {
  if (g.__brynthSecret) return g.__brynthSecret;
  const fromEnv = env().APP_SECRET;
  if (fromEnv) return (g.__brynthSecret = Buffer.from(fromEnv, "utf8"));
  const dir = env().DATA_DIR;
  const file = join(dir, "app-secret");
  try {
    g.__brynthSecret = Buffer.from(readFileSync(file, "utf8").trim(), "utf8");
  } catch {
    mkdirSync(dir, { recursive: true });
    const fresh = randomBytes(32).toString("base64url");
    try {
      writeFileSync(file, fresh, { mode: 0o600, flag: "wx" });
      g.__brynthSecret = Buffer.from(fresh, "utf8");
    } catch {
      // Another process created it between our read and write: use theirs.
      g.__brynthSecret = Buffer.from(readFileSync(file, "utf8").trim(), "utf8");
    }
  }
  return g.__brynthSecret;
}
