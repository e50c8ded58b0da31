/**
 * The reference indexer's in-memory store: a Dataset plus the indexes that make every
 * page O(log n + limit). Lists hold unspent records only (the signature history is the
 * exception), presorted in each method's documented order; base58 values are ordered
 * by their decoded bytes (`compareBase58`), and cursors are found by binary search.
 */
import { compareBase58 } from "./base58.js";
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

/** Order of getCompressedAccountsByOwner: leafIndex, then hash bytes. */
export function compareAccounts(a: AccountRecord, b: AccountRecord): number {
  return a.leafIndex - b.leafIndex || compareBase58(a.hash, b.hash);
}

/** Order of getCompressedTokenAccountsByOwner: mint bytes, then account hash bytes. */
function compareTokenEntries(a: TokenEntry, b: TokenEntry): number {
  return compareBase58(a.token.mint, b.token.mint) || compareBase58(a.account.hash, b.account.hash);
}

/** Order of getCompressionSignaturesForTokenOwner: slot desc, then signature bytes desc. */
function compareSignaturesNewestFirst(a: SignatureRecord, b: SignatureRecord): number {
  return b.slot - a.slot || compareBase58(b.signature, a.signature);
}

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
      if (this.byHash.set(a.hash, a).size === size) throw new Error(`duplicate account hash ${a.hash}`);
      if (a.spent) continue;
      if (a.address !== null) {
        const held = this.byAddress.size;
        if (this.byAddress.set(a.address, a).size === held) throw new Error(`address ${a.address} is held by two unspent accounts`);
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
      if (account === undefined) throw new Error(`token record for unknown account ${t.hash}`);
      const size = this.tokenByHash.size;
      if (this.tokenByHash.set(t.hash, t).size === size) throw new Error(`two token records for account ${t.hash}`);
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
      const balances = [...perMint].map(([mint, balance]) => ({ mint, balance })).sort((a, b) => compareBase58(a.mint, b.mint));
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
          ? (e: TokenEntry) => (compareBase58(e.token.mint, cursor.mint) || compareBase58(e.account.hash, cursor.hash)) > 0
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
    return firstIndex(this.balances(owner), (row) => compareBase58(row.mint, mint) > 0);
  }

  /** Distinct signatures of the owner's token accounts, newest first (slot desc, signature bytes desc). */
  signatures(owner: string): readonly SignatureRecord[] {
    return this.tokens(owner).signatures;
  }

  /** The index of the first signature after (slot, signature) in newest-first order. */
  signaturesAfter(owner: string, slot: bigint, signature: string): number {
    const s = slot > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(slot);
    return firstIndex(this.signatures(owner), (r) => r.slot < s || (r.slot === s && compareBase58(r.signature, signature) < 0));
  }

  private tokens(owner: string): TokenOwnerIndex {
    return this.byTokenOwner.get(owner) ?? EMPTY_TOKENS;
  }
}
