/**
 * The JSON-RPC client core that the generated client wraps: one `call` for every method,
 * params and results checked with the generated validators, uint64 kept lossless, and
 * cursor walking driven by the method table. Transport (retries, timeouts, body caps)
 * lives in transport.ts; waiting for the indexer to reach a slot in slots.ts.
 */
import type { Dispatcher } from "undici";
import type { MethodInfo, MethodValidators } from "./contracts.js";
import { formatIssues, validate } from "./contracts.js";
import { ClientErrorCode, PhotonClientError, RpcError } from "./errors.js";
import { parseJson } from "./json/parse.js";
import { stringifyJson } from "./json/stringify.js";
import { isObject } from "./json/value.js";
import { createRedactor, secretsOf, type Redactor } from "./redact.js";
import { checkMinContextSlot, isSlot, type IndexerSlot, slotAt, type SlotTry, type SlotWaitOptions, waitForSlot, type Walk, walkOf } from "./slots.js";
import { postJson, type RetryOptions } from "./transport.js";
import { DEFAULT_TIMEOUT_MS } from "./transport/options.js";

export interface ClientOptions {
  /** The endpoint, used exactly as given (its query string, e.g. `?api-key=…`, is kept). */
  url: string;
  /** Extra headers on every request (e.g. `authorization`); never echoed in errors. */
  headers?: Record<string, string>;
  /** Per attempt: connect, headers and body together. Default 30 s. */
  timeoutMs?: number;
  /** Retry on 429/502/503/504 and connection failures, honouring `Retry-After`. Default 3 retries; `false` disables. */
  retry?: RetryOptions | false;
  /** Check params before sending and results after receiving with the generated validators. Default true. */
  validate?: boolean | { params?: boolean; result?: boolean };
  /** POST to `<url path>/<method>` instead of the URL as given (the spec's documented paths). Default false. */
  methodPath?: boolean;
  /** Largest response body accepted. Default 16 MiB. */
  maxBodyBytes?: number;
  /** An undici dispatcher (Agent, Pool, MockAgent, interceptors). */
  dispatcher?: Dispatcher;
  /** Pauses between the tries of a call given `minContextSlot`. Default 400 ms doubling to 8000 ms, 10 tries. */
  slotWait?: SlotWaitOptions;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Per attempt (the client's `timeoutMs` when absent); with `minContextSlot`, the whole call: every try and pause. */
  timeoutMs?: number;
  /**
   * Answer only from an indexer that has reached this slot: tries again while the answer's slot
   * (the method table's `slot` path) is lower, else fails with PHOTON_ERR_INDEXER_BEHIND. A method
   * whose answer carries no slot is called once the table's slot method has reached it.
   */
  minContextSlot?: number | bigint;
}

export interface PageOptions extends CallOptions {
  /** Stop after this many pages (a safety bound; default unbounded, a repeated cursor always stops). */
  maxPages?: number;
}

export interface RpcClient {
  /** Calls any method of the table; resolves to its `result`, rejects with RpcError or PhotonClientError. */
  call(method: string, params?: unknown, options?: CallOptions): Promise<unknown>;
  /** Follows a paginated method's cursor, yielding each result `value` until the cursor is null; `slots`/`mixedSlots` tell each page's slot. */
  pages(method: string, params: Record<string, unknown>, options?: PageOptions): Walk<Record<string, unknown>>;
  /** Like `pages`, yielding the items of every page. */
  items(method: string, params: Record<string, unknown>, options?: PageOptions): Walk<unknown>;
}

export interface ClientSpec {
  readonly methods: Readonly<Record<string, MethodInfo>>;
  readonly validators: Readonly<Record<string, MethodValidators>>;
}

function withMethodPath(url: string, method: string): string {
  const u = new URL(url);
  u.pathname = `${u.pathname.replace(/\/+$/, "")}/${encodeURIComponent(method)}`;
  return u.toString();
}

function snippet(text: string, redact: Redactor): string {
  // Redact before cutting: a credential cut in two would no longer be recognised.
  const one = redact(text).replace(/\s+/g, " ").trim();
  return one.length > 200 ? `${one.slice(0, 200)}…` : one;
}

export function createRpcClient(options: ClientOptions, spec: ClientSpec): RpcClient {
  const redact = createRedactor(secretsOf(options.url, options.headers));
  const checkParams =
    options.validate === undefined || options.validate === true || (typeof options.validate === "object" && options.validate.params !== false);
  const checkResult =
    options.validate === undefined || options.validate === true || (typeof options.validate === "object" && options.validate.result !== false);
  let nextId = 1;

  function infoOf(method: string): MethodInfo {
    const info = spec.methods[method];
    if (!info) throw new PhotonClientError(ClientErrorCode.INVALID_PARAMS, `unknown method ${JSON.stringify(method)}`);
    return info;
  }

  /** The method the table answers the indexer's slot with: its result is the slot itself, and it takes no params. */
  const slotMethod = Object.values(spec.methods).find((m) => m.slot === "" && m.requiredParams.length === 0);

  async function call(method: string, params?: unknown, callOptions: CallOptions = {}): Promise<unknown> {
    if (callOptions.minContextSlot === undefined) return send(method, params, callOptions, undefined);
    const info = infoOf(method);
    const min = checkMinContextSlot(method, callOptions.minContextSlot);
    const timeoutMs = callOptions.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const wait = { method, minContextSlot: min, timeoutMs, signal: callOptions.signal, options: options.slotWait };
    const path = info.slot;
    if (path !== null) {
      const answer = await waitForSlot({ ...wait, attempt: async (remaining) => slotTry(method, path, await send(method, params, callOptions, remaining)) });
      return answer.result;
    }
    // No slot in the answer: wait until the indexer's own slot reaches it, then ask once.
    if (!slotMethod) {
      throw new PhotonClientError(ClientErrorCode.INVALID_OPTIONS, `${method}: minContextSlot needs a slot in the answer or a slot method in the table`);
    }
    const reached = await waitForSlot({
      ...wait,
      attempt: async (remaining) => slotTry(slotMethod.name, "", await send(slotMethod.name, undefined, callOptions, remaining)),
    });
    return send(method, params, callOptions, reached.remainingMs);
  }

  function slotTry(method: string, path: string, result: unknown): SlotTry {
    const slot = slotAt(result, path);
    if (isSlot(slot)) return { result, slot };
    throw new PhotonClientError(ClientErrorCode.INVALID_RESULT, `${method}: the answer carries no slot at ${path === "" ? "the result" : `result.${path}`}`);
  }

  /** One request; `remainingMs` (a waiting call's deadline) caps its attempt and retry budget. */
  async function send(method: string, params: unknown, callOptions: CallOptions, remainingMs: number | undefined): Promise<unknown> {
    const info = infoOf(method);
    const validators = spec.validators[method];
    if (checkParams && info.hasParams && validators) {
      const issues = validate(validators.params, params);
      if (issues.length > 0) {
        throw new PhotonClientError(ClientErrorCode.INVALID_PARAMS, `${method}: invalid params: ${formatIssues(issues)}`, { details: issues });
      }
    }
    const id = nextId++;
    const envelope = info.hasParams && params !== undefined ? { jsonrpc: "2.0", id, method, params } : { jsonrpc: "2.0", id, method };
    const url = options.methodPath ? withMethodPath(options.url, method) : options.url;
    const timeoutMs = callOptions.timeoutMs ?? options.timeoutMs;
    const exchange = await postJson(url, stringifyJson(envelope), {
      headers: options.headers,
      timeoutMs: remainingMs === undefined ? timeoutMs : Math.min(timeoutMs ?? DEFAULT_TIMEOUT_MS, remainingMs),
      retry:
        remainingMs === undefined || options.retry === false
          ? options.retry
          : { ...options.retry, budgetMs: Math.min(options.retry?.budgetMs ?? Infinity, remainingMs) },
      signal: callOptions.signal,
      maxBodyBytes: options.maxBodyBytes,
      dispatcher: options.dispatcher,
    });
    if (exchange.status >= 300 && exchange.status < 400) {
      throw new PhotonClientError(ClientErrorCode.REDIRECT, `${method}: HTTP ${exchange.status} redirect not followed`, { status: exchange.status });
    }
    let body: unknown;
    try {
      body = parseJson(exchange.body);
    } catch (err) {
      const code = exchange.status === 200 ? ClientErrorCode.BAD_JSON : ClientErrorCode.HTTP_STATUS;
      // The parser's reason names causes the excerpt cannot show (nesting too deep, where the text breaks off).
      const reason = exchange.body.length === 0 ? "" : ` (${snippet((err as Error).message, redact)})`;
      throw new PhotonClientError(code, `${method}: HTTP ${exchange.status}, body is not JSON${reason}: ${snippet(exchange.body, redact) || "(empty)"}`, {
        status: exchange.status,
        cause: err,
      });
    }
    if (isObject(body) && isObject(body.error) && typeof body.error.code === "number" && typeof body.error.message === "string") {
      throw Object.assign(new RpcError(body.error.code, redact(body.error.message), body.error.data), { status: exchange.status });
    }
    if (exchange.status !== 200) {
      const retried = exchange.attempts > 1 ? ` after ${exchange.attempts} attempts` : "";
      throw new PhotonClientError(
        [429, 502, 503, 504].includes(exchange.status) && exchange.attempts > 1 ? ClientErrorCode.RETRIES_EXHAUSTED : ClientErrorCode.HTTP_STATUS,
        `${method}: HTTP ${exchange.status}${retried}: ${snippet(exchange.body, redact) || "(empty)"}`,
        { status: exchange.status },
      );
    }
    if (!isObject(body) || body.jsonrpc !== "2.0" || !("result" in body) || "error" in body) {
      throw new PhotonClientError(ClientErrorCode.BAD_ENVELOPE, `${method}: not a JSON-RPC 2.0 response: ${snippet(exchange.body, redact)}`);
    }
    if (body.id !== id) {
      throw new PhotonClientError(
        ClientErrorCode.BAD_ENVELOPE,
        `${method}: response id ${snippet(stringifyJson(body.id), redact)} does not match request id ${id}`,
      );
    }
    if (checkResult && validators) {
      const issues = validate(validators.result, body.result);
      if (issues.length > 0) {
        throw new PhotonClientError(ClientErrorCode.INVALID_RESULT, `${method}: result does not match the spec: ${redact(formatIssues(issues, "/result"))}`, {
          details: issues,
        });
      }
    }
    return body.result;
  }

  function pages(method: string, params: Record<string, unknown>, pageOptions: PageOptions = {}): Walk<Record<string, unknown>> {
    const slots: (IndexerSlot | null)[] = [];
    return walkOf(walkPages(method, params, pageOptions, slots), slots);
  }

  function items(method: string, params: Record<string, unknown>, pageOptions: PageOptions = {}): Walk<unknown> {
    const slots: (IndexerSlot | null)[] = [];
    return walkOf(walkItems(method, params, pageOptions, slots), slots);
  }

  /** Yields each page's value, pushing the slot it was read at to `slots`. */
  async function* walkPages(
    method: string,
    params: Record<string, unknown>,
    pageOptions: PageOptions,
    slots: (IndexerSlot | null)[],
  ): AsyncGenerator<Record<string, unknown>> {
    const info = infoOf(method);
    const pagination = info.pagination;
    if (!pagination) throw new PhotonClientError(ClientErrorCode.INVALID_PARAMS, `${method} is not paginated`);
    const seen = new Set<string>();
    let cursor: unknown = params[pagination.cursor] ?? null;
    for (let page = 0; pageOptions.maxPages === undefined || page < pageOptions.maxPages; page++) {
      const result = await call(method, cursor === null ? params : { ...params, [pagination.cursor]: cursor }, pageOptions);
      const slot = info.slot === null ? null : slotAt(result, info.slot);
      slots.push(isSlot(slot) ? slot : null);
      // A page is `result.value` for `{ context, value }` results, else the result itself.
      const value = isObject(result) ? (info.hasContext ? result.value : result) : undefined;
      if (!isObject(value)) return;
      yield value;
      const next = value[pagination.cursor];
      if (next === null || next === undefined) return;
      const key = typeof next === "string" ? next : stringifyJson(next);
      if (seen.has(key)) {
        throw new PhotonClientError(ClientErrorCode.CURSOR_REPEATED, `${method}: the server returned cursor ${snippet(key, redact)} twice; stopping`);
      }
      seen.add(key);
      cursor = next;
    }
  }

  async function* walkItems(method: string, params: Record<string, unknown>, pageOptions: PageOptions, slots: (IndexerSlot | null)[]): AsyncGenerator<unknown> {
    const field = infoOf(method).pagination?.items;
    for await (const value of walkPages(method, params, pageOptions, slots)) {
      const list = field ? value[field] : undefined;
      if (Array.isArray(list)) yield* list;
    }
  }

  return { call, pages, items };
}
