const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
export const EXPIRES_MIN_MS = UNIT_MS.m;
export const EXPIRES_MAX_MS = 7 * UNIT_MS.d;

/** `<n>m`, `<n>h` or `<n>d` from 1m to 7d → milliseconds, or the reason it is refused. */
export function parseExpiresIn(value: string): number | string {
  const m = /^([0-9]{1,6})([mhd])$/.exec(value.trim());
  if (!m) return "must be `<n>m`, `<n>h` or `<n>d`, e.g. `30m`, `24h`, `7d`";
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  if (ms < EXPIRES_MIN_MS || ms > EXPIRES_MAX_MS) return "must be from 1m to 7d";
  return ms;
}
