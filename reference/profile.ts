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
import { TOKEN_PROGRAM, U64_MAX, u64 } from "./records.js";
import { RefErrorCode, ReferenceIndexerError } from "./errors.js";
import type { AccountRecord, Dataset, TreeRecord, TreeType, U64 } from "./records.js";
import { TREE_TYPE_CODE } from "./trees/forest.js";
import {
  ADDRESS_HISTORY,
  BATCHED_ROLE,
  BIG_BALANCE,
  HOLDERS,
  MEMCMP,
  OWNER_ROLES,
  TOKEN_ROLES,
  ZERO_BALANCE,
  roleAddress,
  roleHash,
  roleKey,
} from "./roles.js";

/** A memcmp filter of getCompressedAccountsByOwner and how many of the owner's unspent accounts it matches. */
export interface MemcmpCase {
  offset: number;
  /** Base58 of the compared bytes. */
  bytes: string;
  count: number;
}

export interface DatasetProfile {
  seed: number;
  /** The indexed slot: what every answer's context states and the slot method answers. */
  slot: number;
  /** `account.owner` of every token account. */
  tokenProgram: string;
  counts: { accounts: number; unspentAccounts: number; tokenAccounts: number; signatures: number; addresses: number };
  /** The dataset's trees by type (stateless.js's localnet keys): V1 and batched state trees, the V1 and batched address trees. */
  trees: { stateV1: string[]; stateV2: string[]; addressV1: string; addressV2: string };

  /**
   * A program owner with 2500 unspent accounts (several default pages) and some spent ones.
   * `signatures`: the transactions opening or closing its accounts (more than one page of
   * getCompressionSignaturesForOwner). Its unspent lamports sum above u64::MAX (`lamportsOverflow`):
   * Photon's u64 balance sum cannot hold them.
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
  /**
   * Accounts in batched (StateV2) state trees, every one with `seq` null as Photon sends it: `inTree` unspent and
   * appended to the tree (proveByIndex false), `inOutputQueue` unspent and still in the output queue (proveByIndex
   * true), `inInputQueue` spent and still in the input queue, `nullified` spent and nullified in the tree. Hashes
   * by (tree, leaf index).
   */
  ownerWithBatchedAccounts: { owner: string; unspent: number; inTree: string[]; inOutputQueue: string[]; inInputQueue: string[]; nullified: string[] };
  /**
   * One address held by `hashes.length` versions in turn (oldest first; the last is unspent), each
   * update one transaction closing the old version and opening the new: `signatures` (oldest first)
   * is what getCompressionSignaturesForAddress finds.
   */
  addressWithHistory: { address: string; owner: string; hashes: string[]; signatures: string[] };
  /** A spent account with the transaction that opened it and the later one that closed it. */
  closedAccount: { hash: string; openedBy: string; closedBy: string };

  /**
   * A program owner whose data starts with known prefixes. `filters` lists memcmp cases with
   * their match counts over the owner's `unspent` accounts (data null never matches);
   * `matching` and `nonMatching` are one of each (the latter matches nothing, even though
   * its bytes equal the owner's discriminator in one case: filters see data only).
   */
  memcmpOwner: { owner: string; unspent: number; withData: number; matching: MemcmpCase; nonMatching: MemcmpCase; filters: MemcmpCase[] };

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
  /** A delegate of more than a page of unspent token accounts (`unspent`), over `mints` mints; `spent` more are spent. */
  delegateWithManyAccounts: { delegate: string; unspent: number; mints: number; spent: number };
  /**
   * A mint with more than a page of holders (`holders`, token owners with a balance row of the mint,
   * `zeroBalanceHolders` of them at 0 after spending): `tiedHolders` holders share their balance with another,
   * and `topHolder`'s balance is above 2^53. `supply`: the sum of the amounts of the mint's unspent token
   * accounts in the dataset (brute force over the records), which the holders' balances sum to.
   */
  mintWithManyHolders: {
    mint: string;
    holders: number;
    zeroBalanceHolders: number;
    tiedHolders: number;
    topHolder: { owner: string; balance: U64 };
    supply: U64;
  };

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
  /** A valid address of no account, in no address tree (first byte 0, as Light derives addresses: a valid new address). */
  unknownAddress: string;
  /** An unspent account with lamports = u64::MAX and discriminator = u64::MAX. */
  accountWithBigLamports: { hash: string; lamports: U64; discriminator: U64 };
  /** An unspent token account with amount = u64::MAX. */
  tokenAccountWithMaxAmount: string;

