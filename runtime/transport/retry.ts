/**
 * Retry: a retryable status (429, 502, 503, 504 by default) or a connection failure before any response
 * byte is tried again after a backoff wait; `Retry-After` is honoured up to `maxDelayMs` (a longer one
 * returns the response as it came), and no wait starts that would overrun `budgetMs`. Timeouts, caller
 * aborts, body-cap and encoding failures and failures after the head are never retried.
 *
 * Not undici's interceptors.retry (7.x RetryHandler): it decides by method, status and error code, clamps a
 * long Retry-After, waits on a setTimeout no signal cancels, knows no budget, and resumes a body that failed
 * after the head with a Range re-dispatch; this policy would all live in its `retry` callback.
 */
import { setTimeout as sleepFor } from "node:timers/promises";
import type { Dispatcher } from "undici";
import { BodyTooLarge, errorCodeOf, RETRYABLE_NETWORK_CODES, UnnegotiatedEncoding } from "./failures.js";
import type { Controller, Handler, Headers, Interceptor } from "./forward.js";
import { parseRetryAfter } from "./retry-after.js";
import { Ended, headerText, stateOf, type CallState, type PhotonDispatchOptions } from "./state.js";

const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> => sleepFor(ms, undefined, { signal });

/** Sleeps, ending early (rejecting with the signal's reason) when it fires, even if an injected sleep ignores it. */
async function wait(ms: number, sleep: (ms: number, signal?: AbortSignal) => Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) {
    await sleep(ms);
    return;
  }
  if (signal.aborted) throw signal.reason;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([sleep(ms, signal), aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort!);
  }
}

class RetryHandler implements Dispatcher.DispatchHandler {
  /** The current response is retryable: held until its end decides. */
  private holding = false;
  private status = 0;
  private headers: Headers = {};
  private statusMessage: string | undefined;
  private chunks: Buffer[] = [];

  constructor(
    private readonly dispatch: Dispatcher.Dispatch,
    private readonly opts: PhotonDispatchOptions,
    private readonly next: Handler,
    private readonly state: CallState,
  ) {}

  /** Dispatches the next attempt (none when the caller has aborted). */
  start(): boolean {
    const state = this.state;
    if (state.signal?.aborted) {
      state.why = Ended.CALLER_ABORTED;
      this.next.onResponseError?.(null!, state.signal.reason as Error);
      return true;
    }
    state.attempts++;
    this.holding = false;
    this.chunks = [];
    return this.dispatch(this.opts, this);
  }

  onRequestStart(controller: Controller, context: unknown): void {
    this.next.onRequestStart?.(controller, context);
  }

  onResponseStart(controller: Controller, statusCode: number, headers: Headers, statusMessage?: string): void {
    const { policy, attempts } = this.state;
    if (statusCode >= 200 && attempts <= policy.retries && policy.statuses.includes(statusCode)) {
      this.holding = true;
      this.status = statusCode;
      this.headers = headers;
      this.statusMessage = statusMessage;
      return;
    }
    this.next.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    if (this.holding) this.chunks.push(chunk);
    else this.next.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Controller, trailers: Headers): void {
    if (!this.holding) {
      this.next.onResponseEnd?.(controller, trailers);
      return;
    }
    const { policy, started } = this.state;
    const retryAfterMs = parseRetryAfter(headerText(this.headers["retry-after"]));
    let reason = `HTTP ${this.status}`;
    let delayMs: number;
    if (retryAfterMs !== null) {
      if (retryAfterMs > policy.maxDelayMs) {
        this.pass(controller, trailers);
        return;
      }
      delayMs = retryAfterMs;
      reason += ` (Retry-After ${retryAfterMs} ms)`;
    } else delayMs = this.backoff();
    if (policy.budgetMs !== undefined && performance.now() - started + delayMs >= policy.budgetMs) {
      this.pass(controller, trailers);
      return;
    }
    this.again(controller, delayMs, reason);
  }

  onResponseError(controller: Controller, error: Error): void {
    const state = this.state;
    const policy = state.policy;
    if (state.why !== Ended.NO || state.status !== undefined || error instanceof BodyTooLarge || error instanceof UnnegotiatedEncoding) {
      this.next.onResponseError?.(controller, error);
      return;
    }
    const code = errorCodeOf(error) ?? "UNKNOWN";
    if (!policy.retryNetworkErrors || state.attempts > policy.retries || !RETRYABLE_NETWORK_CODES.has(code)) {
      this.next.onResponseError?.(controller, error);
      return;
    }
    const delayMs = this.backoff();
    if (policy.budgetMs !== undefined && performance.now() - state.started + delayMs >= policy.budgetMs) {
      state.why = Ended.BUDGET_SPENT;
      this.next.onResponseError?.(controller, error);
      return;
    }
    this.again(controller, delayMs, code);
  }

  /** Full jitter under an exponential ceiling. */
  private backoff(): number {
    const { policy, attempts } = this.state;
    return Math.floor(Math.random() * Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** (attempts - 1)));
  }

  /** Passes the held response on: it is the final one. */
  private pass(controller: Controller, trailers: Headers): void {
    const next = this.next;
    this.holding = false;
    next.onResponseStart?.(controller, this.status, this.headers, this.statusMessage);
    for (const chunk of this.chunks) next.onResponseData?.(controller, chunk);
    this.chunks = [];
    next.onResponseEnd?.(controller, trailers);
  }

  private again(controller: Controller, delayMs: number, reason: string): void {
    const state = this.state;
    this.chunks = [];
    state.onRetry?.({ attempt: state.attempts + 1, delayMs, reason });
    const waited = delayMs > 0 ? wait(delayMs, state.sleep ?? defaultSleep, state.signal) : Promise.resolve();
    waited.then(
      () => this.start(),
      (err: unknown) => {
        state.why = state.signal?.aborted ? Ended.CALLER_ABORTED : Ended.SLEEP_FAILED;
        this.next.onResponseError?.(controller, err as Error);
      },
    );
  }
}

/** Retries per the call's retry policy (see the module comment). */
export function retry(): Interceptor {
  return (dispatch) => (opts, handler) => new RetryHandler(dispatch, opts as PhotonDispatchOptions, handler, stateOf(opts as PhotonDispatchOptions)).start();
}
