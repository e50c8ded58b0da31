/**
 * The node:http request listener core: JSON-RPC 2.0 over HTTP as the real indexer (Photon,
 * on jsonrpsee 0.16) serves it. Generated code supplies the method table, the precompiled
 * validators and the user's handlers; every protocol and HTTP rule lives here, once.
 *
 * `§n` in comments refers to a section of photon-behaviour.md ("How the real indexer
 * behaves"); `jsonrpsee:` to paritytech/jsonrpsee v0.16 (server/src/transport/http.rs,
 * core/src/server/helpers.rs, server/src/middleware/proxy_get_request.rs).
 *
 * Hot path (a valid single request with a synchronous handler): one Buffer.concat (none when
 * the body came in one chunk), one parse, one table lookup, one validator call, one
 * stringify, one `res.end(buffer)`. Promises and closures appear only when a handler is async.
 */
import { isUtf8 } from "node:buffer";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { MethodInfo, MethodValidators, StandaloneValidate, ValidationIssue } from "./contracts.js";
import { formatIssues, validate } from "./contracts.js";
import { RpcCode, RpcError, RpcMessage } from "./errors.js";
import { duplicateKeyIn, parseJson, stringifyJson } from "./json.js";

export interface CallContext {
  /** The request id (null for a notification). */
  readonly id: string | number | bigint | null;
  readonly method: string;
  readonly request: IncomingMessage;
}

export type Handler = (params: any, ctx: CallContext) => unknown | Promise<unknown>;

export interface ListenerOptions {
  methods: Readonly<Record<string, MethodInfo>>;
  validators: Readonly<Record<string, MethodValidators>>;
  handlers: Readonly<Record<string, Handler>>;
  /** Largest request body accepted; default 10 MiB (10485760), as jsonrpsee. */
  maxRequestBytes?: number;
  /** Largest response body sent; default 10 MiB. A larger answer becomes -32702. */
  maxResponseBytes?: number;
  /**
   * Connections served at once; default 1024 (Photon's `--max-http-connections`). A request on
   * a connection beyond it gets HTTP 429 text/plain `Too many connections. Please try again
   * later.` and the connection is closed, as jsonrpsee does. A connection counts from its first
   * request to its close; cap idle ones too with the server's own `maxConnections`.
   */
  maxConnections?: number;
  /**
   * Bytes of unfinished request bodies held across all connections; default 64 MiB, at least
   * `maxRequestBytes`. A body's declared content-length is reserved when it starts (a chunked
   * one is counted as it arrives); a request that would pass the budget gets HTTP 503 with
   * `Retry-After: 1` and its connection is closed.
   */
  maxBufferedBytes?: number;
  /**
   * Handler time a batch may spend, in milliseconds; default 2000. The elements run in order,
   * yielding to the event loop every few milliseconds so that other connections are served;
   * elements not started when the budget is spent are answered -32000 without being run.
   */
  maxBatchMs?: number;
  /** Check handler results with the result validators; a failure becomes -32603 with the issues in `data` (a test aid). Default false. */
  validateResults?: boolean;
  /**
   * Reuse the serialised result of an identical call (same method, same params) for servers
   * whose handlers are pure over immutable data, such as the reference indexer: bounded,
   * oldest dropped first. Only successful synchronous results that fit the response limit
   * are kept. Default off.
   */
  memoizeResults?: { maxEntries?: number; maxBytes?: number } | false;
  /** Backs `GET /readiness` and the `readiness` method. Default: always ready. */
  readiness?: () => boolean | Promise<boolean>;
  /** Called with unexpected handler errors (the client only sees -32000 `Internal server error`). */
  onError?: (err: unknown, ctx: { method: string }) => void;
}

const DEFAULT_MAX_REQUEST_BYTES = 10 * 1024 * 1024;
const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
const DEFAULT_MAX_CONNECTIONS = 1024;
const DEFAULT_MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
const DEFAULT_MAX_BATCH_MS = 2000;
/** A batch runs at most this long before it yields to the event loop. */
const BATCH_SLICE_MS = 5;

const U64_MAX = 18446744073709551615n;
const JSON_TYPE = "application/json; charset=utf-8";
const TEXT_TYPE = "text/plain";

// jsonrpsee's text/plain answers end with a newline (jsonrpsee: http.rs `response` module).
const METHOD_NOT_ALLOWED_TEXT = Buffer.from("Used HTTP Method is not allowed. POST or OPTIONS is required\n");
const UNSUPPORTED_TYPE_TEXT = Buffer.from("Supplied content type is not allowed. Content-Type: application/json is required\n");
// jsonrpsee: http.rs `too_many_requests` (over the connection limit).
const TOO_MANY_CONNECTIONS_TEXT = Buffer.from("Too many connections. Please try again later.\n");

