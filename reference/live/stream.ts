/**
 * The live stream: one deterministic `Change` per slot, a function of the seed and the
 * changes before it. It moves only what the fixtures profile does not pin (`Pinned`): its own
 * program owners, token owners and mint (seed-derived keys no dataset role uses), the queues of
 * the batched trees the profile names none of, the address trees, the trees' roots and seqs,
 * the slot and the latest signatures. It keeps its own view of the chain, so it can run ahead of
 * the state an indexer serves (`--lag`).
 */
import { base58Text, blockTime, HASH_TEXT, SIGNATURE_TEXT, tokenLayout } from "../dataset-encoding.js";
import { Random } from "../random.js";
import { type AccountRecord, type AddressRecord, type Dataset, TOKEN_PROGRAM, type TokenRecord, type TreeRecord, type U64 } from "../records.js";
import { decodeBase58, encodeBase58 } from "@photon-indexer-kit/runtime";
import { asAddress, type Key, keyFromBytes, roleKey } from "../roles/keys.js";
import type { BatchOf, Change } from "./change.js";

/** What the stream must leave as it is: queues the fixtures profile counts or names. */
export interface Pinned {
  /** Batched state trees whose queues hold entries the profile names (never appended to, batched or spent from). */
  readonly stateQueues: ReadonlySet<string>;
  /** AddressV2 trees whose queued addresses the profile names (their queue neither fills nor empties). */
  readonly addressQueues: ReadonlySet<string>;
  /**
   * Profile owners whose lists move with their counts kept: a transaction closes one of their
   * unspent V1 accounts (never one the profile names, nor a delegated one) and opens another for
   * the same owner (program accounts) or the same owner and mint (token accounts), other values.
   */
  readonly churn: { readonly owners: readonly string[]; readonly tokenOwners: readonly string[]; readonly named: ReadonlySet<string> };
}

/** Queue entries a forester batch moves at most, and the queue length that calls one. */
const BATCH = 4;
/** Live entities: program owners, token owners. */
const OWNERS = 4;
const TOKEN_OWNERS = 4;
/** The token discriminator the generator uses most. */
const TOKEN_DISCRIMINATOR = 2;

interface Live {
  readonly record: AccountRecord;
  readonly token: TokenRecord | null;
}

export class LiveStream {
  private readonly rng: Random;
  private slot: number;
  private readonly seqs = new Map<string, number>();
  private readonly nextLeaf = new Map<string, number>();
  private readonly outputQueue = new Map<string, string[]>();
  private readonly inputQueue = new Map<string, string[]>();
  private readonly addressQueue = new Map<string, string[]>();
  private readonly v1Trees: TreeRecord[];
  private readonly batchedTrees: TreeRecord[];
  private readonly addressV1: TreeRecord | undefined;
  private readonly addressV2: TreeRecord | undefined;
  private readonly owners: Key[];
  private readonly tokenOwners: Key[];
  private readonly mint: Key;
  /** Unspent live accounts that can be spent (in a tree, not in an output queue). */
  private readonly spendable: Live[] = [];
  /** Accounts of the churned profile owners: spent and replaced one for one. */
  private readonly churned: Live[] = [];
  /** Live accounts in an output queue, by hash, spendable once appended. */
  private readonly queued = new Map<string, Live>();
  private readonly hashBytes = new Uint8Array(32);
  private step = 0;

  /** `inputOrder`: the input queue of a batched tree, oldest first (the store's `inputQueue`). */
  constructor(dataset: Dataset, seed: number, pinned: Pinned, inputOrder: (tree: string) => readonly string[]) {
    this.rng = new Random(seed, "live");
    this.slot = dataset.slot;
    this.v1Trees = dataset.trees.filter((t) => t.type === "StateV1");
    this.batchedTrees = dataset.trees.filter((t) => t.type === "StateV2" && !pinned.stateQueues.has(t.tree));
    this.addressV1 = dataset.trees.find((t) => t.type === "AddressV1");
    this.addressV2 = dataset.trees.find((t) => t.type === "AddressV2");
    for (const t of dataset.trees) this.seqs.set(t.tree, t.seq);
    const byLeaf = new Map<string, AccountRecord[]>();
    for (const a of dataset.accounts) {
      this.nextLeaf.set(a.tree, Math.max(this.nextLeaf.get(a.tree) ?? 0, a.leafIndex + 1));
      if (a.inOutputQueue) byLeaf.set(a.tree, [...(byLeaf.get(a.tree) ?? []), a]);
    }
    for (const t of this.batchedTrees) {
      this.outputQueue.set(
        t.tree,
        (byLeaf.get(t.tree) ?? []).sort((a, b) => a.leafIndex - b.leafIndex).map((a) => a.hash),
      );
      this.inputQueue.set(t.tree, [...inputOrder(t.tree)]);
    }
    if (this.addressV2 && !pinned.addressQueues.has(this.addressV2.tree))
      this.addressQueue.set(
        this.addressV2.tree,
        dataset.addresses.filter((a) => a.queued && a.tree === this.addressV2?.tree).map((a) => a.address),
      );
    this.owners = Array.from({ length: OWNERS }, (_, i) => roleKey(seed, `live:owner:${i}`));
    this.tokenOwners = Array.from({ length: TOKEN_OWNERS }, (_, i) => roleKey(seed, `live:tokenOwner:${i}`));
    this.mint = roleKey(seed, "live:mint");
    const { owners, tokenOwners, named } = pinned.churn;
    const tokens = new Map(dataset.tokens.map((t) => [t.hash, t]));
    for (const a of dataset.accounts) {
      if (a.spent || a.seq === null || named.has(a.hash)) continue;
      const token = tokens.get(a.hash) ?? null;
      if (token === null ? owners.includes(a.owner) : tokenOwners.includes(token.owner) && token.delegate === null) this.churned.push({ record: a, token });
    }
  }

