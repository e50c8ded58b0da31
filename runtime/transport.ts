/**
 * The one HTTP transport of the toolkit: a JSON POST over undici with an overall deadline
 * per attempt, a response-size cap, bounded retries (honouring `Retry-After`), caller
 * cancellation, and error messages that never carry credentials.
 *
 * Any HTTP status is returned as an exchange (redirects are never followed); only failures
 * to obtain a complete response throw, always as `PhotonClientError`.
 */
import type { EventEmitter } from "node:events";
import type { Socket } from "node:net";
import { Agent, buildConnector, request, type Dispatcher } from "undici";
import { ClientErrorCode, PhotonClientError, type ClientErrorCodeValue } from "./errors.js";
import { createRedactor, redactUrl, secretsOf } from "./redact.js";

export interface RetryOptions {
  /** Most extra attempts after the first. Default 3. */
  retries?: number;
  /** First backoff wait; doubles each retry, with full jitter. Default 200 ms. */
  minDelayMs?: number;
  /**
   * Cap on one wait. Default 5000 ms. A `Retry-After` longer than this stops retrying: the
   * response is returned at once (the caller reports it).
   */
  maxDelayMs?: number;
  /** Statuses retried. Default 429, 502, 503, 504. */
  statuses?: readonly number[];
  /** Retry a connection refused/reset/closed before any response byte. Default true. */
  retryNetworkErrors?: boolean;
  /** Total time cap across all attempts and waits (also caps each attempt's deadline). Default none. */
  budgetMs?: number;
}

export interface TransportOptions {
  /** Deadline of one attempt: connect, headers and body together. Default 30 000 ms; 0 or Infinity disables. */
  timeoutMs?: number;
  /** Largest response body. Default 16 MiB. Checked against content-length first, then counted while streaming. */
  maxBodyBytes?: number;
  /** Extra request headers (names are case-insensitive; these override the JSON defaults). */
  headers?: Record<string, string>;
  /** Retry policy; `false` sends exactly once. */
  retry?: RetryOptions | false;
  /** Caller cancellation: stops the current attempt and any backoff wait at once. */
  signal?: AbortSignal;
  /**
   * An undici dispatcher (Agent, Pool, MockAgent, composed interceptors). Default: this module's
   * own Agent (undici's defaults, plus tolerance of an unsolicited `100 Continue`; see
   * `tolerateInterimResponses`). undici's global dispatcher is not used.
   */
  dispatcher?: Dispatcher;
  /** Called before each backoff wait. `attempt` is the number of the attempt about to be made (2 = first retry). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
  /** Waits `ms`, rejecting when `signal` aborts. Injectable for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** HTTP method. Default "POST" (the conformance runner also probes other verbs). */
  method?: Dispatcher.HttpMethod;
  /** The request content-type. Default "application/json"; `null` sends none. A `content-type` in `headers` wins. */
  contentType?: string | null;
}

export interface HttpExchange {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body as UTF-8 text (a leading byte order mark removed). */
  body: string;
  /** Attempts made, 1 when the first answer was final. */
  attempts: number;
  elapsedMs: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
/** setTimeout cannot wait longer than this; longer deadlines are treated as none. */
const MAX_TIMER_MS = 2_147_483_647;

const BASE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "application/json",
  accept: "application/json",
});

interface RetryPolicy {
  retries: number;
  minDelayMs: number;
  maxDelayMs: number;
  statuses: readonly number[];
  retryNetworkErrors: boolean;
  budgetMs: number | undefined;
}

const DEFAULT_STATUSES: readonly number[] = Object.freeze([429, 502, 503, 504]);

const DEFAULT_POLICY: RetryPolicy = Object.freeze({
  retries: 3,
  minDelayMs: 200,
  maxDelayMs: 5000,
  statuses: DEFAULT_STATUSES,
  retryNetworkErrors: true,
  budgetMs: undefined,
});

const NO_RETRY: RetryPolicy = Object.freeze({ ...DEFAULT_POLICY, retries: 0, retryNetworkErrors: false });

function nonNegative(value: number | undefined, fallback: number): number {
  return typeof value === "number" && value >= 0 && !Number.isNaN(value) ? value : fallback;
}

