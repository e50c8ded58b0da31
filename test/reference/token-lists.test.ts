import { describe, expect, it } from "vitest";
import type { Schemas } from "../../generated/index.js";
import { TOKEN_PROGRAM, U64_MAX } from "../../reference/records.js";
import { decodeBase58, encodeBase58 } from "../../runtime/index.js";
import { byteOrder, bytes, call, callError, dataset, profile, walk, wire } from "./fixture.js";
import { expectedBalanceRows, expectedBalances as balancesOf } from "./oracles.js";

const spent = new Set(dataset.accounts.filter((a) => a.spent).map((a) => a.hash));
const accountByHash = new Map(dataset.accounts.map((a) => [a.hash, a]));

/** Oracle: unspent token accounts of a token owner by (mint bytes, hash bytes). */
function expectedTokenAccounts(owner: string, mint?: string): Schemas["TokenAccount"][] {
  return dataset.tokens
    .filter((t) => t.owner === owner && !spent.has(t.hash) && (mint === undefined || t.mint === mint))
    .sort((a, b) => byteOrder(a.mint, b.mint) || byteOrder(a.hash, b.hash))
    .map((t) => ({
      account: wire(accountByHash.get(t.hash)!),
      tokenData: { mint: t.mint, owner: t.owner, amount: t.amount, delegate: t.delegate, state: t.state, tlv: t.tlv },
    }));
}

/** Oracle: the owner's balance rows under Photon's zero-balance rule (oracles.ts), by mint bytes. */
const expectedBalances = (owner: string): Schemas["TokenBalance"][] => balancesOf(dataset, owner);

/** Oracle: distinct signatures touching the owner's token accounts, by slot desc, signature bytes desc. */
function expectedSignatures(owner: string): Schemas["SignatureInfo"][] {
  const mine = new Set(dataset.tokens.filter((t) => t.owner === owner).map((t) => t.hash));
  return dataset.signatures
    .filter((s) => [...s.opened, ...s.closed].some((h) => mine.has(h)))
    .sort((a, b) => b.slot - a.slot || byteOrder(b.signature, a.signature))
    .map((s) => ({ signature: s.signature, slot: s.slot, blockTime: s.blockTime }));
}

const tokenOwners = () => [
  profile.tokenOwnerWithManyMints.owner,
  profile.tokenOwnerWith1000TokenAccounts.owner,
  profile.tokenOwnerWith1001TokenAccounts.owner,
  profile.tokenOwnerWithOneAccount.owner,
  profile.ownerWithZeroBalance.owner,
  profile.tokenOwnerWithBigAmounts.owner,
  profile.tokenOwnerWithNoAccounts,
];

describe("getCompressedTokenAccountsByOwner", () => {
  it("lists a token owner's unspent accounts by (mint, hash) bytes with full token data", () => {
    const owner = profile.tokenOwnerWithManyMints.owner;
    const items = call("getCompressedTokenAccountsByOwner", { owner }).value.items;
    expect(items).toEqual(expectedTokenAccounts(owner));
    expect(items.every((i) => i.account.owner === TOKEN_PROGRAM && i.tokenData.owner === owner)).toBe(true);
    expect(new Set(items.map((i) => i.tokenData.mint)).size).toBe(profile.tokenOwnerWithManyMints.mints);
    const one = call("getCompressedTokenAccountsByOwner", { owner: profile.tokenOwnerWithOneAccount.owner }).value.items;
    expect(one[0]?.tokenData).toMatchObject({ state: "frozen" });
    expect(one[0]?.tokenData.delegate).not.toBeNull();
    expect(one[0]?.tokenData.tlv).not.toBeNull();
  });

  it("encodes the cursor as base58(mint ‖ hash) of the last item", () => {
    const owner = profile.tokenOwnerWithManyMints.owner;
    const { items, cursor } = call("getCompressedTokenAccountsByOwner", { owner, limit: 3 }).value;
    const last = items[2]!;
    expect(cursor).toBe(encodeBase58(Uint8Array.from([...bytes(last.tokenData.mint), ...bytes(last.account.hash)])));
  });

  it("pages 1000 and 1001 accounts at the default limit, with and without a mint", () => {
    const t1000 = profile.tokenOwnerWith1000TokenAccounts;
    for (const params of [{ owner: t1000.owner }, { owner: t1000.owner, mint: t1000.mint }]) {
      const first = call("getCompressedTokenAccountsByOwner", params).value;
      expect(first.items).toHaveLength(1000);
      expect(call("getCompressedTokenAccountsByOwner", { ...params, cursor: first.cursor }).value).toEqual({ items: [], cursor: null });
    }
    const owner = profile.tokenOwnerWith1001TokenAccounts.owner;
    const first = call("getCompressedTokenAccountsByOwner", { owner }).value;
    const second = call("getCompressedTokenAccountsByOwner", { owner, cursor: first.cursor }).value;
    expect([first.items.length, second.items.length, second.cursor]).toEqual([1000, 1, null]);
  });

  it("walks with limits 1, 2 and 7, with and without a mint filter", () => {
    const { owner, mint } = profile.tokenOwnerWithManyMints;
    for (const o of tokenOwners()) {
      for (const limit of [1, 2, 7]) expect(walk("getCompressedTokenAccountsByOwner", { owner: o }, limit).items).toEqual(expectedTokenAccounts(o));
    }
    const ofMint = expectedTokenAccounts(owner, mint);
    expect(ofMint.length).toBeGreaterThan(1);
    for (const limit of [1, 2, 7]) expect(walk("getCompressedTokenAccountsByOwner", { owner, mint }, limit).items).toEqual(ofMint);
    expect(walk("getCompressedTokenAccountsByOwner", { owner, mint: profile.unknownAddress }, 2).items).toEqual([]);
  });

  it("answers limit 0 with an empty page and rejects a cursor that is not 64 bytes", () => {
    const owner = profile.tokenOwnerWithManyMints.owner;
    expect(call("getCompressedTokenAccountsByOwner", { owner, limit: 0 }).value).toEqual({ items: [], cursor: null });
    for (const [cursor, n] of [
      [profile.knownHash, 32],
      ["", 0],
    ] as const) {
      const err = callError("getCompressedTokenAccountsByOwner", { owner, cursor });
      expect([err.code, err.message]).toEqual([-32000, `Validation Error: Invalid cursor length. Expected 64. Received ${n}.`]);
    }
  });
});