/**
 * The longest number literal read. A u64 has at most 20 digits and this interface has no
 * fractional field, so no valid request holds a longer literal; reading one costs time
 * quadratic in its length (a 9.5 MiB literal held the event loop for 10 s).
 */
export const MAX_NUMBER_CHARS = 40;
/** A run of characters that could form a literal longer than MAX_NUMBER_CHARS (a quick pre-check). */
const MAY_HOLD_LONG_NUMBER = /[-+.\deE]{41}/;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
}

/**
 * The request text with every number literal longer than MAX_NUMBER_CHARS (outside strings)
 * replaced, before parsing, by 18446744073709551616 (2^64, with its sign): out of range for
 * every integer field, so params validation answers -32602 naming its pointer, and an id
 * becomes unusable (a notification), as serde answers such a literal in jsonrpsee. A long run
 * that is not a JSON number makes the text not JSON: SyntaxError (-32700).
 */
function boundedNumbers(text: string): string {
  if (text.length <= MAX_NUMBER_CHARS || !MAY_HOLD_LONG_NUMBER.test(text)) return text;
  const parts: string[] = [];
  let from = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // To the closing quote: one preceded by an even run of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i === -1) return parts.length === 0 ? text : parts.join("") + text.slice(from);
        let k = i - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((i - 1 - k) % 2 === 0) break;
      }
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < n && isNumberChar(text.charCodeAt(j))) j++;
      if (j - i > MAX_NUMBER_CHARS) {
        if (!JSON_NUMBER.test(text.slice(i, j))) throw new SyntaxError("malformed number");
        parts.push(text.slice(from, i), c === 0x2d ? "-18446744073709551616" : "18446744073709551616");
        from = j;
      }
      i = j - 1;
    }
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(from));
  return parts.join("");
}

function errorEnvelope(idText: string, code: number, message: string, data?: unknown): string {
  let text = `{"jsonrpc":"2.0","error":{"code":${stringifyJson(code)},"message":${stringifyJson(message)}`;
  if (data !== undefined) text += `,"data":${stringifyJson(data)}`;
  return `${text}},"id":${idText}}`;
}

const PARSE_ERROR = errorEnvelope("null", RpcCode.PARSE_ERROR, RpcMessage.PARSE_ERROR);
const PARSE_ERROR_BYTES = Buffer.from(PARSE_ERROR);
const INVALID_REQUEST_NULL = errorEnvelope("null", RpcCode.INVALID_REQUEST, RpcMessage.INVALID_REQUEST);
const INVALID_REQUEST_NULL_BYTES = Buffer.from(INVALID_REQUEST_NULL);
const INTERNAL_ERROR_NULL_BYTES = Buffer.from(errorEnvelope("null", RpcCode.INTERNAL_ERROR, RpcMessage.INTERNAL_ERROR));
const NULL_BYTES = Buffer.from("null");
const EMPTY = Buffer.alloc(0);

/** One callable method, resolved once when the listener is created. */
interface Entry {
  readonly name: string;
  readonly hasParams: boolean;
  readonly handler: Handler;
  readonly params: StandaloneValidate | undefined;
  readonly result: StandaloneValidate | undefined;
}

/** What a call yields for the wire: an envelope, or nothing (a notification). */
type Slot = string | undefined;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * A usable id is what jsonrpsee's `Id` accepts: a string, a u64 number, or null (§6;
 * jsonrpsee types/src/params.rs). Numbers written as floats cannot be told apart from
 * integers once parsed (`1.0` reads as 1), so those are accepted; `-0` is not (serde reads it as a float).
 */
function isUsableId(id: unknown): boolean {
  switch (typeof id) {
    case "string":
      return true;
    case "number":
      return Number.isSafeInteger(id) && id >= 0 && !Object.is(id, -0);
    case "bigint":
      return id >= 0n && id <= U64_MAX;
    case "object":
      return id === null;
    default:
      return false;
  }
}

function idToText(id: string | number | bigint | null): string {
  if (id === null) return "null";
  if (typeof id === "number" || typeof id === "bigint") return id.toString();
  return stringifyJson(id);
}

/** An RpcError, also one from another copy of this module (dist vs. source). */
function asRpcError(err: unknown): RpcError | undefined {
  if (err instanceof RpcError) return err;
  if (err instanceof Error && err.name === "RpcError" && Number.isInteger((err as { code?: unknown }).code)) {
    return err as RpcError;
  }
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "bigint" ? "number" : typeof value;
}

function issueData(issues: readonly ValidationIssue[]): { issues: { pointer: string; message: string }[] } {
  return { issues: issues.map((i) => ({ pointer: i.pointer, message: i.message })) };
}

