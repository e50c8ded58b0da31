/** Program-owner roles: owners with a fixed number of accounts, the by-hash lookups their accounts give, and an owner with a big balance. */
import { BMT1 } from "../dataset-trees.js";
import { U64_MAX, u64 } from "../records.js";
import type { AccountRecord, U64 } from "../records.js";
import { expect, merkleContextFacts, type MerkleContextFacts, type RoleRecords } from "./facts.js";
import { roleHash, roleKey } from "./keys.js";
import { account, type RoleEntry, repeat } from "./plan.js";

/** Program owners of compressed accounts with a fixed number of unspent accounts. */
export const OWNER_ROLES = {
  /** 2500 unspent (100 pairs of them share a leafIndex in two trees), 60 spent. */
  ownerWithManyAccounts: { unspent: 2500, tiePairs: 100, spent: 60 },
  /** Exactly 1000 unspent: one full default page, then an empty page. */
  ownerWith1000: { unspent: 1000, spent: 25 },
  /** Exactly 1001 unspent: a full default page and a page of one. */
  ownerWith1001: { unspent: 1001, spent: 5 },
  /** One unspent account (address, data and seq all null), two spent. */
  ownerWithOneAccount: { unspent: 1, spent: 2 },
  /** Only spent accounts: zero unspent. */
  ownerWithOnlySpentAccounts: { unspent: 0, spent: 3 },
} as const;

/** A program owner whose unspent lamports sum above 2^53 (each account below it); a spent account holds more. */
export const BIG_BALANCE = {
  lamports: [2n ** 52n + 1n, 2n ** 52n + 3n, 2n ** 51n + 5n],
  spentLamports: 2n ** 62n,
} as const;

/** The owner roles whose accounts `ownerFacts` reads. */
export const PROGRAM_OWNER_ROLES: readonly string[] = [...Object.keys(OWNER_ROLES), "ownerWithBigBalance"];

/** The planned accounts of OWNER_ROLES: ownerWith1000's first two hold `knownHash` and `spentHash`, ownerWithManyAccounts' first `accountWithBigLamports`. */
export function ownerPlan(seed: number): RoleEntry[] {
  const key = (role: string) => roleKey(seed, role);
  const entries: RoleEntry[] = [];
  const many = key("ownerWithManyAccounts");
  const m = OWNER_ROLES.ownerWithManyAccounts;
  entries.push(account(many, false, { address: true, data: [7, 7, 7, 7, 7, 7, 7, 7], lamports: U64_MAX, discriminator: U64_MAX }));
  entries.push(account(many, false, { lamports: 2n ** 53n + 1n, discriminator: 2n ** 53n + 1n }));
  entries.push(...repeat(m.tiePairs, () => account(many, false, { tie: true, when: "early" })));
  entries.push(...repeat(m.unspent - 2 * m.tiePairs - 2, () => account(many, false)));
  entries.push(...repeat(m.spent, () => account(many, true)));

  const w1000 = key("ownerWith1000");
  entries.push(account(w1000, false, { address: true, data: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] }));
  entries.push(...repeat(OWNER_ROLES.ownerWith1000.unspent - 1, () => account(w1000, false)));
  entries.push(account(w1000, true, { address: true }));
  entries.push(...repeat(OWNER_ROLES.ownerWith1000.spent - 1, () => account(w1000, true)));

  const w1001 = key("ownerWith1001");
  entries.push(...repeat(OWNER_ROLES.ownerWith1001.unspent, () => account(w1001, false)));
  entries.push(...repeat(OWNER_ROLES.ownerWith1001.spent, () => account(w1001, true)));

  const one = key("ownerWithOneAccount");
  entries.push(account(one, false, { address: false, data: null, last: true, when: "tail", tree: { kind: "tree", index: BMT1 }, lamports: 0 }));
  entries.push(...repeat(OWNER_ROLES.ownerWithOneAccount.spent, () => account(one, true)));
  const onlySpent = key("ownerWithOnlySpentAccounts");
  entries.push(...repeat(OWNER_ROLES.ownerWithOnlySpentAccounts.spent, () => account(onlySpent, true)));
  return entries;
}

