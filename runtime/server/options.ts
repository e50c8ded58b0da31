/**
 * The listener's options and the shapes handlers see, with the defaults of every bound.
 */
import type { IncomingMessage } from "node:http";
import type { MethodInfo, MethodValidators } from "../contracts.js";
import { ClientErrorCode, PhotonError } from "../errors.js";

export interface CallContext {
  /** The request id (null for a notification). */
  readonly id: string | number | bigint | null;
  readonly method: string;
  readonly request: IncomingMessage;
  /**
   * Hands the listener a value's JSON text: `json` must be exactly `stringifyJson(value)`. A single call's
   * answer then copies the text instead of serialising again. Freezes `value` and returns it.
   * Absent where a handler is called outside a listener.
   */
  readonly written?: <T extends object>(value: T, json: string) => T;
}

export type Handler = (params: any, ctx: CallContext) => unknown | Promise<unknown>;

export interface ListenerOptions {
  methods: Readonly<Record<string, MethodInfo>>;
  validators: Readonly<Record<string, MethodValidators>>;
  handlers: Readonly<Record<string, Handler>>;
  /** Largest request body accepted; default 10 MiB (10485760), as jsonrpsee. */
  maxRequestBytes?: number;
  /**
   * Largest response body sent; default 10 MiB, as jsonrpsee (Photon sets none). A larger answer to
   * one call becomes -32702 for its id; a batch answer past it, one -32600 with id null (DECISIONS #83).
   */
  maxResponseBytes?: number;
  /**
   * Connections served at once; default 1024 (Photon's `--max-http-connections`). One beyond it gets
   * HTTP 429 `Too many connections. Please try again later.` and is closed, as jsonrpsee does.
   * A connection counts from its first request; cap idle ones with the server's own `maxConnections`.
   */
  maxConnections?: number;
  /**
   * Bytes of unfinished request bodies held across all connections; default 64 MiB, at least
   * `maxRequestBytes`. A request that would pass it gets HTTP 503 with `Retry-After: 1` and is closed.
   */
  maxBufferedBytes?: number;
  /**
   * Wall time a batch may take, in ms; default 2000. Elements run in order, yielding to other connections.
   * Once spent, an unfinished call is answered -32000 `Batch time budget of N ms spent: call not finished`
   * (its handler keeps running, its outcome dropped) and elements not started `…: call not run`.
   */
  maxBatchMs?: number;
  /** Check handler results with the result validators; a failure becomes -32603 with the issues in `data` (a test aid). Default false. */
  validateResults?: boolean;
  /**
   * Reuse the serialised result of an identical call (same method and params), for handlers pure over
   * immutable data: bounded, oldest dropped first, only synchronous successes within the response limit. Default off.
   */
  memoizeResults?: { maxEntries?: number; maxBytes?: number } | false;
  /**
   * For servers whose data moves between requests: every call of a request (a batch whole) runs
   * inside one `enter`, so it reads one state, and memoised results are kept for one `version` only.
   */
  gate?: StateGate;
  /** Backs `GET /readiness` and the `readiness` method. Default: always ready. */
  readiness?: () => boolean | Promise<boolean>;
  /** Called with unexpected handler errors (the client only sees -32000 `Internal server error`). */
  onError?: (err: unknown, ctx: { method: string }) => void;
}

/** A readers-writer gate over a server's moving state (see `ListenerOptions.gate`). */
export interface StateGate {
  /** Runs `work` once no change is being applied; `work` calls `done` once its answer is written (more calls are ignored). */
  enter(work: (done: () => void) => void): void;
  /** A number that changes whenever the state does. */
  readonly version: number;
}

export const DEFAULT_MAX_REQUEST_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_CONNECTIONS = 1024;
export const DEFAULT_MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_BATCH_MS = 2000;

export function limit(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new PhotonError(ClientErrorCode.LISTENER_OPTIONS, `${name} must be a positive integer, got ${String(value)}`);
  return value;
}