/** The POST content types jsonrpsee accepts, compared case-insensitively (§7; jsonrpsee: http.rs `is_json`). */
function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const v = value.length === 16 || value.length === 30 || value.length === 31 ? value.toLowerCase() : "";
  return v === "application/json" || v === "application/json; charset=utf-8" || v === "application/json;charset=utf-8";
}

/** Rust's `u8::is_ascii_whitespace` (space, \t, \n, \f, \r), used by jsonrpsee's first-byte check. */
function isAsciiWhitespace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c;
}

function sendBytes(res: ServerResponse, status: number, contentType: string, body: Buffer): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.writeHead(status, {
    "content-type": contentType,
    "access-control-allow-origin": "*",
    "content-length": body.length,
  });
  res.end(body);
}

const RESULT_HEAD = Buffer.from(`{"jsonrpc":"2.0","result":`);

/** HTTP 200 JSON in three parts (no copy of the middle one). */
function sendParts(res: ServerResponse, head: Buffer, body: Buffer, tail: Buffer): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.writeHead(200, {
    "content-type": JSON_TYPE,
    "access-control-allow-origin": "*",
    "content-length": head.length + body.length + tail.length,
  });
  res.cork();
  res.write(head);
  res.write(body);
  res.end(tail);
  res.uncork();
}

function sendJson(res: ServerResponse, status: number, body: string | Buffer): void {
  sendBytes(res, status, JSON_TYPE, typeof body === "string" ? Buffer.from(body, "utf8") : body);
}

/** A text/plain refusal after which the connection is closed. */
function sendClosing(res: ServerResponse, status: number, body: Buffer, extra: Record<string, string> = {}): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.writeHead(status, { "content-type": TEXT_TYPE, "access-control-allow-origin": "*", ...extra, connection: "close", "content-length": body.length });
  res.end(body);
}

const OVER = Object.freeze({ over: true });
const COUNTED = Object.freeze({ over: false });

// ---------------------------------------------------------------------------------------------
// Request body collection: module-level listeners (no per-request closures); the state lives on
// the request under a symbol.

const BODY = Symbol("photon.body");

interface BodyState {
  readonly core: RpcCore;
  readonly res: ServerResponse;
  chunks: Buffer[];
  size: number;
  done: boolean;
  /** Bytes of the listener's buffered-bytes budget held for this body (released once). */
  reserved: number;
}

type BodyRequest = IncomingMessage & { [BODY]?: BodyState };

function onBodyData(this: BodyRequest, chunk: Buffer): void {
  const state = this[BODY];
  if (state === undefined || state.done) return;
  state.size += chunk.length;
  if (state.size > state.core.maxRequestBytes) {
    // §6: 413 as soon as the limit is passed. Stop collecting: with no 'data' listener left the
    // stream keeps flowing and node discards the rest, so the connection stays usable.
    stopCollecting(this, state);
    state.core.tooLarge(state.res);
    return;
  }
  if (state.size > state.reserved && !state.core.reserve(state, state.size - state.reserved)) {
    // The budget across connections is spent: refuse, and close the connection rather than read the rest.
    stopCollecting(this, state);
    state.core.busy(state.res);
    return;
  }
  state.chunks.push(chunk);
}

/** Drops what was collected, gives its budget back and reads no more of this body. */
function stopCollecting(req: BodyRequest, state: BodyState): void {
  state.done = true;
  state.chunks = [];
  state.core.release(state);
  req.removeListener("data", onBodyData);
}

function onBodyEnd(this: BodyRequest): void {
  const state = this[BODY];
  if (state === undefined || state.done) return;
  state.done = true;
  state.core.release(state);
  const chunks = state.chunks;
  state.chunks = [];
  const body = chunks.length === 1 ? chunks[0]! : chunks.length === 0 ? EMPTY : Buffer.concat(chunks, state.size);
  state.core.body(this, state.res, body);
}

/** Client went away or the stream broke: drop what was collected, answer nothing. */
function onBodyError(this: BodyRequest): void {
  const state = this[BODY];
  if (state === undefined) return;
  state.done = true;
  state.chunks = [];
  state.core.release(state);
}

const CONNECTION = Symbol("photon.connection");

/** Per socket: whether its requests are refused (it came past the connection limit). */
type TrackedSocket = Socket & { [CONNECTION]?: { readonly over: boolean } };

// ---------------------------------------------------------------------------------------------

/** Serialised results by call (method and params), oldest dropped first past either bound. */
class ResultMemo {
  private readonly texts = new Map<string, string>();
  private readonly encoded = new Map<string, Buffer>();
  private size = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
  ) {}

  get(key: string): string | undefined {
    return this.texts.get(key);
  }

  /** The result as UTF-8 bytes, encoded once on its first reuse. */
  bytes(key: string): Buffer | undefined {
    const hit = this.encoded.get(key);
    if (hit !== undefined) return hit;
    const text = this.texts.get(key);
    if (text === undefined) return undefined;
    const bytes = Buffer.from(text, "utf8");
    this.encoded.set(key, bytes);
    return bytes;
  }

  set(key: string, text: string): void {
    if (text.length > this.maxChars || this.texts.has(key)) return;
    this.texts.set(key, text);
    this.size += key.length + text.length;
    for (const [k, v] of this.texts) {
      if (this.texts.size <= this.maxEntries && this.size <= this.maxChars) break;
      this.texts.delete(k);
      this.encoded.delete(k);
      this.size -= k.length + v.length;
    }
  }
}