describe("getCompressedTokenBalancesByOwner", () => {
  it("lists one row per mint that ever had a non-zero amount (0 once spent; none for zero amounts only), u64 sums exact", () => {
    for (const owner of tokenOwners()) expect(walk("getCompressedTokenBalancesByOwner", { owner }).items).toEqual(expectedBalances(owner));
    const zero = profile.ownerWithZeroBalance;
    const rows = call("getCompressedTokenBalancesByOwner", { owner: zero.owner }).value.token_balances;
    expect(rows.find((r) => r.mint === zero.mint)?.balance).toBe(0);
    expect(rows.some((r) => r.mint === zero.zeroAmountMint)).toBe(false);
    expect(rows).toHaveLength(zero.balances);
    // The zero-amount mint is held (an unspent account of amount 0), just without a row.
    expect(expectedTokenAccounts(zero.owner, zero.zeroAmountMint).map((t) => t.tokenData.amount)).toEqual([0]);
    expect(call("getCompressedTokenBalancesByOwner", { owner: zero.owner, mint: zero.zeroAmountMint }).value).toEqual({ token_balances: [], cursor: null });
    // Somewhere in the dataset, generic owners have zero-amount-only mints too, and rows of 0 after spending.
    const rowKeys = new Set(expectedBalanceRows(dataset).map((r) => `${r.owner} ${r.mint}`));
    expect(dataset.tokens.some((t) => !rowKeys.has(`${t.owner} ${t.mint}`))).toBe(true);
    expect(expectedBalanceRows(dataset).filter((r) => r.balance === 0n).length).toBeGreaterThan(1);
    const big = profile.tokenOwnerWithBigAmounts;
    const bigRows = call("getCompressedTokenBalancesByOwner", { owner: big.owner }).value.token_balances;
    expect(bigRows.find((r) => r.mint === big.maxMint)?.balance).toBe(U64_MAX);
    expect(bigRows.find((r) => r.mint === big.sumMint)?.balance).toBe(2n ** 60n + 2n ** 53n + 1n);
  });

  it("pages 1001 mints at the default limit; the cursor is the last mint", () => {
    const { owner, mints } = profile.tokenOwnerWith1001TokenAccounts;
    expect(expectedBalances(owner)).toHaveLength(mints);
    expect(mints).toBe(1001);
    const first = call("getCompressedTokenBalancesByOwner", { owner }).value;
    expect(first.token_balances).toHaveLength(1000);
    expect(first.cursor).toBe(first.token_balances[999]?.mint);
    const second = call("getCompressedTokenBalancesByOwner", { owner, cursor: first.cursor }).value;
    expect([second.token_balances.length, second.cursor]).toEqual([1, null]);
  });

  it("walks with limits 1, 2 and 7", () => {
    for (const owner of tokenOwners()) {
      for (const limit of [1, 2, 7]) expect(walk("getCompressedTokenBalancesByOwner", { owner }, limit).items).toEqual(expectedBalances(owner));
    }
  });

  it("applies the cursor with a mint filter too, so paging ends (Photon's bug not copied)", () => {
    const { owner, mint } = profile.tokenOwnerWithManyMints;
    const first = call("getCompressedTokenBalancesByOwner", { owner, mint, limit: 1 }).value;
    expect(first.token_balances.map((r) => r.mint)).toEqual([mint]);
    expect(first.cursor).toBe(mint);
    expect(call("getCompressedTokenBalancesByOwner", { owner, mint, limit: 1, cursor: first.cursor }).value).toEqual({ token_balances: [], cursor: null });
    expect(walk("getCompressedTokenBalancesByOwner", { owner, mint }, 1)).toEqual({ items: first.token_balances, pages: 2 });
    expect(call("getCompressedTokenBalancesByOwner", { owner, mint }).value.cursor).toBeNull();
    expect(call("getCompressedTokenBalancesByOwner", { owner, mint: profile.unknownAddress }).value.token_balances).toEqual([]);
  });

  it("answers limit 0 with an empty page and rejects a cursor that is not 32 bytes", () => {
    const owner = profile.tokenOwnerWithManyMints.owner;
    expect(call("getCompressedTokenBalancesByOwner", { owner, limit: 0 }).value).toEqual({ token_balances: [], cursor: null });
    const cursor = encodeBase58(new Uint8Array(64).fill(7));
    const err = callError("getCompressedTokenBalancesByOwner", { owner, cursor });
    expect([err.code, err.message]).toEqual([-32000, "Validation Error: Invalid cursor length. Expected 32. Received 64."]);
  });
});

