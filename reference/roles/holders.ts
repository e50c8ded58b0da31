/** Holder and delegate roles: a mint with more than a page of holders and a delegate with more than a page of delegated token accounts. */
import { u64 } from "../records.js";
import type { U64 } from "../records.js";
import { addToCell, type BalanceCell, balanceRows } from "./balances.js";
import { expect, type RoleRecords } from "./facts.js";
import { type Key, roleKey } from "./keys.js";
import { type RoleEntry, repeat, token } from "./plan.js";

/**
 * Both roles are built from the same token accounts: holder `i` (key `holder:i`) holds one account of the mint,
 * holder 0 two; the delegate holds most of them.
 */
export const HOLDERS = {
  /** Holders of the mint with a positive balance. */
  holders: 1001,
  /** Holder 0's two amounts: its balance is above 2^53. */
  topAmounts: [2n ** 53n + 1n, 5n],
  /** Holder i ≥ 1 holds (1 + i % tieGroups) · 10^6: about 25 holders share each balance. */
  tieGroups: 40,
  /** Holder `holders` (one more) had one account of the mint, spent: a balance of 0. */
  zeroHolders: 1,
  /** Holders 1..undelegated have no delegate; every other account of the mint is the delegate's. */
  undelegated: 2,
  /** A second mint, delegated too: `unspent` accounts of holders 3.., then `spent` spent ones. */
  secondMint: { unspent: 12, spent: 2 },
} as const;

export function holdersPlan(seed: number): RoleEntry[] {
  const key = (role: string) => roleKey(seed, role);
  const entries: RoleEntry[] = [];
  const delegate = key("delegateWithManyAccounts");
  const holdersMint = key("mintWithManyHolders");
  const secondMint = key("delegatedMint2");
  const holder = repeat(HOLDERS.holders + HOLDERS.zeroHolders, (i) => key(`holder:${i}`));
  const [top0, top1] = HOLDERS.topAmounts;
  entries.push(
    token(holder[0] as Key, holdersMint, false, { amount: u64(top0), delegate }),
    token(holder[0] as Key, holdersMint, false, { amount: u64(top1), delegate }),
  );
  for (let i = 1; i < HOLDERS.holders; i++) {
    const amount = (1 + (i % HOLDERS.tieGroups)) * 1_000_000;
    entries.push(token(holder[i] as Key, holdersMint, false, { amount, delegate: i <= HOLDERS.undelegated ? false : delegate }));
  }
  entries.push(token(holder[HOLDERS.holders] as Key, holdersMint, true, { amount: 3_000_000, delegate }));
  const { unspent, spent } = HOLDERS.secondMint;
  entries.push(...repeat(unspent, (i) => token(holder[3 + i] as Key, secondMint, false, { delegate })));
  entries.push(...repeat(spent, (i) => token(holder[3 + unspent + i] as Key, secondMint, true, { delegate })));
  return entries;
}

export interface HolderFacts {
  /** A delegate of more than a page of unspent token accounts (`unspent`), over `mints` mints; `spent` more are spent. */
  delegateWithManyAccounts: { delegate: string; unspent: number; mints: number; spent: number };
  /**
   * A mint with more than a page of holders: `zeroBalanceHolders` at 0, `tiedHolders` sharing a balance,
   * `topHolder` above 2^53. `supply`: the sum of its unspent token accounts' amounts (the holders' sum).
   */
  mintWithManyHolders: {
    mint: string;
    holders: number;
    zeroBalanceHolders: number;
    tiedHolders: number;
    topHolder: { owner: string; balance: U64 };
    supply: U64;
  };
  /**
   * delegateWithManyAccounts' second mint: `unspent` unspent token accounts of it delegated to `delegate`, and `spent`
   * spent ones. The delegate's other unspent accounts are all of `mintWithManyHolders.mint`.
   */
  delegatedMint: { delegate: string; mint: string; unspent: number; spent: number };
}

export function holderFacts(records: RoleRecords): HolderFacts {
  const delegate = records.key("delegateWithManyAccounts");
  const holdersMint = records.key("mintWithManyHolders");
  const secondMint = records.key("delegatedMint2");
  const spentHashes = records.spentTokenHashes();
  const delegated = { unspent: 0, spent: 0, mints: new Set<string>() };
  const second = { unspent: 0, spent: 0 };
  const holders = new Map<string, BalanceCell>();
  let supply = 0n;
  for (const t of records.dataset.tokens) {
    const isSpent = spentHashes.has(t.hash);
    if (t.mint === holdersMint) {
      if (!isSpent) supply += BigInt(t.amount);
      addToCell(holders, t.owner, t.amount, isSpent);
    }
    if (t.delegate !== delegate) continue;
    if (isSpent) delegated.spent++;
    else {
      delegated.unspent++;
      delegated.mints.add(t.mint);
    }
    if (t.mint === secondMint) second[isSpent ? "spent" : "unspent"]++;
  }
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
  const { unspent, spent } = HOLDERS.secondMint;
  expect(
    second.unspent === unspent && second.spent === spent,
    `delegatedMint has ${second.unspent} unspent and ${second.spent} spent delegated accounts, not ${unspent} and ${spent}`,
  );
  expect(
    delegated.mints.size === 2 && delegated.mints.has(secondMint) && delegated.mints.has(holdersMint),
    "delegateWithManyAccounts' unspent accounts are not of mintWithManyHolders and delegatedMint only",
  );
  return {
    delegateWithManyAccounts: { delegate, unspent: delegated.unspent, mints: delegated.mints.size, spent: delegated.spent },
    mintWithManyHolders: {
      mint: holdersMint,
      holders: holderRows.size,
      zeroBalanceHolders: zeroHolders,
      tiedHolders,
      topHolder: { owner: top[0], balance: u64(top[1]) },
      supply: u64(supply),
    },
    delegatedMint: { delegate, mint: secondMint, unspent: second.unspent, spent: second.spent },
  };
}
