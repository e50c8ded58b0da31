/**
 * Token-owner roles (the `owner` of token methods). Balance rows follow Photon's zero-balance rule (roles/balances.ts;
 * photon HEAD:src/ingester/persist/mod.rs:387-403): a mint whose accounts were all created with amount 0 has no row,
 * one whose accounts were all spent keeps a row of 0. Random amounts are 0 one time in ten; these roles fix what their rows need.
 */
import { TOKEN_PROGRAM, U64_MAX } from "../records.js";
import type { U64 } from "../records.js";
import { addToCell, type BalanceCell, balanceRows } from "./balances.js";
import { expect, type RoleRecords, transactionOf } from "./facts.js";
import { type Key, roleKey } from "./keys.js";
import { type RoleEntry, repeat, token } from "./plan.js";

export const TOKEN_ROLES = {
  /** 40 mints, 1–3 unspent accounts each (the first of a non-zero amount, so each mint has a balance row), plus a spent one for every fifth mint. */
  manyMints: 40,
  /** 1000 unspent accounts of one mint, 10 spent ones (spent in the dataset's last slot). */
  with1000: { unspent: 1000, spent: 10 },
  /** 1001 unspent accounts, each of its own mint and of a non-zero amount (so 1001 balance rows too). */
  with1001: 1001,
} as const;

/**
 * The token owner for the zero-balance rule: its accounts of one mint (`zeroBalanceMint`) held `spentAmounts` and are
 * all spent (a row of 0); its only account of a second mint has amount 0 and is unspent (no row); its `positive`
 * unspent accounts of a third mint have non-zero amounts (a row).
 */
export const ZERO_BALANCE = { spentAmounts: [500, 700], positive: 2 } as const;

export function tokenPlan(seed: number): RoleEntry[] {
  const key = (role: string) => roleKey(seed, role);
  const entries: RoleEntry[] = [];
  const manyMints = key("tokenOwnerWithManyMints");
  const mintsOfMany = repeat(TOKEN_ROLES.manyMints, (i) => key(`manyMints:${i}`));
  mintsOfMany.forEach((mint, i) => {
    entries.push(...repeat(1 + (i % 3), (k) => token(manyMints, mint, false, { positive: k === 0 })));
    if (i % 5 === 0) entries.push(token(manyMints, mint, true));
  });
  const t1000 = key("tokenOwnerWith1000TokenAccounts");
  const mint1000 = key("mintOf1000");
  entries.push(...repeat(TOKEN_ROLES.with1000.unspent, () => token(t1000, mint1000, false)));
  entries.push(...repeat(TOKEN_ROLES.with1000.spent, () => token(t1000, mint1000, true, { spentLast: true })));
  const t1001 = key("tokenOwnerWith1001TokenAccounts");
  entries.push(...repeat(TOKEN_ROLES.with1001, (i) => token(t1001, key(`mints1001:${i}`), false, { positive: true })));
  const one = key("tokenOwnerWithOneAccount");
  entries.push(token(one, mintsOfMany[0] as Key, false, { delegate: true, tlv: true, state: "frozen" }));
  const zero = key("tokenOwnerWithZeroBalance");
  const zeroMint = key("zeroBalanceMint");
  entries.push(...ZERO_BALANCE.spentAmounts.map((amount) => token(zero, zeroMint, true, { amount })));
  entries.push(token(zero, mintsOfMany[1] as Key, false, { amount: 0, delegate: false, tlv: false, state: "initialized" }));
  entries.push(...repeat(ZERO_BALANCE.positive, () => token(zero, mintsOfMany[2] as Key, false, { positive: true })));
  const big = key("tokenOwnerWithBigAmounts");
  const bigMint = key("bigAmountMint");
  const bigSumMint = key("bigSumMint");
  entries.push(token(big, bigMint, false, { amount: U64_MAX }), token(big, bigMint, true, { amount: U64_MAX }));
  entries.push(token(big, bigSumMint, false, { amount: 2n ** 53n + 1n }), token(big, bigSumMint, false, { amount: 2n ** 60n }));
  return entries;
}

