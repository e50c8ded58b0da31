/**
 * The indexer slots a client sees: a call given `minContextSlot` is retried, with a doubling pause, until its
 * answer's slot reaches it within the deadline, else PHOTON_ERR_INDEXER_BEHIND (as light-protocol's client does:
 * sdk-libs/client/src/indexer/photon_indexer.rs:200-201, config.rs:22-29). The slot is read at the table's `slot` path.
 */
import { setTimeout as pause } from "node:timers/promises";
import { ClientErrorCode, PhotonClientError } from "./errors.js";
import { isObject } from "./json/value.js";
import { MAX_TIMER_MS } from "./transport/options.js";

/** An indexer slot as the lossless parser returns it: a `bigint` above 2^53 - 1, else a `number`. */
export type IndexerSlot = number | bigint;

export interface SlotWaitOptions {
  /** First pause between tries; doubles after each try. Default 400 ms (about one Solana slot). */
  minDelayMs?: number;
  /** Cap on one pause. Default 8000 ms. */
  maxDelayMs?: number;
  /** Most tries of one call (the deadline may end it sooner). Default 10. */
  maxTries?: number;
}

export const DEFAULT_SLOT_WAIT: Readonly<Required<SlotWaitOptions>> = Object.freeze({ minDelayMs: 400, maxDelayMs: 8000, maxTries: 10 });

/** One try of the call: its result and the slot the answer was read at. */
export interface SlotTry {
  readonly result: unknown;
  readonly slot: IndexerSlot;
}

export interface SlotWait {
  /** The method, for messages. */
  readonly method: string;
  readonly minContextSlot: IndexerSlot;
  /** The whole wait's deadline from now, tries and pauses together; 0 or Infinity: none. */
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly options: SlotWaitOptions | undefined;
  /** Makes one try; `remainingMs` is what is left of the deadline (undefined: no deadline). */
  readonly attempt: (remainingMs: number | undefined) => Promise<SlotTry>;
}

export function isSlot(value: unknown): value is IndexerSlot {
  return (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) || (typeof value === "bigint" && value >= 0n);
}

/** The value at a dotted `path` of `result` (`""`: the result itself), or undefined. */
export function slotAt(result: unknown, path: string): unknown {
  if (path === "") return result;
  let at: unknown = result;
  for (const key of path.split(".")) {
    if (!isObject(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

/** Whether slot `a` is at least slot `b` (a number and a bigint compare exactly). */
export function slotAtLeast(a: IndexerSlot, b: IndexerSlot): boolean {
  return typeof a === typeof b ? a >= b : BigInt(a) >= BigInt(b);
}

/** Checks a caller's `minContextSlot`: a non-negative integer. */
export function checkMinContextSlot(method: string, value: unknown): IndexerSlot {
  if (isSlot(value)) return value;
  throw new PhotonClientError(ClientErrorCode.INVALID_OPTIONS, `${method}: minContextSlot must be a non-negative integer (a number or a bigint)`);
}

function positive(value: number | undefined, fallback: number): number {
  return typeof value === "number" && value > 0 && !Number.isNaN(value) ? value : fallback;
}

/**
 * Tries `wait.attempt` until its slot reaches `wait.minContextSlot` and returns that try, with
 * what is left of the deadline (undefined: none). A pause never takes more than half of what is left of the deadline, so the last try
 * still has time to answer; the wait stops when less than one first pause is left.
 */
export async function waitForSlot(wait: SlotWait): Promise<SlotTry & { remainingMs: number | undefined }> {
  const minDelayMs = positive(wait.options?.minDelayMs, DEFAULT_SLOT_WAIT.minDelayMs);
  const maxDelayMs = Math.max(minDelayMs, positive(wait.options?.maxDelayMs, DEFAULT_SLOT_WAIT.maxDelayMs));
  const maxTries = Math.max(1, Math.floor(positive(wait.options?.maxTries, DEFAULT_SLOT_WAIT.maxTries)));
  const started = performance.now();
  const limited = wait.timeoutMs > 0 && wait.timeoutMs <= MAX_TIMER_MS;
  const left = () => (limited ? started + wait.timeoutMs - performance.now() : Infinity);
  let delayMs = minDelayMs;
  let last: IndexerSlot | undefined;
  for (let tries = 1; ; tries++) {
    let answer: SlotTry;
    try {
      answer = await wait.attempt(limited ? Math.max(1, Math.ceil(left())) : undefined);
    } catch (err) {
      // A try cut short by the deadline after older answers: the indexer was still behind.
      if (last !== undefined && err instanceof PhotonClientError && err.code === ClientErrorCode.TIMEOUT && left() <= 0) {
        throw behind(wait, last, tries, started, "its deadline passed", err);
      }
      throw err;
    }
    if (slotAtLeast(answer.slot, wait.minContextSlot)) return { ...answer, remainingMs: limited ? Math.max(1, Math.ceil(left())) : undefined };
    last = answer.slot;
    const remaining = left();
    if (tries >= maxTries) throw behind(wait, last, tries, started, `${tries} tries made`);
    if (remaining < minDelayMs) throw behind(wait, last, tries, started, "its deadline passed");
    try {
      await pause(Math.min(delayMs, remaining / 2), undefined, { signal: wait.signal });
    } catch (err) {
      const why = `${wait.method}: aborted by the caller while waiting for slot ${wait.minContextSlot} (last answer at slot ${last})`;
      throw new PhotonClientError(ClientErrorCode.ABORTED, why, { cause: wait.signal?.reason ?? err, details: { tries } });
    }
    delayMs = Math.min(delayMs * 2, maxDelayMs);
  }
}

function behind(wait: SlotWait, last: IndexerSlot, tries: number, started: number, why: string, cause?: unknown): PhotonClientError {
  const ms = Math.round(performance.now() - started);
  return new PhotonClientError(
    ClientErrorCode.INDEXER_BEHIND,
    `${wait.method}: the indexer is behind: wanted slot ${wait.minContextSlot}, last answer at slot ${last} (${why}; ${tries} tries in ${ms} ms)`,
    { details: { minContextSlot: wait.minContextSlot, lastSlot: last, tries }, cause },
  );
}

/**
 * A paginated walk: the async generator of its pages or items, with the slot each page was
 * read at. Pages of one list from different slots may miss or repeat items that moved between
 * them; `mixedSlots` says so, and a caller that needs one consistent list walks again.
 */
export interface Walk<T> extends AsyncGenerator<T, void, unknown> {
  /** The slot of each page fetched so far, in order; null for a page whose answer carries none. */
  readonly slots: readonly (IndexerSlot | null)[];
  /** Whether the pages fetched so far were read at more than one slot. */
  readonly mixedSlots: boolean;
}

/** `generator` as a Walk over `slots`, the array its pages' slots are pushed to. */
export function walkOf<T>(generator: AsyncGenerator<T, void, unknown>, slots: readonly (IndexerSlot | null)[]): Walk<T> {
  return Object.defineProperties(generator, {
    slots: { get: () => slots, enumerable: true },
    mixedSlots: { get: () => mixed(slots), enumerable: true },
  }) as Walk<T>;
}

function mixed(slots: readonly (IndexerSlot | null)[]): boolean {
  let first: IndexerSlot | undefined;
  for (const slot of slots) {
    if (slot === null) continue;
    if (first === undefined) first = slot;
    else if (!slotAtLeast(slot, first) || !slotAtLeast(first, slot)) return true;
  }
  return false;
}
