/**
 * What the indexer metrics read of one exchange: whether the suite gave it up itself (not the
 * indexer's doing, not counted), and the error codes it carries: the transport's coded failure,
 * each JSON-RPC error's code (a batch's each), else a non-2xx HTTP status as `http_<status>`.
 */
import { ClientErrorCode } from "@photon-indexer-kit/runtime";
import { ConfErrorCode } from "../errors.js";
import type { Exchange } from "../results.js";

/** Stops of the suite's own (Ctrl-C, a deadline, an abort): the exchange says nothing of the indexer. */
const OWN_STOPS: ReadonlySet<string> = new Set([ClientErrorCode.ABORTED, ConfErrorCode.INTERRUPTED, ConfErrorCode.DEADLINE]);

export const givenUp = (exchange: Exchange): boolean => OWN_STOPS.has(exchange.errorCode ?? "");

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A JSON-RPC error object's integer code as text; `invalid` for an error whose code is not an integer. */
function rpcCode(answer: unknown): string | null {
  if (!isObject(answer) || !("error" in answer)) return null;
  const code = isObject(answer.error) ? answer.error.code : undefined;
  return typeof code === "bigint" || (typeof code === "number" && Number.isInteger(code)) ? String(code) : "invalid";
}

/** The error codes of one exchange (none for a good answer). */
export function errorCodes(exchange: Exchange): string[] {
  const failure = exchange.errorCode ?? null;
  if (failure !== null) return givenUp(exchange) ? [] : [failure];
  const answers = Array.isArray(exchange.body) ? exchange.body : [exchange.body];
  const codes = answers.map(rpcCode).filter((c): c is string => c !== null);
  if (codes.length === 0 && (exchange.status < 200 || exchange.status > 299)) return [`http_${exchange.status}`];
  return codes;
}