export interface TokenFacts {
  /**
   * A token owner with unspent accounts (`unspent`) in `mints` mints (≥ 30), each with a balance row (so
   * `mints` is also its number of balances); `mint` is one of them.
   */
  tokenOwnerWithManyMints: { owner: string; mints: number; mint: string; unspent: number };
  /** Exactly 1000 unspent token accounts, all of `mint`; its newest `sharedSlotSignatures` signatures share the dataset's last slot. */
  tokenOwnerWith1000TokenAccounts: { owner: string; mint: string; unspent: number; signatures: number; sharedSlotSignatures: number };
  /** Exactly 1001 unspent token accounts, each of its own mint and of a non-zero amount: `mints` (1001) balance rows, and more than 1000 signatures. */
  tokenOwnerWith1001TokenAccounts: { owner: string; unspent: number; mints: number; signatures: number };
  /** One token account, `hash`: frozen, with a delegate and a tlv. */
  tokenOwnerWithOneAccount: { owner: string; hash: string };
  /**
   * A token owner for Photon's zero-balance rule (spec/DECISIONS.md #35): its accounts of `mint` held non-zero
   * amounts and are all spent, so its balance row for `mint` is 0; its only account of `zeroAmountMint` is unspent
   * with amount 0, so that mint has no balance row (the ingester skips zero changes); `balances` rows in all.
   */
  ownerWithZeroBalance: { owner: string; mint: string; zeroAmountMint: string; balances: number };
  /** Balances above 2^53: `maxMint` sums to u64::MAX (a spent account of it also held u64::MAX), `sumMint` to 2^60 + 2^53 + 1. */
  tokenOwnerWithBigAmounts: { owner: string; maxMint: string; maxBalance: U64; sumMint: string; sumBalance: U64 };
  /** A valid pubkey with no token accounts. */
  tokenOwnerWithNoAccounts: string;
  /** An unspent token account with amount = u64::MAX. */
  tokenAccountWithMaxAmount: string;
  /** An unspent token account with an address of its own (`account.address`) and a non-zero `amount`. */
  tokenAccountWithAddress: { hash: string; address: string; amount: U64 };
  /** `tokenOwnerWithOneAccount.hash` and the transaction that created it. */
  tokenAccountOpened: { hash: string; openedBy: string };
}

