/**
 * What Photon 0.51.2 would answer for a dataset, computed from the records alone (not from the
 * reference's store), with the inputs the stateless.js test picks from it. Every rule cites the
 * Photon source it follows (paths at 366a15b).
 */
import { decodeBase58, encodeBase58 } from "@photon-indexer-kit/runtime";
import { TOKEN_PROGRAM, U64_MAX } from "../../../reference/records.js";
import type { AccountRecord, AddressRecord, Dataset, SignatureRecord, TokenRecord, TreeRecord, TreeType } from "../../../reference/records.js";
import { HIGHEST_ADDRESS_PLUS_ONE } from "./merkle.js";

/** Photon's `TreeType` as u16 on the wire, which stateless.js's `TreeType` enum shares. */
export const TREE_TYPE: Readonly<Record<TreeType, number>> = { StateV1: 1, AddressV1: 2, StateV2: 3, AddressV2: 4 };

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function bytesOf(base58: string): Buffer {
  const bytes = decodeBase58(base58);
  if (bytes === undefined) throw new Error(`not base58: ${base58}`);
  return Buffer.from(bytes);
}

/** A 32-byte big-endian field element as base58 (how hashes, roots and addresses travel). */
export function base58OfField(value: bigint): string {
  return encodeBase58(Buffer.from(value.toString(16).padStart(64, "0"), "hex"));
}

export function fieldOf(base58: string): bigint {
  const bytes = bytesOf(base58);
  return bytes.length === 0 ? 0n : BigInt(`0x${bytes.toString("hex")}`);
}

export function compareBytes(a: string, b: string): number {
  return Buffer.compare(bytesOf(a), bytesOf(b));
}

export interface HolderRow {
  owner: string;
  balance: bigint;
}

export interface BalanceRow {
  mint: string;
  balance: bigint;
}

/** Where a new address sits in a V1 address tree: its low element and that element's successor. */
export interface AddressRange {
  low: bigint;
  lowIndex: number;
  high: bigint;
  /** The leaf index of `high` (the low element's `nextIndex`). */
  nextIndex: number;
}

export class DatasetView {
  readonly accounts = new Map<string, AccountRecord>();
  readonly tokens = new Map<string, TokenRecord>();
  readonly trees = new Map<string, TreeRecord>();
  /** Every signature, newest first: slot desc, then signature bytes desc (photon utils.rs:504, 530). */
  readonly newestFirst: readonly SignatureRecord[];
  /** The signatures that opened or closed each account hash. */
  private readonly touching = new Map<string, SignatureRecord[]>();
  private readonly order = new Map<SignatureRecord, number>();
  /** Accounts by tree, then leaf index ((tree, leafIndex) is unique). */
  private readonly leaves = new Map<string, Map<number, AccountRecord>>();

  constructor(readonly dataset: Dataset) {
    for (const a of dataset.accounts) {
      this.accounts.set(a.hash, a);
      let inTree = this.leaves.get(a.tree);
      if (inTree === undefined) this.leaves.set(a.tree, (inTree = new Map()));
      inTree.set(a.leafIndex, a);
    }
    for (const t of dataset.tokens) this.tokens.set(t.hash, t);
    for (const t of dataset.trees) this.trees.set(t.tree, t);
    const keyed = dataset.signatures.map((s) => ({ s, bytes: bytesOf(s.signature) }));
    keyed.sort((a, b) => b.s.slot - a.s.slot || Buffer.compare(b.bytes, a.bytes));
    this.newestFirst = keyed.map((k) => k.s);
    this.newestFirst.forEach((s, i) => this.order.set(s, i));
    for (const s of dataset.signatures) {
      for (const hash of [...s.opened, ...s.closed]) {
        const list = this.touching.get(hash);
        if (list === undefined) this.touching.set(hash, [s]);
        else if (!list.includes(s)) list.push(s);
      }
    }
  }

  account(hash: string): AccountRecord {
    const a = this.accounts.get(hash);
    if (a === undefined) throw new Error(`no account ${hash} in the dataset`);
    return a;
  }