  /** The lamports of `knownHash`'s account (what a balance lookup of `knownAddress` or `knownHash` answers). */
  knownLamports: U64;
  /**
   * The `merkleContext` of role accounts as a V2 answer carries it (src/common/typedefs/account/v2.rs:99-109):
   * `knownHash`'s (whichever state tree holds it), `ownerWithOneAccount.hash`'s (a batched state tree and its output
   * queue) and that of the current (last) version of `addressWithHistory` (a V1 state tree and its nullifier queue).
   * `treeType` is Light Protocol's tree type code.
   */
  merkleContexts: { knownHash: MerkleContextFacts; ownerWithOneAccount: MerkleContextFacts; addressWithHistory: MerkleContextFacts };
  /**
   * delegateWithManyAccounts' second mint: `unspent` unspent token accounts of it delegated to `delegate`, and `spent`
   * spent ones. The delegate's other unspent accounts are all of `mintWithManyHolders.mint`.
   */
  delegatedMint: { delegate: string; mint: string; unspent: number; spent: number };
  /** An unspent token account with an address of its own (`account.address`) and a non-zero `amount`. */
  tokenAccountWithAddress: { hash: string; address: string; amount: U64 };
  /**
   * The queues of the batched trees (getQueueElements, getQueueInfo). `stateTree` (the batched state tree of
   * `ownerWithBatchedAccounts.inOutputQueue[0]`) has `outputQueued` accounts in its output queue, the first at leaf
   * `outputFirstIndex` (above 0, so a `startIndex` of 0 is before it), and `inputQueued` spent accounts in its input
   * queue; `addressTree` (the batched address tree) has `addressQueued` addresses in its queue, `queuedAddress` the
   * first (oldest) of them. Each queue holds at least 4 elements.
   */
  batchedQueues: {
    stateTree: string;
    outputQueued: number;
    outputFirstIndex: number;
    inputQueued: number;
    addressTree: string;
    addressQueued: number;
    queuedAddress: string;
  };
  /** `ownerWithBatchedAccounts.inInputQueue[0]` and the transaction that spent it (its batched tree records its nullifier and tx hash). */
  batchedAccountClosed: { hash: string; closedBy: string };
  /** `tokenOwnerWithOneAccount.hash` and the transaction that created it. */
  tokenAccountOpened: { hash: string; openedBy: string };
}