function policyOf(retry: RetryOptions | false | undefined): RetryPolicy {
  if (retry === false) return NO_RETRY;
  if (retry === undefined) return DEFAULT_POLICY;
  return {
    retries: Math.floor(nonNegative(retry.retries, DEFAULT_POLICY.retries)),
    minDelayMs: nonNegative(retry.minDelayMs, DEFAULT_POLICY.minDelayMs),
    maxDelayMs: nonNegative(retry.maxDelayMs, DEFAULT_POLICY.maxDelayMs),
    statuses: retry.statuses ?? DEFAULT_STATUSES,
    retryNetworkErrors: retry.retryNetworkErrors ?? true,
    budgetMs: retry.budgetMs === undefined ? undefined : nonNegative(retry.budgetMs, Infinity),
  };
}

function mergeHeaders(extra: Record<string, string> | undefined, contentType: string | null | undefined): Record<string, string> {
  if (extra === undefined && contentType === undefined) return BASE_HEADERS as Record<string, string>;
  const out: Record<string, string> =
    contentType === null ? { accept: BASE_HEADERS.accept! } : { "content-type": contentType ?? BASE_HEADERS["content-type"]!, accept: BASE_HEADERS.accept! };
  if (extra === undefined) return out;
  for (const name of Object.keys(extra)) {
    const value = extra[name];
    if (value !== undefined) out[name.toLowerCase()] = value;
  }
  return out;
}

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

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

// ---------------------------------------------------------------------------------------
// Failures of one attempt, before they become PhotonClientError (error path only).

const TIMED_OUT = 1;
const CALLER_ABORTED = 2;

/** Raised inside an attempt when the body outgrows the cap. */
class BodyTooLarge {
  constructor(
    readonly status: number,
    readonly received: number,
    readonly contentLength: number | undefined,
  ) {}
}

function ignore(): void {}

/** Raised inside an attempt when the body is content-encoded (gzip, br…): nothing was negotiated and nothing here decodes it. */
class UnnegotiatedEncoding {
  constructor(
    readonly status: number,
    readonly encoding: string,
  ) {}
}

/** The reason an attempt's controller is aborted with when its deadline passes. */
class DeadlineReached extends Error {
  override name = "DeadlineReached";
}

/** Codes of failures to reach the server or keep the connection before any response byte. */
const RETRYABLE_NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "ENETUNREACH",
  "ENETDOWN",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);

const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

const INVALID_CODES = new Set([
  "UND_ERR_INVALID_ARG",
  "UND_ERR_NOT_SUPPORTED",
  "ERR_INVALID_URL",
  "ERR_INVALID_ARG_TYPE",
  "ERR_INVALID_ARG_VALUE",
  "ERR_INVALID_CHAR",
  "ERR_INVALID_HTTP_TOKEN",
]);

