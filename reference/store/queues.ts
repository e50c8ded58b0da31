/**
 * The queues of batched (V2) trees, as getQueueElements and getQueueInfo read them (photon
 * HEAD:src/api/method/get_queue_elements.rs, get_queue_info.rs): a StateV2 tree's output queue
 * by leaf index (get_queue_elements.rs:375-384) and input queue by nullifier queue index
 * (get_queue_elements.rs:362-374); an AddressV2 tree's queue by queue index (get_queue_elements.rs:732-744).
 * Queue indexes are 0-based, one per insertion (persisted_batch_event/address.rs:51-55); the store
 * derives them from the order of `Dataset.signatures` (closed accounts) and `Dataset.addresses`.
 */
import { Lazy } from "../lazy.js";
import type { Touched } from "../live/apply.js";
import type { Change } from "../live/change.js";
import type { AccountRecord, AddressRecord, Dataset, SignatureRecord } from "../records.js";
import { firstIndex } from "./order.js";

/** An account in a StateV2 tree's output queue. */
export interface OutputQueueElement {
  readonly account: AccountRecord;
  /** Its leaf index (Photon's output `firstQueueIndex`/`nextIndex` are the first element's). */
  readonly queueIndex: number;
}

/** A spent account in a StateV2 tree's input (nullifier) queue. */
export interface InputQueueElement {
  readonly account: AccountRecord;
  /** Its nullifier queue index (Photon's input `firstQueueIndex` is the first element's). */
  readonly queueIndex: number;
  /** The transaction that spent it (its tx hash and nullifier derive from it). */
  readonly closedBy: SignatureRecord;
}

/** An address in an AddressV2 tree's queue. */
export interface AddressQueueElement {
  readonly address: AddressRecord;
  readonly queueIndex: number;
}

/** One queue's elements by queue index ascending. */
export class QueueList<E extends { readonly queueIndex: number }> {
  constructor(readonly elements: readonly E[]) {}

  /** Photon's `queueSize` (getQueueInfo): every element, spent or not. */
  get size(): number {
    return this.elements.length;
  }

  /** The index of the first element whose queue index is at least `startIndex` (Photon's `startIndex` filter, `>=`). */
  from(startIndex: number | bigint): number {
    const start = typeof startIndex === "bigint" ? (startIndex > BigInt(Number.MAX_SAFE_INTEGER) ? Number.POSITIVE_INFINITY : Number(startIndex)) : startIndex;
    return firstIndex(this.elements, (e) => e.queueIndex >= start);
  }

  /** Up to `limit` elements from queue index `startIndex` (or from the first, when null). */
  page(startIndex: number | bigint | null, limit: number): readonly E[] {
    const at = startIndex === null ? 0 : this.from(startIndex);
    return this.elements.slice(at, at + limit);
  }
}

export const NO_QUEUE: QueueList<never> = new QueueList<never>([]);

/** Output queues of the StateV2 trees in `batched`, by tree. */
export function outputQueues(accounts: readonly AccountRecord[], batched: ReadonlySet<string>): Map<string, QueueList<OutputQueueElement>> {
  const byTree = new Map<string, OutputQueueElement[]>();
  for (const account of accounts) {
    if (!account.inOutputQueue || !batched.has(account.tree)) continue;
    const list = byTree.get(account.tree);
    const element = { account, queueIndex: account.leafIndex };
    if (list === undefined) byTree.set(account.tree, [element]);
    else list.push(element);
  }
  return new Map([...byTree].map(([tree, list]) => [tree, new QueueList(list.sort((a, b) => a.queueIndex - b.queueIndex))]));
}

/**
 * Nullifier queue indexes of every spent account of the StateV2 trees in `batched` (nullified
 * in the tree or not), with the transaction that spent it, by account hash.
 */
