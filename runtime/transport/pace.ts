/**
 * Pacing: calls sharing a pacer start at least 1/maxRps seconds apart (the conformance
 * runner's `--max-rps`). `nextSlot` waits for a call's turn; `pace(pacer)` is the same as an
 * undici interceptor. Composed outside `transportDispatcher`'s interceptors it spaces calls
 * (retries unpaced); inside, it spaces every attempt, and the wait then counts against the
 * attempt's deadline.
 */
import type { Interceptor } from "./forward.js";
import type { Pacer } from "./options.js";

/** A pacer for `maxRps` calls per second: each call gets the milliseconds to wait before it starts. Null or ≤ 0: no pacing. */
export function createPacer(maxRps: number | null | undefined): Pacer {
  if (!maxRps || maxRps <= 0) return () => 0;
  const gap = 1000 / maxRps;
  let next = 0;
  return () => {
    const now = performance.now();
    const at = Math.max(now, next);
    next = at + gap;
    return at - now;
  };
}

/** Resolves when the next call of `pacer` may start. */
export function nextSlot(pacer: Pacer): Promise<void> {
  const waitMs = pacer();
  return waitMs > 0 ? new Promise((resolve) => setTimeout(resolve, waitMs)) : Promise.resolve();
}

/** Spaces dispatches by `pacer`. */
export function pace(pacer: Pacer): Interceptor {
  return (dispatch) => (opts, handler) => {
    const waitMs = pacer();
    if (waitMs <= 0) return dispatch(opts, handler);
    setTimeout(() => dispatch(opts, handler), waitMs);
    return true;
  };
}
