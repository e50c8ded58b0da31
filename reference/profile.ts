/**
 * `datasetProfile`: the notable entities of a generated dataset, with the facts a
 * conformance suite relies on. The role keys are re-derived from the dataset's seed;
 * every fact is then computed from the records themselves (one pass each over accounts,
 * tokens and signatures) and checked against what the generator promises, so a dataset
 * that is not `generateDataset` output is refused with a clear error.
 *
 * The profile holds bigints (u64 values above 2^53): serialise it with `stringifyJson`.
 */
import { encodeBase58 } from "@photon-indexer-kit/runtime";
import { TOKEN_PROGRAM, U64_MAX } from "./records.js";
import { RefErrorCode, ReferenceIndexerError } from "./errors.js";
import type { AccountRecord, Dataset, U64 } from "./records.js";
import { MEMCMP, OWNER_ROLES, TOKEN_ROLES, roleHash, roleKey } from "./roles.js";

/** A memcmp filter of getCompressedAccountsByOwner and how many of the owner's unspent accounts it matches. */
export interface MemcmpCase {
  offset: number;
  /** Base58 of the compared bytes. */
  bytes: string;
  count: number;
}

export interface DatasetProfile {
  seed: number;
  /** context.slot of every result and the getIndexerSlot value. */
  slot: number;
  /** `account.owner` of every token account. */
  tokenProgram: string;
  counts: { accounts: number; unspentAccounts: number; tokenAccounts: number; signatures: number };

  /** A program owner with 2500 unspent accounts (several default pages) and some spent ones. */
  ownerWithManyAccounts: { owner: string; unspent: number };
  /** Same owner: `tiedLeafIndexes` leaf indexes each held by two of its accounts (in two trees), so the hash tie-break decides. */
  ownerWithLeafIndexTies: { owner: string; tiedLeafIndexes: number };
  /** Exactly 1000 unspent: a full default page with a cursor, then an empty page with a null cursor. */
  ownerWith1000: { owner: string; unspent: number };
  /** Exactly 1001 unspent: a full default page, then a page of one with a null cursor. */
  ownerWith1001: { owner: string; unspent: number };
  /** Exactly one unspent account, `hash`, whose address, data and seq are null. */
  ownerWithOneAccount: { owner: string; unspent: number; hash: string };
  /** Has only spent accounts, so every list is empty. */
  ownerWithOnlySpentAccounts: { owner: string; spent: number };
  /** A valid pubkey that owns nothing. */
  ownerWithNoAccounts: string;

  /**
   * A program owner whose data starts with known prefixes. `filters` lists memcmp cases with
   * their match counts over the owner's `unspent` accounts (data null never matches);
   * `matching` and `nonMatching` are one of each (the latter matches nothing, even though
   * its bytes equal the owner's discriminator in one case: filters see data only).
   */
  memcmpOwner: { owner: string; unspent: number; withData: number; matching: MemcmpCase; nonMatching: MemcmpCase; filters: MemcmpCase[] };

  /** A token owner with balances in `mints` mints (≥ 30); `mint` is one of them. */
  tokenOwnerWithManyMints: { owner: string; mints: number; mint: string; unspent: number };
  /** Exactly 1000 unspent token accounts, all of `mint`; its newest `sharedSlotSignatures` signatures share the dataset's last slot. */
  tokenOwnerWith1000TokenAccounts: { owner: string; mint: string; unspent: number; signatures: number; sharedSlotSignatures: number };
  /** Exactly 1001 unspent token accounts, each of its own mint: 1001 balances, and more than 1000 signatures. */
  tokenOwnerWith1001TokenAccounts: { owner: string; unspent: number; mints: number; signatures: number };
  /** One token account, `hash`: frozen, with a delegate and a tlv. */
  tokenOwnerWithOneAccount: { owner: string; hash: string };
  /** A token owner whose accounts of `mint` are all spent: its balance row for `mint` is 0. */
  ownerWithZeroBalance: { owner: string; mint: string };
  /** Balances above 2^53: `maxMint` sums to u64::MAX (a spent account of it also held u64::MAX), `sumMint` to 2^60 + 2^53 + 1. */
  tokenOwnerWithBigAmounts: { owner: string; maxMint: string; maxBalance: U64; sumMint: string; sumBalance: U64 };
  /** A valid pubkey with no token accounts. */
  tokenOwnerWithNoAccounts: string;