class RpcCore {
  readonly maxRequestBytes: number;
  readonly maxResponseBytes: number;
  private readonly maxConnections: number;
  private readonly maxBufferedBytes: number;
  private readonly maxBatchMs: number;
  /** Connections counted (first request seen, not closed yet). */
  private connections = 0;
  /** Bytes reserved by unfinished request bodies. */
  private buffered = 0;
  private readonly busyBytes: Buffer;
  private readonly budgetMessage: string;
  private readonly table = new Map<string, Entry>();
  private readonly validateResults: boolean;
  private readonly memo: ResultMemo | null;
  private readonly onError: ((err: unknown, ctx: { method: string }) => void) | undefined;
  private readonly tooLargeBytes: Buffer;
  private readonly tooBigData: string;

  constructor(options: ListenerOptions) {
    this.maxRequestBytes = limit(options.maxRequestBytes, DEFAULT_MAX_REQUEST_BYTES, "maxRequestBytes");
    this.maxResponseBytes = limit(options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, "maxResponseBytes");
    this.maxConnections = limit(options.maxConnections, DEFAULT_MAX_CONNECTIONS, "maxConnections");
    this.maxBufferedBytes = limit(options.maxBufferedBytes, Math.max(DEFAULT_MAX_BUFFERED_BYTES, this.maxRequestBytes), "maxBufferedBytes");
    if (this.maxBufferedBytes < this.maxRequestBytes) throw new RangeError(`maxBufferedBytes (${this.maxBufferedBytes}) must be at least maxRequestBytes (${this.maxRequestBytes})`);
    this.maxBatchMs = limit(options.maxBatchMs, DEFAULT_MAX_BATCH_MS, "maxBatchMs");
    this.busyBytes = Buffer.from(`Server busy: request bodies in flight would exceed ${this.maxBufferedBytes} bytes. Please try again later.\n`);
    this.budgetMessage = `Batch time budget of ${this.maxBatchMs} ms spent: call not run`;
    this.validateResults = options.validateResults === true;
    this.memo = options.memoizeResults ? new ResultMemo(options.memoizeResults.maxEntries ?? 4096, options.memoizeResults.maxBytes ?? 64 * 1024 * 1024) : null;
    this.onError = options.onError;
    // jsonrpsee: http.rs `too_large` / types `reject_too_big_request`.
    this.tooLargeBytes = Buffer.from(
      errorEnvelope("null", RpcCode.OVERSIZED_REQUEST, RpcMessage.OVERSIZED_REQUEST, `Exceeded max limit of ${this.maxRequestBytes}`),
    );
    this.tooBigData = `Exceeded max limit of ${this.maxResponseBytes}`;

    const { methods, validators, handlers } = options;
    for (const name of Object.keys(methods)) {
      const info = methods[name]!;
      const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
      // A method without a handler is simply not registered: -32601, as in jsonrpsee.
      if (typeof handler !== "function") continue;
      const v = Object.hasOwn(validators, name) ? validators[name] : undefined;
      this.table.set(name, { name, hasParams: info.hasParams, handler, params: v?.params, result: v?.result });
    }
    // §7: `liveness` and `readiness` are registered methods of the real server (and back the GET probes).
    if (!this.table.has("liveness")) {
      this.table.set("liveness", { name: "liveness", hasParams: false, handler: () => null, params: undefined, result: undefined });
    }
    if (!this.table.has("readiness")) {
      const readiness = options.readiness;
      const handler: Handler =
        readiness === undefined
          ? () => null
          : () => {
              const ready = readiness();
              if (isThenable(ready)) return Promise.resolve(ready).then(readyOrThrow);
              return readyOrThrow(ready);
            };
      this.table.set("readiness", { name: "readiness", hasParams: false, handler, params: undefined, result: undefined });
    }
  }

  // -- HTTP --------------------------------------------------------------------------------------

