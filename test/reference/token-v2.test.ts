/**
 * Token lists against the dataset records: token accounts by owner and by delegate (0.50.0 and
 * V2 shapes), token balances by owner (`token_balances` and V2 `items`) and a mint's holders,
 * each walked with limits 1, 7 and the default to exactly the brute-force list in its
 * documented order, plus their cursors and Photon's failures.
 */
import { describe, expect, it } from "vitest";
import type { Schemas } from "../../generated/index.js";
import { createReferenceHandlers } from "../../reference/handlers/index.js";
import type { AccountRecord, Dataset, TokenRecord, TreeType } from "../../reference/records.js";
import { TOKEN_PROGRAM, U64_MAX } from "../../reference/records.js";
import { ReferenceStore } from "../../reference/store.js";
import { type CallContext, encodeBase58, RpcError } from "../../runtime/index.js";
import { byteOrder, bytes, call, callError, dataset, profile } from "./fixture.js";
import { expectWalks, walkAll } from "./paging.js";

const TREE_TYPES: Record<TreeType, number> = { StateV1: 1, AddressV1: 2, StateV2: 3, AddressV2: 4 };
const treeOf = new Map(dataset.trees.map((t) => [t.tree, t]));
const byHash = new Map(dataset.accounts.map((a) => [a.hash, a]));
const isSpent = (t: TokenRecord) => (byHash.get(t.hash) as AccountRecord).spent;
const big = (n: bigint): number | bigint => (n > BigInt(Number.MAX_SAFE_INTEGER) ? n : Number(n));

function accountV1(a: AccountRecord): Schemas["Account"] {
  return {
    hash: a.hash,
    address: a.address,
    data: a.data,
    owner: a.owner,
    lamports: a.lamports,
    tree: a.tree,
    leafIndex: a.leafIndex,
    seq: a.seq,
    slotCreated: a.slotCreated,
  };
}

function accountV2(a: AccountRecord): Schemas["AccountV2"] {
  const tree = treeOf.get(a.tree);
  if (tree === undefined) throw new Error(`no tree record for ${a.tree}`);
  return {
    hash: a.hash,
    address: a.address,
    data: a.data,
    owner: a.owner,
    lamports: a.lamports,
    leafIndex: a.leafIndex,
    seq: a.seq,
    slotCreated: a.slotCreated,
    proveByIndex: a.inOutputQueue,
    merkleContext: { treeType: TREE_TYPES[tree.type], tree: a.tree, queue: tree.queue, cpiContext: null, nextTreeContext: null },
  };
}

const tokenData = (t: TokenRecord): Schemas["TokenData"] => ({
  mint: t.mint,
  owner: t.owner,
  amount: t.amount,
  delegate: t.delegate,
  state: t.state,
  tlv: t.tlv,
});

/** Oracle: the unspent token accounts whose `owner` or `delegate` is `key` (only `mint`'s when given), by (mint bytes, hash bytes). */
function expectedTokens(by: "owner" | "delegate", key: string, mint?: string): TokenRecord[] {
  return dataset.tokens
    .filter((t) => t[by] === key && !isSpent(t) && (mint === undefined || t.mint === mint))
    .sort((a, b) => byteOrder(a.mint, b.mint) || byteOrder(a.hash, b.hash));
}
const v1Items = (list: TokenRecord[]) => list.map((t) => ({ account: accountV1(byHash.get(t.hash) as AccountRecord), tokenData: tokenData(t) }));
const v2Items = (list: TokenRecord[]) => list.map((t) => ({ account: accountV2(byHash.get(t.hash) as AccountRecord), tokenData: tokenData(t) }));

/**
 * Oracle: Photon's `token_owner_balances` rows: one per (owner, mint) that ever had a non-zero
 * change (an account created with a non-zero amount), its balance the sum of the unspent amounts.
 */
