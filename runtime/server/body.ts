/**
 * Request bodies: collected with module-level listeners (no per-request closures) under the
 * per-request cap (413 as soon as it is passed, or on the declared content-length) and a
 * budget of bytes buffered across all connections (503 with Retry-After, connection closed);
 * then the first-byte check and the parse, with overlong number literals refused first.
 */
import { isUtf8 } from "node:buffer";
import type { IncomingMessage, ServerResponse } from "node:http";
import { RpcCode, RpcMessage } from "../errors.js";
import { JsonSyntaxError, MAX_NUMBER_CHARS, parseJson } from "../json/parse.js";
import { errorEnvelope } from "./envelope.js";
import { EMPTY, sendClosing, sendJson } from "./send.js";

/**
 * The longest number literal read (json.ts, shared with the client): a u64 has at most 20 digits
 * and this interface has no fractional field, so no valid request holds a longer literal; reading
 * one costs time quadratic in its length (a 9.5 MiB literal held the event loop for 10 s).
 */
export { MAX_NUMBER_CHARS };
/** A run of characters that could form a literal longer than MAX_NUMBER_CHARS (a quick pre-check). */
const MAY_HOLD_LONG_NUMBER = new RegExp(`[-+.\\deE]{${MAX_NUMBER_CHARS + 1}}`);
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
}

/**
 * Replaces each number literal longer than MAX_NUMBER_CHARS (outside strings) by ±2^64, out of range
 * for every integer field, so params get -32602 and an id becomes a notification, as serde does in jsonrpsee.
 */
export function boundedNumbers(text: string): string {
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
        if (!JSON_NUMBER.test(text.slice(i, j))) throw new JsonSyntaxError("malformed number");
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

/** Rust's `u8::is_ascii_whitespace` (space, \t, \n, \f, \r), used by jsonrpsee's first-byte check. */
function isAsciiWhitespace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c;
}

// ---------------------------------------------------------------------------------------------
// Request body collection: module-level listeners (no per-request closures); the state lives on
// the request under a symbol.

const BODY = Symbol("photon.body");

export interface BodyState {
  readonly reader: BodyReader;
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
  if (state.size > state.reader.maxRequestBytes) {
    // jsonrpsee: core/src/http_helpers.rs:68-73, 413 as soon as the limit is passed. Stop collecting: with no 'data' listener left the
    // stream keeps flowing and node discards the rest, so the connection stays usable.
    stopCollecting(this, state);
    state.reader.tooLarge(state.res);
    return;
  }
  if (state.size > state.reserved && !state.reader.reserve(state, state.size - state.reserved)) {
    // The budget across connections is spent: refuse, and close the connection rather than read the rest.
    stopCollecting(this, state);
    state.reader.busy(state.res);
    return;
  }
  state.chunks.push(chunk);
}

/** Drops what was collected, gives its budget back and reads no more of this body. */
function stopCollecting(req: BodyRequest, state: BodyState): void {
  state.done = true;
  state.chunks = [];
  state.reader.release(state);
  req.removeListener("data", onBodyData);
}

function onBodyEnd(this: BodyRequest): void {
  const state = this[BODY];
  if (state === undefined || state.done) return;
  state.done = true;
  state.reader.release(state);
  const chunks = state.chunks;
  state.chunks = [];
  const body = chunks.length === 1 ? chunks[0]! : chunks.length === 0 ? EMPTY : Buffer.concat(chunks, state.size);
  state.reader.deliver(this, state.res, body);
}

/** Client went away or the stream broke: drop what was collected, answer nothing. */
function onBodyError(this: BodyRequest): void {
  const state = this[BODY];
  if (state === undefined) return;
  state.done = true;
  state.chunks = [];
  state.reader.release(state);
}

/** Where complete bodies go: the JSON-RPC layer. */
export type BodySink = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

/** The body caps of one listener and the buffered-bytes budget shared by its connections. */
export class BodyReader {
  /** Bytes reserved by unfinished request bodies. */
  private buffered = 0;
  private readonly busyBytes: Buffer;
  private readonly tooLargeBytes: Buffer;

  constructor(
    readonly maxRequestBytes: number,
    readonly maxBufferedBytes: number,
    readonly deliver: BodySink,
  ) {
    this.busyBytes = Buffer.from(`Server busy: request bodies in flight would exceed ${maxBufferedBytes} bytes. Please try again later.\n`);
    // jsonrpsee: http.rs `too_large` / types `reject_too_big_request`.
    this.tooLargeBytes = Buffer.from(
      errorEnvelope("null", RpcCode.OVERSIZED_REQUEST, RpcMessage.OVERSIZED_REQUEST, `Exceeded max limit of ${maxRequestBytes}`),
    );
  }

  /** Starts collecting `req`'s body (a POST whose content type passed); the whole body goes to `deliver`. */
  read(req: IncomingMessage, res: ServerResponse): void {
    const declared = req.headers["content-length"];
    if (declared !== undefined && Number(declared) > this.maxRequestBytes) {
      // jsonrpsee: core/src/http_helpers.rs:44-48, rejected on the declared length, before reading anything (node discards the body).
      this.tooLarge(res);
      return;
    }
    const state: BodyState = { reader: this, res, chunks: [], size: 0, done: false, reserved: 0 };
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
  }

  tooLarge(res: ServerResponse): void {
    sendJson(res, 413, this.tooLargeBytes);
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
}

/** A body that is no JSON-RPC payload: HTTP 400 (not starting like JSON) or 200 (starting like it), both -32700. */
export const NOT_JSON_400 = Symbol("not JSON (400)");
export const NOT_JSON_200 = Symbol("not JSON (200)");

/**
 * The parsed body, as jsonrpsee reads it: the first non-whitespace byte must be `{` or `[`
 * (else HTTP 400); text that starts like JSON but is not (incl. invalid UTF-8, which
 * serde_json rejects) is HTTP 200 -32700. Duplicate keys are recorded for params checks.
 */
export function parseBody(body: Buffer): { value: unknown; batch: boolean } | typeof NOT_JSON_400 | typeof NOT_JSON_200 {
  const n = body.length;
  let i = 0;
  while (i < n && isAsciiWhitespace(body[i]!)) i++;
  const first = i < n ? body[i]! : -1;
  if (first !== 0x7b && first !== 0x5b) return NOT_JSON_400;
  try {
    if (!isUtf8(body)) throw new JsonSyntaxError("invalid UTF-8");
    return { value: parseJson(boundedNumbers(body.toString("utf8")), { duplicateKeys: true }), batch: first === 0x5b };
  } catch {
    return NOT_JSON_200;
  }
}