export function nullifierQueueIndexes(
  signatures: readonly SignatureRecord[],
  accountOf: (hash: string) => AccountRecord | undefined,
  batched: ReadonlySet<string>,
): Map<string, { readonly queueIndex: number; readonly closedBy: SignatureRecord }> {
  const next = new Map<string, number>();
  const out = new Map<string, { queueIndex: number; closedBy: SignatureRecord }>();
  for (const s of signatures) {
    for (const hash of s.closed) {
      const account = accountOf(hash);
      if (account === undefined || !batched.has(account.tree) || out.has(hash)) continue;
      const queueIndex = next.get(account.tree) ?? 0;
      next.set(account.tree, queueIndex + 1);
      out.set(hash, { queueIndex, closedBy: s });
    }
  }
  return out;
}

/** Input queues (spent, `inInputQueue`) of the StateV2 trees, by tree. */
export function inputQueues(
  accounts: readonly AccountRecord[],
  indexes: ReadonlyMap<string, { readonly queueIndex: number; readonly closedBy: SignatureRecord }>,
): Map<string, QueueList<InputQueueElement>> {
  const byTree = new Map<string, InputQueueElement[]>();
  for (const account of accounts) {
    if (!account.spent || !account.inInputQueue) continue;
    const at = indexes.get(account.hash);
    if (at === undefined) continue;
    const element = { account, queueIndex: at.queueIndex, closedBy: at.closedBy };
    const list = byTree.get(account.tree);
    if (list === undefined) byTree.set(account.tree, [element]);
    else list.push(element);
  }
  return new Map([...byTree].map(([tree, list]) => [tree, new QueueList(list.sort((a, b) => a.queueIndex - b.queueIndex))]));
}

/** Every address of each address tree in insertion order, and the queued ones with their queue indexes. */
export function addressQueues(addresses: readonly AddressRecord[]): {
  all: Map<string, AddressRecord[]>;
  queues: Map<string, QueueList<AddressQueueElement>>;
} {
  const all = new Map<string, AddressRecord[]>();
  const queued = new Map<string, AddressQueueElement[]>();
  for (const address of addresses) {
    let list = all.get(address.tree);
    if (list === undefined) all.set(address.tree, (list = []));
    const queueIndex = list.length;
    list.push(address);
    if (!address.queued) continue;
    const q = queued.get(address.tree);
    if (q === undefined) queued.set(address.tree, [{ address, queueIndex }]);
    else q.push({ address, queueIndex });
  }
  return { all, queues: new Map([...queued].map(([tree, list]) => [tree, new QueueList(list)])) };
}

/** The queue lists of a dataset's batched trees, each built on first use and built again after a change that moves it. */
export class QueueIndexes {
  readonly nullifierIndexes: Lazy<ReturnType<typeof nullifierQueueIndexes>>;
  readonly outputs: Lazy<Map<string, QueueList<OutputQueueElement>>>;
  readonly inputs: Lazy<Map<string, QueueList<InputQueueElement>>>;
  readonly addresses: Lazy<ReturnType<typeof addressQueues>>;

  constructor(
    dataset: Dataset,
    accountOf: (hash: string) => AccountRecord | undefined,
    private readonly batchedState: ReadonlySet<string>,
  ) {
    this.nullifierIndexes = new Lazy(() => nullifierQueueIndexes(dataset.signatures, accountOf, batchedState), "nullifierQueueIndexes");
    this.outputs = new Lazy(() => outputQueues(dataset.accounts, batchedState), "outputQueues");
    this.inputs = new Lazy(() => inputQueues(dataset.accounts, this.nullifierIndexes.get()), "inputQueues");
    this.addresses = new Lazy(() => addressQueues(dataset.addresses ?? []), "addressQueues");
  }

  /** The lists a change moved are built again on next use. */
  apply(change: Change, touched: Touched): void {
    const batched = (a: AccountRecord) => this.batchedState.has(a.tree);
    if (change.appended.length > 0 || change.opened.some(batched)) this.outputs.reset();
    if (change.nullified.length > 0 || touched.closed.some(batched)) {
      this.nullifierIndexes.reset();
      this.inputs.reset();
    }
    if (change.addresses.length > 0 || change.inserted.length > 0) this.addresses.reset();
  }
}
