/**
 * Bounded concurrency for a command's cases: at most `concurrency` in flight, results in case
 * order, the run's deadline (--max-time), each case's (--case-time), --max-failures and a stop
 * signal (Ctrl-C); items left unstarted get the caller's `notRun`.
 */
import { internalError } from "@photon-indexer-kit/runtime";
import type { ConformanceCase } from "./case-format.js";
import { ConfErrorCode, ConformanceError } from "./errors.js";

export interface PoolOptions<T> {
  /** Items in flight (default the session's concurrency). */
  readonly concurrency?: number | undefined;
  /** The whole pool's deadline, counted from `since` (default: now); none when absent. */
  readonly maxTimeMs?: number | undefined;
  readonly since?: number | undefined;
  /** Each item's deadline; none when absent. */
  readonly caseTimeMs?: number | undefined;
  /** After this many items `failed`, no item starts. */
  readonly maxFailures?: number | undefined;
  readonly failed?: ((result: T) => boolean) | undefined;
  /** Stops the pool (Ctrl-C): no item starts, the ones in flight see their signal fire. */
  readonly signal?: AbortSignal | undefined;
  /** The result of an item left unstarted: by a deadline (`deadline`) or a stop (`run`: signal, --max-failures). */
  readonly notRun?: ((c: ConformanceCase, why: string, check: "deadline" | "run") => T) | undefined;
  /** Each result as it is settled, with how many are done. */
  readonly onResult?: ((result: T, done: number) => void) | undefined;
}

/** "2 min", "1.5 s", "250 ms": a deadline as findings name it. */
export function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return ms >= 1000 ? `${+(ms / 1000).toFixed(3)} s` : `${ms} ms`;
}

/**
 * An AbortSignal that fires after `ms` (never when null), its reason a DEADLINE error with
 * `message`, or with `parent` and its reason; `clear()` drops the timer and the listener.
 */
export function deadline(ms: number | null, message: string, parent?: AbortSignal): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = ms === null ? undefined : setTimeout(() => controller.abort(new ConformanceError(ConfErrorCode.DEADLINE, message)), ms);
  const follow = () => controller.abort(parent!.reason);
  if (parent?.aborted) follow();
  else parent?.addEventListener("abort", follow, { once: true });
  return {
    signal: controller.signal,
    clear() {
      clearTimeout(timer);
      parent?.removeEventListener("abort", follow);
    },
  };
}

const NEVER = new AbortController().signal;

/**
 * Runs `work` over `items` with at most `concurrency` in flight, results in item order. With a
 * run deadline, a signal or --max-failures, items left unstarted get `notRun` (required then).
 */
export async function runPool<T>(
  items: readonly ConformanceCase[],
  work: (c: ConformanceCase, signal: AbortSignal) => Promise<T>,
  options: PoolOptions<T> & { concurrency: number },
): Promise<T[]> {
  const { maxTimeMs, caseTimeMs, maxFailures } = options;
  const run =
    maxTimeMs !== undefined
      ? deadline(
          Math.max(0, maxTimeMs - (performance.now() - (options.since ?? performance.now()))),
          `the run's deadline of ${formatDuration(maxTimeMs)} (--max-time) was reached`,
          options.signal,
        )
      : options.signal
        ? deadline(null, "", options.signal)
        : null;
  const notRun = (c: ConformanceCase, why: string, check: "deadline" | "run"): T => {
    if (!options.notRun) throw internalError(ConfErrorCode.INTERNAL, "a pool that can stop early needs notRun");
    return options.notRun(c, why, check);
  };
  const results: T[] = new Array(items.length);
  let next = 0;
  let done = 0;
  let failed = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      const c = items[i]!;
      if (run?.signal.aborted) results[i] = notRun(c, (run.signal.reason as Error).message, options.signal?.aborted ? "run" : "deadline");
      else if (maxFailures !== undefined && failed >= maxFailures) results[i] = notRun(c, `${failed} cases had failed (--max-failures ${maxFailures})`, "run");
      else {
        const own =
          caseTimeMs === undefined ? null : deadline(caseTimeMs, `the case's deadline of ${formatDuration(caseTimeMs)} (--case-time) was reached`, run?.signal);
        try {
          results[i] = await work(c, own?.signal ?? run?.signal ?? NEVER);
          if (options.failed?.(results[i]!)) failed++;
        } finally {
          own?.clear();
        }
      }
      options.onResult?.(results[i]!, ++done);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, items.length)) }, worker));
  } finally {
    run?.clear();
  }
  return results;
}
