/**
 * The reference indexer's in-memory store: a Dataset plus indexes that make every page
 * O(log n + limit), answering every query Photon 0.51.2 has. Orders come from the caller
 * (`facts.pagination.order`), so the store names no method; lists hold what Photon's query holds
 * (spent accounts hidden but in signature histories and queues). Indexes past the lookups by hash,
 * address and tree are built on first use (`builtIndexes()`).
 */
import { RefErrorCode, ReferenceIndexerError } from "./errors.js";
import { Lazy } from "./lazy.js";
import type { Touched } from "./live/apply.js";
import type { Change } from "./live/change.js";
import type { AccountRecord, AddressRecord, Dataset, SignatureRecord, TokenRecord, TreeRecord } from "./records.js";
import type { BalanceRow } from "./store/balances.js";
import { lamportsByOwner } from "./store/builders.js";
import { group } from "./store/group.js";
import { RecordLookups } from "./store/lookups.js";
import { type Order, type Sorted, SortedGroups } from "./store/order.js";
import { type OwnerData, packData } from "./store/owner-data.js";
import { type AddressQueueElement, type InputQueueElement, NO_QUEUE, type OutputQueueElement, QueueIndexes, type QueueList } from "./store/queues.js";
import { SignatureLists } from "./store/signature-lists.js";
import { type TokenEntry, TokenLists } from "./store/token-lists.js";

export { documentedOrder, EMPTY, firstIndex, type Order, orderComparator, orderSignature, type Probe, Sorted } from "./store/order.js";
export type { AddressQueueElement, InputQueueElement, OutputQueueElement } from "./store/queues.js";
export type { OwnerData } from "./store/owner-data.js";
export type { BalanceRow } from "./store/balances.js";
export { QueueList } from "./store/queues.js";
export type { TokenEntry } from "./store/token-lists.js";

/** An account a transaction opened or closed, with its token fields when it is a token account. */
export interface TxAccount {
  readonly account: AccountRecord;
  readonly token: TokenRecord | null;
}

/** A transaction and the accounts it opened and closed, in output and input order. */
export interface TransactionView {
  readonly signature: SignatureRecord;
  readonly opened: readonly TxAccount[];
  readonly closed: readonly TxAccount[];
}

export class ReferenceStore {
  /** The indexed slot: what every answer's context states and the slot method answers. */
  get slot(): number {
    return this.dataset.slot;
  }
  readonly dataset: Dataset;
  private readonly lookups: RecordLookups;
  private readonly tokens: TokenLists;
  private readonly sigs: SignatureLists;
  private readonly queues: QueueIndexes;
  private readonly owners = new SortedGroups<string, AccountRecord>("accountsByOwner", () =>
    group(
      this.dataset.accounts.filter((a) => !a.spent),
      (a) => a.owner,
    ),
  );
  private readonly lamports = new Lazy(() => lamportsByOwner(this.dataset.accounts), "lamportsByOwner");
  /** Packed data bytes per accounts list (built on a list's first filtered call). */
  private readonly dataByList = new WeakMap<Sorted<AccountRecord>, OwnerData>();
  /**
   * Result items built once per record, per item shape, with their JSON kept (handlers/support.ts
   * `cachedItems`, which bounds each map): records never change, so neither do their items.
   */
  readonly itemCache = new Map<string, Map<object, object>>();

  /** Indexes the lookups and checks the records (`RecordLookups`); builds no other index. */
  constructor(dataset: Dataset) {
    this.dataset = dataset;
    const lookups = new RecordLookups(dataset);
    this.lookups = lookups;
    this.tokens = new TokenLists(
      dataset,
      (h) => lookups.byHash.get(h) as AccountRecord,
      (h) => lookups.tokenByHash.get(h),
    );
    this.sigs = new SignatureLists(
      dataset,
      (h) => lookups.byHash.get(h),
      (h) => lookups.tokenByHash.get(h),
    );
    this.queues = new QueueIndexes(dataset, (h) => lookups.byHash.get(h), lookups.batchedState);
  }

  /** The lazy indexes built so far (for tests and benchmarks: construction builds none). */
  builtIndexes(): string[] {
    const { tokens, sigs, queues } = this;
    const all: { name: string; built: boolean }[] = [
      tokens.unspent,
      this.owners,
      tokens.byOwner,
      tokens.byOwnerMint,
      tokens.byDelegate,
      tokens.byDelegateMint,
      tokens.balanceRows,
      tokens.balancesByOwner,
      tokens.holdersByMint,
      this.lamports,
      sigs.byAccount,
      sigs.byAddress,
      sigs.byOwner,
      sigs.byTokenOwner,
      sigs.latest,
      sigs.bySignature,
      sigs.openers,
      queues.nullifierIndexes,
      queues.outputs,
      queues.inputs,
      queues.addresses,
    ];
    return all.filter((x) => x.built).map((x) => x.name);
  }

