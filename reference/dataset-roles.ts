/** The dataset generator's planned role entities: the fixed accounts and token accounts that cover every edge of roles.ts. */
import { Random } from "./random.js";
import { U64_MAX, u64 } from "./records.js";
import type { TokenState, U64 } from "./records.js";
import { ADDRESS_HISTORY, BATCHED_ROLE, BIG_BALANCE, HOLDERS, MEMCMP, OWNER_ROLES, TOKEN_ROLES, ZERO_BALANCE, roleKey } from "./roles.js";
import type { Key } from "./roles.js";
import { BATCHED_TREE, BMT1, V1_TREE } from "./dataset-trees.js";
import type { Placement } from "./dataset-trees.js";

/** One planned account of a role entity. */
export interface RoleAccount {
  kind: "account";
  owner: Key;
  spent: boolean;
  /** Two unspent accounts with the same leafIndex in the two v1 trees. */
  tie?: boolean;
  address?: boolean;
  /** Explicit data bytes, `null` for no data, undefined for the owner's random style. */
  data?: number[] | null;
  discriminator?: U64;
  lamports?: U64;
  /** Where the account is placed; default any state tree. */
  tree?: Placement;
  /** "early": before the late part of the timeline; "tail": at its very end (late). */
  when?: "early" | "tail";
  /** The last step of the timeline (newest leaf of bmt1, in its output queue). */
  last?: boolean;
  /** When a spent account is closed: "early" before the late part, "late" in the last slot; default a random later slot. */
  close?: "early" | "late";
  /** Versions of one address: the first entry of a chain opens it, each later one updates it. */
  chain?: string;
}

/** One planned token account of a role entity. */
export interface RoleToken {
  kind: "token";
  owner: Key;
  mint: Key;
  amount?: U64;
  /** A random amount that is never 0 (so the (owner, mint) pair has a balance row: roles.ts TOKEN_ROLES). */
  positive?: boolean;
  spent: boolean;
  /** Spent in the dataset's last slot (many signatures share that slot). */
  spentLast?: boolean;
  /** A given delegate, or whether to pick a random one. */
  delegate?: boolean | Key;
  tlv?: boolean;
  state?: TokenState;
  when?: undefined;
}

export type RoleEntry = RoleAccount | RoleToken;

function repeat<T>(n: number, make: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => make(i));
}

