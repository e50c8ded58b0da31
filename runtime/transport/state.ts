/**
 * The state of one call as it passes through the interceptors: its settings (read by each
 * interceptor from the dispatch options' `photon` field) and what happened (attempts, the
 * status of the current attempt's head, why it ended), which `postJson` turns into its result
 * or its PhotonClientError. Interceptors used on their own get the defaults.
 */
import type { Dispatcher } from "undici";
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_POLICY, DEFAULT_TIMEOUT_MS, type RetryPolicy, type TransportOptions } from "./options.js";

/** Why an attempt ended early (0: it did not, or it failed on its own). */
export const Ended = Object.freeze({ NO: 0, TIMED_OUT: 1, CALLER_ABORTED: 2, BUDGET_SPENT: 3, SLEEP_FAILED: 4 });

export interface CallState {
  readonly started: number;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly policy: RetryPolicy;
  readonly signal: AbortSignal | undefined;
  readonly sleep: TransportOptions["sleep"];
  readonly onRetry: TransportOptions["onRetry"];
  /** Attempts dispatched so far. */
  attempts: number;
  /** The status of the current attempt's response head, once it arrived. */
  status: number | undefined;
  /** The deadline of the current attempt (0: none). */
  deadlineMs: number;
  /** The current attempt's deadline is the rest of the retry budget. */
  budgetLimited: boolean;
  /** One of `Ended`. */
  why: number;
}

export type PhotonDispatchOptions = Dispatcher.DispatchOptions & { photon?: CallState };

export function newCallState(options: TransportOptions, policy: RetryPolicy = DEFAULT_POLICY): CallState {
  return {
    started: performance.now(),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    policy,
    signal: options.signal,
    sleep: options.sleep,
    onRetry: options.onRetry,
    attempts: 0,
    status: undefined,
    deadlineMs: 0,
    budgetLimited: false,
    why: Ended.NO,
  };
}

/** The call state of a dispatch (a default one, attached, when an interceptor is used without `postJson`). */
export function stateOf(opts: PhotonDispatchOptions): CallState {
  return (opts.photon ??= newCallState({}));
}

/** A header value as one string (repeated headers joined with ", "). */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}