  /** The program owners, token owners and mint the stream moves. */
  entities(): { owners: string[]; tokenOwners: string[]; mint: string } {
    return { owners: this.owners.map((k) => k.text), tokenOwners: this.tokenOwners.map((k) => k.text), mint: this.mint.text };
  }

  /** The next slot's change. */
  next(): Change {
    const slot = ++this.slot;
    const tx = new TxBuilder();
    const kind = this.step++ % 8;
    if (kind >= 6 && this.churned.length > 0) this.churn(tx, slot, kind === 6);
    else if (kind === 0 || this.spendable.length === 0) this.openProgram(tx, slot, this.v1Trees);
    else if (kind === 1) this.openProgram(tx, slot, this.batchedTrees.length > 0 ? this.batchedTrees : this.v1Trees);
    else if (kind === 2 || kind === 3) this.transfer(tx, slot);
    else if (kind === 4) this.mintTokens(tx, slot);
    else this.spendProgram(tx, slot);
    const appended = this.batches(this.outputQueue, (hash) => this.enterTree(hash));
    const nullified = this.batches(this.inputQueue, () => undefined);
    const inserted = this.batches(this.addressQueue, () => undefined);
    const signature = {
      signature: base58Text(this.rng, SIGNATURE_TEXT.length, SIGNATURE_TEXT.firstDigit),
      slot,
      blockTime: blockTime(slot),
      opened: tx.opened.map((a) => a.hash),
      closed: tx.closed,
    };
    const seqs = new Map(
      [...tx.trees, ...appended.map((b) => b.tree), ...nullified.map((b) => b.tree), ...inserted.map((b) => b.tree)].map((t) => [
        t,
        this.seqs.get(t) as number,
      ]),
    );
    return { slot, signature, opened: tx.opened, tokens: tx.tokens, closed: tx.closed, addresses: tx.addresses, appended, nullified, inserted, seqs };
  }

  /** Up to BATCH oldest entries of each queue holding at least BATCH, or any at every fourth slot; one seq step each. */
  private batches(queues: Map<string, string[]>, moved: (item: string) => void): BatchOf<string>[] {
    const out: BatchOf<string>[] = [];
    for (const [tree, queue] of queues) {
      if (queue.length < BATCH && (queue.length === 0 || this.slot % 4 !== 0)) continue;
      const items = queue.splice(0, BATCH);
      for (const item of items) moved(item);
      this.bump(tree, items.length);
      out.push({ tree, items });
    }
    return out;
  }

  private enterTree(hash: string): void {
    const live = this.queued.get(hash);
    if (live === undefined) return;
    this.queued.delete(hash);
    this.spendable.push(live);
  }

  private bump(tree: string, steps: number): number {
    const seq = (this.seqs.get(tree) as number) + steps;
    this.seqs.set(tree, seq);
    return seq;
  }

  private newHash(): string {
    return base58Text(this.rng, HASH_TEXT.length, HASH_TEXT.firstDigit);
  }

  /** A new account in one of `trees`: appended at once to a V1 tree, queued in a batched one; with an address half the time. */
  private open(
    tx: TxBuilder,
    slot: number,
    trees: readonly TreeRecord[],
    owner: string,
    data: AccountRecord["data"],
    token: TokenRecord | null,
    pool: Live[] = this.spendable,
  ): AccountRecord {
    const tree = this.rng.pick(trees);
    const batched = tree.type === "StateV2";
    const leafIndex = this.nextLeaf.get(tree.tree) ?? 0;
    this.nextLeaf.set(tree.tree, leafIndex + 1);
    tx.trees.add(tree.tree);
    const seq = batched ? null : this.bump(tree.tree, 1);
    const address = token === null && this.rng.chance(0.5) ? this.newAddress(tx, slot, batched) : null;
    const record: AccountRecord = {
      hash: token?.hash ?? this.newHash(),
      address,
      data,
      owner,
      lamports: this.rng.chance(0.3) ? 0 : this.rng.between(1, 5_000_000_000),
      tree: tree.tree,
      leafIndex,
      seq,
      slotCreated: slot,
      spent: false,
      inInputQueue: false,
      inOutputQueue: batched,
    };
    tx.opened.push(record);
    if (token !== null) tx.tokens.push(token);
    const live = { record, token };
    if (batched) {
      this.outputQueue.get(tree.tree)?.push(record.hash);
      this.queued.set(record.hash, live);
    } else pool.push(live);
    return record;
  }