function errorCodeOf(err: unknown, depth = 0): string | undefined {
  if (typeof err !== "object" || err === null || depth > 3) return undefined;
  const e = err as { code?: unknown; errors?: unknown; cause?: unknown };
  if (typeof e.code === "string") return e.code;
  if (Array.isArray(e.errors)) {
    for (const inner of e.errors) {
      const code = errorCodeOf(inner, depth + 1);
      if (code !== undefined) return code;
    }
  }
  return errorCodeOf(e.cause, depth + 1);
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n} bytes (${n / (1024 * 1024)} MiB)`;
  if (n >= 1024 && n % 1024 === 0) return `${n} bytes (${n / 1024} KiB)`;
  return `${n} bytes`;
}

function normalizeHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  // undici already lower-cases names into a fresh object; only repeated headers need joining.
  for (const name in raw) {
    const value = raw[name];
    if (typeof value !== "string") {
      if (Array.isArray(value)) raw[name] = value.join(", ");
      else delete raw[name];
    }
  }
  return raw as Record<string, string>;
}

async function readBody(body: Dispatcher.ResponseData["body"], status: number, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limit) {
      body.destroy();
      throw new BodyTooLarge(status, total, undefined);
    }
    chunks.push(chunk);
  }
  if (chunks.length === 0) return "";
  const buf = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  // A UTF-8 byte order mark is not part of the JSON text.
  return buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? buf.toString("utf8", 3) : buf.toString("utf8");
}

// ---------------------------------------------------------------------------------------
// An unsolicited `100 Continue`. undici's HTTP/1.1 parser destroys the socket on any 100
// ("bad response") because it never sends `Expect: 100-continue`; servers and proxies that
// send one anyway are common enough, and RFC 9110 §15.2 says a client must accept (and may
// ignore) an interim response it did not ask for. The sockets of the default Agent drop
// `HTTP/1.x 100 …\r\n\r\n` heads found where a response begins, before the parser sees them.

const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/1\.1\r\n/;
/** `HTTP/1.0 100` / `HTTP/1.1 100` then a space or CR: the 13 bytes that decide. */
const INTERIM_PREFIX = Buffer.from("HTTP/1.1 100 ", "latin1");
/** An interim head longer than this is not skipped (the parser then refuses it as before). */
const MAX_INTERIM_HEAD = 16 * 1024;
const CRLFCRLF = Buffer.from("\r\n\r\n", "latin1");

/** 1: `buf` starts with a 100 interim head; 0: it does not; -1: too few bytes to tell. */
function interimPrefix(buf: Buffer): number {
  const n = Math.min(buf.length, INTERIM_PREFIX.length);
  for (let i = 0; i < n; i++) {
    const b = buf[i]!;
    if (i === 7 ? b !== 0x30 && b !== 0x31 : i === 12 ? b !== 0x20 && b !== 0x0d : b !== INTERIM_PREFIX[i]) return 0;
  }
  return n === INTERIM_PREFIX.length ? 1 : -1;
}

/**
 * Makes undici's HTTP/1.1 parser never see `100 Continue` interim responses on this socket.
 * undici reads with `socket.read()` and writes each request head as one latin1 string
 * starting with the request line (pipelining 1: a response begins after that write); only
 * the bytes at the start of a response are examined, so a body is never touched.
 */
export function tolerateInterimResponses(socket: Socket): Socket {
  const read = socket.read;
  const write = socket.write;
  let atHead = true;
  let held: Buffer | null = null;
  socket.write = function (this: Socket, chunk: unknown, ...rest: unknown[]): boolean {
    if (typeof chunk === "string" && rest[0] === "latin1" && REQUEST_LINE.test(chunk)) atHead = true;
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Socket["write"];
  socket.read = function (this: Socket, size?: number): unknown {
    if (!atHead && held === null) return read.call(this, size);
    const chunk = read.call(this) as Buffer | null;
    let buf: Buffer;
    if (chunk === null) {
      if (held === null) return null;
      // The stream ended on a partial head: hand it over, the parser says what is wrong.
      if (!this.readableEnded) return null;
      buf = held;
      held = null;
      atHead = false;
      return buf;
    }
    buf = held === null ? chunk : Buffer.concat([held, chunk]);
    held = null;
    while (atHead) {
      const prefix = interimPrefix(buf);
      if (prefix === 0) {
        atHead = false;
        break;
      }
      const end = prefix === 1 ? buf.indexOf(CRLFCRLF) : -1;
      if (end === -1) {
        if (buf.length > MAX_INTERIM_HEAD) {
          atHead = false;
          break;
        }
        held = buf;
        return null;
      }
      buf = buf.subarray(end + 4);
      if (buf.length === 0) return null;
    }
    return buf;
  } as Socket["read"];
  return socket;
}

const baseConnect = buildConnector({});
let defaultAgent: Agent | undefined;

/** The default dispatcher: undici's Agent defaults, with sockets that tolerate interim responses. */
function defaultDispatcher(): Agent {
  return (defaultAgent ??= new Agent({
    connect: (opts, callback) =>
      baseConnect(opts, (err, socket) => {
        if (err !== null) callback(err, null);
        else callback(null, tolerateInterimResponses(socket as Socket));
      }),
  }));
}

/**
 * `user:pass@` in the URL: undici refuses or ignores userinfo, so it becomes
 * `Authorization: Basic base64(user:pass)` (percent-decoded, RFC 7617) and the URL requested
 * loses it. A caller's own `authorization` header wins. Undefined when the URL has no userinfo
 * (or cannot be parsed: undici then reports it).
 */
function splitUserinfo(url: string): { url: string; authorization: string } | undefined {
  if (!url.includes("@")) return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.username === "" && u.password === "") return undefined;
  let credentials: string;
  try {
    credentials = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
  } catch {
    credentials = `${u.username}:${u.password}`;
  }
  u.username = "";
  u.password = "";
  return { url: u.toString(), authorization: `Basic ${Buffer.from(credentials, "utf8").toString("base64")}` };
}

/** Why one attempt failed (its signal's `why`), with the raw cause; turned into PhotonClientError by `postJson`. */
class AttemptFailure {
  constructor(
    readonly why: number,
    readonly cause: unknown,
    /** HTTP status when the response head had arrived. */
    readonly status: number | undefined,
    readonly deadlineMs: number,
  ) {}
}

type PostRequestOptions = { dispatcher?: Dispatcher } & Omit<Dispatcher.RequestOptions, "origin" | "path"> & { maxRedirections: 0 };

/**
 * The abort signal of one attempt. undici accepts an EventEmitter-style signal (`aborted`,
 * `reason`, `once`/`removeListener`); this minimal one costs far less than an AbortController
 * (whose EventTarget machinery took about a quarter of the throughput on the hot path).
 * It also records why it fired, so failures are classified without racing flags.
 */
class AttemptSignal {
  aborted = false;
  reason: unknown = undefined;
  why = 0;
  private listener: (() => void) | null = null;
  private more: (() => void)[] | null = null;

  constructor(readonly deadlineMs: number) {}

  on(event: string, listener: () => void): this {
    if (event !== "abort") return this;
    if (this.listener === null) this.listener = listener;
    else (this.more ??= []).push(listener);
    return this;
  }

  once(event: string, listener: () => void): this {
    return this.on(event, listener);
  }

  addListener(event: string, listener: () => void): this {
    return this.on(event, listener);
  }

  removeListener(event: string, listener: () => void): this {
    if (event !== "abort") return this;
    if (this.listener === listener) this.listener = null;
    else if (this.more !== null) {
      const i = this.more.indexOf(listener);
      if (i !== -1) this.more.splice(i, 1);
    }
    return this;
  }

  off(event: string, listener: () => void): this {
    return this.removeListener(event, listener);
  }

  abort(why: number, reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.why = why;
    this.reason = reason;
    const first = this.listener;
    const more = this.more;
    this.listener = null;
    this.more = null;
    if (first !== null) first();
    if (more !== null) for (const listener of more) listener();
  }
}

/**
 * Attempts in flight per caller signal. One listener per caller signal fans the abort out,
 * rather than one listener per attempt: cheaper, and a signal shared by many concurrent
 * calls does not trip Node's MaxListenersExceededWarning.
 */
const inFlight = new WeakMap<AbortSignal, Set<AttemptSignal>>();

function watchCaller(caller: AbortSignal, attemptSignal: AttemptSignal): void {
  let attempts = inFlight.get(caller);
  if (attempts === undefined) {
    const set = (attempts = new Set());
    inFlight.set(caller, set);
    caller.addEventListener(
      "abort",
      () => {
        for (const s of set) s.abort(CALLER_ABORTED, caller.reason);
        set.clear();
      },
      { once: true },
    );
  }
  attempts.add(attemptSignal);
}

function fireDeadline(signal: AttemptSignal): void {
  signal.abort(TIMED_OUT, new DeadlineReached(`deadline of ${signal.deadlineMs} ms reached`));
}

async function attempt(
  url: string,
  requestOptions: PostRequestOptions,
  deadlineMs: number,
  maxBodyBytes: number,
  callerSignal: AbortSignal | undefined,
): Promise<HttpExchange> {
  let signal: AttemptSignal | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (deadlineMs > 0) {
    signal = new AttemptSignal(deadlineMs);
    timer = setTimeout(fireDeadline, deadlineMs, signal);
  }
  if (callerSignal !== undefined) watchCaller(callerSignal, (signal ??= new AttemptSignal(0)));
  requestOptions.signal = signal as unknown as EventEmitter | undefined;
  let status: number | undefined;
  try {
    const res = await request(url, requestOptions);
    status = res.statusCode;
    const headers = normalizeHeaders(res.headers);
    const encoding = headers["content-encoding"];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== "identity" && encoding.trim() !== "") {
      // No Accept-Encoding is sent and nothing here decodes: the bytes are not the JSON text.
      res.body.on("error", ignore);
      res.body.destroy();
      throw new UnnegotiatedEncoding(status, encoding.trim());
    }
    const length = headers["content-length"];
    if (length !== undefined) {
      const declared = Number(length);
      if (declared > maxBodyBytes) {
        res.body.destroy();
        throw new BodyTooLarge(status, 0, declared);
      }
    }
    const body = await readBody(res.body, status, maxBodyBytes);
    // attempts and elapsedMs are filled in by postJson.
    return { status, headers, body, attempts: 0, elapsedMs: 0 };
  } catch (err) {
    if (err instanceof BodyTooLarge || err instanceof UnnegotiatedEncoding) throw err;
    throw new AttemptFailure(signal?.why ?? 0, err, status, deadlineMs);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (callerSignal !== undefined) inFlight.get(callerSignal)?.delete(signal!);
  }
}

/**
 * POSTs `body` (JSON text) to `url` exactly as given and returns the final exchange for any
 * HTTP status. Retries retryable statuses and early connection failures per `options.retry`.
 * Throws `PhotonClientError` with code TIMEOUT, ABORTED, NETWORK, BODY_TOO_LARGE or
 * INVALID_OPTIONS; messages name the target through `redactUrl` and never carry credentials.
 */
export async function postJson(url: string, body: string, options: TransportOptions = {}): Promise<HttpExchange> {
  const started = performance.now();
  const signal = options.signal;
  const policy = policyOf(options.retry);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const budgetMs = policy.budgetMs;
  let headers = mergeHeaders(options.headers, options.contentType);
  // Messages keep naming `url` (redactUrl masks its userinfo); the request goes to `requestUrl`.
  let requestUrl = url;
  const userinfo = splitUserinfo(url);
  if (userinfo !== undefined) {
    requestUrl = userinfo.url;
    if (headers.authorization === undefined) headers = { ...headers, authorization: userinfo.authorization };
  }
  const requestOptions: PostRequestOptions = {
    method: options.method ?? "POST",
    headers,
    body,
    dispatcher: options.dispatcher ?? defaultDispatcher(),
    // A dispatcher composed with undici's redirect interceptor would otherwise follow 3xx.
    maxRedirections: 0,
  };

  const fail = (code: ClientErrorCodeValue, message: string, extra: { status?: number; details?: unknown; cause?: unknown } = {}): PhotonClientError =>
    new PhotonClientError(code, message, extra);
  const target = (): string => `${requestOptions.method} ${redactUrl(url)}`;
  const abortedError = (attempts: number): PhotonClientError =>
    fail(ClientErrorCode.ABORTED, `${target()} aborted by the caller`, { cause: signal?.reason, details: { attempts } });

  let attempts = 0;
  for (;;) {
    if (signal?.aborted) throw abortedError(attempts);
    attempts++;
    let deadlineMs = timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS ? timeoutMs : 0;
    let budgetLimited = false;
    if (budgetMs !== undefined) {
      const remaining = Math.max(1, Math.ceil(budgetMs - (performance.now() - started)));
      if (remaining <= MAX_TIMER_MS && (deadlineMs === 0 || remaining < deadlineMs)) {
        deadlineMs = remaining;
        budgetLimited = true;
      }
    }

    let reason: string;
    let lastResponse: HttpExchange | undefined;
    let retryAfterMs: number | null = null;
    let networkFailure: { errorCode: string; cause: unknown } | undefined;
    try {
      const response = await attempt(requestUrl, requestOptions, deadlineMs, maxBodyBytes, signal);
      response.attempts = attempts;
      if (!policy.statuses.includes(response.status) || attempts > policy.retries) {
        response.elapsedMs = performance.now() - started;
        return response;
      }
      lastResponse = response;
      retryAfterMs = parseRetryAfter(response.headers["retry-after"]);
      reason = `HTTP ${response.status}`;
    } catch (err) {
      if (err instanceof UnnegotiatedEncoding) {
        const asked = headers["accept-encoding"] === undefined ? "but no encoding was negotiated (no Accept-Encoding was sent)" : "and this client does not decode content encodings";
        throw fail(ClientErrorCode.BAD_JSON, `${target()}: HTTP ${err.status} response is ${err.encoding}-encoded ${asked}; its body is not JSON text`, {
          status: err.status,
          details: { contentEncoding: err.encoding, attempts },
        });
      }
      if (err instanceof BodyTooLarge) {
        const seen = err.contentLength !== undefined ? `content-length is ${err.contentLength}` : `${err.received} bytes received when it was aborted`;
        throw fail(ClientErrorCode.BODY_TOO_LARGE, `${target()}: HTTP ${err.status} response body exceeds the limit of ${formatBytes(maxBodyBytes)} (${seen}); request aborted`, {
          status: err.status,
          details: { limit: maxBodyBytes, received: err.received, contentLength: err.contentLength, attempts },
        });
      }
      const failure = err as AttemptFailure;
      const cause = failure.cause;
      if (failure.why === CALLER_ABORTED || (failure.why === 0 && signal?.aborted)) throw abortedError(attempts);
      const errorCode = errorCodeOf(cause);
      if (failure.why === TIMED_OUT || (errorCode !== undefined && TIMEOUT_CODES.has(errorCode))) {
        const phase = failure.status === undefined ? "waiting for the response" : `reading the HTTP ${failure.status} response body`;
        const budget = budgetLimited ? ` (the retry budget of ${budgetMs} ms ran out)` : "";
        const tries = attempts > 1 ? ` on attempt ${attempts}` : "";
        throw fail(ClientErrorCode.TIMEOUT, `${target()} timed out after ${failure.deadlineMs} ms ${phase}${tries}${budget}`, {
          status: failure.status,
          details: { timeoutMs: failure.deadlineMs, attempts },
          cause,
        });
      }
      const redact = createRedactor(secretsOf(url, options.headers));
      const detail = cause instanceof Error && cause.message ? ` (${redact(cause.message)})` : "";
      if (errorCode !== undefined && INVALID_CODES.has(errorCode)) {
        // No `cause`: Node's ERR_INVALID_URL carries the whole URL (`input`), key included.
        throw fail(ClientErrorCode.INVALID_OPTIONS, `${target()} cannot be sent: ${errorCode}${detail}`, { details: { errorCode } });
      }
      const code = errorCode ?? "UNKNOWN";
      if (failure.status !== undefined) {
        throw fail(ClientErrorCode.NETWORK, `${target()}: connection closed while reading the HTTP ${failure.status} response body: ${code}${detail}`, {
          status: failure.status,
          details: { errorCode: code, attempts },
          cause,
        });
      }
      if (!policy.retryNetworkErrors || attempts > policy.retries || !RETRYABLE_NETWORK_CODES.has(code)) {
        const tries = attempts > 1 ? ` after ${attempts} attempts` : "";
        throw fail(ClientErrorCode.NETWORK, `${target()} failed: ${code}${detail}${tries}`, { details: { errorCode: code, attempts }, cause });
      }
      networkFailure = { errorCode: code, cause };
      reason = code;
    }

    // Decide the wait before the next attempt.
    let delayMs: number;
    if (retryAfterMs !== null) {
      if (retryAfterMs > policy.maxDelayMs) return finish(lastResponse!, started);
      delayMs = retryAfterMs;
      reason += ` (Retry-After ${retryAfterMs} ms)`;
    } else {
      const ceiling = Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** (attempts - 1));
      delayMs = Math.floor(Math.random() * ceiling);
    }
    if (budgetMs !== undefined && performance.now() - started + delayMs >= budgetMs) {
      if (lastResponse !== undefined) return finish(lastResponse, started);
      throw fail(ClientErrorCode.NETWORK, `${target()} failed: ${networkFailure!.errorCode} after ${attempts} attempts (the retry budget of ${budgetMs} ms ran out)`, {
        details: { errorCode: networkFailure!.errorCode, attempts },
        cause: networkFailure!.cause,
      });
    }
    options.onRetry?.({ attempt: attempts + 1, delayMs, reason });
    if (delayMs > 0) await wait(delayMs, options.sleep ?? defaultSleep, signal, () => abortedError(attempts));
  }
}

function finish(exchange: HttpExchange, started: number): HttpExchange {
  exchange.elapsedMs = performance.now() - started;
  return exchange;
}

/** Sleeps, ending early (with the ABORTED error) when the caller's signal fires, even if an injected sleep ignores it. */
async function wait(ms: number, sleep: (ms: number, signal?: AbortSignal) => Promise<void>, signal: AbortSignal | undefined, aborted: () => PhotonClientError): Promise<void> {
  if (signal === undefined) {
    await sleep(ms);
    return;
  }
  if (signal.aborted) throw aborted();
  let onAbort: (() => void) | undefined;
  const abortedPromise = new Promise<never>((_, reject) => {
    onAbort = () => reject(aborted());
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([sleep(ms, signal), abortedPromise]);
  } catch (err) {
    if (signal.aborted) throw aborted();
    throw err;
  } finally {
    signal.removeEventListener("abort", onAbort!);
  }
  if (signal.aborted) throw aborted();
}
