/**
 * The live reference's clock: one change of the stream every `intervalMs`, applied to the
 * records, the store and the forest inside the gate's write side. With `lag` N the changes wait
 * N ticks before they are applied, as an indexer catching up answers N slots behind the chain.
 */
import { PhotonError, visibleText } from "@photon-indexer-kit/runtime";
import { RefErrorCode, ReferenceIndexerError } from "../errors.js";
import type { AddressRecord, Dataset } from "../records.js";
import type { ReferenceStore } from "../store.js";
import type { Forest } from "../trees/forest.js";
import { applyChange } from "./apply.js";
import type { Change } from "./change.js";
import { LiveGate } from "./gate.js";
import { LiveStream, type Pinned } from "./stream.js";

/** The longest interval a timer keeps (node fires a longer one after 1 ms). */
export const MAX_INTERVAL_MS = 2_147_483_647;
/** The most slots a lagging chain holds back (each held change stays in memory). */
export const MAX_LAG = 100_000;

export interface LiveOptions {
  /** Milliseconds between changes (one slot each). */
  readonly intervalMs: number;
  /** The stream's seed (default the dataset's, else 1): two chains of one seed over one dataset follow the same history. */
  readonly seed?: number;
  /** Slots the served state stays behind the stream (default 0). */
  readonly lag?: number;
}

export class LiveChain {
  readonly gate: LiveGate;
  private readonly stream: LiveStream;
  private readonly pending: Change[] = [];
  private readonly queuedAddresses = new Map<string, AddressRecord>();
  private timer: NodeJS.Timeout | null = null;
  private applied = 0;

  constructor(
    private readonly dataset: Dataset,
    private readonly store: ReferenceStore,
    private readonly forest: Forest,
    private readonly options: LiveOptions,
    pinned: Pinned,
    report: (what: string, err: unknown) => void,
  ) {
    const { intervalMs, lag = 0 } = options;
    if (!Number.isInteger(intervalMs) || intervalMs < 1 || intervalMs > MAX_INTERVAL_MS)
      throw new ReferenceIndexerError(RefErrorCode.OPTIONS, `live.intervalMs must be an integer from 1 to ${MAX_INTERVAL_MS}`);
    if (!Number.isInteger(lag) || lag < 0 || lag > MAX_LAG)
      throw new ReferenceIndexerError(RefErrorCode.OPTIONS, `live.lag must be an integer from 0 to ${MAX_LAG}`);
    this.gate = new LiveGate((err) => {
      report("applying a live change", err);
      this.stop();
    });
    this.stream = new LiveStream(dataset, options.seed ?? dataset.seed ?? 1, pinned, (tree) => store.inputQueue(tree).elements.map((e) => e.account.hash));
    for (const a of dataset.addresses) if (a.queued) this.queuedAddresses.set(`${a.tree} ${a.address}`, a);
  }

  /** The program owners, token owners and mint the stream moves (never named by the fixtures profile). */
  entities(): ReturnType<LiveStream["entities"]> {
    return this.stream.entities();
  }

  /** One line for the console: the pace, the lag and what moves. */
  describe(): string {
    const { owners, tokenOwners, mint } = this.stream.entities();
    const lag = this.options.lag ? `, ${this.options.lag} slots behind` : "";
    return `live: one slot every ${this.options.intervalMs} ms${lag} once the trees are built; moving: owners ${owners.join(" ")}, token owners ${tokenOwners.join(" ")}, mint ${mint}, the trees' roots and queues, the latest signatures`;
  }

  /** Changes applied so far. */
  get slotsApplied(): number {
    return this.applied;
  }

  start(): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => this.tick(), this.options.intervalMs);
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** One slot of the chain: the stream's next change, applied now or `lag` ticks later. */
  tick(): void {
    this.pending.push(this.stream.next());
    while (this.pending.length > (this.options.lag ?? 0)) {
      const change = this.pending.shift() as Change;
      this.gate.write(() => this.apply(change));
    }
  }

  private apply(change: Change): void {
    const touched = applyChange(this.dataset, change, {
      account: (hash) => this.store.account(hash),
      queuedAddress: (tree, address) => this.queuedAddresses.get(`${tree} ${address}`),
    });
    for (const a of change.addresses) if (a.queued) this.queuedAddresses.set(`${a.tree} ${a.address}`, a);
    for (const a of touched.inserted) this.queuedAddresses.delete(`${a.tree} ${a.address}`);
    this.store.apply(change, touched);
    this.forest.apply(change, touched);
    this.applied++;
  }
}

/** One line for a failure, never a stack trace. */
export function failureLine(what: string, err: unknown): string {
  const detail = err instanceof PhotonError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
  return `reference indexer: ${visibleText(what)} failed: ${visibleText(detail)}\n`;
}
