/**
 * The coded-error base every area throws (`PhotonError`, one catalogue and subclass per area: PHOTON_ERR_*,
 * PHOTON_GEN_ERR_*, PHOTON_CONF_ERR_*, PHOTON_REF_ERR_*; a broken invariant is `internalError`), and `RpcError`,
 * a JSON-RPC error value whose `code` is the wire's integer (jsonrpsee 0.16), so no PhotonError; `isCoded` accepts both.
 */

/** An error as a value: what travels in exchanges and results instead of a thrown object. */
export interface ErrorValue {
  readonly code: string;
  readonly message: string;
}

/** The codes of a catalogue (`CodeOf<typeof ClientErrorCode>`). */
export type CodeOf<Catalogue> = Catalogue[keyof Catalogue];

/**
 * How a command of this toolkit ends (both CLIs): 0 done; 1 a verdict against (a required check
 * failed, generated/ is stale, a diff matches --fail-on); 2 it could not be carried out; 130
 * stopped by Ctrl-C (128 + SIGINT).
 */
export const ExitStatus = {
  OK: 0,
  FAILED: 1,
  USAGE: 2,
  INTERRUPTED: 130,
} as const;

export type ExitStatusValue = (typeof ExitStatus)[keyof typeof ExitStatus];

/**
 * The base of every coded error: `code` is a catalogue entry (`PHOTON_…_ERR_…`), narrowed per area by
 * `extends PhotonError<CodeOf<typeof XCode>>`. `exitStatus` is USAGE (2) unless the catalogue says otherwise.
 */
export class PhotonError<Code extends string = string> extends Error {
  override name = "PhotonError";
  readonly code: Code;
  readonly exitStatus: ExitStatusValue;

  constructor(code: Code, message: string, options?: { cause?: unknown; exitStatus?: ExitStatusValue }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.exitStatus = options?.exitStatus ?? ExitStatus.USAGE;
  }

  /** The error as a value (`{code, message}`). */
  toValue(): ErrorValue {
    return { code: this.code, message: this.message };
  }
}

/** A broken invariant of the toolkit's own code: a bug to report, never a fault of the input. */
export class InternalError extends PhotonError {
  override name = "InternalError";
}

/** An internal error with its area's `…_INTERNAL` code (`ClientErrorCode.INTERNAL`, `GenErrorCode.INTERNAL`, …). */
export function internalError(code: string, message: string, cause?: unknown): InternalError {
  return new InternalError(code, message, cause === undefined ? undefined : { cause });
}

/** Whether a value is a coded error: a `PhotonError` (string code) or an `RpcError` (JSON-RPC integer code). */
export function isCoded(err: unknown): err is PhotonError | RpcError {
  return err instanceof PhotonError || err instanceof RpcError;
}

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

/**
 * A JSON-RPC error: thrown by handlers on the server, thrown to callers by the client. Its
 * `code` is the JSON-RPC integer; it is not a `PhotonError` (see the file comment).
 */
export class RpcError extends Error implements RpcErrorObject {
  override name = "RpcError";
  readonly code: number;
  /** Only set when given (`declare`: no own property holding undefined otherwise). */
  declare readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    if (data !== undefined) this.data = data;
  }

  toJSON(): RpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
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
  /** A call given `minContextSlot` got answers only from older slots until its deadline or its tries ran out. */
  INDEXER_BEHIND: "PHOTON_ERR_INDEXER_BEHIND",
  /** A request that cannot be sent as configured: unparseable URL, invalid header name or value. */
  INVALID_OPTIONS: "PHOTON_ERR_INVALID_OPTIONS",
  /** Listener options that cannot work together (`createRequestListener`). */
  LISTENER_OPTIONS: "PHOTON_ERR_LISTENER_OPTIONS",
  /** A regular expression the linear-time engine cannot run (a lookaround, a backreference) or cannot read (`linearRegExp`). */
  UNSUPPORTED_PATTERN: "PHOTON_ERR_UNSUPPORTED_PATTERN",
  /** A broken invariant of the runtime itself (see `internalError`). */
  INTERNAL: "PHOTON_ERR_INTERNAL",
} as const;

export type ClientErrorCodeValue = CodeOf<typeof ClientErrorCode>;

/** A failure of transport, framing or validation (not a JSON-RPC error answer). */
export class PhotonClientError extends PhotonError<ClientErrorCodeValue> {
  override name = "PhotonClientError";
  /** Each only set when given (`declare`: no own property holding undefined otherwise). */
  declare readonly status?: number;
  declare readonly details?: unknown;

  constructor(code: ClientErrorCodeValue, message: string, extra: { status?: number; details?: unknown; cause?: unknown } = {}) {
    super(code, message, extra);
    if (extra.status !== undefined) this.status = extra.status;
    if (extra.details !== undefined) this.details = extra.details;
  }
}
