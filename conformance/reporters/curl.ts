/** A curl line that reproduces a request (URL and headers already redacted). */
import type { SentRequest } from "../model.js";

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlLine(r: SentRequest): string {
  const headers = Object.entries(r.headers).map(([k, v]) => `-H ${quote(`${k}: ${v}`)}`);
  const data = r.body ? [`--data-raw ${quote(r.body.length > 2000 ? `${r.body.slice(0, 2000)}…` : r.body)}`] : [];
  return ["curl -sS", `-X ${r.method}`, quote(r.url), ...headers, ...data].join(" ");
}
