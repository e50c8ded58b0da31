/** The token roles of a dataset profile: per-owner, per-mint and delegate facts computed from the token records. */
import { TOKEN_PROGRAM, U64_MAX, u64 } from "./records.js";
import type { Dataset, U64 } from "./records.js";
import { HOLDERS, TOKEN_ROLES, ZERO_BALANCE, roleKey } from "./roles.js";
import { expect } from "./profile-check.js";
import type { DatasetProfile } from "./profile-types.js";

/** delegateWithManyAccounts' second mint (role key `delegatedMint2`) and its delegated token accounts, unspent and spent. */
export function delegatedMintFacts(dataset: Dataset, seed: number): DatasetProfile["delegatedMint"] {
  const delegate = roleKey(seed, "delegateWithManyAccounts").text;
  const mint = roleKey(seed, "delegatedMint2").text;
  const spentHashes = new Set(dataset.accounts.filter((a) => a.spent && a.owner === TOKEN_PROGRAM).map((a) => a.hash));
  const holdersMint = roleKey(seed, "mintWithManyHolders").text;
  const delegatedMints = new Set<string>();
  let unspent = 0;
  let spent = 0;
  for (const t of dataset.tokens) {
    if (t.delegate !== delegate) continue;
    if (!spentHashes.has(t.hash)) delegatedMints.add(t.mint);
    if (t.mint !== mint) continue;
    if (spentHashes.has(t.hash)) spent++;
    else unspent++;
  }
  expect(
    unspent === HOLDERS.secondMint.unspent && spent === HOLDERS.secondMint.spent,
    `delegatedMint has ${unspent} unspent and ${spent} spent delegated accounts, not ${HOLDERS.secondMint.unspent} and ${HOLDERS.secondMint.spent}`,
  );
  expect(
    delegatedMints.size === 2 && delegatedMints.has(mint) && delegatedMints.has(holdersMint),
    "delegateWithManyAccounts' unspent accounts are not of mintWithManyHolders and delegatedMint only",
  );
  return { delegate, mint, unspent, spent };
}

export type TokenFacts = Pick<
  DatasetProfile,
  | "tokenOwnerWithManyMints"
  | "tokenOwnerWith1000TokenAccounts"
  | "tokenOwnerWith1001TokenAccounts"
  | "tokenOwnerWithOneAccount"
  | "ownerWithZeroBalance"
  | "tokenOwnerWithBigAmounts"
  | "tokenOwnerWithNoAccounts"
  | "tokenAccountWithMaxAmount"
  | "delegateWithManyAccounts"
  | "mintWithManyHolders"
>;

export function tokenFacts(dataset: Dataset, seed: number): TokenFacts {
  const key = (role: string) => roleKey(seed, role).text;
  const owners = {
    many: key("tokenOwnerWithManyMints"),
    t1000: key("tokenOwnerWith1000TokenAccounts"),
    t1001: key("tokenOwnerWith1001TokenAccounts"),
    one: key("tokenOwnerWithOneAccount"),
    zero: key("tokenOwnerWithZeroBalance"),
    big: key("tokenOwnerWithBigAmounts"),
  };
  const roleOwners = new Set(Object.values(owners));
  const spentHashes = new Set(dataset.accounts.filter((a) => a.spent && a.owner === TOKEN_PROGRAM).map((a) => a.hash));
  const ownerOf = new Map<string, string>();
  const unspent = new Map<string, number>();
  /** Per role owner, per mint it ever held: the sum of its unspent amounts, and whether Photon keeps a balance row. */
  const held = new Map<string, Map<string, BalanceCell>>();
  let oneHash: string | undefined;
  let maxAmount: string | undefined;
  const delegate = key("delegateWithManyAccounts");
  const holdersMint = key("mintWithManyHolders");
  const delegated = { unspent: 0, spent: 0, mints: new Set<string>() };
  const holders = new Map<string, BalanceCell>();
  let supply = 0n;
  for (const t of dataset.tokens) {
    const isSpent = spentHashes.has(t.hash);
    if (t.mint === holdersMint && !isSpent) supply += BigInt(t.amount);
    if (t.delegate === delegate) {
      if (isSpent) delegated.spent++;
      else {
        delegated.unspent++;
        delegated.mints.add(t.mint);
      }
    }
    if (t.mint === holdersMint) addToCell(holders, t.owner, t.amount, isSpent);
    if (!roleOwners.has(t.owner)) continue;
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
  const sumBalance = rowsOf(owners.big).get(sumMint) ?? 0n;
  expect(delegated.unspent > 1000 && delegated.mints.size >= 2, "delegateWithManyAccounts does not have more than 1000 unspent accounts over two mints");
  const balanceCounts = new Map<bigint, number>();
  let top: [string, bigint] = ["", -1n];
  const holderRows = balanceRows(holders);
  for (const [owner, balance] of holderRows) {
    balanceCounts.set(balance, (balanceCounts.get(balance) ?? 0) + 1);
    if (balance > top[1]) top = [owner, balance];
  }
  const zeroHolders = balanceCounts.get(0n) ?? 0;
  const tiedHolders = [...balanceCounts.values()].filter((n) => n > 1).reduce((sum, n) => sum + n, 0);
  expect(
    holderRows.size === HOLDERS.holders + HOLDERS.zeroHolders && zeroHolders === HOLDERS.zeroHolders && tiedHolders > 0 && top[1] > 2n ** 53n,
    "mintWithManyHolders does not have its holders, ties and a balance above 2^53",
  );
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
    tokenOwnerWithOneAccount: { owner: owners.one, hash: oneHash as string },
    ownerWithZeroBalance: { owner: owners.zero, mint: zeroMint, zeroAmountMint, balances: zeroRows.size },
    tokenOwnerWithBigAmounts: { owner: owners.big, maxMint, maxBalance: U64_MAX, sumMint, sumBalance: sumBalance },
    tokenOwnerWithNoAccounts: key("tokenOwnerWithNoAccounts"),
    tokenAccountWithMaxAmount: maxAmount as string,
    delegateWithManyAccounts: { delegate, unspent: delegated.unspent, mints: delegated.mints.size, spent: delegated.spent },
    mintWithManyHolders: {
      mint: holdersMint,
      holders: holderRows.size,
      zeroBalanceHolders: zeroHolders,
      tiedHolders,
      topHolder: { owner: top[0], balance: u64(top[1]) },
      supply: u64(supply),
    },
  };
}

/** One (token owner, mint) pair: the sum of its unspent amounts, whether it ever had a non-zero amount, its accounts. */
interface BalanceCell {
  balance: bigint;
  row: boolean;
  accounts: number;
}

function addToCell(cells: Map<string, BalanceCell>, key: string, amount: U64, spent: boolean): void {
  let cell = cells.get(key);
  if (cell === undefined) cells.set(key, (cell = { balance: 0n, row: false, accounts: 0 }));
  cell.accounts++;
  // Photon's ingester adds only non-zero changes to `token_owner_balances` and never deletes a row (persist/mod.rs:387-403).
  if (BigInt(amount) !== 0n) cell.row = true;
  if (!spent) cell.balance += BigInt(amount);
}

/** The cells Photon keeps a balance row for, with their balances. */
function balanceRows(cells: Map<string, BalanceCell>): Map<string, bigint> {
  const rows = new Map<string, bigint>();
  for (const [key, cell] of cells) if (cell.row) rows.set(key, cell.balance);
  return rows;
}
