/**
 * One JSON-RPC call to its envelope: the method table, the params check, the handler (sync or
 * async), the result's validation, memo and size cap, and errors as jsonrpsee writes them.
 */
import type { IncomingMessage } from "node:http";
import type { MethodInfo, StandaloneValidate } from "../contracts.js";
import { formatIssues, validate } from "../contracts.js";
import { RpcCode, RpcError, RpcMessage } from "../errors.js";
import { duplicateKeyIn } from "../json/marks.js";
import { stringifyJson } from "../json/stringify.js";
import { envelopeBytes, holdsEncoded, RESULT_AT, writtenAs } from "./bytes.js";
import { asRpcError, errorEnvelope, isThenable, issueData } from "./envelope.js";
import { ResultMemo } from "./memo.js";
import { serdeMessage, unexpected } from "./params-message.js";
import type { CallContext, Handler, ListenerOptions } from "./options.js";

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
export type Checked = { readonly params: unknown } | { readonly error: unknown };

const NO_PARAMS: Checked = Object.freeze({ params: undefined });

/**
 * The memo key of a call whose params passed: their serialisation is then exact (integers only,
 * no -0 or Infinity; `limit: 1e400` and `limit: null` would both serialise as `null`, and neither passes).
 */
export function memoKey(entry: Entry, params: unknown): string {
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

export class CallRunner {
  readonly maxResponseBytes: number;
  readonly table = new Map<string, Entry>();
  private readonly validateResults: boolean;
  protected readonly memo: ResultMemo | null;
  private readonly onError: ((err: unknown, ctx: { method: string }) => void) | undefined;
  private readonly tooBigData: string;

  /** `maxResponseBytes`: the options' bound, already checked. */
  constructor(options: ListenerOptions, maxResponseBytes: number) {
    this.maxResponseBytes = maxResponseBytes;
    this.validateResults = options.validateResults === true;
    this.memo = options.memoizeResults ? new ResultMemo(options.memoizeResults.maxEntries ?? 4096, options.memoizeResults.maxBytes ?? 64 * 1024 * 1024) : null;
    this.onError = options.onError;
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

  /**
   * Runs one call and returns its envelope (with `bytes`, a synchronous success whose result holds
   * encoded values comes as the envelope's bytes; `checked`: the outcome of these params' check,
   * when the caller has made it). Never throws, never rejects.
   */
  protected call(
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
   * `success` written to bytes when the result holds encoded values: the same answer byte for byte,
   * without joining and re-encoding the kept texts. A memoised call keeps its result text from those bytes.
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
  protected paramsOf(entry: Entry, params: unknown): Checked {
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

  protected fits(text: string): boolean {
    const max = this.maxResponseBytes;
    // A UTF-16 code unit is at most 3 UTF-8 bytes and at least 1.
    if (text.length * 3 <= max) return true;
    if (text.length > max) return false;
    return Buffer.byteLength(text, "utf8") <= max;
  }

  /** Hands an error to the listener's `onError`; a throwing logger does not take the server down. */
  report(err: unknown, method: string): void {
    if (this.onError === undefined) return;
    try {
      this.onError(err, { method });
    } catch {}
  }
}

const NOT_READY = new RpcError(RpcCode.CALL_EXECUTION_FAILED, RpcMessage.CALL_EXECUTION_FAILED);

/** Photon's `readiness` failing is a DatabaseError: -32000 `Internal server error` (DECISIONS #9, #82). */
function readyOrThrow(ready: unknown): null {
  if (!ready) throw NOT_READY;
  return null;
}
