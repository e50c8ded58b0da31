/**
 * One catalogue of JSON-RPC error codes (as the real indexer, jsonrpsee 0.16, sends them)
 * and the error classes built on it.
 */

export const RpcCode = {
  /** Body is not JSON, or not a request object with a usable id. */
  PARSE_ERROR: -32700,
  /** Well-formed JSON that is not a valid request (wrong jsonrpc, missing method). */
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  /** Params fail to deserialise: missing/unknown field, wrong type, bad base58, limit > 1000. */
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** Application errors: `Validation Error: …`, `Internal server error`. */
  CALL_EXECUTION_FAILED: -32000,
  OVERSIZED_REQUEST: -32701,
  OVERSIZED_RESPONSE: -32702,
} as const;

export type RpcCodeName = keyof typeof RpcCode;

export const RpcMessage = {
  PARSE_ERROR: "Parse error",
  INVALID_REQUEST: "Invalid request",
  METHOD_NOT_FOUND: "Method not found",
  INVALID_PARAMS: "Invalid params",
  INTERNAL_ERROR: "Internal error",
  CALL_EXECUTION_FAILED: "Internal server error",
  OVERSIZED_REQUEST: "Request is too big",
  OVERSIZED_RESPONSE: "Response is too big",
} as const;

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC error: thrown by handlers on the server, thrown to callers by the client. */
export class RpcError extends Error implements RpcErrorObject {
  override name = "RpcError";
  readonly code: number;
  readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    if (data !== undefined) this.data = data;
  }

  toJSON(): RpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /** An application error as Photon sends it: -32000 `Validation Error: <detail>`. */
  static validation(detail: string): RpcError {
    return new RpcError(RpcCode.CALL_EXECUTION_FAILED, `Validation Error: ${detail}`);
  }

  static invalidParams(detail: string, data?: unknown): RpcError {
    return new RpcError(RpcCode.INVALID_PARAMS, detail, data);
  }
}

/** Why a client call failed before a JSON-RPC answer could be read. */
export const ClientErrorCode = {
  TIMEOUT: "PHOTON_ERR_TIMEOUT",
  ABORTED: "PHOTON_ERR_ABORTED",
  NETWORK: "PHOTON_ERR_NETWORK",
  HTTP_STATUS: "PHOTON_ERR_HTTP_STATUS",
  BODY_TOO_LARGE: "PHOTON_ERR_BODY_TOO_LARGE",
  BAD_JSON: "PHOTON_ERR_BAD_JSON",
  BAD_ENVELOPE: "PHOTON_ERR_BAD_ENVELOPE",
  INVALID_PARAMS: "PHOTON_ERR_INVALID_PARAMS",
  INVALID_RESULT: "PHOTON_ERR_INVALID_RESULT",
  REDIRECT: "PHOTON_ERR_REDIRECT",
  RETRIES_EXHAUSTED: "PHOTON_ERR_RETRIES_EXHAUSTED",
  CURSOR_REPEATED: "PHOTON_ERR_CURSOR_REPEATED",
  /** A request that cannot be sent as configured: unparseable URL, invalid header name or value. */
  INVALID_OPTIONS: "PHOTON_ERR_INVALID_OPTIONS",
} as const;

export type ClientErrorCodeValue = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];

/** A failure of transport, framing or validation (not a JSON-RPC error answer). */
export class PhotonClientError extends Error {
  override name = "PhotonClientError";
  readonly code: ClientErrorCodeValue;
  readonly status?: number;
  readonly details?: unknown;

  constructor(code: ClientErrorCodeValue, message: string, extra: { status?: number; details?: unknown; cause?: unknown } = {}) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.code = code;
    if (extra.status !== undefined) this.status = extra.status;
    if (extra.details !== undefined) this.details = extra.details;
  }
}