  tree(key: string): TreeRecord {
    const t = this.trees.get(key);
    if (t === undefined) throw new Error(`no tree ${key} in the dataset`);
    return t;
  }

  treeOf(account: AccountRecord): TreeRecord {
    return this.tree(account.tree);
  }

  /**
   * Whether the account is still in its batched tree's output queue (`inOutputQueue`, batched trees
   * only): `proveByIndex` is then true (photon src/common/typedefs/account/v2.rs: prove_by_index =
   * in_output_queue). `seq` cannot tell: it is null for every batched account.
   */
  inOutputQueue(account: AccountRecord): boolean {
    return account.inOutputQueue && this.treeOf(account).type === "StateV2";
  }

  /** The highest leaf index any account of the tree holds (-1 for none): every leaf above it is empty. */
  maxLeaf(tree: string): number {
    let max = this.maxLeaves.get(tree);
    if (max === undefined) {
      max = -1;
      for (const index of this.leaves.get(tree)?.keys() ?? []) max = Math.max(max, index);
      this.maxLeaves.set(tree, max);
    }
    return max;
  }

  private readonly maxLeaves = new Map<string, number>();

  /**
   * The leaf value of a state tree at `index` where the records fix it, else undefined: 0 above the
   * last leaf, at a batched account still in the output queue (not appended yet) and at a nullified
   * V1 account (photon src/ingester/persist/leaf_node.rs:56-64: a V1 nullification writes
   * ZERO_BYTES[0]); the account's hash for an unspent account in the tree and for a batched account
   * whose nullification is still queued. A nullified batched leaf holds its nullifier, which the
   * records do not carry.
   */
  leafAt(tree: string, index: number): bigint | undefined {
    const a = this.leaves.get(tree)?.get(index);
    if (a === undefined) return index > this.maxLeaf(tree) ? 0n : undefined;
    const batched = this.tree(tree).type === "StateV2";
    if (batched && a.inOutputQueue) return 0n;
    if (!a.spent || (batched && a.inInputQueue)) return fieldOf(a.hash);
    return batched ? undefined : 0n;
  }

  /** Signatures newest first, de-duplicated, of the transactions that opened or closed any of `hashes`. */
  signaturesOf(hashes: Iterable<string>): SignatureRecord[] {
    const found = new Set<SignatureRecord>();
    for (const h of hashes) for (const s of this.touching.get(h) ?? []) found.add(s);
    return [...found].sort((a, b) => (this.order.get(a) as number) - (this.order.get(b) as number));
  }

  /** getCompressionSignaturesForAccount: the account's own history (utils.rs:429). */
  signaturesForAccount(hash: string): SignatureRecord[] {
    return this.signaturesOf([hash]);
  }

  /** getCompressionSignaturesForAddress: every version of the address, spent or not (utils.rs:430-432). */
  signaturesForAddress(address: string): SignatureRecord[] {
    return this.signaturesOf(this.dataset.accounts.filter((a) => a.address === address).map((a) => a.hash));
  }

  /** getCompressionSignaturesForOwner: accounts whose program owner it is, spent or not (utils.rs:433-435, base table `accounts`). */
  signaturesForOwner(owner: string): SignatureRecord[] {
    return this.signaturesOf(this.dataset.accounts.filter((a) => a.owner === owner).map((a) => a.hash));
  }

  /** getCompressionSignaturesForTokenOwner: token accounts of the token owner, spent or not (base table `token_accounts`). */
  signaturesForTokenOwner(owner: string): SignatureRecord[] {
    return this.signaturesOf(this.dataset.tokens.filter((t) => t.owner === owner).map((t) => t.hash));
  }

  unspentOfOwner(owner: string): AccountRecord[] {
    return this.dataset.accounts.filter((a) => !a.spent && a.owner === owner);
  }

  unspentTokens(where: (t: TokenRecord) => boolean): TokenRecord[] {
    return this.dataset.tokens.filter((t) => where(t) && !this.account(t.hash).spent);
  }

  /** getCompressedBalanceByOwner: the owner's unspent lamports (owner_balances rows, photon persist/mod.rs:329-403). */
  lamportsOfOwner(owner: string): bigint {
    return this.unspentOfOwner(owner).reduce((sum, a) => sum + BigInt(a.lamports), 0n);
  }

