/**
 * Loops that stop when their test ends. vitest moves on when a test times out while its promise
 * runs on: a loop checking `untilEnd(context)` each round stops instead of feeding the next test.
 */
import type { TestContext } from "vitest";

/** Aborted when the test ends in any way: timed out, cancelled, failed or passed. */
export function untilEnd(context: Pick<TestContext, "signal" | "onTestFinished">): AbortSignal {
  const ended = new AbortController();
  context.onTestFinished(() => ended.abort(new Error("the test has ended")));
  return AbortSignal.any([context.signal, ended.signal]);
}

/** A fast-check predicate that runs only while `signal` is live: once it fires, each further run throws its reason. */
export function whileLive<Args extends unknown[], R>(signal: AbortSignal, predicate: (...args: Args) => R): (...args: Args) => R {
  return (...args) => {
    signal.throwIfAborted();
    return predicate(...args);
  };
}