/** An account's tree as a V2 answer's `merkleContext` names it. */
export interface MerkleContextFacts {
  treeType: number;
  tree: string;
  queue: string;
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
    bigBalance: key("ownerWithBigBalance"),
    batched: key("ownerWithBatchedAccounts"),
    history: key("ownerWithAddressHistory"),
  };
  const treeType = new Map<string, TreeType>(dataset.trees.map((t) => [t.tree, t.type]));
  const manyHashes = new Set<string>();
  let manyLamports = 0n;
  let bigBalance = 0n;
  const batched = {
    inTree: [] as AccountRecord[],
    inOutputQueue: [] as AccountRecord[],
    inInputQueue: [] as AccountRecord[],
    nullified: [] as AccountRecord[],
  };
  const historyAccounts: AccountRecord[] = [];
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
    if (a.owner === owners.many) manyHashes.add(a.hash);
    else if (a.owner === owners.history) historyAccounts.push(a);
    else if (a.owner === owners.batched && treeType.get(a.tree) === "StateV2") {
      const place = a.spent ? (a.inInputQueue ? "inInputQueue" : "nullified") : a.inOutputQueue ? "inOutputQueue" : "inTree";
      batched[place].push(a);
    }
    if (a.spent) {
      if (a.owner === owners.w1000 && a.address !== null) spentWithAddress ??= a;
      continue;
    }
    unspentTotal++;
    if (a.address !== null) addressHolder.set(a.address, a.hash);
    if (a.owner === owners.w1000 && a.address !== null && a.data !== null) known ??= a;
    if (a.owner === owners.one) oneAccount = a;
    if (a.owner === owners.bigBalance) bigBalance += BigInt(a.lamports);
    if (a.owner === owners.many) manyLamports += BigInt(a.lamports);
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
  expect(
    one.address === null && one.data === null && one.seq === null && one.inOutputQueue,
    "ownerWithOneAccount's account does not have null address, data and seq, in an output queue",
  );
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

  const byLeaf = (list: AccountRecord[]) => list.sort((a, b) => (a.tree < b.tree ? -1 : a.tree > b.tree ? 1 : a.leafIndex - b.leafIndex)).map((a) => a.hash);
  for (const place of ["inTree", "inOutputQueue", "inInputQueue", "nullified"] as const) {
    expect(
      batched[place].length === BATCHED_ROLE[place],
      `ownerWithBatchedAccounts has ${batched[place].length} accounts ${place}, not ${BATCHED_ROLE[place]}`,
    );
  }
  const bigBalanceExpected = BIG_BALANCE.lamports.reduce((sum, l) => sum + l, 0n);
  expect(bigBalance === bigBalanceExpected, "ownerWithBigBalance's unspent lamports do not sum as planned");

  // One pass over transactions: the many-accounts owner's, the address history's, and who opened and closed each history version.
  const historyHashes = new Set(historyAccounts.map((a) => a.hash));
  let manySignatures = 0;
  const historySignatures: string[] = [];
  const openedBy = new Map<string, string>();
  const closedBy = new Map<string, string>();
  /** The version each history transaction opened after closing the previous one. */
  const nextVersion = new Map<string, string>();
  for (const sig of dataset.signatures) {
    if (sig.opened.some((h) => manyHashes.has(h)) || sig.closed.some((h) => manyHashes.has(h))) manySignatures++;
    const opened = sig.opened.filter((h) => historyHashes.has(h));
    const closed = sig.closed.filter((h) => historyHashes.has(h));
    if (opened.length + closed.length === 0) continue;
    historySignatures.push(sig.signature);
    for (const h of opened) openedBy.set(h, sig.signature);
    for (const h of closed) closedBy.set(h, sig.signature);
    if (opened.length === 1 && closed.length === 1) nextVersion.set(closed[0] as string, opened[0] as string);
  }
  const successors = new Set(nextVersion.values());
  const firstVersion = historyAccounts.find((a) => !successors.has(a.hash));
  const chain: string[] = [];
  for (let h = firstVersion?.hash; h !== undefined; h = nextVersion.get(h)) chain.push(h);
  const address = historyAccounts[0]?.address ?? null;
  expect(
    chain.length === ADDRESS_HISTORY.versions && address !== null && historyAccounts.every((a) => a.address === address),
    "ownerWithAddressHistory's versions do not form one chain of one address",
  );
  expect(
    historyAccounts.filter((a) => !a.spent).length === 1 && chain.at(-1) === historyAccounts.find((a) => !a.spent)?.hash,
    "the address history does not end in its one unspent version",
  );
  // Oldest first: the chain order (same-slot transactions sort by signature, not by execution).
  const chainSignatures = [openedBy.get(chain[0] as string) as string, ...chain.slice(0, -1).map((h) => closedBy.get(h) as string)];
  expect(
    chainSignatures.length === historySignatures.length && chainSignatures.every((s) => historySignatures.includes(s)),
    "the address history's transactions are not its updates",
  );
  const closedHash = chain[1] as string;
  const sigSlot = new Map(
    dataset.signatures.filter((x) => x.signature === openedBy.get(closedHash) || x.signature === closedBy.get(closedHash)).map((x) => [x.signature, x.slot]),
  );
  const openSlot = sigSlot.get(openedBy.get(closedHash) as string);
  const closeSlot = sigSlot.get(closedBy.get(closedHash) as string);
  expect(openSlot !== undefined && closeSlot !== undefined && openSlot <= closeSlot, "closedAccount is not opened before it is closed");

  const trees = (type: TreeType) => dataset.trees.filter((t) => t.type === type).map((t) => t.tree);
  const tokens = tokenFacts(dataset, seed);
  return {
    seed,
    slot: dataset.slot,
    tokenProgram: TOKEN_PROGRAM,
    counts: {
      accounts: dataset.accounts.length,
      unspentAccounts: unspentTotal,
      tokenAccounts: dataset.tokens.length,
      signatures: dataset.signatures.length,
      addresses: dataset.addresses.length,
    },
    trees: { stateV1: trees("StateV1"), stateV2: trees("StateV2"), addressV1: trees("AddressV1")[0] ?? "", addressV2: trees("AddressV2")[0] ?? "" },
    ownerWithManyAccounts: { owner: owners.many, unspent: count(owners.many), signatures: manySignatures, lamportsOverflow: manyLamports > U64_MAX },
    ownerWithLeafIndexTies: { owner: owners.many, tiedLeafIndexes: tied },
    ownerWith1000: { owner: owners.w1000, unspent: count(owners.w1000) },
    ownerWith1001: { owner: owners.w1001, unspent: count(owners.w1001) },
    ownerWithOneAccount: { owner: owners.one, unspent: 1, hash: one.hash },
    ownerWithOnlySpentAccounts: { owner: owners.onlySpent, spent: spent.get(owners.onlySpent) ?? 0 },
    ownerWithNoAccounts: key("ownerWithNoAccounts"),
    ownerWithBigBalance: { owner: owners.bigBalance, unspent: count(owners.bigBalance), balance: u64(bigBalance) },
    ownerWithBatchedAccounts: {
      owner: owners.batched,
      unspent: count(owners.batched),
      inTree: byLeaf(batched.inTree),
      inOutputQueue: byLeaf(batched.inOutputQueue),
      inInputQueue: byLeaf(batched.inInputQueue),
      nullified: byLeaf(batched.nullified),
    },
    addressWithHistory: { address: address as string, owner: owners.history, hashes: chain, signatures: chainSignatures },
    closedAccount: { hash: closedHash, openedBy: openedBy.get(closedHash) as string, closedBy: closedBy.get(closedHash) as string },
    memcmpOwner: { owner: owners.memcmp, unspent: memcmpData.length, withData: memcmpData.filter((d) => d !== null).length, matching, nonMatching, filters },
    ...tokens,
    knownHash: (known as AccountRecord).hash,
    knownAddress: (known as AccountRecord).address as string,
    spentHash: spentAccount.hash,
    spentAddress: spentAccount.address as string,
    updatedAddress: { address: updatedAddress, spentHash: (updated as AccountRecord).hash, hash: addressHolder.get(updatedAddress) as string },
    unknownHash: roleHash(seed, "unknownHash").text,
    unknownAddress: roleAddress(seed, "unknownAddress").text,
    accountWithBigLamports: { hash: (bigLamports as AccountRecord).hash, lamports: U64_MAX, discriminator: U64_MAX },
    knownLamports: (known as AccountRecord).lamports,
    merkleContexts: {
      knownHash: merkleContextFacts(dataset, known as AccountRecord),
      ownerWithOneAccount: merkleContextFacts(dataset, one, "StateV2"),
      addressWithHistory: merkleContextFacts(dataset, historyAccounts.find((a) => !a.spent) as AccountRecord, "StateV1"),
    },
    delegatedMint: delegatedMintFacts(dataset, seed),
    tokenAccountWithAddress: tokenAccountWithAddressFacts(dataset),
    batchedQueues: batchedQueueFacts(dataset, byLeaf([...batched.inOutputQueue])[0] as string),
    batchedAccountClosed: ((hash) => ({ hash, closedBy: transactionOf(dataset, hash, "closed") }))(byLeaf([...batched.inInputQueue])[0] as string),
    tokenAccountOpened: ((hash) => ({ hash, openedBy: transactionOf(dataset, hash, "opened") }))(tokens.tokenOwnerWithOneAccount.hash),
  };
}