  /** An unspent account with an address and data. */
  knownHash: string;
  /** The address of `knownHash`. */
  knownAddress: string;
  /** A spent account: null by hash, absent from lists. */
  spentHash: string;
  /** The address of `spentHash`, held by no unspent account: null by address. */
  spentAddress: string;
  /** An address whose old version `spentHash` is spent and whose current version is `hash`. */
  updatedAddress: { address: string; spentHash: string; hash: string };
  /** A valid 32-byte hash of no account. */
  unknownHash: string;
  /** A valid address of no account. */
  unknownAddress: string;
  /** An unspent account with lamports = u64::MAX and discriminator = u64::MAX. */
  accountWithBigLamports: { hash: string; lamports: U64; discriminator: U64 };
  /** An unspent token account with amount = u64::MAX. */
  tokenAccountWithMaxAmount: string;
}

class ProfileError extends ReferenceIndexerError {
  override name = "ProfileError";
  constructor(message: string) {
    super(RefErrorCode.PROFILE, message);
  }
}

function expect(ok: boolean, what: string): void {
  if (!ok) throw new ProfileError(`dataset does not match generateDataset output: ${what}`);
}

function dataBytes(account: AccountRecord): Buffer | null {
  return account.data === null ? null : Buffer.from(account.data.data, "base64");
}

function b58(bytes: readonly number[]): string {
  return encodeBase58(Uint8Array.from(bytes));
}