  handle(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket as TrackedSocket;
    const seen = socket[CONNECTION];
    if (seen === undefined ? this.admit(socket) : seen.over) {
      req.resume();
      sendClosing(res, 429, TOO_MANY_CONNECTIONS_TEXT);
      return;
    }
    const method = req.method;
    if (method === "POST") {
      // §7: the path (and query) is ignored for POST; only the content type is checked.
      if (!isJsonContentType(req.headers["content-type"])) {
        sendBytes(res, 415, TEXT_TYPE, UNSUPPORTED_TYPE_TEXT);
        return;
      }
      const declared = req.headers["content-length"];
      if (declared !== undefined && Number(declared) > this.maxRequestBytes) {
        // §6: rejected on the declared length, before reading anything (node discards the body).
        this.tooLarge(res);
        return;
      }
      const state: BodyState = { core: this, res, chunks: [], size: 0, done: false, reserved: 0 };
      // The declared length is reserved up front, so a slow sender cannot hold more than the budget.
      const reserve = declared === undefined ? 0 : Number(declared);
      if (reserve > 0 && !this.reserve(state, reserve)) {
        req.resume();
        this.busy(res);
        return;
      }
      (req as BodyRequest)[BODY] = state;
      // A client that goes away mid-body makes node emit 'error' (ECONNRESET "aborted"); 'close' always comes.
      req.on("error", onBodyError);
      req.on("close", onBodyError);
      req.on("data", onBodyData);
      req.on("end", onBodyEnd);
      return;
    }
    if (method === "GET") {
      // §7: exact URI match (`/liveness?x` is not proxied), GET only.
      const url = req.url;
      if (url === "/liveness" || url === "/readiness") {
        this.probe(req, res, url === "/liveness" ? "liveness" : "readiness");
        return;
      }
    } else if (method === "OPTIONS") {
      // §7: Photon's CorsLayer answers every OPTIONS itself, whatever the path (any origin,
      // `content-type` allowed). tower-http sends 200 with an empty body; this kit answers 204.
      if (!res.headersSent) {
        res.writeHead(204, {
          "access-control-allow-origin": "*",
          "access-control-allow-methods": "POST, GET, OPTIONS",
          "access-control-allow-headers": "content-type",
        });
        res.end();
      }
      return;
    }
    sendBytes(res, 405, TEXT_TYPE, METHOD_NOT_ALLOWED_TEXT);
  }

  tooLarge(res: ServerResponse): void {
    sendJson(res, 413, this.tooLargeBytes);
  }

  /** Counts a socket seen for the first time; true when it is past the connection limit (its requests are refused). */
  private admit(socket: TrackedSocket): boolean {
    const over = this.connections >= this.maxConnections;
    socket[CONNECTION] = over ? OVER : COUNTED;
    if (!over) {
      this.connections++;
      socket.once("close", () => this.connections--);
    }
    return over;
  }

  /** Takes `bytes` more of the buffered-bytes budget for `state`; false (nothing taken) when that would pass it. */
  reserve(state: BodyState, bytes: number): boolean {
    if (this.buffered + bytes > this.maxBufferedBytes) return false;
    this.buffered += bytes;
    state.reserved += bytes;
    return true;
  }

  release(state: BodyState): void {
    this.buffered -= state.reserved;
    state.reserved = 0;
  }

  /** HTTP 503 with Retry-After, connection closed: the buffered-bytes budget is spent. */
  busy(res: ServerResponse): void {
    sendClosing(res, 503, this.busyBytes, { "retry-after": "1" });
  }

  /** A fully read POST body (§6). */
  body(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    try {
      // jsonrpsee reads the first non-whitespace byte: not `{`/`[` (or nothing) is HTTP 400.
      const n = body.length;
      let i = 0;
      while (i < n && isAsciiWhitespace(body[i]!)) i++;
      const first = i < n ? body[i]! : -1;
      if (first !== 0x7b && first !== 0x5b) {
        sendJson(res, 400, PARSE_ERROR_BYTES);
        return;
      }
      // Starts like JSON but is not (incl. invalid UTF-8, which serde_json rejects): HTTP 200 -32700.
      let value: unknown;
      try {
        if (!isUtf8(body)) throw new SyntaxError("invalid UTF-8");
        value = parseJson(boundedNumbers(body.toString("utf8")), { duplicateKeys: true });
      } catch {
        sendJson(res, 200, PARSE_ERROR_BYTES);
        return;
      }
      if (first === 0x7b) this.single(req, res, value as Record<string, unknown>);
      else this.batch(req, res, value as unknown[]);
    } catch (err) {
      this.internalFailure(res, err, "");
    }
  }