export function tokenFacts(records: RoleRecords): TokenFacts {
  const { dataset } = records;
  const key = (role: string) => records.key(role);
  const owners = {
    many: key("tokenOwnerWithManyMints"),
    t1000: key("tokenOwnerWith1000TokenAccounts"),
    t1001: key("tokenOwnerWith1001TokenAccounts"),
    one: key("tokenOwnerWithOneAccount"),
    zero: key("tokenOwnerWithZeroBalance"),
    big: key("tokenOwnerWithBigAmounts"),
  };
  const roleOwners = new Set(Object.values(owners));
  const spentHashes = records.spentTokenHashes();
  const ownerOf = new Map<string, string>();
  const unspent = new Map<string, number>();
  /** Per role owner, per mint it ever held: the sum of its unspent amounts, and whether Photon keeps a balance row. */
  const held = new Map<string, Map<string, BalanceCell>>();
  let oneHash: string | undefined;
  let maxAmount: string | undefined;
  for (const t of dataset.tokens) {
    if (!roleOwners.has(t.owner)) continue;
    const isSpent = spentHashes.has(t.hash);
    ownerOf.set(t.hash, t.owner);
    const perMint = held.get(t.owner) ?? new Map<string, BalanceCell>();
    held.set(t.owner, perMint);
    addToCell(perMint, t.mint, t.amount, isSpent);
    if (isSpent) continue;
    unspent.set(t.owner, (unspent.get(t.owner) ?? 0) + 1);
    if (t.owner === owners.one && t.delegate !== null && t.tlv !== null && t.state === "frozen") oneHash = t.hash;
    if (t.owner === owners.big && t.amount === U64_MAX) maxAmount = t.hash;
  }
  const signatures = new Map<string, number>();
  const slots1000: number[] = [];
  for (const s of dataset.signatures) {
    const touched = new Set<string>();
    for (const h of s.opened) if (ownerOf.has(h)) touched.add(ownerOf.get(h) as string);
    for (const h of s.closed) if (ownerOf.has(h)) touched.add(ownerOf.get(h) as string);
    for (const o of touched) signatures.set(o, (signatures.get(o) ?? 0) + 1);
    if (touched.has(owners.t1000)) slots1000.push(s.slot);
  }
  const newest = Math.max(...slots1000);
  const sharedSlot = slots1000.filter((s) => s === newest).length;
  /** The mints an owner ever held, and its balance rows (mint → balance). */
  const mintsOf = (owner: string) => held.get(owner) ?? new Map<string, BalanceCell>();
  const rowsOf = (owner: string) => balanceRows(mintsOf(owner));
  const u = (owner: string) => unspent.get(owner) ?? 0;
  const mint1000 = key("mintOf1000");
  const zeroMint = key("zeroBalanceMint");
  const zeroAmountMint = key("manyMints:1");
  const maxMint = key("bigAmountMint");
  const sumMint = key("bigSumMint");
  expect(
    mintsOf(owners.many).size === TOKEN_ROLES.manyMints && rowsOf(owners.many).size === TOKEN_ROLES.manyMints,
    "tokenOwnerWithManyMints does not have a balance row in each of its mints",
  );
  expect(
    u(owners.t1000) === TOKEN_ROLES.with1000.unspent && mintsOf(owners.t1000).size === 1 && rowsOf(owners.t1000).size === 1,
    "tokenOwnerWith1000TokenAccounts is not 1000 accounts of one mint",
  );
  expect(
    u(owners.t1001) === TOKEN_ROLES.with1001 && mintsOf(owners.t1001).size === TOKEN_ROLES.with1001 && rowsOf(owners.t1001).size === TOKEN_ROLES.with1001,
    "tokenOwnerWith1001TokenAccounts is not 1001 accounts of 1001 mints with a balance row each",
  );
  expect(sharedSlot >= TOKEN_ROLES.with1000.spent, "the last slot does not hold tokenOwnerWith1000TokenAccounts' spend signatures");
  const zeroRows = rowsOf(owners.zero);
  const zeroSpent = mintsOf(owners.zero).get(zeroMint);
  expect(
    zeroRows.get(zeroMint) === 0n && zeroSpent?.accounts === ZERO_BALANCE.spentAmounts.length,
    "ownerWithZeroBalance's mint does not have a balance row of 0 after spending",
  );
  expect(
    // Rows: the spent mint's (0) and the positive mint's; none for the zero-amount mint it still holds.
    mintsOf(owners.zero).has(zeroAmountMint) && !zeroRows.has(zeroAmountMint) && zeroRows.size === 2,
    "ownerWithZeroBalance's zero-amount mint has a balance row, or its other mint none",
  );
  expect(rowsOf(owners.big).get(maxMint) === U64_MAX, "bigAmountMint does not sum to u64::MAX");
  expect(oneHash !== undefined && maxAmount !== undefined, "a role token account is missing");
  return {
    tokenOwnerWithManyMints: { owner: owners.many, mints: rowsOf(owners.many).size, mint: key("manyMints:7"), unspent: u(owners.many) },
    tokenOwnerWith1000TokenAccounts: {
      owner: owners.t1000,
      mint: mint1000,
      unspent: u(owners.t1000),
      signatures: signatures.get(owners.t1000) ?? 0,
      sharedSlotSignatures: sharedSlot,
    },
    tokenOwnerWith1001TokenAccounts: {
      owner: owners.t1001,
      unspent: u(owners.t1001),
      mints: rowsOf(owners.t1001).size,
      signatures: signatures.get(owners.t1001) ?? 0,
    },
    tokenOwnerWithOneAccount: { owner: owners.one, hash: oneHash },
    ownerWithZeroBalance: { owner: owners.zero, mint: zeroMint, zeroAmountMint, balances: zeroRows.size },
    tokenOwnerWithBigAmounts: { owner: owners.big, maxMint, maxBalance: U64_MAX, sumMint, sumBalance: rowsOf(owners.big).get(sumMint) ?? 0n },
    tokenOwnerWithNoAccounts: key("tokenOwnerWithNoAccounts"),
    tokenAccountWithMaxAmount: maxAmount,
    tokenAccountWithAddress: tokenAccountWithAddress(records),
    tokenAccountOpened: { hash: oneHash, openedBy: transactionOf(dataset, oneHash, "opened") },
  };
}

/** The first unspent token account (dataset order) that has an address and a non-zero amount. */
function tokenAccountWithAddress(records: RoleRecords): TokenFacts["tokenAccountWithAddress"] {
  const withAddress = new Map(
    records
      .accountsOf(TOKEN_PROGRAM)
      .unspent.filter((a) => a.address !== null)
      .map((a) => [a.hash, a.address as string]),
  );
  const found = records.dataset.tokens.find((t) => withAddress.has(t.hash) && BigInt(t.amount) !== 0n);
  expect(found !== undefined, "no unspent token account has an address and a non-zero amount");
  return { hash: found.hash, address: withAddress.get(found.hash) as string, amount: found.amount };
}

/** Token owners whose lists the live stream moves with their counts kept (live/stream.ts `Pinned.churn`). */
export function churnedTokenOwners(facts: TokenFacts): string[] {
  return [facts.tokenOwnerWith1000TokenAccounts.owner];
}