  // ---------------------------------------------------------------- lookups

  /** Any account by hash, spent or not. */
  account(hash: string): AccountRecord | undefined {
    return this.lookups.byHash.get(hash);
  }

  /**
   * The unspent account with this hash, or null (photon HEAD:src/api/method/utils.rs:266-284;
   * a balance is 0 when null, get_compressed_account_balance.rs:17-25).
   */
  unspentByHash(hash: string): AccountRecord | null {
    const a = this.lookups.byHash.get(hash);
    return a === undefined || a.spent ? null : a;
  }

  /** The unspent account holding this address, or null (same methods, by address; the address wins over the hash, utils.rs:298-309). */
  unspentByAddress(address: string): AccountRecord | null {
    return this.lookups.byAddress.get(address) ?? null;
  }

  /** The token fields of an account (spent or not), if it is a token account. */
  token(hash: string): TokenRecord | undefined {
    return this.lookups.tokenByHash.get(hash);
  }

  /**
   * The unspent token account with this hash, or null (get_compressed_token_account_balance.rs:35-43).
   * By address Photon takes one row of `owner = address` without an ORDER BY (utils.rs:277-279): the handler chooses.
   */
  unspentToken(hash: string): TokenEntry | null {
    const account = this.unspentByHash(hash);
    const token = account === null ? undefined : this.lookups.tokenByHash.get(hash);
    return account === null || token === undefined ? null : { account, token, tokenData: token };
  }

  /** A tree by its pubkey (merkleContext of V2 results, proofs, queues). */
  tree(pubkey: string): TreeRecord | undefined {
    return this.lookups.treeByKey.get(pubkey);
  }

  /** The tree whose queue this is (the nullifier queue of a StateV1 tree, the output queue of a StateV2 tree, an AddressV1 queue, an AddressV2 tree itself). */
  treeByQueue(pubkey: string): TreeRecord | undefined {
    return this.lookups.treeByQueueKey.get(pubkey);
  }

  /** Every tree, in dataset order (Photon's `tree_metadata`). */
  trees(): readonly TreeRecord[] {
    return this.lookups.treeList;
  }

  // ---------------------------------------------------------------- accounts by owner

  /**
   * The owner's (program owner's) unspent accounts in `order`: getCompressedAccountsByOwner
   * and its V2, which share one query (`owner = $1 AND spent = false`;
   * get_compressed_accounts_by_owner/common.rs:85-108, v1.rs:38-53, v2.rs:40-55).
   */
  accountsByOwner(owner: string, order: Order): Sorted<AccountRecord> {
    return this.owners.get(owner, order);
  }

  /** `accountsByOwner(owner, order).rows`. */
  ownerAccounts(owner: string, order: Order): readonly AccountRecord[] {
    return this.accountsByOwner(owner, order).rows;
  }

  /** The index of account `hash` in ownerAccounts(owner, order), or -1 when it is not an unspent account of that owner. */
  ownerPosition(owner: string, hash: string, order: Order): number {
    const a = this.lookups.byHash.get(hash);
    if (a === undefined || a.spent || a.owner !== owner) return -1;
    return this.accountsByOwner(owner, order).indexOf(a);
  }

  /** The data bytes of ownerAccounts(owner, order) for memcmp, decoded on first use per list and kept (a list never changes; a moved one is a new list). */
  ownerData(owner: string, order: Order): OwnerData {
    const list = this.accountsByOwner(owner, order);
    let packed = this.dataByList.get(list);
    if (packed === undefined) this.dataByList.set(list, (packed = packData(list.rows)));
    return packed;
  }

  /**
   * The sum of the owner's unspent lamports (get_compressed_balance_by_owner.rs:24-35), 0 without accounts.
   * A bigint: above u64 max Photon answers -32000 "Internal server error" (`parse_decimal`, utils.rs:31-36).
   */
  lamportsByOwner(owner: string): bigint {
    return this.lamports.get().get(owner) ?? 0n;
  }

  // ---------------------------------------------------------------- token accounts

  /**
   * The token owner's unspent token accounts in `order`, only `mint`'s when given (photon HEAD:src/api/method/utils.rs:124-141, 664-681).
   * With `mint` the next page is `hash > cursor.hash` (utils.rs:154-157): probe with the `mint` param's mint.
   */
  tokenAccountsByOwner(owner: string, order: Order, mint: string | null = null): Sorted<TokenEntry> {
    return mint === null ? this.tokens.byOwner.get(owner, order) : this.tokens.byOwnerMint.get(`${owner} ${mint}`, order);
  }