describe("getCompressionSignaturesForTokenOwner", () => {
  it("lists distinct signatures of the full history, newest first, same-slot ties by signature bytes", () => {
    const t1000 = profile.tokenOwnerWith1000TokenAccounts;
    const all = walk("getCompressionSignaturesForTokenOwner", { owner: t1000.owner }).items as Schemas["SignatureInfo"][];
    expect(all).toEqual(expectedSignatures(t1000.owner));
    expect(all).toHaveLength(t1000.signatures);
    expect(new Set(all.map((s) => s.signature)).size).toBe(all.length);
    const top = all.slice(0, t1000.sharedSlotSignatures);
    expect(new Set(top.map((s) => s.slot)).size).toBe(1);
  });

  it("encodes the cursor as base58(slot u64 LE ‖ signature) and pages 1001 as 1000 + 1", () => {
    const owner = profile.tokenOwnerWith1001TokenAccounts.owner;
    const first = call("getCompressionSignaturesForTokenOwner", { owner }).value;
    expect(first.items).toHaveLength(1000);
    const cursor = Buffer.from(decodeBase58(first.cursor as string) as Uint8Array);
    expect(cursor).toHaveLength(72);
    const last = first.items[999]!;
    expect(cursor.readBigUInt64LE(0)).toBe(BigInt(last.slot));
    expect(encodeBase58(cursor.subarray(8))).toBe(last.signature);
    const second = call("getCompressionSignaturesForTokenOwner", { owner, cursor: first.cursor }).value;
    expect([second.items.length, second.cursor]).toEqual([profile.tokenOwnerWith1001TokenAccounts.signatures - 1000, null]);
  });

  it("walks with limits 1, 2 and 7", () => {
    for (const owner of tokenOwners()) {
      for (const limit of [1, 2, 7]) expect(walk("getCompressionSignaturesForTokenOwner", { owner }, limit).items).toEqual(expectedSignatures(owner));
    }
  });

  it("answers limit 0 with an empty page and rejects malformed cursors with the real messages", () => {
    const owner = profile.tokenOwnerWithManyMints.owner;
    expect(call("getCompressionSignaturesForTokenOwner", { owner, limit: 0 }).value).toEqual({ items: [], cursor: null });
    const bad = callError("getCompressionSignaturesForTokenOwner", { owner, cursor: "0OIl" });
    expect([bad.code, bad.message]).toEqual([-32000, "Validation Error: Invalid cursor 0OIl"]);
    const short = callError("getCompressionSignaturesForTokenOwner", { owner, cursor: encodeBase58(new Uint8Array(64).fill(1)) });
    expect([short.code, short.message]).toEqual([-32000, "Validation Error: Invalid cursor length. Expected 72. Received 64."]);
  });

  it("accepts a cursor beyond any slot (u64::MAX) and one before every slot", () => {
    const owner = profile.tokenOwnerWithManyMints.owner;
    const max = Buffer.alloc(72, 0xff);
    expect(call("getCompressionSignaturesForTokenOwner", { owner, cursor: encodeBase58(max) }).value.items).toEqual(expectedSignatures(owner));
    expect(call("getCompressionSignaturesForTokenOwner", { owner, cursor: encodeBase58(new Uint8Array(72)) }).value).toEqual({ items: [], cursor: null });
  });
});
