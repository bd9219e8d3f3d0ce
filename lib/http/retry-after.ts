/**
 * An HTTP `Retry-After` header (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) as milliseconds from `now`; null
 * when absent or unreadable. A date in the past gives 0. Callers cap the result: the value comes from the other side.
 */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names its weekday and month; Date.parse alone would also take "-5" as a year.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