function balanceRows(): { owner: string; mint: string; balance: bigint }[] {
  const rows = new Map<string, { owner: string; mint: string; balance: bigint; counted: boolean }>();
  for (const t of dataset.tokens) {
    const key = `${t.owner}/${t.mint}`;
    const row = rows.get(key) ?? { owner: t.owner, mint: t.mint, balance: 0n, counted: false };
    rows.set(key, row);
    if (BigInt(t.amount) !== 0n) row.counted = true;
    if (!isSpent(t)) row.balance += BigInt(t.amount);
  }
  return [...rows.values()].filter((r) => r.counted);
}
const rows = balanceRows();

const expectedBalances = (owner: string) =>
  rows
    .filter((r) => r.owner === owner)
    .sort((a, b) => byteOrder(a.mint, b.mint))
    .map((r) => ({ mint: r.mint, balance: big(r.balance) }));

const expectedHolders = (mint: string) =>
  rows
    .filter((r) => r.mint === mint)
    .sort((a, b) => (a.balance < b.balance ? 1 : a.balance > b.balance ? -1 : byteOrder(b.owner, a.owner)))
    .map((r) => ({ owner: r.owner, balance: big(r.balance) }));

const tokenOwners = () => [
  profile.tokenOwnerWithManyMints.owner,
  profile.tokenOwnerWith1000TokenAccounts.owner,
  profile.tokenOwnerWith1001TokenAccounts.owner,
  profile.tokenOwnerWithOneAccount.owner,
  profile.ownerWithZeroBalance.owner,
  profile.tokenOwnerWithBigAmounts.owner,
  profile.tokenOwnerWithNoAccounts,
];

const delegates = () => {
  const one = profile.tokenOwnerWithOneAccount.hash;
  const delegate = dataset.tokens.find((t) => t.hash === one)?.delegate as string;
  return [profile.delegateWithManyAccounts.delegate, delegate, profile.tokenOwnerWithNoAccounts];
};

const mintsOf = (by: "owner" | "delegate", key: string) => [...new Set(expectedTokens(by, key).map((t) => t.mint))];

describe("token accounts by owner (V1 and V2)", () => {
  it("walk every owner with limits 1, 7 and the default to exactly its unspent accounts by (mint, hash) bytes", () => {
    for (const owner of tokenOwners()) {
      const list = expectedTokens("owner", owner);
      expectWalks("getCompressedTokenAccountsByOwner", { owner }, v1Items(list));
      expectWalks("getCompressedTokenAccountsByOwnerV2", { owner }, v2Items(list));
    }
  });

  it("walk one mint's accounts (the cursor then compares hashes only), and none of an unknown mint", () => {
    const { owner } = profile.tokenOwnerWithManyMints;
    const mints = mintsOf("owner", owner);
    expect(mints.length).toBe(profile.tokenOwnerWithManyMints.mints);
    for (const mint of mints.slice(0, 8)) {
      expectWalks("getCompressedTokenAccountsByOwner", { owner, mint }, v1Items(expectedTokens("owner", owner, mint)));
      expectWalks("getCompressedTokenAccountsByOwnerV2", { owner, mint }, v2Items(expectedTokens("owner", owner, mint)));
    }
    const t1000 = profile.tokenOwnerWith1000TokenAccounts;
    expectWalks("getCompressedTokenAccountsByOwnerV2", { owner: t1000.owner, mint: t1000.mint }, v2Items(expectedTokens("owner", t1000.owner, t1000.mint)));
    expect(walkAll("getCompressedTokenAccountsByOwnerV2", { owner, mint: profile.unknownAddress }, 2).items).toEqual([]);
  });

  it("give V2 the V1 items with the V2 account, and the same cursors", () => {
    const owner = profile.tokenOwnerWith1001TokenAccounts.owner;
    const v1 = call("getCompressedTokenAccountsByOwner", { owner, limit: 5 }).value;
    const v2 = call("getCompressedTokenAccountsByOwnerV2", { owner, limit: 5 }).value;
    expect(v2.cursor).toBe(v1.cursor);
    expect(v2.items.map((i) => i.tokenData)).toEqual(v1.items.map((i) => i.tokenData));
    expect(v2.items.map((i) => [i.account.hash, i.account.merkleContext.tree])).toEqual(v1.items.map((i) => [i.account.hash, i.account.tree]));
    const last = v2.items[4] as Schemas["TokenAccountV2"];
    expect(v2.cursor).toBe(encodeBase58(Uint8Array.from([...bytes(last.tokenData.mint), ...bytes(last.account.hash)])));
    expect(v2.items.every((i) => i.account.owner === TOKEN_PROGRAM && i.tokenData.owner === owner)).toBe(true);
  });

  it("refuse a cursor that does not decode to 64 bytes", () => {
    const owner = profile.tokenOwnerWithManyMints.owner;
    for (const [cursor, n] of [
      [profile.knownHash, 32],
      ["", 0],
    ] as const) {
      const err = callError("getCompressedTokenAccountsByOwnerV2", { owner, cursor });
      expect([err.code, err.message]).toEqual([-32000, `Validation Error: Invalid cursor length. Expected 64. Received ${n}.`]);
    }
  });
});