export function datasetProfile(dataset: Dataset): DatasetProfile {
  const seed = dataset.seed;
  if (seed === null) throw new ProfileError("dataset has no seed: only generated datasets have a profile");
  const key = (role: string) => roleKey(seed, role).text;
  const owners = {
    many: key("ownerWithManyAccounts"),
    w1000: key("ownerWith1000"),
    w1001: key("ownerWith1001"),
    one: key("ownerWithOneAccount"),
    onlySpent: key("ownerWithOnlySpentAccounts"),
    memcmp: key("memcmpOwner"),
  };
  const unspent = new Map<string, number>();
  const spent = new Map<string, number>();
  const manyLeaves = new Map<number, number>();
  const memcmpData: (Buffer | null)[] = [];
  const addressHolder = new Map<string, string>();
  let unspentTotal = 0;
  let known: AccountRecord | undefined;
  let spentWithAddress: AccountRecord | undefined;
  let oneAccount: AccountRecord | undefined;
  let bigLamports: AccountRecord | undefined;
  for (const a of dataset.accounts) {
    const counter = a.spent ? spent : unspent;
    counter.set(a.owner, (counter.get(a.owner) ?? 0) + 1);
    if (a.spent) {
      if (a.owner === owners.w1000 && a.address !== null) spentWithAddress ??= a;
      continue;
    }
    unspentTotal++;
    if (a.address !== null) addressHolder.set(a.address, a.hash);
    if (a.owner === owners.w1000 && a.address !== null && a.data !== null) known ??= a;
    if (a.owner === owners.one) oneAccount = a;
    if (a.owner === owners.many) manyLeaves.set(a.leafIndex, (manyLeaves.get(a.leafIndex) ?? 0) + 1);
    if (a.owner === owners.memcmp) memcmpData.push(dataBytes(a));
    if (a.lamports === U64_MAX && a.data?.discriminator === U64_MAX) bigLamports = a;
  }
  const count = (owner: string) => unspent.get(owner) ?? 0;
  for (const [name, role] of Object.entries(OWNER_ROLES)) {
    const owner = key(name);
    expect(count(owner) === role.unspent, `${name} has ${count(owner)} unspent accounts, not ${role.unspent}`);
    expect((spent.get(owner) ?? 0) === role.spent, `${name} has ${spent.get(owner) ?? 0} spent accounts, not ${role.spent}`);
  }
  expect(known !== undefined && spentWithAddress !== undefined && oneAccount !== undefined && bigLamports !== undefined, "a role account is missing");
  const one = oneAccount as AccountRecord;
  expect(one.address === null && one.data === null && one.seq === null, "ownerWithOneAccount's account does not have null address, data and seq");
  const spentAccount = spentWithAddress as AccountRecord;
  expect(!addressHolder.has(spentAccount.address as string), "spentAddress is held by an unspent account");
  const updated = dataset.accounts.find((a) => a.spent && a.address !== null && addressHolder.has(a.address));
  expect(updated !== undefined, "no updated address");
  const updatedAddress = (updated as AccountRecord).address as string;
  const tied = [...manyLeaves.values()].filter((n) => n > 1).length;
  expect(tied >= OWNER_ROLES.ownerWithManyAccounts.tiePairs, "ownerWithManyAccounts lacks leafIndex ties");

  const memcmpCase = (offset: number, bytes: readonly number[]): MemcmpCase => {
    const wanted = Buffer.from(bytes);
    const n = memcmpData.filter((d) => d?.subarray(offset, offset + wanted.length).equals(wanted)).length;
    return { offset, bytes: b58(bytes), count: n };
  };
  const discriminatorLe = Buffer.alloc(8);
  discriminatorLe.writeBigUInt64LE(MEMCMP.discriminator);
  const filters = [
    memcmpCase(0, MEMCMP.prefixA),
    memcmpCase(0, MEMCMP.prefixA.slice(0, 2)),
    memcmpCase(2, MEMCMP.prefixB.slice(2, 3)),
    memcmpCase(0, MEMCMP.short),
    memcmpCase(0, MEMCMP.absent),
    memcmpCase(0, [...discriminatorLe]),
  ];
  const [matching, , , , nonMatching] = filters as [MemcmpCase, MemcmpCase, MemcmpCase, MemcmpCase, MemcmpCase, MemcmpCase];
  expect(matching.count === MEMCMP.countA && nonMatching.count === 0, "memcmp prefixes do not match their counts");

  const tokens = tokenFacts(dataset, seed);
  return {
    seed,
    slot: dataset.slot,
    tokenProgram: TOKEN_PROGRAM,
    counts: { accounts: dataset.accounts.length, unspentAccounts: unspentTotal, tokenAccounts: dataset.tokens.length, signatures: dataset.signatures.length },
    ownerWithManyAccounts: { owner: owners.many, unspent: count(owners.many) },
    ownerWithLeafIndexTies: { owner: owners.many, tiedLeafIndexes: tied },
    ownerWith1000: { owner: owners.w1000, unspent: count(owners.w1000) },
    ownerWith1001: { owner: owners.w1001, unspent: count(owners.w1001) },
    ownerWithOneAccount: { owner: owners.one, unspent: 1, hash: one.hash },
    ownerWithOnlySpentAccounts: { owner: owners.onlySpent, spent: spent.get(owners.onlySpent) ?? 0 },
    ownerWithNoAccounts: key("ownerWithNoAccounts"),
    memcmpOwner: { owner: owners.memcmp, unspent: memcmpData.length, withData: memcmpData.filter((d) => d !== null).length, matching, nonMatching, filters },
    ...tokens,
    knownHash: (known as AccountRecord).hash,
    knownAddress: (known as AccountRecord).address as string,
    spentHash: spentAccount.hash,
    spentAddress: spentAccount.address as string,
    updatedAddress: { address: updatedAddress, spentHash: (updated as AccountRecord).hash, hash: addressHolder.get(updatedAddress) as string },
    unknownHash: roleHash(seed, "unknownHash").text,
    unknownAddress: key("unknownAddress"),
    accountWithBigLamports: { hash: (bigLamports as AccountRecord).hash, lamports: U64_MAX, discriminator: U64_MAX },
  };
}

type TokenFacts = Pick<
  DatasetProfile,
  | "tokenOwnerWithManyMints"
  | "tokenOwnerWith1000TokenAccounts"
  | "tokenOwnerWith1001TokenAccounts"
  | "tokenOwnerWithOneAccount"
  | "ownerWithZeroBalance"
  | "tokenOwnerWithBigAmounts"
  | "tokenOwnerWithNoAccounts"
  | "tokenAccountWithMaxAmount"
