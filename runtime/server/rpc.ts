/**
 * JSON-RPC over a parsed body (DECISIONS #80, #81): a single request, a batch (in order, yielding every few
 * milliseconds, within a time budget and the response limit), notifications (no answer), and the
 * result memo's fast path; each call is run by CallRunner (call.ts).
 *
 * Hot path (a valid single request with a synchronous handler): one parse, one table lookup,
 * one validator call, one stringify, one `res.end(buffer)`; a result holding encoded values
 * (`encodeOnce`: pages of records) is written straight to bytes instead (bytes.ts). Promises and
 * closures appear only when a handler is async.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { RpcCode, RpcMessage } from "../errors.js";
import { NOT_JSON_200, NOT_JSON_400, parseBody } from "./body.js";
import { CallRunner, memoKey, type Checked } from "./call.js";
import {
  errorEnvelope,
  idToText,
  INTERNAL_ERROR_NULL_BYTES,
  INVALID_REQUEST_NULL,
  INVALID_REQUEST_NULL_BYTES,
  PARSE_ERROR,
  PARSE_ERROR_BYTES,
  requestId,
  requestKind,
  type Slot,
} from "./envelope.js";
import { DEFAULT_MAX_BATCH_MS, DEFAULT_MAX_RESPONSE_BYTES, limit, type ListenerOptions, type StateGate } from "./options.js";
import { EMPTY, RESULT_HEAD, sendJson, sendParts } from "./send.js";

/** A batch runs at most this long before it yields to the event loop. */
const BATCH_SLICE_MS = 5;

export class RpcCore extends CallRunner {
  private readonly maxBatchMs: number;
  private readonly budgetMessage: string;
  private readonly unfinishedMessage: string;
  private readonly gate: StateGate | undefined;
  /** The gate's version the memo's results belong to. */
  private memoVersion = 0;

  constructor(options: ListenerOptions) {
    // Checked in this order, before the method table is built.
    const maxResponseBytes = limit(options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, "maxResponseBytes");
    const maxBatchMs = limit(options.maxBatchMs, DEFAULT_MAX_BATCH_MS, "maxBatchMs");
    super(options, maxResponseBytes);
    this.maxBatchMs = maxBatchMs;
    this.budgetMessage = `Batch time budget of ${this.maxBatchMs} ms spent: call not run`;
    this.unfinishedMessage = `Batch time budget of ${this.maxBatchMs} ms spent: call not finished`;
    this.gate = options.gate;
    this.memoVersion = options.gate?.version ?? 0;
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
    // Elements run in order (an async one awaited before the next); once the answers pass the response limit the
    // rest are not run and the batch is one -32600 with id null, as jsonrpsee's BatchResponseBuilder (DECISIONS #83).
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
    // Wall time from the batch's start: it yields every BATCH_SLICE_MS; past maxBatchMs the rest are not run and an
    // awaited call still unfinished is cut (its handler is not stopped; its outcome is dropped).
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

function noSlot(): undefined {
  return undefined;
}