export function roleEntries(seed: number): RoleEntry[] {
  const key = (role: string) => roleKey(seed, role);
  const acc = (owner: Key, spent: boolean, extra: Partial<RoleAccount> = {}): RoleAccount => ({ kind: "account", owner, spent, ...extra });
  const tok = (owner: Key, mint: Key, spent: boolean, extra: Partial<RoleToken> = {}): RoleToken => ({ kind: "token", owner, mint, spent, ...extra });
  const entries: RoleEntry[] = [];

  const many = key("ownerWithManyAccounts");
  const m = OWNER_ROLES.ownerWithManyAccounts;
  entries.push(acc(many, false, { address: true, data: [7, 7, 7, 7, 7, 7, 7, 7], lamports: U64_MAX, discriminator: U64_MAX }));
  entries.push(acc(many, false, { lamports: 2n ** 53n + 1n, discriminator: 2n ** 53n + 1n }));
  entries.push(...repeat(m.tiePairs, () => acc(many, false, { tie: true, when: "early" })));
  entries.push(...repeat(m.unspent - 2 * m.tiePairs - 2, () => acc(many, false)));
  entries.push(...repeat(m.spent, () => acc(many, true)));

  const w1000 = key("ownerWith1000");
  entries.push(acc(w1000, false, { address: true, data: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] }));
  entries.push(...repeat(OWNER_ROLES.ownerWith1000.unspent - 1, () => acc(w1000, false)));
  entries.push(acc(w1000, true, { address: true }));
  entries.push(...repeat(OWNER_ROLES.ownerWith1000.spent - 1, () => acc(w1000, true)));

  const w1001 = key("ownerWith1001");
  entries.push(...repeat(OWNER_ROLES.ownerWith1001.unspent, () => acc(w1001, false)));
  entries.push(...repeat(OWNER_ROLES.ownerWith1001.spent, () => acc(w1001, true)));

  const one = key("ownerWithOneAccount");
  entries.push(acc(one, false, { address: false, data: null, last: true, when: "tail", tree: { kind: "tree", index: BMT1 }, lamports: 0 }));
  entries.push(...repeat(OWNER_ROLES.ownerWithOneAccount.spent, () => acc(one, true)));
  const onlySpent = key("ownerWithOnlySpentAccounts");
  entries.push(...repeat(OWNER_ROLES.ownerWithOnlySpentAccounts.spent, () => acc(onlySpent, true)));

  const mc = key("memcmpOwner");
  const d = MEMCMP.discriminator;
  const tail = (r: Random, prefix: readonly number[]) => [...prefix, ...r.bytes(r.below(40))];
  const r = new Random(seed, "memcmp");
  entries.push(...repeat(MEMCMP.countA, () => acc(mc, false, { data: tail(r, MEMCMP.prefixA), discriminator: d })));
  entries.push(...repeat(MEMCMP.countB, () => acc(mc, false, { data: tail(r, MEMCMP.prefixB), discriminator: d })));
  entries.push(acc(mc, false, { data: [...MEMCMP.short], discriminator: d }));
  entries.push(...repeat(MEMCMP.countOther, () => acc(mc, false, { data: tail(r, [r.between(0x10, 0x7f)]), discriminator: d })));
  entries.push(...repeat(MEMCMP.countNull, () => acc(mc, false, { data: null })));
  entries.push(...repeat(MEMCMP.spentA, () => acc(mc, true, { data: tail(r, MEMCMP.prefixA), discriminator: d })));

  const batched = key("ownerWithBatchedAccounts");
  entries.push(...repeat(BATCHED_ROLE.inTree, () => acc(batched, false, { tree: BATCHED_TREE, when: "early" })));
  entries.push(...repeat(BATCHED_ROLE.inOutputQueue, () => acc(batched, false, { tree: BATCHED_TREE, when: "tail" })));
  entries.push(...repeat(BATCHED_ROLE.inInputQueue, () => acc(batched, true, { tree: BATCHED_TREE, when: "early", close: "late" })));
  entries.push(...repeat(BATCHED_ROLE.nullified, () => acc(batched, true, { tree: BATCHED_TREE, when: "early", close: "early" })));

  const history = key("ownerWithAddressHistory");
  entries.push(...repeat(ADDRESS_HISTORY.versions, () => acc(history, false, { chain: "addressHistory", tree: V1_TREE })));

  const bigBalance = key("ownerWithBigBalance");
  entries.push(...BIG_BALANCE.lamports.map((lamports) => acc(bigBalance, false, { lamports: u64(lamports) })));
  entries.push(acc(bigBalance, true, { lamports: u64(BIG_BALANCE.spentLamports) }));

  const manyMints = key("tokenOwnerWithManyMints");
  const mintsOfMany = repeat(TOKEN_ROLES.manyMints, (i) => key(`manyMints:${i}`));
  mintsOfMany.forEach((mint, i) => {
    entries.push(...repeat(1 + (i % 3), (k) => tok(manyMints, mint, false, { positive: k === 0 })));
    if (i % 5 === 0) entries.push(tok(manyMints, mint, true));
  });
  const t1000 = key("tokenOwnerWith1000TokenAccounts");
  const mint1000 = key("mintOf1000");
  entries.push(...repeat(TOKEN_ROLES.with1000.unspent, () => tok(t1000, mint1000, false)));
  entries.push(...repeat(TOKEN_ROLES.with1000.spent, () => tok(t1000, mint1000, true, { spentLast: true })));
  const t1001 = key("tokenOwnerWith1001TokenAccounts");
  entries.push(...repeat(TOKEN_ROLES.with1001, (i) => tok(t1001, key(`mints1001:${i}`), false, { positive: true })));
  const tOne = key("tokenOwnerWithOneAccount");
  entries.push(tok(tOne, mintsOfMany[0] as Key, false, { delegate: true, tlv: true, state: "frozen" }));
  const zero = key("tokenOwnerWithZeroBalance");
  const zeroMint = key("zeroBalanceMint");
  entries.push(...ZERO_BALANCE.spentAmounts.map((amount) => tok(zero, zeroMint, true, { amount })));
  entries.push(tok(zero, mintsOfMany[1] as Key, false, { amount: 0, delegate: false, tlv: false, state: "initialized" }));
  entries.push(...repeat(ZERO_BALANCE.positive, () => tok(zero, mintsOfMany[2] as Key, false, { positive: true })));
  const big = key("tokenOwnerWithBigAmounts");
  const bigMint = key("bigAmountMint");
  const bigSumMint = key("bigSumMint");
  entries.push(tok(big, bigMint, false, { amount: U64_MAX }), tok(big, bigMint, true, { amount: U64_MAX }));
  entries.push(tok(big, bigSumMint, false, { amount: 2n ** 53n + 1n }), tok(big, bigSumMint, false, { amount: 2n ** 60n }));

  const delegate = key("delegateWithManyAccounts");
  const holdersMint = key("mintWithManyHolders");
  const secondMint = key("delegatedMint2");
  const holder = repeat(HOLDERS.holders + HOLDERS.zeroHolders, (i) => key(`holder:${i}`));
  const [top0, top1] = HOLDERS.topAmounts;
  entries.push(
    tok(holder[0] as Key, holdersMint, false, { amount: u64(top0), delegate }),
    tok(holder[0] as Key, holdersMint, false, { amount: u64(top1), delegate }),
  );
  for (let i = 1; i < HOLDERS.holders; i++) {
    const amount = (1 + (i % HOLDERS.tieGroups)) * 1_000_000;
    entries.push(tok(holder[i] as Key, holdersMint, false, { amount, delegate: i <= HOLDERS.undelegated ? false : delegate }));
  }
  entries.push(tok(holder[HOLDERS.holders] as Key, holdersMint, true, { amount: 3_000_000, delegate }));
  const { unspent: m2Unspent, spent: m2Spent } = HOLDERS.secondMint;
  entries.push(...repeat(m2Unspent, (i) => tok(holder[3 + i] as Key, secondMint, false, { delegate })));
  entries.push(...repeat(m2Spent, (i) => tok(holder[3 + m2Unspent + i] as Key, secondMint, true, { delegate })));
  return entries;
}
