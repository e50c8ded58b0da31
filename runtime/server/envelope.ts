/**
 * JSON-RPC envelopes as jsonrpsee writes them (DECISIONS #9, #80): error envelopes and their fixed
 * instances, which ids are usable, ids as text, and the RpcError test that also accepts one
 * from another copy of this package.
 */
import type { ValidationIssue } from "../contracts.js";
import { RpcCode, RpcError, RpcMessage } from "../errors.js";
import { duplicatedKeysOf } from "../json/marks.js";
import { stringifyJson } from "../json/stringify.js";

const U64_MAX = 18446744073709551615n;

export function errorEnvelope(idText: string, code: number, message: string, data?: unknown): string {
  let text = `{"jsonrpc":"2.0","error":{"code":${stringifyJson(code)},"message":${stringifyJson(message)}`;
  if (data !== undefined) text += `,"data":${stringifyJson(data)}`;
  return `${text}},"id":${idText}}`;
}

export const PARSE_ERROR = errorEnvelope("null", RpcCode.PARSE_ERROR, RpcMessage.PARSE_ERROR);
export const PARSE_ERROR_BYTES = Buffer.from(PARSE_ERROR);
export const INVALID_REQUEST_NULL = errorEnvelope("null", RpcCode.INVALID_REQUEST, RpcMessage.INVALID_REQUEST);
export const INVALID_REQUEST_NULL_BYTES = Buffer.from(INVALID_REQUEST_NULL);
export const INTERNAL_ERROR_NULL_BYTES = Buffer.from(errorEnvelope("null", RpcCode.INTERNAL_ERROR, RpcMessage.INTERNAL_ERROR));
export const NULL_BYTES = Buffer.from("null");

/** What a call yields for the wire: an envelope, or nothing (a notification). */
export type Slot = string | undefined;

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === "object" || typeof value === "function") && typeof (value as { then?: unknown }).then === "function";
}

/**
 * A usable id is what jsonrpsee's `Id` accepts: a string, a u64 number, or null (DECISIONS #4;
 * jsonrpsee types/src/params.rs). Numbers written as floats cannot be told apart from
 * integers once parsed (`1.0` reads as 1), so those are accepted; `-0` is not (serde reads it as a float).
 */
export function isUsableId(id: unknown): boolean {
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

/** A request object's id as jsonrpsee reads it: its `Id` type, a usable id (null included). */
export type RequestId = string | number | bigint | null;

/**
 * How jsonrpsee reads one request object (DECISIONS #43, #80, #81): a repeated `jsonrpc`, `method` or
 * `params` makes it invalid, a repeated `id` makes it a notification; in a batch a notification needs `params`.
 */
export function requestKind(request: Record<string, unknown>, inBatch: boolean): "call" | "notification" | "invalid" {
  if (request.jsonrpc !== "2.0" || typeof request.method !== "string") return "invalid";
  const repeated = duplicatedKeysOf(request);
  if (repeated.length > 0 && (repeated.includes("jsonrpc") || repeated.includes("method") || repeated.includes("params"))) return "invalid";
  if (requestId(request) !== undefined) return "call";
  return inBatch && !Object.hasOwn(request, "params") ? "invalid" : "notification";
}

/**
 * The id a request object is answered with (jsonrpsee's `Request` and `InvalidRequest` read
 * only it): a usable id written once; undefined when it is absent, unusable or repeated.
 */
export function requestId(request: Record<string, unknown>): RequestId | undefined {
  const id = request.id;
  if (id === undefined || !isUsableId(id)) return undefined;
  const repeated = duplicatedKeysOf(request);
  return repeated.length > 0 && repeated.includes("id") ? undefined : (id as RequestId);
}

export function idToText(id: string | number | bigint | null): string {
  if (id === null) return "null";
  if (typeof id === "number" || typeof id === "bigint") return id.toString();
  return stringifyJson(id);
}

/** An RpcError, also one from another copy of this module (dist vs. source). */
export function asRpcError(err: unknown): RpcError | undefined {
  if (err instanceof RpcError) return err;
  if (err instanceof Error && err.name === "RpcError" && Number.isInteger((err as { code?: unknown }).code)) {
    return err as RpcError;
  }
  return undefined;
}
export function issueData(issues: readonly ValidationIssue[]): { issues: { pointer: string; message: string }[] } {
  return { issues: issues.map((i) => ({ pointer: i.pointer, message: i.message })) };
}
