/**
 * The transport's public option and result shapes, and the retry policy they resolve to.
 */
import type { Dispatcher } from "undici";

export interface RetryOptions {
  /** Most extra attempts after the first. Default 3. */
  retries?: number;
  /** First backoff wait; doubles each retry, with full jitter. Default 200 ms. */
  minDelayMs?: number;
  /**
   * Cap on one wait. Default 5000 ms. A `Retry-After` longer than this stops retrying: the
   * response is returned at once (the caller reports it).
   */
  maxDelayMs?: number;
  /** Statuses retried. Default 429, 502, 503, 504. */
  statuses?: readonly number[];
  /** Retry a connection refused/reset/closed before any response byte. Default true. */
  retryNetworkErrors?: boolean;
  /** Total time cap across all attempts and waits (also caps each attempt's deadline). Default none. */
  budgetMs?: number;
}

/** Spaces the calls that share it: each call asks it how many milliseconds to wait before starting (see `createPacer`). */
export type Pacer = () => number;

export interface TransportOptions {
  /** Deadline of one attempt: connect, headers and body together. Default 30 000 ms; 0 or Infinity disables. */
  timeoutMs?: number;
  /** Largest response body. Default 16 MiB. Checked against content-length first, then counted while streaming. */
  maxBodyBytes?: number;
  /** Extra request headers (names are case-insensitive; these override the JSON defaults). */
  headers?: Record<string, string>;
  /** Retry policy; `false` sends exactly once. */
  retry?: RetryOptions | false;
  /** Caller cancellation: stops the current attempt and any backoff wait at once. */
  signal?: AbortSignal;
  /**
   * An undici dispatcher (Agent, Pool, MockAgent, composed interceptors). Default: this module's
   * own Agent (undici's defaults, plus tolerance of an unsolicited `100 Continue`; see
   * `tolerateInterimResponses`). undici's global dispatcher is not used.
   */
  dispatcher?: Dispatcher;
  /** Called before each backoff wait. `attempt` is the number of the attempt about to be made (2 = first retry). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
  /** Waits `ms`, rejecting when `signal` aborts. Injectable for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** HTTP method. Default "POST" (the conformance runner also probes other verbs). */
  method?: Dispatcher.HttpMethod;
  /** The request content-type. Default "application/json"; `null` sends none. A `content-type` in `headers` wins. */
  contentType?: string | null;
}

export interface HttpExchange {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body as UTF-8 text (a leading byte order mark removed). */
  body: string;
  /** Attempts made, 1 when the first answer was final. */
  attempts: number;
  elapsedMs: number;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
/** setTimeout cannot wait longer than this; longer deadlines are treated as none. */
export const MAX_TIMER_MS = 2_147_483_647;

export interface RetryPolicy {
  readonly retries: number;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  readonly statuses: readonly number[];
  readonly retryNetworkErrors: boolean;
  readonly budgetMs: number | undefined;
}

const DEFAULT_STATUSES: readonly number[] = Object.freeze([429, 502, 503, 504]);

export const DEFAULT_POLICY: RetryPolicy = Object.freeze({
  retries: 3,
  minDelayMs: 200,
  maxDelayMs: 5000,
  statuses: DEFAULT_STATUSES,
  retryNetworkErrors: true,
  budgetMs: undefined,
});

export const NO_RETRY: RetryPolicy = Object.freeze({ ...DEFAULT_POLICY, retries: 0, retryNetworkErrors: false });

function nonNegative(value: number | undefined, fallback: number): number {
  return typeof value === "number" && value >= 0 && !Number.isNaN(value) ? value : fallback;
}

export function policyOf(retry: RetryOptions | false | undefined): RetryPolicy {
  if (retry === false) return NO_RETRY;
  if (retry === undefined) return DEFAULT_POLICY;
  return {
    retries: Math.floor(nonNegative(retry.retries, DEFAULT_POLICY.retries)),
    minDelayMs: nonNegative(retry.minDelayMs, DEFAULT_POLICY.minDelayMs),
    maxDelayMs: nonNegative(retry.maxDelayMs, DEFAULT_POLICY.maxDelayMs),
    statuses: retry.statuses ?? DEFAULT_STATUSES,
    retryNetworkErrors: retry.retryNetworkErrors ?? true,
    budgetMs: retry.budgetMs === undefined ? undefined : nonNegative(retry.budgetMs, Infinity),
  };
}