  /** An address into the AddressV1 tree (two seq steps) or the AddressV2 queue. */
  private newAddress(tx: TxBuilder, slot: number, batched: boolean): string | null {
    const tree = batched ? this.addressV2 : this.addressV1;
    // A pinned AddressV2 queue keeps its length: no address goes in.
    if (tree === undefined || (batched && !this.addressQueue.has(tree.tree))) return null;
    const address = encodeBase58(asAddress(this.rng.fill(this.hashBytes)));
    const record: AddressRecord = { address, tree: tree.tree, slot, queued: batched };
    tx.addresses.push(record);
    if (batched) this.addressQueue.get(tree.tree)?.push(address);
    else {
      this.bump(tree.tree, 2);
      tx.trees.add(tree.tree);
    }
    return address;
  }

  private openProgram(tx: TxBuilder, slot: number, trees: readonly TreeRecord[]): void {
    const length = this.rng.between(0, 48);
    const data = this.rng.chance(0.3)
      ? null
      : { discriminator: this.rng.between(1, 1_000_000), data: Buffer.from(this.rng.bytes(length)).toString("base64"), dataHash: this.newHash() };
    this.open(tx, slot, trees, this.rng.pick(this.owners).text, data, null);
  }

  private spendProgram(tx: TxBuilder, slot: number): void {
    const at = this.spendable.findIndex((l) => l.token === null);
    if (at < 0) this.openProgram(tx, slot, this.v1Trees);
    else this.spend(tx, at);
  }

  /** Closes a churned account and opens its successor: the owner's (and mint's) count stays, the items and sums move. */
  private churn(tx: TxBuilder, slot: number, program: boolean): void {
    const found = this.churned.findIndex((l) => (l.token === null) === program);
    const { record, token } = this.spend(tx, Math.max(0, found), this.churned);
    const next = token && { ...token, hash: this.newHash(), amount: this.rng.between(1, 1_000_000_000), tlv: null };
    const data =
      next === null
        ? record.data && { ...record.data, dataHash: this.newHash() }
        : {
            discriminator: TOKEN_DISCRIMINATOR,
            data: Buffer.from(tokenLayout(keyOf(next.mint), keyOf(next.owner), next.amount, null, next.state, null)).toString("base64"),
            dataHash: this.newHash(),
          };
    this.open(tx, slot, this.v1Trees, record.owner, data, next, this.churned);
  }

  /** Spends pool[at]: a V1 leaf is zeroed (one seq step); a batched account enters its tree's input queue. */
  private spend(tx: TxBuilder, at: number, pool: Live[] = this.spendable): Live {
    const live = pool[at] as Live;
    pool.splice(at, 1);
    const { tree, hash } = live.record;
    tx.closed.push(hash);
    const input = this.inputQueue.get(tree);
    if (input !== undefined) input.push(hash);
    else {
      this.bump(tree, 1);
      tx.trees.add(tree);
    }
    return live;
  }

  private openToken(tx: TxBuilder, slot: number, owner: Key, amount: U64): void {
    const token: TokenRecord = { hash: this.newHash(), mint: this.mint.text, owner: owner.text, amount, delegate: null, state: "initialized", tlv: null };
    const bytes = tokenLayout(this.mint, owner, amount, null, "initialized", null);
    const data = { discriminator: TOKEN_DISCRIMINATOR, data: Buffer.from(bytes).toString("base64"), dataHash: this.newHash() };
    this.open(tx, slot, [...this.v1Trees, ...this.batchedTrees], TOKEN_PROGRAM, data, token);
  }

  private mintTokens(tx: TxBuilder, slot: number): void {
    this.openToken(tx, slot, this.rng.pick(this.tokenOwners), this.rng.between(1, 1_000_000_000));
  }

  /** Spends one live token account and pays its amount to another owner, the change back to its owner. */
  private transfer(tx: TxBuilder, slot: number): void {
    const at = this.spendable.findIndex((l) => l.token !== null);
    if (at < 0) {
      this.mintTokens(tx, slot);
      return;
    }
    const from = this.spend(tx, at).token as TokenRecord;
    const amount = BigInt(from.amount);
    const paid = amount === 0n ? 0n : 1n + BigInt(this.rng.below(Number(amount > 1_000_000_000n ? 1_000_000_000n : amount)));
    const sender = this.tokenOwners.find((k) => k.text === from.owner) as Key;
    const others = this.tokenOwners.filter((k) => k !== sender);
    this.openToken(tx, slot, this.rng.pick(others), Number(paid));
    if (amount > paid) this.openToken(tx, slot, sender, Number(amount - paid));
  }
}

/** A pubkey's bytes (token data holds mint and owner as bytes). */
const keyOf = (text: string): Key => keyFromBytes(decodeBase58(text) as Uint8Array);

/** The parts of one transaction as it is built. */
class TxBuilder {
  readonly opened: AccountRecord[] = [];
  readonly tokens: TokenRecord[] = [];
  readonly closed: string[] = [];
  readonly addresses: AddressRecord[] = [];
  /** Trees whose seq the transaction moves. */
  readonly trees = new Set<string>();
}
