import { resetEnvCache } from "@/lib/env";

/**
 * Settings a test changes for its own run: `set` applies them (env() reads them afresh), `restore` puts back every
 * variable with the prefix as it was when this was made, dropping those the test added.
 */
export function envSettings(prefix: string) {
  const saved = { ...process.env };
  return {
    set(settings: Record<string, string>) {
      Object.assign(process.env, settings);
      resetEnvCache();
    },
    restore() {
      for (const k of Object.keys(process.env)) {
        if (!k.startsWith(prefix)) continue;
        if (k in saved) process.env[k] = saved[k];
        else delete process.env[k];
      }
      resetEnvCache();
    },
  };
}
