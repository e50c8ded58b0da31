/**
 * The target under test: sends cases' requests through the runtime transport (time and
 * size bounds, retries on 429 within a budget, no redirects), paced by --max-rps, and
 * turns every outcome, including failures, into an Exchange. Nothing here throws for a
 * misbehaving server; secrets are redacted before anything is kept.
 */
import { parseJson, PhotonClientError, postJson, redactUrl, stringifyJson, type Redactor, type RetryOptions } from "../runtime/index.js";
import type { HttpRequestSpec } from "./case-format.js";
import type { Target } from "./checks/index.js";
import type { Exchange } from "./model.js";

export interface TargetOptions {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly maxRps: number | null;
  readonly retry: RetryOptions | false;
  readonly redact: Redactor;
}

export interface RawTarget extends Target {
  send(http: HttpRequestSpec | null, body: string): Promise<Exchange>;
  nextId(): number;
}

function withPath(url: string, path: string | null): string {
  if (!path) return url;
  const u = new URL(url);
  const [pathname, query] = path.split("?", 2) as [string, string | undefined];
  u.pathname = `${u.pathname.replace(/\/+$/, "")}/${pathname.replace(/^\/+/, "")}`;
  if (query !== undefined) u.search = u.search ? `${u.search}&${query}` : `?${query}`;
  return u.toString();
}

function pacer(maxRps: number | null): () => Promise<void> {
  if (!maxRps || maxRps <= 0) return async () => {};
  const gap = 1000 / maxRps;
  let next = 0;
  return async () => {
    const now = performance.now();
    const at = Math.max(now, next);
    next = at + gap;
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  };
}

/** `value` with every string in it (keys too) passed through `redact`. */
function scrub(value: unknown, redact: Redactor): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((v) => scrub(v, redact));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), scrub(v, redact)]));
  return value;
}

export function createTarget(options: TargetOptions): RawTarget {
  const display = redactUrl(options.url);
  const pace = pacer(options.maxRps);
  let id = 0;
  const shownHeaders = Object.fromEntries(Object.entries(options.headers).map(([k, v]) => [k, options.redact(v)]));

  async function send(http: HttpRequestSpec | null, body: string): Promise<Exchange> {
    await pace();
    const method = http?.method ?? "POST";
    const url = withPath(options.url, http?.path ?? null);
    const contentType = http ? http.contentType : "application/json";
    const request = { method, url: redactUrl(url), headers: { ...shownHeaders, ...(contentType ? { "content-type": contentType } : {}) }, body: options.redact(body) };
    const startedAt = performance.now();
    try {
      const res = await postJson(url, body, {
        method,
        contentType,
        headers: { ...options.headers },
        timeoutMs: options.timeoutMs,
        maxBodyBytes: options.maxBodyBytes,
        retry: options.retry,
      });
      // A body carrying a credential (a server echoing the request) is judged with it masked:
      // checks excerpt values, and a credential cut short by an excerpt escapes redaction.
      const shown = options.redact(res.body);
      let parsed: unknown;
      let parseError: string | null = null;
      if (res.body.length > 0) {
        try {
          parsed = parseJson(res.body);
          if (shown !== res.body) parsed = scrub(parsed, options.redact);
        } catch (err) {
          parseError = options.redact((err as Error).message);
        }
      } else parseError = "empty body";
      return {
        request,
        status: res.status,
        headers: res.headers,
        text: shown.length > 4096 ? `${shown.slice(0, 4096)}…` : shown,
        body: parsed,
        parseError,
        error: null,
        startedAt,
        durationMs: performance.now() - startedAt,
        attempts: res.attempts,
      };
    } catch (err) {
      const message = err instanceof PhotonClientError ? `${err.message} [${err.code}]` : (err as Error).message;
      return { request, status: 0, headers: {}, text: "", body: undefined, parseError: null, error: options.redact(message), startedAt, durationMs: performance.now() - startedAt, attempts: 1 };
    }
  }

  return {
    display,
    send,
    nextId: () => ++id,
    call(method, params) {
      const envelope = params === undefined ? { jsonrpc: "2.0", id: ++id, method } : { jsonrpc: "2.0", id: ++id, method, params };
      return send(null, stringifyJson(envelope));
    },
  };
}
