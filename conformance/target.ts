/**
 * The target under test: sends cases' requests through the runtime transport (time and
 * size bounds, retries on 429 within a budget, no redirects), paced by --max-rps, and
 * turns every outcome, including failures, into an Exchange. Nothing here throws for a
 * misbehaving server. What the target answered is kept as it came, for the checks to judge:
 * secrets are masked at the output edge (reporters, recorded files, messages), never here.
 * Only the request's display form (URL and headers) is masked, as it is never judged.
 */
import {
  createPacer,
  nextSlot,
  parseJson,
  PhotonClientError,
  PhotonError,
  postJson,
  redactUrl,
  stringifyJson,
  type RetryOptions,
} from "@photon-indexer-kit/runtime";
import type { HttpRequestSpec } from "./case-format.js";
import { ConfErrorCode } from "./errors.js";
import { excerpt } from "./excerpt.js";
import type { Target } from "./checks/index.js";
import type { Exchange } from "./results.js";

/** Characters of an answer's body kept on its exchange for reports (`Exchange.text`). */
export const MAX_KEPT_TEXT = 4096;

/** What a request is for, as an exchange observer is told: the method it calls, and whether it is a probe. */
export interface Sent {
  readonly method: string;
  /** Sent to provoke an error (a case expecting one, a raw HTTP request): its error answers are the case's to judge. */
  readonly probe?: boolean;
}

/** Told of every exchange with the target that got an answer or failed on its own (watch's metrics). */
export type ExchangeObserver = (exchange: Exchange, sent: Sent) => void;

/** A body sent without saying what for: no known method, its errors its sender's to judge. */
const UNSAID: Sent = { method: "", probe: true };

export interface TargetOptions {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly maxRps: number | null;
  readonly retry: RetryOptions | false;
  readonly observe?: ExchangeObserver | undefined;
}

export interface RawTarget extends Target {
  /** Sends a body as a case describes it; `signal` aborts the request (an exchange with no answer); `sent` is told to the observer. */
  send(http: HttpRequestSpec | null, body: string, signal?: AbortSignal, sent?: Sent): Promise<Exchange>;
  nextId(): number;
}

/**
 * Where a case's request goes: the URL as given; with `http.path`, resolved against the URL's path,
 * keeping its query (a gateway key is never replaced) and adding the case's; with `http.origin`, on the
 * URL's origin with only the case's query, as Photon matches the probe's exact URI.
 */
export function requestUrl(url: string, http: Pick<HttpRequestSpec, "path" | "origin"> | null): string {
  if (!http?.path && !http?.origin) return url;
  const u = new URL(url);
  const [pathname, query] = (http.path ?? "/").split("?", 2) as [string, string | undefined];
  if (http.origin) {
    u.pathname = `/${pathname.replace(/^\/+/, "")}`;
    u.search = query ? `?${query}` : "";
    return u.toString();
  }
  const rest = pathname.replace(/^\/+/, "");
  if (rest) u.pathname = `${u.pathname.replace(/\/+$/, "")}/${rest}`;
  if (query) {
    const own = new Set(u.searchParams.keys());
    const added = query.split("&").filter((pair) => pair && !own.has(decodeURIComponent(pair.split("=", 1)[0]!.replace(/\+/g, " "))));
    if (added.length > 0) u.search = u.search ? `${u.search}&${added.join("&")}` : `?${added.join("&")}`;
  }
  return u.toString();
}

export function createTarget(options: TargetOptions): RawTarget {
  const display = redactUrl(options.url);
  const pacer = createPacer(options.maxRps);
  let id = 0;
  // Every header value given for a target is a secret (whatever its name): shown masked.
  const shownHeaders = Object.fromEntries(Object.keys(options.headers).map((k) => [k, "***"]));

  async function send(http: HttpRequestSpec | null, body: string, signal?: AbortSignal, sent?: Sent): Promise<Exchange> {
    const exchange = await exchangeOf(http, body, signal);
    options.observe?.(exchange, sent ?? UNSAID);
    return exchange;
  }

  async function exchangeOf(http: HttpRequestSpec | null, body: string, signal?: AbortSignal): Promise<Exchange> {
    await nextSlot(pacer);
    const method = http?.method ?? "POST";
    const url = requestUrl(options.url, http);
    const contentType = http ? http.contentType : "application/json";
    const request = {
      method,
      url: url === options.url ? display : redactUrl(url),
      headers: { ...shownHeaders, ...(contentType ? { "content-type": contentType } : {}) },
      body,
    };
    const startedAt = performance.now();
    try {
      const res = await postJson(url, body, {
        method,
        contentType,
        headers: { ...options.headers },
        timeoutMs: options.timeoutMs,
        maxBodyBytes: options.maxBodyBytes,
        retry: options.retry,
        signal,
      });
      let parsed: unknown;
      let parseError: string | null = null;
      if (res.body.length > 0) {
        try {
          parsed = parseJson(res.body);
        } catch (err) {
          parseError = (err as Error).message;
        }
      } else parseError = "empty body";
      return {
        request,
        status: res.status,
        headers: res.headers,
        text: excerpt(res.body, MAX_KEPT_TEXT),
        bytes: res.body.length,
        body: parsed,
        parseError,
        error: null,
        errorCode: null,
        startedAt,
        durationMs: performance.now() - startedAt,
        attempts: res.attempts,
      };
    } catch (err) {
      // The reason travels as a value: the coded `errorCode`, and the message (with the code, as printed).
      const message = err instanceof PhotonClientError ? `${err.message} [${err.code}]` : (err as Error).message;
      const errorCode = err instanceof PhotonError ? err.code : ConfErrorCode.INTERNAL;
      return {
        request,
        status: 0,
        headers: {},
        text: "",
        body: undefined,
        parseError: null,
        error: message,
        errorCode,
        startedAt,
        durationMs: performance.now() - startedAt,
        attempts: 1,
      };
    }
  }

  return {
    display,
    send,
    nextId: () => ++id,
    call(method, params, signal) {
      const envelope = params === undefined ? { jsonrpc: "2.0", id: ++id, method } : { jsonrpc: "2.0", id: ++id, method, params };
      return send(null, stringifyJson(envelope), signal, { method });
    },
  };
}