/** The one transaction of the dataset that opened (created) or closed (spent) account `hash`. */
function transactionOf(dataset: Dataset, hash: string, side: "opened" | "closed"): string {
  const found = dataset.signatures.filter((s) => s[side].includes(hash));
  expect(found.length === 1, `account ${hash} is ${side} by ${found.length} transactions, not one`);
  return found[0]?.signature as string;
}

/** The queues of the batched state tree holding the account `queuedHash` and of the batched address tree (DatasetProfile.batchedQueues). */
function batchedQueueFacts(dataset: Dataset, queuedHash: string): DatasetProfile["batchedQueues"] {
  const stateTree = dataset.accounts.find((a) => a.hash === queuedHash)?.tree ?? "";
  const output = dataset.accounts.filter((a) => a.tree === stateTree && a.inOutputQueue);
  const inputQueued = dataset.accounts.filter((a) => a.tree === stateTree && a.spent && a.inInputQueue).length;
  const addressTree = dataset.trees.find((t) => t.type === "AddressV2")?.tree ?? "";
  const queued = dataset.addresses.filter((a) => a.tree === addressTree && a.queued);
  const outputFirstIndex = Math.min(...output.map((a) => a.leafIndex));
  expect(
    output.length >= 4 && inputQueued >= 4 && queued.length >= 4 && outputFirstIndex > 0,
    `the batched queues hold ${output.length} output, ${inputQueued} input and ${queued.length} address elements (at least 4 each), the output queue starting at ${outputFirstIndex}`,
  );
  return {
    stateTree,
    outputQueued: output.length,
    outputFirstIndex,
    inputQueued,
    addressTree,
    addressQueued: queued.length,
    queuedAddress: queued[0]?.address as string,
  };
}

