/**
 * What the interceptors raise, and how `postJson` turns any failure of a call into a
 * PhotonClientError (code TIMEOUT, ABORTED, NETWORK, BODY_TOO_LARGE, BAD_JSON or
 * INVALID_OPTIONS) whose message names the target through `redactUrl` and carries no credentials.
 */
import { ClientErrorCode, PhotonClientError, PhotonError } from "../errors.js";
import { createRedactor, redactUrl, secretsOf } from "../redact.js";
import { Ended, type CallState } from "./state.js";

/** The body outgrew the cap (by its content-length, or while streaming). */
export class BodyTooLarge extends PhotonError<typeof ClientErrorCode.BODY_TOO_LARGE> {
  override name = "BodyTooLarge";
  constructor(
    readonly status: number,
    readonly received: number,
    readonly contentLength: number | undefined,
  ) {
    super(ClientErrorCode.BODY_TOO_LARGE, `response body over the limit`);
  }
}

/** The body is content-encoded (gzip, br…): nothing was negotiated and nothing here decodes it. */
export class UnnegotiatedEncoding extends PhotonError<typeof ClientErrorCode.BAD_JSON> {
  override name = "UnnegotiatedEncoding";
  constructor(
    readonly status: number,
    readonly encoding: string,
  ) {
    super(ClientErrorCode.BAD_JSON, `response is ${encoding}-encoded`);
  }
}

/** The reason an attempt is aborted with when its deadline passes. */
export class DeadlineReached extends PhotonError<typeof ClientErrorCode.TIMEOUT> {
  override name = "DeadlineReached";
  constructor(message = "the attempt's deadline passed") {
    super(ClientErrorCode.TIMEOUT, message);
  }
}

/** Codes of failures to reach the server or keep the connection before any response byte. */
export const RETRYABLE_NETWORK_CODES: ReadonlySet<string> = new Set([
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

const TIMEOUT_CODES: ReadonlySet<string> = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

export const INVALID_CODES: ReadonlySet<string> = new Set([
  "UND_ERR_INVALID_ARG",
  "UND_ERR_NOT_SUPPORTED",
  "ERR_INVALID_URL",
  "ERR_INVALID_ARG_TYPE",
  "ERR_INVALID_ARG_VALUE",
  "ERR_INVALID_CHAR",
  "ERR_INVALID_HTTP_TOKEN",
]);

export function errorCodeOf(err: unknown, depth = 0): string | undefined {
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

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n} bytes (${n / (1024 * 1024)} MiB)`;
  if (n >= 1024 && n % 1024 === 0) return `${n} bytes (${n / 1024} KiB)`;
  return `${n} bytes`;
}

/** What a failure message needs to know about the request. */
export interface FailedRequest {
  readonly method: string;
  /** The URL as the caller gave it (its userinfo is masked by redactUrl). */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly callerHeaders: Record<string, string> | undefined;
}

/** The PhotonClientError for a call that ended with `err` (the raw cause from the interceptors). */
export function toClientError(err: unknown, state: CallState, request: FailedRequest): unknown {
  const target = `${request.method} ${redactUrl(request.url)}`;
  const attempts = state.attempts;
  const why = state.why;
  if (err instanceof UnnegotiatedEncoding) {
    const asked =
      request.headers["accept-encoding"] === undefined
        ? "but no encoding was negotiated (no Accept-Encoding was sent)"
        : "and this client does not decode content encodings";
    return new PhotonClientError(
      ClientErrorCode.BAD_JSON,
      `${target}: HTTP ${err.status} response is ${err.encoding}-encoded ${asked}; its body is not JSON text`,
      {
        status: err.status,
        details: { contentEncoding: err.encoding, attempts },
      },
    );
  }
  if (err instanceof BodyTooLarge) {
    const limit = state.maxBodyBytes;
    const seen = err.contentLength !== undefined ? `content-length is ${err.contentLength}` : `${err.received} bytes received when it was aborted`;
    return new PhotonClientError(
      ClientErrorCode.BODY_TOO_LARGE,
      `${target}: HTTP ${err.status} response body exceeds the limit of ${formatBytes(limit)} (${seen}); request aborted`,
      {
        status: err.status,
        details: { limit, received: err.received, contentLength: err.contentLength, attempts },
      },
    );
  }
  if (why === Ended.SLEEP_FAILED) return err;
  if (why === Ended.CALLER_ABORTED || (why === Ended.NO && state.signal?.aborted)) {
    return new PhotonClientError(ClientErrorCode.ABORTED, `${target} aborted by the caller`, { cause: state.signal?.reason, details: { attempts } });
  }
  const errorCode = errorCodeOf(err);
  const status = state.status;
  if (why === Ended.TIMED_OUT || (errorCode !== undefined && TIMEOUT_CODES.has(errorCode))) {
    const phase = status === undefined ? "waiting for the response" : `reading the HTTP ${status} response body`;
    const budget = state.budgetLimited ? ` (the retry budget of ${state.policy.budgetMs} ms ran out)` : "";
    const tries = attempts > 1 ? ` on attempt ${attempts}` : "";
    return new PhotonClientError(ClientErrorCode.TIMEOUT, `${target} timed out after ${state.deadlineMs} ms ${phase}${tries}${budget}`, {
      status,
      details: { timeoutMs: state.deadlineMs, attempts },
      cause: err,
    });
  }
  const redact = createRedactor(secretsOf(request.url, request.callerHeaders));
  const detail = err instanceof Error && err.message ? ` (${redact(err.message)})` : "";
  if (errorCode !== undefined && INVALID_CODES.has(errorCode)) {
    // No `cause`: Node's ERR_INVALID_URL carries the whole URL (`input`), key included.
    return new PhotonClientError(ClientErrorCode.INVALID_OPTIONS, `${target} cannot be sent: ${errorCode}${detail}`, { details: { errorCode } });
  }
  const code = errorCode ?? "UNKNOWN";
  if (status !== undefined) {
    return new PhotonClientError(ClientErrorCode.NETWORK, `${target}: connection closed while reading the HTTP ${status} response body: ${code}${detail}`, {
      status,
      details: { errorCode: code, attempts },
      cause: err,
    });
  }
  if (why === Ended.BUDGET_SPENT) {
    return new PhotonClientError(
      ClientErrorCode.NETWORK,
      `${target} failed: ${code} after ${attempts} attempts (the retry budget of ${state.policy.budgetMs} ms ran out)`,
      {
        details: { errorCode: code, attempts },
        cause: err,
      },
    );
  }
  const tries = attempts > 1 ? ` after ${attempts} attempts` : "";
  return new PhotonClientError(ClientErrorCode.NETWORK, `${target} failed: ${code}${detail}${tries}`, { details: { errorCode: code, attempts }, cause: err });
}
