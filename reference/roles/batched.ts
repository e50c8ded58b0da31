/** Batched-tree roles: an owner with accounts in each place a batched state tree holds them, and the queues of the batched trees. */
import { BATCHED_TREE } from "../dataset-trees.js";
import type { AccountRecord } from "../records.js";
import { expect, type RoleRecords, transactionOf } from "./facts.js";
import { roleKey } from "./keys.js";
import { account, type RoleEntry, repeat } from "./plan.js";

/** The owner of accounts in batched state trees, in each place a batched account can be. */
export const BATCHED_ROLE = {
  /** Unspent, appended to the tree (proved by a path, proveByIndex false). `seq` is null, as for every batched account. */
  inTree: 3,
  /** Unspent, created last: still in the tree's output queue (`inOutputQueue`; proveByIndex true). */
  inOutputQueue: 3,
  /** Spent in the dataset's last slot: still in the tree's input queue (`inInputQueue`). */
  inInputQueue: 2,
  /** Spent early: nullified in the tree. */
  nullified: 1,
} as const;

const PLACES = ["inTree", "inOutputQueue", "inInputQueue", "nullified"] as const;

export const BATCHED_OWNER = "ownerWithBatchedAccounts";

export function batchedPlan(seed: number): RoleEntry[] {
  const owner = roleKey(seed, BATCHED_OWNER);
  const tree = BATCHED_TREE;
  return [
    ...repeat(BATCHED_ROLE.inTree, () => account(owner, false, { tree, when: "early" })),
    ...repeat(BATCHED_ROLE.inOutputQueue, () => account(owner, false, { tree, when: "tail" })),
    ...repeat(BATCHED_ROLE.inInputQueue, () => account(owner, true, { tree, when: "early", close: "late" })),
    ...repeat(BATCHED_ROLE.nullified, () => account(owner, true, { tree, when: "early", close: "early" })),
  ];
}

export interface BatchedFacts {
  /**
   * Accounts in batched state trees, `seq` null: `inTree` unspent in the tree, `inOutputQueue` unspent in
   * the output queue, `inInputQueue` spent in the input queue, `nullified` spent and nullified. By (tree, leaf index).
   */
  ownerWithBatchedAccounts: { owner: string; unspent: number; inTree: string[]; inOutputQueue: string[]; inInputQueue: string[]; nullified: string[] };
  /**
   * The batched trees' queues: `stateTree` has `outputQueued` accounts in its output queue from leaf
   * `outputFirstIndex` (> 0) and `inputQueued` in its input queue; `addressTree` has `addressQueued`
   * addresses, `queuedAddress` the oldest. Each queue holds at least 4 elements.
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
}

export function batchedFacts(records: RoleRecords): BatchedFacts {
  const owner = records.key(BATCHED_OWNER);
  const own = records.accountsOf(owner);
  const places: Record<(typeof PLACES)[number], AccountRecord[]> = { inTree: [], inOutputQueue: [], inInputQueue: [], nullified: [] };
  for (const a of own.all) {
    if (records.treeType(a.tree) !== "StateV2") continue;
    places[a.spent ? (a.inInputQueue ? "inInputQueue" : "nullified") : a.inOutputQueue ? "inOutputQueue" : "inTree"].push(a);
  }
  for (const place of PLACES) {
    expect(places[place].length === BATCHED_ROLE[place], `ownerWithBatchedAccounts has ${places[place].length} accounts ${place}, not ${BATCHED_ROLE[place]}`);
  }
  const byLeaf = (list: AccountRecord[]) => list.sort((a, b) => (a.tree < b.tree ? -1 : a.tree > b.tree ? 1 : a.leafIndex - b.leafIndex)).map((a) => a.hash);
  const hashes = {
    inTree: byLeaf(places.inTree),
    inOutputQueue: byLeaf(places.inOutputQueue),
    inInputQueue: byLeaf(places.inInputQueue),
    nullified: byLeaf(places.nullified),
  };
  const closed = hashes.inInputQueue[0] as string;
  return {
    ownerWithBatchedAccounts: { owner, unspent: own.unspent.length, ...hashes },
    batchedQueues: queueFacts(records, hashes.inOutputQueue[0] as string),
    batchedAccountClosed: { hash: closed, closedBy: transactionOf(records.dataset, closed, "closed") },
  };
}

/** The queues of the batched state tree holding the account `queuedHash` and of the batched address tree. */
function queueFacts(records: RoleRecords, queuedHash: string): BatchedFacts["batchedQueues"] {
  const { dataset } = records;
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
