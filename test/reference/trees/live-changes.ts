/**
 * Hand-built live changes for the forest's tests: one transaction per change (accounts opened in
 * V1 trees or batched output queues, accounts spent, new addresses in both address trees) and the
 * forester batches of that slot, with the leaf indexes and tree seqs change.ts documents. Each change
 * is built from the dataset as it is (its records are the truth), then written into it by `applyChange`.
 */
import { base58Text, blockTime, HASH_TEXT, SIGNATURE_TEXT } from "../../../reference/dataset-encoding.js";
import { encodeBase58 } from "../../../runtime/index.js";
import { applyChange, type RecordLookup, type Touched } from "../../../reference/live/apply.js";
import type { BatchOf, Change } from "../../../reference/live/change.js";
import { Random } from "../../../reference/random.js";
import type { AccountRecord, AddressRecord, Dataset, TreeRecord } from "../../../reference/records.js";
import { asAddress } from "../../../reference/roles/keys.js";

/** What the store's maps give `applyChange`, kept over the dataset's records here. */
export class Lookup implements RecordLookup {
  private readonly accounts = new Map<string, AccountRecord>();
  constructor(private readonly dataset: Dataset) {
    for (const a of dataset.accounts) this.accounts.set(a.hash, a);
  }
  account(hash: string): AccountRecord | undefined {
    return this.accounts.get(hash);
  }
  queuedAddress(tree: string, address: string): AddressRecord | undefined {
    return this.dataset.addresses.find((a) => a.queued && a.tree === tree && a.address === address);
  }
  add(accounts: readonly AccountRecord[]): void {
    for (const a of accounts) this.accounts.set(a.hash, a);
  }
}

/** One slot's change, built step by step (`open`, `close`, the batches), then `end`ed. */
export class TxBuilder {
  private readonly slot: number;
  private readonly opened: AccountRecord[] = [];
  private readonly closed: string[] = [];
  private readonly addresses: AddressRecord[] = [];
  private readonly appended: BatchOf<string>[] = [];
  private readonly nullified: BatchOf<string>[] = [];
  private readonly inserted: BatchOf<string>[] = [];
  private readonly seqs = new Map<string, number>();

  constructor(
    private readonly dataset: Dataset,
    private readonly rng: Random,
  ) {
    this.slot = dataset.slot + 1;
  }

  private record(tree: string): TreeRecord {
    const record = this.dataset.trees.find((t) => t.tree === tree);
    if (!record) throw new Error(`no tree ${tree}`);
    return record;
  }

  private bump(tree: string, steps: number): number {
    const seq = (this.seqs.get(tree) ?? this.record(tree).seq) + steps;
    this.seqs.set(tree, seq);
    return seq;
  }

  /** The tree's next leaf index (V1) or output queue index (StateV2): after every account it holds or queues. */
  private nextIndex(tree: string): number {
    let next = 0;
    for (const a of [...this.dataset.accounts, ...this.opened]) if (a.tree === tree && a.leafIndex >= next) next = a.leafIndex + 1;
    return next;
  }

  /** A new account in `tree`; with an address in `addressTree` when given (AddressV1: inserted now, AddressV2: queued). */
  open(tree: string, addressTree?: string): AccountRecord {
    const batched = this.record(tree).type === "StateV2";
    const leafIndex = this.nextIndex(tree);
    const seq = batched ? null : this.bump(tree, 1);
    let address: string | null = null;
    if (addressTree !== undefined) {
      const queued = this.record(addressTree).type === "AddressV2";
      address = encodeBase58(asAddress(this.rng.bytes(32)));
      this.addresses.push({ address, tree: addressTree, slot: this.slot, queued });
      if (!queued) this.bump(addressTree, 2);
    }
    const account: AccountRecord = {
      hash: base58Text(this.rng, HASH_TEXT.length, HASH_TEXT.firstDigit),
      address,
      data: null,
      owner: "11111111111111111111111111111111",
      lamports: 1000,
      tree,
      leafIndex,
      seq,
      slotCreated: this.slot,
      spent: false,
      inInputQueue: false,
      inOutputQueue: batched,
    };
    this.opened.push(account);
    return account;
  }

  /** Spends an unspent account in its tree (one this change opened in a V1 tree too): a V1 leaf becomes zero (one seq step), a batched account enters the input queue. */
  close(account: AccountRecord): void {
    if (account.spent || account.inOutputQueue) throw new Error(`account ${account.hash} cannot be spent`);
    this.closed.push(account.hash);
    if (this.record(account.tree).type === "StateV1") this.bump(account.tree, 1);
  }

  /** A batch append of the `count` oldest entries of a batched tree's output queue (accounts this change opened last). */
  append(tree: string, count: number): string[] {
    const queue = [...this.dataset.accounts, ...this.opened].filter((a) => a.tree === tree && a.inOutputQueue).sort((a, b) => a.leafIndex - b.leafIndex);
    const items = queue.slice(0, count).map((a) => a.hash);
    this.batch(this.appended, tree, items);
    return items;
  }

  /** A batch nullification of `count` entries of a batched tree's input queue. */
  nullify(tree: string, count: number): string[] {
    const items = this.dataset.accounts
      .filter((a) => a.tree === tree && a.inInputQueue)
      .slice(0, count)
      .map((a) => a.hash);
    this.batch(this.nullified, tree, items);
    return items;
  }

  /** A batch insertion of the `count` oldest addresses queued in an AddressV2 tree (those this change queued last). */
  insert(tree: string, count: number): string[] {
    const items = [...this.dataset.addresses, ...this.addresses]
      .filter((a) => a.tree === tree && a.queued)
      .slice(0, count)
      .map((a) => a.address);
    this.batch(this.inserted, tree, items);
    return items;
  }

  private batch(into: BatchOf<string>[], tree: string, items: string[]): void {
    if (items.length === 0) return;
    into.push({ tree, items });
    this.bump(tree, items.length);
  }

  end(): Change {
    const signature = {
      signature: base58Text(this.rng, SIGNATURE_TEXT.length, SIGNATURE_TEXT.firstDigit),
      slot: this.slot,
      blockTime: blockTime(this.slot),
      opened: this.opened.map((a) => a.hash),
      closed: this.closed,
    };
    return {
      slot: this.slot,
      signature,
      opened: this.opened,
      tokens: [],
      closed: this.closed,
      addresses: this.addresses,
      appended: this.appended,
      nullified: this.nullified,
      inserted: this.inserted,
      seqs: this.seqs,
    };
  }
}

/** Builds changes over a dataset and writes them into it, handing each to the followers (forests). */
export class ChangeMaker {
  readonly rng: Random;
  readonly lookup: Lookup;
  readonly changes: Change[] = [];

  constructor(
    readonly dataset: Dataset,
    seed = 30,
  ) {
    this.rng = new Random(seed, "live-forest-test");
    this.lookup = new Lookup(dataset);
  }

  /** Builds one change (`build` adds to it), writes it into the dataset, then hands it to every follower. */
  step(build: (tx: TxBuilder) => void, followers: readonly { apply(change: Change, touched: Touched): void }[]): Change {
    const tx = new TxBuilder(this.dataset, this.rng);
    build(tx);
    const change = tx.end();
    const touched = applyChange(this.dataset, change, this.lookup);
    this.lookup.add(change.opened);
    for (const f of followers) f.apply(change, touched);
    this.changes.push(change);
    return change;
  }
}