export function bigBalancePlan(seed: number): RoleEntry[] {
  const owner = roleKey(seed, "ownerWithBigBalance");
  return [
    ...BIG_BALANCE.lamports.map((lamports) => account(owner, false, { lamports: u64(lamports) })),
    account(owner, true, { lamports: u64(BIG_BALANCE.spentLamports) }),
  ];
}

export interface OwnerFacts {
  /**
   * A program owner with 2500 unspent accounts, some spent, and more than a page of `signatures`;
   * `lamportsOverflow`: its unspent lamports sum above u64::MAX.
   */
  ownerWithManyAccounts: { owner: string; unspent: number; signatures: number; lamportsOverflow: boolean };
  /** Same owner: `tiedLeafIndexes` leaf indexes each held by two of its accounts (in two trees), so the hash tie-break decides. */
  ownerWithLeafIndexTies: { owner: string; tiedLeafIndexes: number };
  /** Exactly 1000 unspent: a full default page with a cursor, then an empty page with a null cursor. */
  ownerWith1000: { owner: string; unspent: number };
  /** Exactly 1001 unspent: a full default page, then a page of one with a null cursor. */
  ownerWith1001: { owner: string; unspent: number };
  /** Exactly one unspent account, `hash`, whose address, data and seq are null (the newest leaf of a batched tree, in its output queue). */
  ownerWithOneAccount: { owner: string; unspent: number; hash: string };
  /** Has only spent accounts, so every list is empty. */
  ownerWithOnlySpentAccounts: { owner: string; spent: number };
  /** A valid pubkey that owns nothing. */
  ownerWithNoAccounts: string;
  /** Unspent lamports summing to `balance`, above 2^53 (each account below it); a spent account held more. */
  ownerWithBigBalance: { owner: string; unspent: number; balance: U64 };
  /** An unspent account with an address and data. */
  knownHash: string;
  /** The address of `knownHash`. */
  knownAddress: string;
  /** A spent account: null by hash, absent from lists. */
  spentHash: string;
  /** The address of `spentHash`, held by no unspent account: null by address. */
  spentAddress: string;
  /** A valid 32-byte hash of no account. */
  unknownHash: string;
  /** An unspent account with lamports = u64::MAX and discriminator = u64::MAX. */
  accountWithBigLamports: { hash: string; lamports: U64; discriminator: U64 };
  /** The lamports of `knownHash`'s account (what a balance lookup of `knownAddress` or `knownHash` answers). */
  knownLamports: U64;
}