  private single(req: IncomingMessage, res: ServerResponse, request: Record<string, unknown>): void {
    if (this.memo !== null) {
      // A call answered before: its result bytes go out as they are, between the envelope's head and id.
      const id = request.id;
      const method = request.method;
      if (request.jsonrpc === "2.0" && typeof method === "string" && id !== undefined && isUsableId(id)) {
        const entry = this.table.get(method);
        const key = entry === undefined ? undefined : this.memoKey(entry, request.params);
        const bytes = key === undefined ? undefined : this.memo.bytes(key);
        if (bytes !== undefined) {
          sendParts(res, RESULT_HEAD, bytes, Buffer.from(`,"id":${idToText(id as string | number | bigint | null)}}`, "utf8"));
          return;
        }
      }
    }
    const out = this.element(req, request, false);
    if (typeof out === "string") {
      this.sendEnvelope(res, out);
    } else if (out === undefined) {
      // §6: a notification is answered with HTTP 200 and an empty body.
      sendJson(res, 200, EMPTY);
    } else {
      out.then(
        (slot) => (slot === undefined ? sendJson(res, 200, EMPTY) : this.sendEnvelope(res, slot)),
        (err: unknown) => this.internalFailure(res, err, ""),
      );
    }
  }

  /** §6: answers in request order; invalid elements get -32600 in their slot; notifications none. */
  private batch(req: IncomingMessage, res: ServerResponse, requests: unknown[]): void {
    const n = requests.length;
    if (n === 0) {
      // jsonrpsee: an empty batch response is a single (non-array) -32600 object.
      sendJson(res, 200, INVALID_REQUEST_NULL_BYTES);
      return;
    }
    // Elements run in order, their answers counted as they come: once the answers pass the
    // response limit, the rest are not run and the batch is answered -32702, so a batch of
    // heavy calls cannot build an unbounded reply. An async element is awaited before the next.
    const slots: Slot[] = [];
    let size = 2;
    let i = 0;
    const add = (slot: Slot): boolean => {
      if (slot === undefined) return true;
      size += slot.length + 1; // characters <= bytes: passing the limit here means passing it
      if (size > this.maxResponseBytes) return false;
      slots.push(slot);
      return true;
    };
    const tooBig = () => sendJson(res, 200, errorEnvelope("null", RpcCode.OVERSIZED_RESPONSE, RpcMessage.OVERSIZED_RESPONSE, this.tooBigData));
    // Handler time is bounded: every BATCH_SLICE_MS the batch yields (setImmediate) so that other
    // connections are served, and past maxBatchMs in all the remaining elements are not run.
    let spent = 0;
    const step = (): void => {
      if (res.destroyed) return; // the client went away: stop working for it
      const sliceStart = performance.now();
      for (; i < n; i++) {
        const el = requests[i];
        const elapsed = performance.now() - sliceStart;
        if (spent + elapsed > this.maxBatchMs) {
          if (!add(this.notRun(req, el))) return tooBig();
          continue;
        }
        if (elapsed >= BATCH_SLICE_MS) {
          spent += elapsed;
          setImmediate(step);
          return;
        }
        const slot = el !== null && typeof el === "object" && !Array.isArray(el) ? this.element(req, el as Record<string, unknown>, true) : INVALID_REQUEST_NULL;
        if (slot !== undefined && typeof slot !== "string") {
          i++;
          spent += performance.now() - sliceStart;
          slot.then(
            (done) => (add(done) ? step() : tooBig()),
            (err: unknown) => this.internalFailure(res, err, ""),
          );
          return;
        }
        if (!add(slot)) return tooBig();
      }
      this.finishBatch(res, slots);
    };
    step();
  }

  /** The slot of a batch element left unrun once the batch's time budget is spent: calls get -32000, the rest what they always get. */
  private notRun(req: IncomingMessage, el: unknown): Slot {
    if (el === null || typeof el !== "object" || Array.isArray(el)) return INVALID_REQUEST_NULL;
    const request = el as Record<string, unknown>;
    if (request.jsonrpc !== "2.0" || typeof request.method !== "string") return this.element(req, request, true) as Slot;
    const id = request.id;
    if (id === undefined || !isUsableId(id)) return undefined;
    return errorEnvelope(idToText(id as string | number | bigint | null), RpcCode.CALL_EXECUTION_FAILED, this.budgetMessage);
  }

  private finishBatch(res: ServerResponse, slots: readonly Slot[]): void {
    let text = "";
    for (const slot of slots) {
      if (slot === undefined) continue;
      text += text.length === 0 ? `[${slot}` : `,${slot}`;
    }
    // Only notifications (the batch was not empty): HTTP 200, empty body.
    if (text.length === 0) {
      sendJson(res, 200, EMPTY);
      return;
    }
    text += "]";
    if (!this.fits(text)) {
      text = errorEnvelope("null", RpcCode.OVERSIZED_RESPONSE, RpcMessage.OVERSIZED_RESPONSE, this.tooBigData);
    }
    sendJson(res, 200, text);
  }

  private sendEnvelope(res: ServerResponse, envelope: string): void {
    sendJson(res, 200, envelope);
  }