describe("token accounts by delegate (V1 and V2)", () => {
  it("walk each delegate with limits 1, 7 and the default to exactly its unspent delegated accounts by (mint, hash) bytes", () => {
    const many = profile.delegateWithManyAccounts;
    const list = expectedTokens("delegate", many.delegate);
    expect([list.length, new Set(list.map((t) => t.mint)).size]).toEqual([many.unspent, many.mints]);
    expect(list.length).toBeGreaterThan(1000);
    for (const delegate of delegates()) {
      expectWalks("getCompressedTokenAccountsByDelegate", { delegate }, v1Items(expectedTokens("delegate", delegate)));
      expectWalks("getCompressedTokenAccountsByDelegateV2", { delegate }, v2Items(expectedTokens("delegate", delegate)));
    }
    const first = call("getCompressedTokenAccountsByDelegate", { delegate: many.delegate }).value;
    expect([first.items.length, first.cursor !== null]).toEqual([1000, true]);
  });

  it("walk one mint's delegated accounts, leaving out other delegates' and undelegated ones", () => {
    const { delegate } = profile.delegateWithManyAccounts;
    for (const mint of mintsOf("delegate", delegate)) {
      const list = expectedTokens("delegate", delegate, mint);
      expectWalks("getCompressedTokenAccountsByDelegate", { delegate, mint }, v1Items(list));
      expectWalks("getCompressedTokenAccountsByDelegateV2", { delegate, mint }, v2Items(list));
    }
    const holders = profile.mintWithManyHolders.mint;
    const all = dataset.tokens.filter((t) => t.mint === holders && !isSpent(t));
    const delegated = call("getCompressedTokenAccountsByDelegateV2", { delegate, mint: holders }).value.items;
    expect(delegated.length).toBeLessThan(all.length);
    expect(delegated.every((i) => i.tokenData.delegate === delegate)).toBe(true);
  });

  it("refuse a cursor that does not decode to 64 bytes", () => {
    const { delegate } = profile.delegateWithManyAccounts;
    for (const method of ["getCompressedTokenAccountsByDelegate", "getCompressedTokenAccountsByDelegateV2"] as const) {
      const err = callError(method, { delegate, cursor: encodeBase58(new Uint8Array(63)) });
      expect([err.code, err.message]).toEqual([-32000, "Validation Error: Invalid cursor length. Expected 64. Received 63."]);
    }
  });
});

