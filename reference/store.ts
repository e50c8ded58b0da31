/**
 * The reference indexer's in-memory store: a Dataset plus the indexes that make every
 * page O(log n + limit). Lists hold unspent records only (the signature history is the
 * exception), presorted in each method's documented order; base58 values are ordered
 * by their decoded bytes (`compareBase58`), and cursors are found by binary search.
 */
import type { PaginatedMethodName } from "../generated/index.js";
import { methods } from "../generated/methods.js";
import { internalError, type OrderKey } from "@photon-indexer-kit/runtime";
import { compareBase58 } from "./base58.js";
import { RefErrorCode, ReferenceIndexerError } from "./errors.js";
import type { AccountRecord, Dataset, SignatureRecord, TokenRecord } from "./records.js";

export interface TokenEntry {
  readonly account: AccountRecord;
  readonly token: TokenRecord;
}

export interface BalanceRow {
  readonly mint: string;
  /** Sum of the unspent amounts; 0 when every account of the mint is spent. */
  readonly balance: bigint;
}

interface TokenOwnerIndex {
  /** Unspent token accounts by (mint bytes, hash bytes). */
  readonly entries: TokenEntry[];
  /** Where each mint's entries sit in `entries`: [start, end). */
  readonly mintRanges: Map<string, readonly [number, number]>;
  /** One row per mint the owner ever held, by mint bytes. */
  readonly balances: BalanceRow[];
  /** Distinct signatures touching the owner's token accounts (spent included), by slot desc, signature bytes desc. */
  readonly signatures: SignatureRecord[];
}

