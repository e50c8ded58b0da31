/**
 * The roles of a generated dataset: fixed entities built into the random bulk, each covering an edge the conformance
 * suite checks. Each role module holds a family's keys, planned entities and profile facts; this index composes them.
 * The profile holds bigints (u64 values above 2^53): serialise it with `stringifyJson`.
 */
import { TOKEN_PROGRAM } from "../records.js";
import type { Dataset, TreeType } from "../records.js";
import { type AddressFacts, addressFacts, addressHistoryPlan, HISTORY_OWNER, historyMerkleContext } from "./addresses.js";
import { BATCHED_OWNER, type BatchedFacts, batchedFacts, batchedPlan } from "./batched.js";
import { type MerkleContextFacts, ProfileError, RoleRecords } from "./facts.js";
import { type HolderFacts, holderFacts, holdersPlan } from "./holders.js";
import { MEMCMP_OWNER, type MemcmpFacts, memcmpFacts, memcmpPlan } from "./memcmp.js";
import { bigBalancePlan, churnedOwners, type OwnerFacts, ownerFacts, ownerMerkleContexts, ownerPlan, PROGRAM_OWNER_ROLES } from "./owners.js";
import type { RoleEntry } from "./plan.js";
import { churnedTokenOwners, type TokenFacts, tokenFacts, tokenPlan } from "./tokens.js";

export type { MemcmpCase } from "./memcmp.js";
export type { MerkleContextFacts } from "./facts.js";

/** Every role's planned entities, in the order the generator takes them (its output depends on it). */
export function roleEntries(seed: number): RoleEntry[] {
  return [
    ...ownerPlan(seed),
    ...memcmpPlan(seed),
    ...batchedPlan(seed),
    ...addressHistoryPlan(seed),
    ...bigBalancePlan(seed),
    ...tokenPlan(seed),
    ...holdersPlan(seed),
  ];
}

export interface DatasetProfile extends OwnerFacts, BatchedFacts, AddressFacts, MemcmpFacts, TokenFacts, HolderFacts {
  seed: number;
  /** The indexed slot: what every answer's context states and the slot method answers. */
  slot: number;
  /** `account.owner` of every token account. */
  tokenProgram: string;
  counts: { accounts: number; unspentAccounts: number; tokenAccounts: number; signatures: number; addresses: number };
  /** The dataset's trees by type (stateless.js's localnet keys): V1 and batched state trees, the V1 and batched address trees. */
  trees: { stateV1: string[]; stateV2: string[]; addressV1: string; addressV2: string };
  /**
   * The `merkleContext` of role accounts as a V2 answer carries it (src/common/typedefs/account/v2.rs:99-109):
   * `knownHash`'s, `ownerWithOneAccount.hash`'s and that of the current version of `addressWithHistory`.
   * `treeType` is Light Protocol's tree type code.
   */
  merkleContexts: { knownHash: MerkleContextFacts; ownerWithOneAccount: MerkleContextFacts; addressWithHistory: MerkleContextFacts };
}

/**
 * The notable entities of a generated dataset with the facts a conformance suite relies on: role keys re-derived
 * from the seed, every fact computed from the records and checked against the plan (ProfileError otherwise).
 */
export function datasetProfile(dataset: Dataset): DatasetProfile {
  const seed = dataset.seed;
  if (seed === null) throw new ProfileError("dataset has no seed: only generated datasets have a profile");
  const records = new RoleRecords(dataset, seed, [...PROGRAM_OWNER_ROLES, MEMCMP_OWNER, BATCHED_OWNER, HISTORY_OWNER]);
  const o = ownerFacts(records);
  const a = addressFacts(records);
  const m = memcmpFacts(records);
  const b = batchedFacts(records);
  const t = tokenFacts(records);
  const h = holderFacts(records);
  const trees = (type: TreeType) => dataset.trees.filter((x) => x.type === type).map((x) => x.tree);
  // Key order is the profile's bytes (fixtures files): keep it.
  return {
    seed,
    slot: dataset.slot,
    tokenProgram: TOKEN_PROGRAM,
    counts: {
      accounts: dataset.accounts.length,
      unspentAccounts: records.unspentTotal,
      tokenAccounts: dataset.tokens.length,
      signatures: dataset.signatures.length,
      addresses: dataset.addresses.length,
    },
    trees: { stateV1: trees("StateV1"), stateV2: trees("StateV2"), addressV1: trees("AddressV1")[0] ?? "", addressV2: trees("AddressV2")[0] ?? "" },
    ownerWithManyAccounts: o.ownerWithManyAccounts,
    ownerWithLeafIndexTies: o.ownerWithLeafIndexTies,
    ownerWith1000: o.ownerWith1000,
    ownerWith1001: o.ownerWith1001,
    ownerWithOneAccount: o.ownerWithOneAccount,
    ownerWithOnlySpentAccounts: o.ownerWithOnlySpentAccounts,
    ownerWithNoAccounts: o.ownerWithNoAccounts,
    ownerWithBigBalance: o.ownerWithBigBalance,
    ownerWithBatchedAccounts: b.ownerWithBatchedAccounts,
    addressWithHistory: a.addressWithHistory,
    closedAccount: a.closedAccount,
    memcmpOwner: m.memcmpOwner,
    tokenOwnerWithManyMints: t.tokenOwnerWithManyMints,
    tokenOwnerWith1000TokenAccounts: t.tokenOwnerWith1000TokenAccounts,
    tokenOwnerWith1001TokenAccounts: t.tokenOwnerWith1001TokenAccounts,
    tokenOwnerWithOneAccount: t.tokenOwnerWithOneAccount,
    ownerWithZeroBalance: t.ownerWithZeroBalance,
    tokenOwnerWithBigAmounts: t.tokenOwnerWithBigAmounts,
    tokenOwnerWithNoAccounts: t.tokenOwnerWithNoAccounts,
    tokenAccountWithMaxAmount: t.tokenAccountWithMaxAmount,
    delegateWithManyAccounts: h.delegateWithManyAccounts,
    mintWithManyHolders: h.mintWithManyHolders,
    knownHash: o.knownHash,
    knownAddress: o.knownAddress,
    spentHash: o.spentHash,
    spentAddress: o.spentAddress,
    updatedAddress: a.updatedAddress,
    unknownHash: o.unknownHash,
    unknownAddress: a.unknownAddress,
    accountWithBigLamports: o.accountWithBigLamports,
    knownLamports: o.knownLamports,
    merkleContexts: { ...ownerMerkleContexts(records, o), addressWithHistory: historyMerkleContext(records, a) },
    delegatedMint: h.delegatedMint,
    tokenAccountWithAddress: t.tokenAccountWithAddress,
    batchedQueues: b.batchedQueues,
    batchedAccountClosed: b.batchedAccountClosed,
    tokenAccountOpened: t.tokenAccountOpened,
  };
}

/** The owners whose lists the live stream moves with their counts kept: each role module names its own. */
export function churnedRoles(profile: DatasetProfile): { owners: string[]; tokenOwners: string[] } {
  return { owners: churnedOwners(profile), tokenOwners: churnedTokenOwners(profile) };
}