export function ownerFacts(records: RoleRecords): OwnerFacts {
  const { dataset, seed } = records;
  for (const [name, role] of Object.entries(OWNER_ROLES)) {
    const { unspent, spent } = records.accountsOf(records.key(name));
    expect(unspent.length === role.unspent, `${name} has ${unspent.length} unspent accounts, not ${role.unspent}`);
    expect(spent.length === role.spent, `${name} has ${spent.length} spent accounts, not ${role.spent}`);
  }
  const owner = {
    many: records.key("ownerWithManyAccounts"),
    w1000: records.key("ownerWith1000"),
    w1001: records.key("ownerWith1001"),
    one: records.key("ownerWithOneAccount"),
    onlySpent: records.key("ownerWithOnlySpentAccounts"),
    bigBalance: records.key("ownerWithBigBalance"),
  };
  const w1000 = records.accountsOf(owner.w1000);
  const known = w1000.unspent.find((a) => a.address !== null && a.data !== null);
  const spentAccount = w1000.spent.find((a) => a.address !== null);
  const one = records.accountsOf(owner.one).unspent.at(-1);
  const bigLamports = dataset.accounts.findLast((a) => !a.spent && a.lamports === U64_MAX && a.data?.discriminator === U64_MAX);
  expect(known !== undefined && spentAccount !== undefined && one !== undefined && bigLamports !== undefined, "a role account is missing");
  expect(
    one.address === null && one.data === null && one.seq === null && one.inOutputQueue,
    "ownerWithOneAccount's account does not have null address, data and seq, in an output queue",
  );
  expect(!records.addressHolder.has(spentAccount.address as string), "spentAddress is held by an unspent account");

  const many = records.accountsOf(owner.many);
  const leaves = new Map<number, number>();
  let manyLamports = 0n;
  for (const a of many.unspent) {
    leaves.set(a.leafIndex, (leaves.get(a.leafIndex) ?? 0) + 1);
    manyLamports += BigInt(a.lamports);
  }
  const tied = [...leaves.values()].filter((n) => n > 1).length;
  expect(tied >= OWNER_ROLES.ownerWithManyAccounts.tiePairs, "ownerWithManyAccounts lacks leafIndex ties");
  const big = records.accountsOf(owner.bigBalance).unspent;
  const bigBalance = big.reduce((sum, a) => sum + BigInt(a.lamports), 0n);
  expect(bigBalance === BIG_BALANCE.lamports.reduce((sum, l) => sum + l, 0n), "ownerWithBigBalance's unspent lamports do not sum as planned");

  const manyHashes = new Set(many.all.map((a) => a.hash));
  const signatures = dataset.signatures.filter((s) => s.opened.some((h) => manyHashes.has(h)) || s.closed.some((h) => manyHashes.has(h))).length;
  return {
    ownerWithManyAccounts: { owner: owner.many, unspent: many.unspent.length, signatures, lamportsOverflow: manyLamports > U64_MAX },
    ownerWithLeafIndexTies: { owner: owner.many, tiedLeafIndexes: tied },
    ownerWith1000: { owner: owner.w1000, unspent: w1000.unspent.length },
    ownerWith1001: { owner: owner.w1001, unspent: records.accountsOf(owner.w1001).unspent.length },
    ownerWithOneAccount: { owner: owner.one, unspent: 1, hash: one.hash },
    ownerWithOnlySpentAccounts: { owner: owner.onlySpent, spent: records.accountsOf(owner.onlySpent).spent.length },
    ownerWithNoAccounts: records.key("ownerWithNoAccounts"),
    ownerWithBigBalance: { owner: owner.bigBalance, unspent: big.length, balance: u64(bigBalance) },
    knownHash: known.hash,
    knownAddress: known.address as string,
    spentHash: spentAccount.hash,
    spentAddress: spentAccount.address as string,
    unknownHash: roleHash(seed, "unknownHash").text,
    accountWithBigLamports: { hash: bigLamports.hash, lamports: U64_MAX, discriminator: U64_MAX },
    knownLamports: known.lamports,
  };
}

/** The `merkleContext` of `knownHash` (whichever state tree holds it) and of ownerWithOneAccount's account (a batched tree and its output queue). */
export function ownerMerkleContexts(records: RoleRecords, facts: OwnerFacts): { knownHash: MerkleContextFacts; ownerWithOneAccount: MerkleContextFacts } {
  const unspentOf = (owner: string, hash: string) => records.accountsOf(owner).unspent.find((a) => a.hash === hash) as AccountRecord;
  return {
    knownHash: merkleContextFacts(records.dataset, unspentOf(facts.ownerWith1000.owner, facts.knownHash)),
    ownerWithOneAccount: merkleContextFacts(records.dataset, unspentOf(facts.ownerWithOneAccount.owner, facts.ownerWithOneAccount.hash), "StateV2"),
  };
}

/** Program owners whose lists the live stream moves with their counts kept (live/stream.ts `Pinned.churn`). */
export function churnedOwners(facts: OwnerFacts): string[] {
  return [facts.ownerWithManyAccounts.owner];
}