  /**
   * The delegate's unspent token accounts in `order`, only `mint`'s when given: the owner's query on
   * `token_accounts.delegate` (get_compressed_token_accounts_by_delegate.rs:12-46), same cursor rules.
   */
  tokenAccountsByDelegate(delegate: string, order: Order, mint: string | null = null): Sorted<TokenEntry> {
    return mint === null ? this.tokens.byDelegate.get(delegate, order) : this.tokens.byDelegateMint.get(`${delegate} ${mint}`, order);
  }

  /** `tokenAccountsByOwner(owner, order).rows`. */
  tokenAccounts(owner: string, order: Order): readonly TokenEntry[] {
    return this.tokenAccountsByOwner(owner, order).rows;
  }

  /**
   * The slice [start, end) of tokenAccounts(owner, order) a page reads: `mint`'s when given, after
   * `cursor`. Needs an order led by the mint, where one mint's accounts are contiguous.
   */
  tokenAccountRange(owner: string, mint: string | null, cursor: { mint: string; hash: string } | null, order: Order): [number, number] {
    const list = this.tokenAccountsByOwner(owner, order);
    if (mint === null) return [cursor === null ? 0 : list.after({ tokenData: { mint: cursor.mint }, account: { hash: cursor.hash } }), list.length];
    const sub = this.tokenAccountsByOwner(owner, order, mint);
    const first = sub.rows[0];
    if (first === undefined) return [0, 0];
    const base = list.indexOf(first);
    const start = cursor === null ? 0 : sub.after({ tokenData: { mint }, account: { hash: cursor.hash } });
    return [base + start, base + sub.length];
  }

  // ---------------------------------------------------------------- balances and holders

  /**
   * The token owner's balance rows (get_compressed_token_balances_by_owner.rs:130-146): one per mint
   * ever held with a non-zero change, never deleted, so a spent-out mint keeps a 0 row
   * (persist/mod.rs:388-403; spec/DECISIONS.md #35).
   */
  tokenBalancesByOwner(owner: string, order: Order): Sorted<BalanceRow> {
    return this.tokens.balancesByOwner.get(owner, order);
  }

  /**
   * The mint's holders, zero balances included, in `order` (get_compressed_mint_token_holders.rs:54-85, 97-105):
   * amount DESC, owner DESC, which `after({ balance, owner })` pages.
   */
  mintHolders(mint: string, order: Order): Sorted<BalanceRow> {
    return this.tokens.holdersByMint.get(mint, order);
  }

  /** `tokenBalancesByOwner(owner, order).rows`. */
  balances(owner: string, order: Order): readonly BalanceRow[] {
    return this.tokenBalancesByOwner(owner, order).rows;
  }

  /** The index of the first balance row after `mint` in `order`. */
  balancesAfter(owner: string, mint: string, order: Order): number {
    return this.tokenBalancesByOwner(owner, order).after({ mint });
  }

  // ---------------------------------------------------------------- signatures and transactions

  /**
   * Every transaction that opened or closed this account, spent or not, unpaginated
   * (get_compression_signatures_for_account.rs:18-40: none is -32000 "Record Not Found: Account not found").
   */
  signaturesForAccount(hash: string, order: Order): Sorted<SignatureRecord> {
    return this.sigs.byAccount.get(hash, order);
  }

  /** Every transaction touching any account (spent or not) that holds or held this address: getCompressionSignaturesForAddress (utils.rs:430-432). */
  signaturesForAddress(address: string, order: Order): Sorted<SignatureRecord> {
    return this.sigs.byAddress.get(address, order);
  }

  /**
   * Every transaction touching any account (spent or not) owned by this program:
   * getCompressionSignaturesForOwner (`accounts.owner = $1`, utils.rs:433-435 with base table
   * `accounts`, :424-427). Token accounts count only for the token program, their `owner`.
   */
  signaturesForOwner(owner: string, order: Order): Sorted<SignatureRecord> {
    return this.sigs.byOwner.get(owner, order);
  }

  /** Every transaction touching any token account (spent or not) of this token owner: getCompressionSignaturesForTokenOwner (`token_accounts.owner = $1`). */
  signaturesForTokenOwner(owner: string, order: Order): Sorted<SignatureRecord> {
    return this.sigs.byTokenOwner.get(owner, order);
  }

