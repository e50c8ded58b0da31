/**
 * JSON-RPC over a parsed body (DECISIONS #80, #81): a single request, a batch (in order, yielding every few
 * milliseconds, within a time budget and the response limit), notifications (no answer),
 * params checks, handler calls (sync or async) and their envelopes, errors as jsonrpsee
 * writes them, and the result memo's fast path.
 *
 * Hot path (a valid single request with a synchronous handler): one parse, one table lookup,
 * one validator call, one stringify, one `res.end(buffer)`; a result holding encoded values
 * (`encodeOnce`: pages of records) is written straight to bytes instead (bytes.ts). Promises and
 * closures appear only when a handler is async.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { MethodInfo, StandaloneValidate } from "../contracts.js";
import { formatIssues, validate } from "../contracts.js";
import { RpcCode, RpcError, RpcMessage } from "../errors.js";
import { duplicateKeyIn } from "../json/marks.js";
import { stringifyJson } from "../json/stringify.js";
import { NOT_JSON_200, NOT_JSON_400, parseBody } from "./body.js";
import { envelopeBytes, holdsEncoded, RESULT_AT, writtenAs } from "./bytes.js";
import {
  asRpcError,
  errorEnvelope,
  idToText,
  INTERNAL_ERROR_NULL_BYTES,
  INVALID_REQUEST_NULL,
  INVALID_REQUEST_NULL_BYTES,
  isThenable,
  issueData,
  PARSE_ERROR,
  PARSE_ERROR_BYTES,
  requestId,
  requestKind,
  type Slot,
} from "./envelope.js";
import { ResultMemo } from "./memo.js";
import { serdeMessage, unexpected } from "./params-message.js";
import { DEFAULT_MAX_BATCH_MS, DEFAULT_MAX_RESPONSE_BYTES, limit, type CallContext, type Handler, type ListenerOptions, type StateGate } from "./options.js";
import { EMPTY, RESULT_HEAD, sendJson, sendParts } from "./send.js";

/** A batch runs at most this long before it yields to the event loop. */
const BATCH_SLICE_MS = 5;

/** One callable method, resolved once when the listener is created. */
export interface Entry {
  readonly name: string;
  readonly hasParams: boolean;
  readonly handler: Handler;
  readonly params: StandaloneValidate | undefined;
  readonly result: StandaloneValidate | undefined;
  /** Whether the params are a JSON array (a `Vec` request in Photon) rather than an object; undefined when the table does not say. */
  readonly list: boolean | undefined;
}

/** Whether the params are a JSON array, from the table's params shape (undefined for a table without one: the validator decides). */
function takesList(shape: MethodInfo["paramShape"]): boolean | undefined {
  return shape ? shape.type === "array" : undefined;
}

/** The outcome of a call's params check: the params to run with, or the error answering them. */
type Checked = { readonly params: unknown } | { readonly error: unknown };

const NO_PARAMS: Checked = Object.freeze({ params: undefined });

/**
 * The memo key of a call whose params passed: their serialisation is then exact (integers only,
 * no -0 or Infinity; `limit: 1e400` and `limit: null` would both serialise as `null`, and neither passes).
 */
function memoKey(entry: Entry, params: unknown): string {
  return `${entry.name}\u0000${entry.hasParams ? stringifyJson(params) : ""}`;
}

/**
 * A -32602 refusal of a request's params: an answer, not a fault, so no stack is captured (it is
 * never shown, and capturing one cost ~5 µs a refusal, ~4 ms of the reference's CPU a suite run).
 */
