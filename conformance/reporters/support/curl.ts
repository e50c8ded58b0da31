/**
 * A curl line that reproduces a request (URL and headers already redacted), for bash or zsh,
 * showing the response's status line and headers (`-i`) since checks judge those too:
 * every value is one `forShell` word, so nothing in it (`'`, `$(…)`, backticks, control
 * characters) is run or breaks out of its quotes when the line is pasted into a shell.
 */
import type { SentRequest } from "../../results.js";
import { forShell } from "./escape.js";

export function curlLine(r: SentRequest): string {
  const headers = Object.entries(r.headers).map(([k, v]) => `-H ${forShell(`${k}: ${v}`)}`);
  const data = r.body ? [`--data-raw ${forShell(r.body.length > 2000 ? `${r.body.slice(0, 2000)}…` : r.body)}`] : [];
  const method = /^[A-Z]+$/.test(r.method) ? r.method : forShell(r.method);
  return ["curl -sS -i", `-X ${method}`, forShell(r.url), ...headers, ...data].join(" ");
}