describe("token balances by owner (token_balances and V2 items)", () => {
  it("walk every owner with limits 1, 7 and the default to its balance rows by mint bytes, zero balances included", () => {
    for (const owner of tokenOwners()) {
      const expected = expectedBalances(owner);
      expectWalks("getCompressedTokenBalancesByOwner", { owner }, expected);
      expectWalks("getCompressedTokenBalancesByOwnerV2", { owner }, expected);
    }
    const zero = profile.ownerWithZeroBalance;
    expect(call("getCompressedTokenBalancesByOwnerV2", { owner: zero.owner }).value.items.find((r) => r.mint === zero.mint)?.balance).toBe(0);
    const bigOwner = profile.tokenOwnerWithBigAmounts;
    const bigRows = call("getCompressedTokenBalancesByOwnerV2", { owner: bigOwner.owner }).value.items;
    expect(bigRows.find((r) => r.mint === bigOwner.maxMint)?.balance).toBe(U64_MAX);
    expect(bigRows.find((r) => r.mint === bigOwner.sumMint)?.balance).toBe(bigOwner.sumBalance);
  });

  it("answer V2 with the V1 rows and cursor under items", () => {
    const owner = profile.tokenOwnerWith1001TokenAccounts.owner;
    for (const limit of [3, undefined]) {
      const v1 = call("getCompressedTokenBalancesByOwner", { owner, limit }).value;
      expect(call("getCompressedTokenBalancesByOwnerV2", { owner, limit }).value).toEqual({ items: v1.token_balances, cursor: v1.cursor });
    }
  });

  it("with a mint answer at most its row, and apply the cursor too, so paging ends (DECISIONS row 34)", () => {
    const { owner, mint } = profile.tokenOwnerWithManyMints;
    const row = expectedBalances(owner).find((r) => r.mint === mint);
    expect(row).toBeDefined();
    for (const method of ["getCompressedTokenBalancesByOwner", "getCompressedTokenBalancesByOwnerV2"] as const) {
      for (const limit of [1, 7, undefined]) expect(walkAll(method, { owner, mint }, limit).items).toEqual([row]);
      const one = call(method, { owner, mint, limit: 1 }).value;
      expect(one.cursor).toBe(mint);
      const after = call(method, { owner, mint, cursor: mint }).value;
      expect(Object.values(after)).toEqual([[], null]);
      const before = call(method, { owner, mint, cursor: encodeBase58(new Uint8Array(32)) }).value;
      expect(Object.values(before)).toEqual([[row], null]);
      expect(call(method, { owner, mint: profile.unknownAddress }).value).toEqual(
        Object.fromEntries(Object.keys(before).map((k, i) => [k, i === 0 ? [] : null])),
      );
    }
  });

  it("refuse a cursor that does not decode to 32 bytes", () => {
    const err = callError("getCompressedTokenBalancesByOwnerV2", { owner: profile.tokenOwnerWithManyMints.owner, cursor: encodeBase58(new Uint8Array(64)) });
    expect([err.code, err.message]).toEqual([-32000, "Validation Error: Invalid cursor length. Expected 32. Received 64."]);
  });
});

