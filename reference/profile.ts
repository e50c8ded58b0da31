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
import type { AccountRecord, Dataset, TreeRecord, TreeType, U64 } from "./records.js";
import { TREE_TYPE_CODE } from "./trees/forest.js";
import { ADDRESS_HISTORY, BATCHED_ROLE, BIG_BALANCE, MEMCMP, OWNER_ROLES, roleAddress, roleHash, roleKey } from "./roles.js";
import { ProfileError, expect } from "./profile-check.js";
import { delegatedMintFacts, tokenFacts } from "./profile-tokens.js";
import type { DatasetProfile, MemcmpCase, MerkleContextFacts } from "./profile-types.js";

export type { DatasetProfile, MemcmpCase, MerkleContextFacts } from "./profile-types.js";

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
