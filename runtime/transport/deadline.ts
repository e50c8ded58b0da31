/**
 * Deadline: an attempt (connect, head and body together) ends when the call's `timeoutMs`, cut to what is left of
 * the retry budget, passes or the caller's signal fires. undici's headersTimeout/bodyTimeout bound gaps, not the
 * whole (a byte a second trips neither), so one timer aborts undici's controller; later events are dropped.
 */
import { DeadlineReached } from "./failures.js";
import { Forward, type Controller, type Handler, type Headers, type Interceptor } from "./forward.js";
import { MAX_TIMER_MS } from "./options.js";
import { Ended, stateOf, type CallState, type PhotonDispatchOptions } from "./state.js";

/**
 * Attempts in flight per caller signal. One listener per caller signal fans the abort out,
 * rather than one listener per attempt: cheaper, and a signal shared by many concurrent
 * calls does not trip Node's MaxListenersExceededWarning.
 */
const inFlight = new WeakMap<AbortSignal, Set<DeadlineHandler>>();

function watchCaller(caller: AbortSignal, attempt: DeadlineHandler): void {
  let attempts = inFlight.get(caller);
  if (attempts === undefined) {
    const set = (attempts = new Set());
    inFlight.set(caller, set);
    caller.addEventListener(
      "abort",
      () => {
        for (const a of set) a.end(Ended.CALLER_ABORTED, caller.reason);
        set.clear();
      },
      { once: true },
    );
  }
  attempts.add(attempt);
}

function fire(handler: DeadlineHandler): void {
  handler.end(Ended.TIMED_OUT, new DeadlineReached(`deadline of ${handler.state.deadlineMs} ms reached`));
}

/** The deadline of the next attempt: `timeoutMs`, or the rest of the budget when that is sooner. */
function deadlineOf(state: CallState): void {
  const timeoutMs = state.timeoutMs;
  let deadlineMs = timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS ? timeoutMs : 0;
  let budgetLimited = false;
  const budgetMs = state.policy.budgetMs;
  if (budgetMs !== undefined) {
    const remaining = Math.max(1, Math.ceil(budgetMs - (performance.now() - state.started)));
    if (remaining <= MAX_TIMER_MS && (deadlineMs === 0 || remaining < deadlineMs)) {
      deadlineMs = remaining;
      budgetLimited = true;
    }
  }
  state.deadlineMs = deadlineMs;
  state.budgetLimited = budgetLimited;
}

class DeadlineHandler extends Forward {
  private controller: Controller | null = null;
  /** The attempt is over (answered, failed or ended early); later events are dropped. */
  ended = false;
  private reason: Error | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    next: Handler,
    readonly state: CallState,
  ) {
    super(next);
    state.status = undefined;
    deadlineOf(state);
    if (state.deadlineMs > 0) this.timer = setTimeout(fire, state.deadlineMs, this);
    const caller = state.signal;
    if (caller !== undefined) {
      if (caller.aborted) this.end(Ended.CALLER_ABORTED, caller.reason);
      else watchCaller(caller, this);
    }
  }

  /** Ends the attempt now: reported upstream at once, the request aborted (now or when undici starts it). */
  end(why: number, reason: unknown): void {
    if (this.ended) return;
    this.settle();
    this.state.why = why;
    const error = reason instanceof Error ? reason : (Object.assign(new Error("aborted"), { reason }) as Error);
    this.reason = error;
    this.controller?.abort(error);
    this.next.onResponseError?.(this.controller!, reason as Error);
  }

  private settle(): void {
    this.ended = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    const caller = this.state.signal;
    if (caller !== undefined) inFlight.get(caller)?.delete(this);
  }

  override onRequestStart(controller: Controller, context: unknown): void {
    if (this.ended) {
      controller.abort(this.reason!);
      return;
    }
    this.controller = controller;
    this.next.onRequestStart?.(controller, context);
  }

  override onResponseStart(controller: Controller, statusCode: number, headers: Headers, statusMessage?: string): void {
    if (this.ended) return;
    if (statusCode >= 200) this.state.status = statusCode;
    this.next.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  override onResponseData(controller: Controller, chunk: Buffer): void {
    if (!this.ended) this.next.onResponseData?.(controller, chunk);
  }

  override onResponseEnd(controller: Controller, trailers: Headers): void {
    if (this.ended) return;
    this.settle();
    this.next.onResponseEnd?.(controller, trailers);
  }

  override onResponseError(controller: Controller, error: Error): void {
    if (this.ended) return;
    this.settle();
    this.next.onResponseError?.(controller, error);
  }
}

/** Bounds each attempt by the call's deadline and the caller's signal (see the module comment). */
export function deadline(): Interceptor {
  return (dispatch) => (opts, handler) => {
    const attempt = new DeadlineHandler(handler, stateOf(opts as PhotonDispatchOptions));
    // Ended before it began (the caller's signal had fired): nothing is sent.
    if (attempt.ended) return true;
    return dispatch(opts, attempt);
  };
}
