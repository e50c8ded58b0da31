/**
 * A `Retry-After` value in milliseconds: delay-seconds, or an HTTP date relative to `now`
 * (a date in the past gives 0). Null when absent or unparseable.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (text === "") return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only something that looks like an HTTP date (has a letter and a digit), not "-5" or "1e3".
  if (!/[a-z]/i.test(text) || !/\d/.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}