>;

function tokenFacts(dataset: Dataset, seed: number): TokenFacts {
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
  const balances = new Map<string, Map<string, bigint>>();
  let oneHash: string | undefined;
  let maxAmount: string | undefined;
  for (const t of dataset.tokens) {
    if (!roleOwners.has(t.owner)) continue;
    ownerOf.set(t.hash, t.owner);
    const perMint = balances.get(t.owner) ?? new Map<string, bigint>();
    balances.set(t.owner, perMint);
    const isSpent = spentHashes.has(t.hash);
    perMint.set(t.mint, (perMint.get(t.mint) ?? 0n) + (isSpent ? 0n : BigInt(t.amount)));
    if (isSpent) continue;
    unspent.set(t.owner, (unspent.get(t.owner) ?? 0) + 1);
    if (t.owner === owners.one && t.delegate !== null && t.tlv !== null && t.state === "frozen") oneHash = t.hash;
    if (t.owner === owners.big && t.amount === U64_MAX) maxAmount = t.hash;
  }
  const signatures = new Map<string, number>();
  const slots1000: number[] = [];
  for (const s of dataset.signatures) {
    const touched = new Set(s.accounts.map((h) => ownerOf.get(h)).filter((o): o is string => o !== undefined));
    for (const o of touched) signatures.set(o, (signatures.get(o) ?? 0) + 1);
    if (touched.has(owners.t1000)) slots1000.push(s.slot);
  }
  const newest = Math.max(...slots1000);
  const sharedSlot = slots1000.filter((s) => s === newest).length;
  const mintsOf = (owner: string) => balances.get(owner) ?? new Map<string, bigint>();
  const u = (owner: string) => unspent.get(owner) ?? 0;
  const mint1000 = key("mintOf1000");
  const zeroMint = key("zeroBalanceMint");
  const maxMint = key("bigAmountMint");
  const sumMint = key("bigSumMint");
  expect(mintsOf(owners.many).size === TOKEN_ROLES.manyMints, "tokenOwnerWithManyMints has the wrong number of mints");
  expect(
    u(owners.t1000) === TOKEN_ROLES.with1000.unspent && mintsOf(owners.t1000).size === 1,
    "tokenOwnerWith1000TokenAccounts is not 1000 accounts of one mint",
  );
  expect(
    u(owners.t1001) === TOKEN_ROLES.with1001 && mintsOf(owners.t1001).size === TOKEN_ROLES.with1001,
    "tokenOwnerWith1001TokenAccounts is not 1001 accounts of 1001 mints",
  );
  expect(sharedSlot >= TOKEN_ROLES.with1000.spent, "the last slot does not hold tokenOwnerWith1000TokenAccounts' spend signatures");
  expect(mintsOf(owners.zero).get(zeroMint) === 0n, "ownerWithZeroBalance's mint does not have a zero balance");
  expect(mintsOf(owners.big).get(maxMint) === U64_MAX, "bigAmountMint does not sum to u64::MAX");
  expect(oneHash !== undefined && maxAmount !== undefined, "a role token account is missing");
  const sumBalance = mintsOf(owners.big).get(sumMint) ?? 0n;
  return {
    tokenOwnerWithManyMints: { owner: owners.many, mints: mintsOf(owners.many).size, mint: key("manyMints:7"), unspent: u(owners.many) },
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
      mints: mintsOf(owners.t1001).size,
      signatures: signatures.get(owners.t1001) ?? 0,
    },
    tokenOwnerWithOneAccount: { owner: owners.one, hash: oneHash as string },
    ownerWithZeroBalance: { owner: owners.zero, mint: zeroMint },
    tokenOwnerWithBigAmounts: { owner: owners.big, maxMint, maxBalance: U64_MAX, sumMint, sumBalance: sumBalance },
    tokenOwnerWithNoAccounts: key("tokenOwnerWithNoAccounts"),
    tokenAccountWithMaxAmount: maxAmount as string,
  };
}