/** The first index in [lo, hi) at which `after(item)` holds, for a predicate that is false then true. */
export function firstIndex<T>(items: readonly T[], after: (item: T) => boolean, lo = 0, hi = items.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (after(items[mid] as T)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The documented order of a paginated method (its `x-pagination.order` in the method table). */
function orderOf(method: PaginatedMethodName): readonly OrderKey[] {
  const order = methods[method].pagination?.order;
  if (!order) throw internalError(RefErrorCode.INTERNAL, `the spec states no order for ${method}`);
  return order;
}

/**
 * A comparator of records in a documented order. Order keys are item paths; `rename` maps an
 * item field to the record's (a token entry keeps `tokenData` as `token`). Base58 values are
 * compared as their bytes (`compareBase58`: the spec's values of one field have one length).
 */
export function orderComparator<T>(order: readonly OrderKey[], rename: Readonly<Record<string, string>> = {}): (a: T, b: T) => number {
  const keys = order.map((key) => {
    const parts = key.field.split(".").map((p, i) => (i === 0 ? (rename[p] ?? p) : p));
    const get = (r: T): unknown => parts.reduce<unknown>((node, p) => (node as Record<string, unknown>)[p], r);
    const sign = key.direction === "asc" ? 1 : -1;
    const compare =
      key.compare === "integer"
        ? (x: unknown, y: unknown) =>
            typeof x === "number" && typeof y === "number"
              ? x - y
              : BigInt(x as number) < BigInt(y as number)
                ? -1
                : BigInt(x as number) > BigInt(y as number)
                  ? 1
                  : 0
        : key.compare === "base58-bytes"
          ? (x: unknown, y: unknown) => compareBase58(x as string, y as string)
          : (x: unknown, y: unknown) => (String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0);
    return { get, sign, compare };
  });
  return (a, b) => {
    for (const k of keys) {
      const c = k.compare(k.get(a), k.get(b));
      if (c !== 0) return k.sign * c;
    }
    return 0;
  };
}

/** Order of the accounts-by-owner list (leafIndex, then hash bytes, as the spec documents). */
export const compareAccounts = orderComparator<AccountRecord>(orderOf("getCompressedAccountsByOwner"));

/** Order of the token-accounts list (mint bytes, then account hash bytes). */
const compareTokenEntries = orderComparator<Pick<TokenEntry, "account" | "token">>(orderOf("getCompressedTokenAccountsByOwner"), { tokenData: "token" });

/** Order of the balances list (mint bytes). */
const compareBalances = orderComparator<Pick<BalanceRow, "mint">>(orderOf("getCompressedTokenBalancesByOwner"));

/** Order of the signatures list (slot desc, then signature bytes desc: newest first). */
const compareSignaturesNewestFirst = orderComparator<Pick<SignatureRecord, "slot" | "signature">>(orderOf("getCompressionSignaturesForTokenOwner"));

/**
 * An owner's account data bytes, decoded once, in ownerAccounts(owner) order: account i's
 * bytes are `bytes[start[i], start[i + 1])`, and `hasData[i]` is 0 where its data is null.
 * memcmp filters compare in place here instead of decoding base64 per account and call.
 */
export interface OwnerData {
  readonly bytes: Buffer;
  readonly start: Int32Array;
  readonly hasData: Uint8Array;
}

const EMPTY_TOKENS: TokenOwnerIndex = { entries: [], mintRanges: new Map(), balances: [], signatures: [] };

export class ReferenceStore {
  /** context.slot of every result and the getIndexerSlot value. */
  readonly slot: number;
  private readonly byHash = new Map<string, AccountRecord>();
  private readonly byAddress = new Map<string, AccountRecord>();
  private readonly byOwner = new Map<string, AccountRecord[]>();
  private readonly tokenByHash = new Map<string, TokenRecord>();
  private readonly byTokenOwner = new Map<string, TokenOwnerIndex>();
  /** Built on an owner's first filtered call (memory: its data bytes plus 5 bytes an account). */
  private readonly dataByOwner = new Map<string, OwnerData>();

  constructor(dataset: Dataset) {
    this.slot = dataset.slot;
    // Duplicates are detected by a map that does not grow (one lookup per insert).
    for (const a of dataset.accounts) {
      const size = this.byHash.size;
      if (this.byHash.set(a.hash, a).size === size) throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `duplicate account hash ${a.hash}`);
      if (a.spent) continue;
      if (a.address !== null) {
        const held = this.byAddress.size;
        if (this.byAddress.set(a.address, a).size === held)
          throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `address ${a.address} is held by two unspent accounts`);
      }
      const list = this.byOwner.get(a.owner);
      if (list === undefined) this.byOwner.set(a.owner, [a]);
      else list.push(a);
    }
    for (const list of this.byOwner.values()) list.sort(compareAccounts);
    this.indexTokens(dataset.tokens, dataset.signatures);
  }

  private indexTokens(tokens: readonly TokenRecord[], signatures: readonly SignatureRecord[]): void {
    const entries = new Map<string, TokenEntry[]>();
    const sums = new Map<string, Map<string, bigint>>();
    for (const t of tokens) {
      const account = this.byHash.get(t.hash);
      if (account === undefined) throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `token record for unknown account ${t.hash}`);
      const size = this.tokenByHash.size;
      if (this.tokenByHash.set(t.hash, t).size === size)
        throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `two token records for account ${t.hash}`);
      let perMint = sums.get(t.owner);
      if (perMint === undefined) sums.set(t.owner, (perMint = new Map()));
      perMint.set(t.mint, (perMint.get(t.mint) ?? 0n) + (account.spent ? 0n : BigInt(t.amount)));
      if (account.spent) continue;
      const list = entries.get(t.owner);
      if (list === undefined) entries.set(t.owner, [{ account, token: t }]);
      else list.push({ account, token: t });
    }
    const history = new Map<string, SignatureRecord[]>();
    for (const s of signatures) {
      let seen: string | undefined;
      for (const hash of s.accounts) {
        const owner = this.tokenByHash.get(hash)?.owner;
        if (owner === undefined || owner === seen) continue;
        const list = history.get(owner);
        if (list === undefined) history.set(owner, [s]);
        else if (list[list.length - 1] !== s) list.push(s);
        seen = owner;
      }
    }
    for (const [owner, perMint] of sums) {
      const list = (entries.get(owner) ?? []).sort(compareTokenEntries);
      const mintRanges = new Map<string, readonly [number, number]>();
      for (let i = 0; i < list.length; ) {
        const mint = (list[i] as TokenEntry).token.mint;
        let j = i + 1;
        while (j < list.length && (list[j] as TokenEntry).token.mint === mint) j++;
        mintRanges.set(mint, [i, j]);
        i = j;
      }
      const balances = [...perMint].map(([mint, balance]) => ({ mint, balance })).sort(compareBalances);
      const sigs = (history.get(owner) ?? []).sort(compareSignaturesNewestFirst);
      this.byTokenOwner.set(owner, { entries: list, mintRanges, balances, signatures: sigs });
    }
  }

  /** Any account by hash, spent or not. */
  account(hash: string): AccountRecord | undefined {
    return this.byHash.get(hash);
  }

  /** The unspent account with this hash, or null. */
  unspentByHash(hash: string): AccountRecord | null {
    const a = this.byHash.get(hash);
    return a === undefined || a.spent ? null : a;
  }

  /** The unspent account holding this address, or null. */
  unspentByAddress(address: string): AccountRecord | null {
    return this.byAddress.get(address) ?? null;
  }

  /** The token fields of an account, if it is a token account. */
  token(hash: string): TokenRecord | undefined {
    return this.tokenByHash.get(hash);
  }

  /** The owner's unspent accounts in (leafIndex, hash bytes) order. */
  ownerAccounts(owner: string): readonly AccountRecord[] {
    return this.byOwner.get(owner) ?? [];
  }

  /** The owner's data bytes for memcmp, decoded on first use and kept (the dataset never changes). */
  ownerData(owner: string): OwnerData {
    let packed = this.dataByOwner.get(owner);
    if (packed !== undefined) return packed;
    const list = this.ownerAccounts(owner);
    const parts: Buffer[] = [];
    const start = new Int32Array(list.length + 1);
    const hasData = new Uint8Array(list.length);
    let at = 0;
    for (let i = 0; i < list.length; i++) {
      const data = (list[i] as AccountRecord).data;
      start[i] = at;
      if (data === null) continue;
      const bytes = Buffer.from(data.data, "base64");
      hasData[i] = 1;
      parts.push(bytes);
      at += bytes.length;
    }
    start[list.length] = at;
    packed = { bytes: Buffer.concat(parts, at), start, hasData };
    this.dataByOwner.set(owner, packed);
    return packed;
  }

  /** The index of account `hash` in ownerAccounts(owner), or -1 when it is not an unspent account of that owner. */
  ownerPosition(owner: string, hash: string): number {
    const a = this.byHash.get(hash);
    if (a === undefined || a.spent || a.owner !== owner) return -1;
    const list = this.ownerAccounts(owner);
    return firstIndex(list, (b) => compareAccounts(b, a) >= 0);
  }

  /** The token owner's unspent token accounts in (mint bytes, hash bytes) order. */
  tokenAccounts(owner: string): readonly TokenEntry[] {
    return this.tokens(owner).entries;
  }

  /**
   * The slice [start, end) of tokenAccounts(owner) that a page reads from: only `mint`'s
   * accounts when it is given, and only those after `cursor`: (mint, hash) > cursor
   * without `mint`, hash > cursor.hash with it (the documented rules).
   */
  tokenAccountRange(owner: string, mint: string | null, cursor: { mint: string; hash: string } | null): [number, number] {
    const index = this.tokens(owner);
    let [start, end] = mint === null ? [0, index.entries.length] : (index.mintRanges.get(mint) ?? [0, 0]);
    if (cursor !== null) {
      const after =
        mint === null
          ? (e: TokenEntry) => compareTokenEntries(e, { token: { mint: cursor.mint } as TokenRecord, account: { hash: cursor.hash } as AccountRecord }) > 0
          : (e: TokenEntry) => compareBase58(e.account.hash, cursor.hash) > 0;
      start = firstIndex(index.entries, after, start, end);
    }
    return [start, end];
  }

  /** One row per mint the owner ever held (zero balances included), by mint bytes. */
  balances(owner: string): readonly BalanceRow[] {
    return this.tokens(owner).balances;
  }

  /** The index of the first balance row whose mint is after `mint` in byte order. */
  balancesAfter(owner: string, mint: string): number {
    return firstIndex(this.balances(owner), (row) => compareBalances(row, { mint }) > 0);
  }

  /** Distinct signatures of the owner's token accounts, newest first (slot desc, signature bytes desc). */
  signatures(owner: string): readonly SignatureRecord[] {
    return this.tokens(owner).signatures;
  }

  /** The index of the first signature after (slot, signature) in newest-first order. */
  signaturesAfter(owner: string, slot: bigint, signature: string): number {
    const s = slot > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(slot);
    return firstIndex(this.signatures(owner), (r) => compareSignaturesNewestFirst(r, { slot: s, signature }) > 0);
  }

  private tokens(owner: string): TokenOwnerIndex {
    return this.byTokenOwner.get(owner) ?? EMPTY_TOKENS;
  }
}