  /**
   * token_owner_balances rows (photon src/ingester/persist/mod.rs:329-403): a row appears with the
   * first non-zero change of an (owner, mint) and is never deleted, so an owner has a row for a mint
   * iff one of its token accounts of that mint, spent or not, held a non-zero amount; the balance is
   * the sum of the unspent amounts (0 once all are spent).
   */
  private balanceRows(): Map<string, Map<string, bigint>> {
    const rows = new Map<string, Map<string, bigint>>();
    const live = new Set<string>();
    for (const t of this.dataset.tokens) {
      const key = `${t.owner} ${t.mint}`;
      if (BigInt(t.amount) !== 0n) live.add(key);
    }
    for (const t of this.dataset.tokens) {
      if (!live.has(`${t.owner} ${t.mint}`)) continue;
      let perMint = rows.get(t.owner);
      if (perMint === undefined) rows.set(t.owner, (perMint = new Map()));
      perMint.set(t.mint, (perMint.get(t.mint) ?? 0n) + (this.account(t.hash).spent ? 0n : BigInt(t.amount)));
    }
    return rows;
  }

  private rows: Map<string, Map<string, bigint>> | undefined;

  /** getCompressedTokenBalancesByOwner(V2): the owner's rows by mint bytes ascending (get_compressed_token_balances_by_owner.rs:83). */
  balances(owner: string): BalanceRow[] {
    this.rows ??= this.balanceRows();
    return [...(this.rows.get(owner) ?? new Map<string, bigint>())].map(([mint, balance]) => ({ mint, balance })).sort((a, b) => compareBytes(a.mint, b.mint));
  }

  /** getCompressedMintTokenHolders: the mint's rows by balance desc, then owner bytes desc (get_compressed_mint_token_holders.rs:83-84). */
  holders(mint: string): HolderRow[] {
    this.rows ??= this.balanceRows();
    const out: HolderRow[] = [];
    for (const [owner, perMint] of this.rows) {
      const balance = perMint.get(mint);
      if (balance !== undefined) out.push({ owner, balance });
    }
    return out.sort((a, b) => (a.balance === b.balance ? compareBytes(b.owner, a.owner) : a.balance > b.balance ? -1 : 1));
  }

  /** The mint with the most holder rows (ties: the smaller base58 text). */
  mintWithMostHolders(): string {
    const counts = new Map<string, number>();
    for (const t of this.dataset.tokens) counts.set(t.mint, (counts.get(t.mint) ?? 0) + 1);
    let best: [string, number] | undefined;
    for (const mint of [...counts.keys()].sort()) {
      const n = this.holders(mint).length;
      if (best === undefined || n > best[1]) best = [mint, n];
    }
    if (best === undefined) throw new Error("the dataset has no token accounts");
    return best[0];
  }

  /** The delegate of the most unspent token accounts (ties: the smaller base58 text). */
  delegateWithMostAccounts(): string {
    const counts = new Map<string, number>();
    for (const t of this.unspentTokens((t) => t.delegate !== null)) counts.set(t.delegate as string, (counts.get(t.delegate as string) ?? 0) + 1);
    const [best] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    if (best === undefined) throw new Error("no unspent token account has a delegate");
    return best[0];
  }