describe("getCompressedMintTokenHolders", () => {
  it("walks the mint with many holders by balance desc, owner bytes desc, zero balances last", () => {
    const many = profile.mintWithManyHolders;
    const expected = expectedHolders(many.mint);
    expect(expected.length).toBe(many.holders);
    expect(expected.length).toBeGreaterThan(1000);
    expectWalks("getCompressedMintTokenHolders", { mint: many.mint }, expected);
    expect(expected[0]).toEqual({ owner: many.topHolder.owner, balance: many.topHolder.balance });
    expect(expected.slice(-many.zeroBalanceHolders).every((h) => h.balance === 0)).toBe(true);
    const ties = expected.filter((h, i) => expected[i - 1]?.balance === h.balance || expected[i + 1]?.balance === h.balance);
    expect(ties.length).toBeGreaterThanOrEqual(many.tiedHolders);
  });

  it("walks other mints, including one whose holder has u64::MAX, and none for an unknown mint", () => {
    const bigOwner = profile.tokenOwnerWithBigAmounts;
    for (const mint of [
      profile.tokenOwnerWithManyMints.mint,
      profile.tokenOwnerWith1000TokenAccounts.mint,
      bigOwner.maxMint,
      bigOwner.sumMint,
      profile.ownerWithZeroBalance.mint,
    ])
      expectWalks("getCompressedMintTokenHolders", { mint }, expectedHolders(mint));
    expect(expectedHolders(bigOwner.maxMint)[0]).toEqual({ owner: bigOwner.owner, balance: U64_MAX });
    expect(call("getCompressedMintTokenHolders", { mint: profile.unknownAddress }).value).toEqual({ items: [], cursor: null });
  });

  it("encodes the cursor as base58(balance u64 LE ‖ owner) and pages after it", () => {
    const { mint } = profile.mintWithManyHolders;
    const page = call("getCompressedMintTokenHolders", { mint, limit: 3 }).value;
    const last = page.items[2] as Schemas["OwnerBalance"];
    const balance = Buffer.alloc(8);
    balance.writeBigUInt64LE(BigInt(last.balance));
    expect(page.cursor).toBe(encodeBase58(Uint8Array.from([...balance, ...bytes(last.owner)])));
    // A cursor made by hand: every holder below balance 2·10^6, or at it with a smaller owner.
    const at = Buffer.alloc(8);
    at.writeBigUInt64LE(2_000_000n);
    const owner = new Uint8Array(32).fill(0xff);
    const after = walkAll("getCompressedMintTokenHolders", { mint, cursor: encodeBase58(Uint8Array.from([...at, ...owner])) }, 50).items;
    expect(after).toEqual(expectedHolders(mint).filter((h) => BigInt(h.balance) <= 2_000_000n));
    const maxMint = profile.tokenOwnerWithBigAmounts.maxMint;
    const top = call("getCompressedMintTokenHolders", { mint: maxMint, limit: 1 }).value;
    expect(bytes(top.cursor as string).readBigUInt64LE(0)).toBe(U64_MAX);
  });

  it("refuses a cursor that does not decode to 40 bytes", () => {
    for (const n of [0, 32, 72]) {
      const err = callError("getCompressedMintTokenHolders", { mint: profile.mintWithManyHolders.mint, cursor: encodeBase58(new Uint8Array(n)) });
      expect([err.code, err.message]).toEqual([-32000, `Validation Error: Invalid cursor length. Expected 40. Received ${n}.`]);
    }
  });
});

describe("a balance above u64::MAX", () => {
  it("fails the page that holds it with -32000 Internal server error, as Photon's parse_decimal does", () => {
    // Two unspent token accounts of one owner and mint, each with u64::MAX: the row sums to 2·(2^64 - 1).
    const template = dataset.tokens.find((t) => !isSpent(t)) as TokenRecord;
    const accounts = dataset.accounts.filter((a) => !a.spent && a.owner === TOKEN_PROGRAM).slice(0, 3);
    const [a, b, c] = accounts as [AccountRecord, AccountRecord, AccountRecord];
    const owner = profile.tokenOwnerWithNoAccounts;
    const otherMint = profile.unknownAddress;
    const tokens: TokenRecord[] = [
      { ...template, hash: a.hash, owner, amount: U64_MAX },
      { ...template, hash: b.hash, owner, amount: U64_MAX },
      { ...template, hash: c.hash, owner, mint: otherMint, amount: 5 },
    ];
    const tiny: Dataset = { ...dataset, accounts, tokens, signatures: [], addresses: [] };
    const handlers = createReferenceHandlers(new ReferenceStore(tiny)) as unknown as Record<string, (p: unknown, c: CallContext) => unknown>;
    const fail = (method: string, params: unknown) => {
      try {
        handlers[method]?.(params, {} as CallContext);
      } catch (err) {
        return err instanceof RpcError ? [err.code, err.message] : err;
      }
      return "no error";
    };
    const internal = [-32000, "Internal server error"];
    expect(fail("getCompressedTokenBalancesByOwner", { owner })).toEqual(internal);
    expect(fail("getCompressedTokenBalancesByOwnerV2", { owner })).toEqual(internal);
    expect(fail("getCompressedMintTokenHolders", { mint: template.mint })).toEqual(internal);
    // A page without that row is fine.
    const other = handlers.getCompressedMintTokenHolders?.({ mint: otherMint }, {} as CallContext) as { value: unknown };
    expect(other.value).toEqual({ items: [{ owner, balance: 5 }], cursor: null });
  });
});