  /**
   * Every transaction in `order`, the list of both getLatest…Signatures methods (utils.rs:511-535,
   * get_latest_non_voting_signatures.rs:18-33): the dataset holds only successful compression transactions.
   */
  latestSignatures(order: Order): Sorted<SignatureRecord> {
    return this.sigs.latest.get("", order);
  }

  /** `signaturesForTokenOwner(owner, order).rows`. */
  signatures(owner: string, order: Order): readonly SignatureRecord[] {
    return this.signaturesForTokenOwner(owner, order).rows;
  }

  /** The index of the first token-owner signature after (slot, signature) in `order`. */
  signaturesAfter(owner: string, slot: bigint, signature: string, order: Order): number {
    return this.signaturesForTokenOwner(owner, order).after({ slot, signature });
  }

  /**
   * A transaction with the accounts it opened and closed, or null (get_transaction_with_compression_info.rs:235-255, 367-394).
   * The account records are current: Photon parses opened accounts from the transaction and reads closed ones (spent).
   */
  transaction(signature: string): TransactionView | null {
    const s = this.sigs.bySignature.get().get(signature);
    if (s === undefined) return null;
    const view = (hash: string): TxAccount => {
      const account = this.lookups.byHash.get(hash);
      if (account === undefined) throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `transaction ${signature} names unknown account ${hash}`);
      return { account, token: this.lookups.tokenByHash.get(hash) ?? null };
    };
    return { signature: s, opened: s.opened.map(view), closed: s.closed.map(view) };
  }

  /** The transaction that opened (created) this account, or null. */
  openedBy(hash: string): SignatureRecord | null {
    return this.sigs.openers.get().opened.get(hash) ?? null;
  }

  /** The transaction that closed (spent) this account, or null. */
  closedBy(hash: string): SignatureRecord | null {
    return this.sigs.openers.get().closed.get(hash) ?? null;
  }

  // ---------------------------------------------------------------- queues of batched trees

  /** The output queue of a StateV2 tree (empty for other trees): getQueueElements `outputQueue`, getQueueInfo output size. */
  outputQueue(tree: string): QueueList<OutputQueueElement> {
    return this.queues.outputs.get().get(tree) ?? NO_QUEUE;
  }

  /** The input (nullifier) queue of a StateV2 tree (empty for other trees): getQueueElements `inputQueue`, getQueueInfo input size. */
  inputQueue(tree: string): QueueList<InputQueueElement> {
    return this.queues.inputs.get().get(tree) ?? NO_QUEUE;
  }

  /** The queue of an address tree (queued addresses; empty for V1 trees): getQueueElements `addressQueue`, getQueueInfo address size. */
  addressQueue(tree: string): QueueList<AddressQueueElement> {
    return this.queues.addresses.get().queues.get(tree) ?? NO_QUEUE;
  }

  /** Every address of an address tree in insertion order, queued or not (the k-th has queue index k). */
  addressesOf(tree: string): readonly AddressRecord[] {
    return this.queues.addresses.get().all.get(tree) ?? [];
  }

  /** The nullifier queue index of a spent account of a StateV2 tree (nullified in the tree or not), or null. */
  nullifierQueueIndex(hash: string): number | null {
    return this.queues.nullifierIndexes.get().get(hash)?.queueIndex ?? null;
  }

  // ---------------------------------------------------------------- a moving dataset

  /**
   * Brings the indexes up to a change `applyChange` wrote: lookups and built groups are updated in place
   * (a sorted list is replaced, never mutated), whole-dataset indexes rebuilt on next use.
   */
  apply(change: Change, touched: Touched): void {
    this.lookups.apply(change, touched);
    const lamports = this.lamports.peek();
    for (const a of change.opened) {
      this.owners.add(a.owner, a);
      if (lamports) lamports.set(a.owner, (lamports.get(a.owner) ?? 0n) + BigInt(a.lamports));
    }
    for (const a of touched.closed) {
      this.owners.remove(a.owner, a);
      if (lamports) lamports.set(a.owner, (lamports.get(a.owner) ?? 0n) - BigInt(a.lamports));
    }
    // An appended account stays in its lists with another item: they are built again (spent ones left them above).
    for (const a of touched.appended) this.owners.touch(a.owner);
    this.tokens.apply(change, touched);
    for (const a of [...touched.appended, ...touched.nullified, ...touched.closed]) {
      for (const cache of this.itemCache.values()) cache.delete(a);
      const entry = this.tokens.entry(a.hash);
      if (entry !== undefined) for (const cache of this.itemCache.values()) cache.delete(entry);
    }
    this.sigs.apply(change.signature);
    this.queues.apply(change, touched);
  }
}