  /**
   * One request object, as jsonrpsee classifies it (§6): a Request (valid shape and usable id)
   * is executed; a Notification (valid shape, id absent or unusable) runs with no answer;
   * anything else is -32600 with its id when the id is usable, else -32700 id null (single) or
   * -32600 id null (batch element).
   */
  private element(req: IncomingMessage, request: Record<string, unknown>, inBatch: boolean): Slot | Promise<Slot> {
    const id = request.id;
    const usable = id !== undefined && isUsableId(id);
    const method = request.method;
    if (request.jsonrpc === "2.0" && typeof method === "string") {
      if (usable) {
        const rid = id as string | number | bigint | null;
        return this.call(req, method, request.params, rid, idToText(rid));
      }
      const out = this.call(req, method, request.params, null, "null");
      return typeof out === "string" ? undefined : out.then(noSlot);
    }
    if (usable) return errorEnvelope(idToText(id as string | number | bigint | null), RpcCode.INVALID_REQUEST, RpcMessage.INVALID_REQUEST);
    return inBatch ? INVALID_REQUEST_NULL : PARSE_ERROR;
  }

  // -- Calls ---------------------------------------------------------------------------------------

  /** Runs one call and returns its envelope. Never throws, never rejects. */
  private call(req: IncomingMessage, method: string, params: unknown, id: CallContext["id"], idText: string): string | Promise<string> {
    const entry = this.table.get(method);
    if (entry === undefined) return errorEnvelope(idText, RpcCode.METHOD_NOT_FOUND, RpcMessage.METHOD_NOT_FOUND);
    let result: unknown;
    let memoKey: string | undefined;
    try {
      // Methods without params ignore whatever `params` holds, as Photon's handlers do (§1.7).
      const p = entry.hasParams ? this.checkParams(entry, params) : undefined;
      if (this.memo !== null) {
        // Only params that passed: their serialisation is then exact (integers only, no -0 or Infinity).
        memoKey = `${method}\u0000${entry.hasParams ? stringifyJson(p) : ""}`;
        const text = this.memo.get(memoKey);
        if (text !== undefined) return `{"jsonrpc":"2.0","result":${text},"id":${idText}}`;
      }
      result = entry.handler(p, { id, method, request: req });
    } catch (err) {
      return this.failure(entry.name, idText, err);
    }
    if (isThenable(result)) {
      return Promise.resolve(result).then(
        (value) => this.success(entry, idText, value),
        (err: unknown) => this.failure(entry.name, idText, err),
      );
    }
    return this.success(entry, idText, result, memoKey);
  }

  /**
   * The memo key of a call whose params pass (the same key `call` uses), or undefined when they
   * do not: a key is exact only for valid params (`limit: 1e400` and `limit: null` would both
   * serialise as `null`).
   */
  private memoKey(entry: Entry, params: unknown): string | undefined {
    if (!entry.hasParams) return `${entry.name}\u0000`;
    try {
      return `${entry.name}\u0000${stringifyJson(this.checkParams(entry, params))}`;
    } catch {
      return undefined;
    }
  }

  /** Params must be an object passing the params validator, with no key written twice; else -32602 (§6). Throws RpcError. */
  private checkParams(entry: Entry, params: unknown): unknown {
    if (params === undefined) {
      throw RpcError.invalidParams("Invalid params: missing params (an object is required)", {
        issues: [{ pointer: "", message: "is required" }],
      });
    }
    if (params === null || typeof params !== "object" || Array.isArray(params)) {
      throw RpcError.invalidParams(`Invalid params: params must be an object, got ${kindOf(params)}`, {
        issues: [{ pointer: "", message: "must be an object" }],
      });
    }
    // serde's derived structs refuse a field given twice (JSON.parse would keep the last).
    const duplicate = duplicateKeyIn(params);
    if (duplicate !== null) {
      throw RpcError.invalidParams(`Invalid params: duplicate field \`${duplicate.key}\` at ${duplicate.pointer || "/"}`, {
        issues: [{ pointer: duplicate.pointer, message: `duplicate field \`${duplicate.key}\`` }],
      });
    }
    if (entry.params !== undefined) {
      const issues = validate(entry.params, params);
      if (issues.length > 0) throw RpcError.invalidParams(`Invalid params: ${formatIssues(issues)}`, issueData(issues));
    }
    return params;
  }

  private success(entry: Entry, idText: string, value: unknown, memoKey?: string): string {
    try {
      if (this.validateResults && entry.result !== undefined) {
        const issues = validate(entry.result, value === undefined ? null : value);
        if (issues.length > 0) {
          return errorEnvelope(
            idText,
            RpcCode.INTERNAL_ERROR,
            `${RpcMessage.INTERNAL_ERROR}: result does not match its schema: ${formatIssues(issues)}`,
            issueData(issues),
          );
        }
      }
      // Key order as jsonrpsee writes it (§0); undefined becomes null.
      const text = stringifyJson(value);
      const envelope = `{"jsonrpc":"2.0","result":${text},"id":${idText}}`;
      if (memoKey !== undefined && this.fits(envelope)) this.memo!.set(memoKey, text);
      return this.capped(envelope, idText);
    } catch (err) {
      // Unserialisable result (cycle, throwing toJSON) or a throwing validator.
      this.report(err, entry.name);
      return errorEnvelope(idText, RpcCode.INTERNAL_ERROR, RpcMessage.INTERNAL_ERROR);
    }
  }