function refusal(detail: string, data: unknown): RpcError {
  const limit = Error.stackTraceLimit;
  try {
    Error.stackTraceLimit = 0;
  } catch {
    return RpcError.invalidParams(detail, data); // a frozen Error (--frozen-intrinsics): with its stack
  }
  try {
    return RpcError.invalidParams(detail, data);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export class RpcCore {
  readonly maxResponseBytes: number;
  private readonly maxBatchMs: number;
  private readonly budgetMessage: string;
  private readonly unfinishedMessage: string;
  readonly table = new Map<string, Entry>();
  private readonly validateResults: boolean;
  private readonly memo: ResultMemo | null;
  private readonly gate: StateGate | undefined;
  /** The gate's version the memo's results belong to. */
  private memoVersion = 0;
  private readonly onError: ((err: unknown, ctx: { method: string }) => void) | undefined;
  private readonly tooBigData: string;

  constructor(options: ListenerOptions) {
    this.maxResponseBytes = limit(options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, "maxResponseBytes");
    this.maxBatchMs = limit(options.maxBatchMs, DEFAULT_MAX_BATCH_MS, "maxBatchMs");
    this.budgetMessage = `Batch time budget of ${this.maxBatchMs} ms spent: call not run`;
    this.unfinishedMessage = `Batch time budget of ${this.maxBatchMs} ms spent: call not finished`;
    this.validateResults = options.validateResults === true;
    this.memo = options.memoizeResults ? new ResultMemo(options.memoizeResults.maxEntries ?? 4096, options.memoizeResults.maxBytes ?? 64 * 1024 * 1024) : null;
    this.onError = options.onError;
    this.gate = options.gate;
    this.memoVersion = options.gate?.version ?? 0;
    this.tooBigData = `Exceeded max limit of ${this.maxResponseBytes}`;

    const { methods, validators, handlers } = options;
    for (const name of Object.keys(methods)) {
      const info = methods[name]!;
      const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
      // A method without a handler is simply not registered: -32601, as in jsonrpsee.
      if (typeof handler !== "function") continue;
      const v = Object.hasOwn(validators, name) ? validators[name] : undefined;
      this.table.set(name, { name, hasParams: info.hasParams, handler, params: v?.params, result: v?.result, list: takesList(info.paramShape) });
    }
    // DECISIONS #75: `liveness` and `readiness` are registered methods of the real server (and back the GET probes).
    if (!this.table.has("liveness")) {
      this.table.set("liveness", { name: "liveness", hasParams: false, handler: () => null, params: undefined, result: undefined, list: false });
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
      this.table.set("readiness", { name: "readiness", hasParams: false, handler, params: undefined, result: undefined, list: false });
    }
  }

  /** A fully read POST body (DECISIONS #80); with a gate, the whole request inside one state. */
  answer(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const gate = this.gate;
    if (gate === undefined) {
      this.answerNow(req, res, body);
      return;
    }
    gate.enter((done) => {
      if (this.memo !== null && gate.version !== this.memoVersion) {
        this.memo.clear();
        this.memoVersion = gate.version;
      }
      this.answerNow(req, res, body);
      // The state is released once the answer is handed to `end` (not when a slow reader has read it):
      // at once for a synchronous answer, else when `end` finishes writing it into the socket's buffer.
      if (res.writableEnded) done();
      else {
        res.once("prefinish", done);
        res.once("close", done);
      }
    });
  }

  private answerNow(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    try {
      const parsed = parseBody(body);
      if (parsed === NOT_JSON_400) sendJson(res, 400, PARSE_ERROR_BYTES);
      else if (parsed === NOT_JSON_200) sendJson(res, 200, PARSE_ERROR_BYTES);
      else if (parsed.batch) this.batch(req, res, parsed.value as unknown[]);
      else this.single(req, res, parsed.value as Record<string, unknown>);
    } catch (err) {
      this.internalFailure(res, err, "");
    }
  }

  private single(req: IncomingMessage, res: ServerResponse, request: Record<string, unknown>): void {
    let checked: Checked | undefined;
    if (this.memo !== null) {
      // A call answered before: its result bytes go out as they are, between the envelope's head and id.
      if (requestKind(request, false) === "call") {
        const id = request.id as string | number | bigint | null;
        const entry = this.table.get(request.method as string);
        if (entry !== undefined) {
          // Checked once: the same outcome serves the memo's key and, on a miss, the call.
          checked = this.paramsOf(entry, request.params);
          const bytes = "error" in checked ? undefined : this.memo.bytes(memoKey(entry, checked.params));
          if (bytes !== undefined) {
            sendParts(res, RESULT_HEAD, bytes, Buffer.from(`,"id":${idToText(id)}}`, "utf8"));
            return;
          }
        }
      }
    }
    const out = this.element(req, request, false, true, checked);
    if (typeof out === "string" || out instanceof Uint8Array) {
      this.sendEnvelope(res, out);
    } else if (out === undefined) {
      // DECISIONS #80: a notification is answered with HTTP 200 and an empty body.
      sendJson(res, 200, EMPTY);
    } else {
      out.then(
        (slot) => (slot === undefined ? sendJson(res, 200, EMPTY) : this.sendEnvelope(res, slot)),
        (err: unknown) => this.internalFailure(res, err, ""),
      );
    }
  }

  /** DECISIONS #81: answers in request order; invalid elements get -32600 in their slot; notifications none. */
  private batch(req: IncomingMessage, res: ServerResponse, requests: unknown[]): void {
    const n = requests.length;
    if (n === 0) {
      // jsonrpsee: an empty batch response is a single (non-array) -32600 object.
      sendJson(res, 200, INVALID_REQUEST_NULL_BYTES);
      return;
    }
    // Elements run in order, their answers counted as they come: once the answer (`[`, the
    // answers joined by `,`, `]`) passes the response limit, the rest are not run and the batch
    // is answered as jsonrpsee's BatchResponseBuilder does, one -32600 `Invalid request` with id
    // null (DECISIONS #83), so a batch of heavy calls cannot build an unbounded reply. An async
    // element is awaited before the next.
    const slots: Slot[] = [];
    let size = 1;
    let i = 0;
    const add = (slot: Slot): boolean => {
      if (slot === undefined) return true;
      size += slot.length + 1; // characters <= bytes: passing the limit here means passing it
      if (size > this.maxResponseBytes) return false;
      slots.push(slot);
      return true;
    };
    const tooBig = () => sendJson(res, 200, INVALID_REQUEST_NULL_BYTES);
    // Time is bounded from the batch's start (wall time: handler work, awaited calls and the turns
    // it yields alike): every BATCH_SLICE_MS the batch yields (setImmediate) so that other
    // connections are served; past maxBatchMs the remaining elements are not run, and an awaited
    // call still unfinished then is cut (its handler is not stopped; its outcome is dropped).
    const deadline = performance.now() + this.maxBatchMs;
    // Set when a cut call's timer fires (a timer may fire a little before performance.now() passes the deadline).
    let expired = false;
    const step = (): void => {
      if (res.destroyed) return; // the client went away: stop working for it
      const sliceStart = performance.now();
      for (; i < n; i++) {
        const el = requests[i];
        const now = performance.now();
        if (expired || now > deadline) {
          if (!add(this.notRun(req, el))) {
            tooBig();
            return;
          }
          continue;
        }
        if (now - sliceStart >= BATCH_SLICE_MS) {
          setImmediate(step);
          return;
        }
        const slot =
          el !== null && typeof el === "object" && !Array.isArray(el) ? this.element(req, el as Record<string, unknown>, true) : INVALID_REQUEST_NULL;
        if (slot !== undefined && typeof slot !== "string") {
          i++;
          let settled = false;
          const next = (done: Slot): void => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            if (add(done)) step();
            else tooBig();
          };
          const timer = setTimeout(
            () => {
              expired = true;
              next(this.cut(el as Record<string, unknown>));
            },
            Math.max(0, deadline - performance.now()),
          );
          slot.then(next, (err: unknown) => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            this.internalFailure(res, err, "");
          });
          return;
        }
        if (!add(slot)) {
          tooBig();
          return;
        }
      }
      this.finishBatch(res, slots);
    };
    step();
  }

  /** The slot of an awaited call still unfinished when the batch's time budget is spent: -32000 (a notification: none). */
  private cut(request: Record<string, unknown>): Slot {
    if (requestKind(request, true) !== "call") return undefined;
    return errorEnvelope(idToText(request.id as string | number | bigint | null), RpcCode.CALL_EXECUTION_FAILED, this.unfinishedMessage);
  }

  /** The slot of a batch element left unrun once the batch's time budget is spent: calls get -32000, the rest what they always get. */
  private notRun(req: IncomingMessage, el: unknown): Slot {
    if (el === null || typeof el !== "object" || Array.isArray(el)) return INVALID_REQUEST_NULL;
    const request = el as Record<string, unknown>;
    const kind = requestKind(request, true);
    if (kind === "invalid") return this.element(req, request, true) as Slot;
    if (kind === "notification") return undefined;
    return errorEnvelope(idToText(request.id as string | number | bigint | null), RpcCode.CALL_EXECUTION_FAILED, this.budgetMessage);
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
    // Counted in characters above; in bytes here (DECISIONS #83).
    if (!this.fits(text)) text = INVALID_REQUEST_NULL;
    sendJson(res, 200, text);
  }

  private sendEnvelope(res: ServerResponse, envelope: string | Buffer): void {
    sendJson(res, 200, envelope);
  }

  /**
   * One request object, as jsonrpsee classifies it (DECISIONS #43, #80, #81; `requestKind`): a Request
   * is executed; a Notification runs with no answer; anything else is -32600 with its id when
   * an id can be read (`requestId`), else -32700 id null (single) or -32600 id null (batch element).
   */
  private element(req: IncomingMessage, request: Record<string, unknown>, inBatch: boolean): Slot | Promise<Slot>;
  private element(req: IncomingMessage, request: Record<string, unknown>, inBatch: boolean, bytes: true, checked?: Checked): Slot | Buffer | Promise<Slot>;
  private element(req: IncomingMessage, request: Record<string, unknown>, inBatch: boolean, bytes = false, checked?: Checked): Slot | Buffer | Promise<Slot> {
    const kind = requestKind(request, inBatch);
    if (kind === "call") {
      const rid = request.id as string | number | bigint | null;
      return this.call(req, request.method as string, request.params, rid, idToText(rid), bytes, checked);
    }
    if (kind === "notification") {
      const out = this.call(req, request.method as string, request.params, null, "null");
      return typeof out === "string" || out instanceof Uint8Array ? undefined : out.then(noSlot);
    }
    const id = requestId(request);
    if (id !== undefined) return errorEnvelope(idToText(id), RpcCode.INVALID_REQUEST, RpcMessage.INVALID_REQUEST);
    return inBatch ? INVALID_REQUEST_NULL : PARSE_ERROR;
  }

  // -- Calls ---------------------------------------------------------------------------------------

  /**
   * Runs one call and returns its envelope (with `bytes`, a synchronous success whose result holds
   * encoded values comes as the envelope's bytes; `checked`: the outcome of these params' check,
   * when the caller has made it). Never throws, never rejects.
   */
  private call(
    req: IncomingMessage,
    method: string,
    params: unknown,
    id: CallContext["id"],
    idText: string,
    bytes = false,
    checked?: Checked,
  ): string | Buffer | Promise<string> {
    const entry = this.table.get(method);
    if (entry === undefined) return errorEnvelope(idText, RpcCode.METHOD_NOT_FOUND, RpcMessage.METHOD_NOT_FOUND);
    const outcome = checked ?? this.paramsOf(entry, params);
    if ("error" in outcome) return this.failure(entry.name, idText, outcome.error);
    let result: unknown;
    let key: string | undefined;
    try {
      const p = outcome.params;
      if (this.memo !== null) {
        key = memoKey(entry, p);
        const text = this.memo.get(key);
        if (text !== undefined) return `{"jsonrpc":"2.0","result":${text},"id":${idText}}`;
      }
      result = entry.handler(p, { id, method, request: req, written: writtenAs });
    } catch (err) {
      return this.failure(entry.name, idText, err);
    }
    if (isThenable(result)) {
      return Promise.resolve(result).then(
        (value) => this.success(entry, idText, value),
        (err: unknown) => this.failure(entry.name, idText, err),
      );
    }
    if (bytes) return this.successBytes(entry, idText, result, key);
    return this.success(entry, idText, result, key);
  }

  /**
   * `success`, written to bytes when the result holds encoded values (bytes.ts): the same answer,
   * byte for byte, without joining the kept texts into one string and encoding it again. A call
   * the memo keeps (`key`) is written the same way and its result text kept from those bytes,
   * so a first call takes this path whether or not results are memoised.
   */
  private successBytes(entry: Entry, idText: string, value: unknown, key?: string): string | Buffer {
    if (!holdsEncoded(value) || (this.validateResults && entry.result !== undefined)) return this.success(entry, idText, value, key);
    let envelope: Buffer | undefined;
    try {
      envelope = envelopeBytes(value, idText);
    } catch {
      envelope = undefined; // a throwing getter: the string path reports it as it always did
    }
    if (envelope === undefined) return this.success(entry, idText, value, key);
    if (envelope.length > this.maxResponseBytes) return errorEnvelope(idText, RpcCode.OVERSIZED_RESPONSE, RpcMessage.OVERSIZED_RESPONSE, this.tooBigData);
    if (key !== undefined) {
      // The result's text: the envelope less `{"jsonrpc":"2.0","result":` and `,"id":<id>}`.
      const tail = Buffer.byteLength(`,"id":${idText}}`, "utf8");
      this.memo!.set(key, envelope.toString("utf8", RESULT_AT, envelope.length - tail));
    }
    return envelope;
  }

  /** The params a call runs with (none for a method without params: Photon's handlers ignore whatever `params` holds, DECISIONS #5), or the error refusing them. */
  private paramsOf(entry: Entry, params: unknown): Checked {
    if (!entry.hasParams) return NO_PARAMS;
    try {
      return { params: this.checkParams(entry, params) };
    } catch (error) {
      return { error };
    }
  }

  /**
   * Params must be an object (a list where the method's params schema is one) passing the params
   * validator, with no key written twice; else -32602 with serde's message for the first issue
   * (params-message.ts) and every issue's pointer in `data` (DECISIONS #43, #79). Throws RpcError.
   */
  checkParams(entry: Entry, params: unknown): unknown {
    // Absent params read as null (jsonrpsee `Params::parse`); a list method takes an array, any other an object.
    const list = entry.list;
    const expected = list ? "a sequence" : "a map";
    if (params === undefined || params === null || typeof params !== "object" || (list !== undefined && Array.isArray(params) !== list)) {
      const message = `invalid type: ${unexpected(params)}, expected ${expected}`;
      throw refusal(message, { issues: [{ pointer: "", message }] });
    }
    // serde's derived structs refuse a field given twice (JSON.parse would keep the last).
    const duplicate = duplicateKeyIn(params);
    if (duplicate !== null) {
      const message = `duplicate field \`${duplicate.key}\``;
      throw refusal(message, { issues: [{ pointer: duplicate.pointer, message }] });
    }
    if (entry.params !== undefined) {
      const issues = validate(entry.params, params);
      if (issues.length > 0) {
        const data = { issues: issues.map((i) => ({ pointer: i.pointer, message: serdeMessage(i, params) })) };
        throw refusal(data.issues[0]!.message, data);
      }
    }
    return params;
  }

  private success(entry: Entry, idText: string, value: unknown, key?: string): string {
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
      // Key order as jsonrpsee writes it (jsonrpsee: types/src/response.rs:37-45); undefined becomes null.
      const text = stringifyJson(value);
      const envelope = `{"jsonrpc":"2.0","result":${text},"id":${idText}}`;
      if (key !== undefined && this.fits(envelope)) this.memo!.set(key, text);
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
    // DECISIONS #9: unexpected errors are -32000 with a fixed message; the cause is only logged.
    this.report(err, method);
    return errorEnvelope(idText, RpcCode.CALL_EXECUTION_FAILED, RpcMessage.CALL_EXECUTION_FAILED);
  }

  /** DECISIONS #9 / jsonrpsee `MethodResponse::response`: an answer over the limit becomes -32702 for that id. */
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

  // -- Failures ------------------------------------------------------------------------------------

  // -- Failures ------------------------------------------------------------------------------------

  report(err: unknown, method: string): void {
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

/** Photon's `readiness` failing is a DatabaseError: -32000 `Internal server error` (DECISIONS #9, #82). */
function readyOrThrow(ready: unknown): null {
  if (!ready) throw NOT_READY;
  return null;
}

function noSlot(): undefined {
  return undefined;
}
