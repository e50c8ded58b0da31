/**
 * The indexer's slot as a scrape sees it: sampled when the metrics are read (at most once per
 * `minIntervalMs`, concurrent scrapes sharing one request, each bounded by `timeoutMs`), so that
 * watch sends nothing between runs unless scraped. The rate is slots per second since the last sample.
 */
import { setTimeout as sleep } from "node:timers/promises";

/** Reads the slot (the spec's slot method); null when the answer holds none. Throws or rejects on failure. */
export type SlotReader = (signal: AbortSignal) => Promise<bigint | number | null>;

export interface SlotState {
  /** The last slot answered (kept while the indexer does not answer). */
  readonly slot: number | null;
  /** Slots per second between the last two answered samples; null until two, or while the indexer does not answer. */
  readonly rate: number | null;
  /** Whether the last sample was answered; null before any. */
  readonly up: boolean | null;
}

export class SlotSampler {
  private last: { slot: number; at: number } | null = null;
  private state: SlotState = { slot: null, rate: null, up: null };
  private inFlight: Promise<void> | null = null;
  private sampledAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly read: SlotReader,
    private readonly options: { readonly timeoutMs: number; readonly minIntervalMs?: number; readonly now?: () => number },
  ) {}

  get current(): SlotState {
    return this.state;
  }

  /** Samples the slot unless one was taken within `minIntervalMs`; resolves when the state is current. Never rejects. */
  sample(): Promise<void> {
    const now = this.options.now ?? Date.now;
    if (this.inFlight) return this.inFlight;
    if (now() - this.sampledAt < (this.options.minIntervalMs ?? 1000)) return Promise.resolve();
    this.sampledAt = now();
    this.inFlight = this.take(now).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async take(now: () => number): Promise<void> {
    const stop = new AbortController();
    const slot = await Promise.race([
      this.read(stop.signal).then(
        (s) => s,
        () => null,
      ),
      sleep(this.options.timeoutMs, null, { signal: stop.signal, ref: false }).catch(() => null),
    ]);
    stop.abort();
    const at = now();
    const value = slot === null ? null : Number(slot);
    if (value === null || !Number.isFinite(value) || value < 0) {
      this.state = { slot: this.state.slot, rate: null, up: false };
      return;
    }
    const rate = this.last !== null && at > this.last.at ? ((value - this.last.slot) * 1000) / (at - this.last.at) : null;
    this.last = { slot: value, at };
    this.state = { slot: value, rate, up: true };
  }
}