/** The first unspent token account (dataset order) that has an address and a non-zero amount. */
function tokenAccountWithAddressFacts(dataset: Dataset): DatasetProfile["tokenAccountWithAddress"] {
  const withAddress = new Map(
    dataset.accounts.filter((a) => !a.spent && a.owner === TOKEN_PROGRAM && a.address !== null).map((a) => [a.hash, a.address as string]),
  );
  const token = dataset.tokens.find((t) => withAddress.has(t.hash) && BigInt(t.amount) !== 0n);
  expect(token !== undefined, "no unspent token account has an address and a non-zero amount");
  const { hash, amount } = token as { hash: string; amount: U64 };
  return { hash, address: withAddress.get(hash) as string, amount };
}

/** The `merkleContext` facts of `account`: its tree's type code and queue (the tree of type `type` when given). */
function merkleContextFacts(dataset: Dataset, account: AccountRecord, want?: TreeType): MerkleContextFacts {
  const tree = dataset.trees.find((t) => t.tree === account.tree);
  expect(
    tree !== undefined && (want === undefined || tree.type === want),
    `the tree of account ${account.hash} is not a ${want ?? "known"} tree of the dataset`,
  );
  const { type, queue } = tree as TreeRecord;
  return { treeType: TREE_TYPE_CODE[type], tree: account.tree, queue };
}

/** delegateWithManyAccounts' second mint (role key `delegatedMint2`) and its delegated token accounts, unspent and spent. */
function delegatedMintFacts(dataset: Dataset, seed: number): DatasetProfile["delegatedMint"] {
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
  | "delegateWithManyAccounts"
  | "mintWithManyHolders"
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