  /** A program owner whose unspent lamports sum above 2^53 and within u64 (the most accounts first). */
  ownerWithBigLamports(): { owner: string; lamports: bigint } {
    const sums = new Map<string, { n: number; sum: bigint }>();
    for (const a of this.dataset.accounts) {
      if (a.spent || a.owner === TOKEN_PROGRAM) continue;
      const s = sums.get(a.owner) ?? { n: 0, sum: 0n };
      s.n++;
      s.sum += BigInt(a.lamports);
      sums.set(a.owner, s);
    }
    const [best] = [...sums].filter(([, s]) => s.sum > MAX_SAFE && s.sum <= U64_MAX).sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1));
    if (best === undefined) throw new Error("no owner's lamports sum above 2^53 within u64");
    return { owner: best[0], lamports: best[1].sum };
  }

  /** The first unspent account (dataset order) matching `where`, or an error naming what is missing. */
  firstUnspent(what: string, where: (a: AccountRecord) => boolean): AccountRecord {
    const a = this.dataset.accounts.find((x) => !x.spent && where(x));
    if (a === undefined) throw new Error(`the dataset has no unspent account that is ${what}`);
    return a;
  }

  /**
   * Transactions that cover getTransactionWithCompressionInfo's cases, each once: the one closing and
   * opening the most accounts, the one opening the most token accounts, one closing a token account
   * (of a batched tree when there is one) and one closing a batched-tree account.
   */
  transactionsToCheck(): SignatureRecord[] {
    const sigs = this.dataset.signatures;
    const isToken = (h: string) => this.tokens.has(h);
    const batched = (h: string) => this.treeOf(this.account(h)).type === "StateV2";
    const most = (pool: SignatureRecord[], score: (s: SignatureRecord) => number) => [...pool].sort((a, b) => score(b) - score(a))[0];
    const picks = [
      most(
        sigs.filter((s) => s.opened.length > 0 && s.closed.length > 0),
        (s) => s.opened.length + s.closed.length,
      ),
      most(
        sigs.filter((s) => s.opened.some(isToken)),
        (s) => s.opened.filter(isToken).length,
      ),
      sigs.find((s) => s.closed.some((h) => isToken(h) && batched(h))) ?? sigs.find((s) => s.closed.some(isToken)),
      sigs.find((s) => s.closed.some(batched)),
    ];
    const found = picks.filter((s): s is SignatureRecord => s !== undefined);
    if (found.length !== picks.length) throw new Error("the dataset lacks a kind of transaction getTransactionWithCompressionInfo is checked with");
    return [...new Set(found)];
  }

  /** The addresses of an address tree, in insertion order, inserted ones only (V2 queued ones are not in the tree yet). */
  addressesIn(tree: string): AddressRecord[] {
    return this.dataset.addresses.filter((a) => a.tree === tree && !a.queued);
  }

  /**
   * The exclusion range of a new address in a V1 address tree: leaf 0 holds 0, leaf 1 the top
   * element 2^248 - 1, and the k-th inserted address leaf k + 2 (photon
   * indexed_merkle_tree/helpers.rs `get_zeroeth_exclusion_range_v1`, `get_top_element`;
   * the snapshots' `lowElementLeafIndex`/`nextIndex`). The low element is the largest value
   * below the address, `high` the smallest above it.
   */
  addressRangeV1(tree: string, address: bigint): AddressRange {
    const elements: { value: bigint; index: number }[] = [
      { value: 0n, index: 0 },
      { value: HIGHEST_ADDRESS_PLUS_ONE, index: 1 },
      ...this.addressesIn(tree).map((a, k) => ({ value: fieldOf(a.address), index: k + 2 })),
    ];
    let low = elements[0] as { value: bigint; index: number };
    let high = elements[1] as { value: bigint; index: number };
    for (const e of elements) {
      if (e.value === address) throw new Error(`address ${base58OfField(address)} is already in ${tree}`);
      if (e.value < address && e.value > low.value) low = e;
      if (e.value > address && e.value < high.value) high = e;
    }
    return { low: low.value, lowIndex: low.index, high: high.value, nextIndex: high.index };
  }

  /**
   * New addresses for exclusion proofs in `tree`: just above an inserted address (so the low element
   * is that address), just above 0 and just below the top element (the two ends), none of them
   * inserted.
   */
  newAddresses(tree: string): bigint[] {
    const taken = new Set(this.dataset.addresses.filter((a) => a.tree === tree).map((a) => fieldOf(a.address)));
    const candidates: bigint[] = [];
    const first = this.addressesIn(tree)[0];
    if (first !== undefined) candidates.push(fieldOf(first.address) + 1n);
    candidates.push(1n, HIGHEST_ADDRESS_PLUS_ONE - 2n);
    const fresh = candidates.filter((c) => !taken.has(c) && c > 0n && c < HIGHEST_ADDRESS_PLUS_ONE);
    return [...new Set(fresh)];
  }
}