  private failure(method: string, idText: string, err: unknown): string {
    const rpc = asRpcError(err);
    if (rpc !== undefined) {
      try {
        return this.capped(errorEnvelope(idText, rpc.code, String(rpc.message), rpc.data), idText);
      } catch (e) {
        this.report(e, method);
        return errorEnvelope(idText, RpcCode.INTERNAL_ERROR, RpcMessage.INTERNAL_ERROR);
      }
    }
    // §6: unexpected errors are -32000 with a fixed message; the cause is only logged.
    this.report(err, method);
    return errorEnvelope(idText, RpcCode.CALL_EXECUTION_FAILED, RpcMessage.CALL_EXECUTION_FAILED);
  }

  /** §6 / jsonrpsee `MethodResponse::response`: an answer over the limit becomes -32702 for that id. */
  private capped(envelope: string, idText: string): string {
    if (this.fits(envelope)) return envelope;
    return errorEnvelope(idText, RpcCode.OVERSIZED_RESPONSE, RpcMessage.OVERSIZED_RESPONSE, this.tooBigData);
  }

  private fits(text: string): boolean {
    const max = this.maxResponseBytes;
    // A UTF-16 code unit is at most 3 UTF-8 bytes and at least 1.
    if (text.length * 3 <= max) return true;
    if (text.length > max) return false;
    return Buffer.byteLength(text, "utf8") <= max;
  }

  // -- Health probes -------------------------------------------------------------------------------

  /**
   * §7 / jsonrpsee `ProxyGetRequest`: `GET /liveness` and `GET /readiness` call the method with
   * id 0 and no params; a result is sent bare with HTTP 200, any error as HTTP 500 -32603.
   */
  private probe(req: IncomingMessage, res: ServerResponse, method: "liveness" | "readiness"): void {
    const entry = this.table.get(method)!;
    let result: unknown;
    try {
      const p = entry.hasParams ? this.checkParams(entry, undefined) : undefined;
      result = entry.handler(p, { id: 0, method, request: req });
    } catch (err) {
      this.probeFailed(res, method, err);
      return;
    }
    if (isThenable(result)) {
      Promise.resolve(result).then(
        (value) => this.probeAnswer(res, method, value),
        (err: unknown) => this.probeFailed(res, method, err),
      );
      return;
    }
    this.probeAnswer(res, method, result);
  }

  private probeAnswer(res: ServerResponse, method: string, value: unknown): void {
    try {
      sendJson(res, 200, value === undefined || value === null ? NULL_BYTES : stringifyJson(value));
    } catch (err) {
      this.probeFailed(res, method, err);
    }
  }

  private probeFailed(res: ServerResponse, method: string, err: unknown): void {
    if (asRpcError(err) === undefined) this.report(err, method);
    sendJson(res, 500, INTERNAL_ERROR_NULL_BYTES);
  }

  // -- Failures ------------------------------------------------------------------------------------

  private report(err: unknown, method: string): void {
    if (this.onError === undefined) return;
    try {
      this.onError(err, { method });
    } catch {
      // A throwing logger must not take the server down.
    }
  }

  /** Something in this module itself went wrong: answer as jsonrpsee's `internal_error` (HTTP 500). */
  internalFailure(res: ServerResponse, err: unknown, method: string): void {
    this.report(err, method);
    try {
      if (!res.headersSent) sendJson(res, 500, INTERNAL_ERROR_NULL_BYTES);
      else res.destroy();
    } catch {
      // Nothing left to do for this response.
    }
  }
}

const NOT_READY = new RpcError(RpcCode.CALL_EXECUTION_FAILED, RpcMessage.CALL_EXECUTION_FAILED);

/** Photon's `readiness` failing is a DatabaseError: -32000 `Internal server error` (§6, §7). */
function readyOrThrow(ready: unknown): null {
  if (!ready) throw NOT_READY;
  return null;
}

function noSlot(): undefined {
  return undefined;
}

function limit(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  return value;
}

/**
 * The node:http request listener: JSON-RPC 2.0 on POST to any path, `GET /liveness`,
 * `GET /readiness`, CORS preflight, and the real indexer's error codes and HTTP statuses.
 */
export function createRequestListener(options: ListenerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const core = new RpcCore(options);
  return (req, res) => {
    try {
      core.handle(req, res);
    } catch (err) {
      core.internalFailure(res, err, "");
    }
  };
}
