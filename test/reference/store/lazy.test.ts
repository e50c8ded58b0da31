/**
 * What the store builds when: lookups at construction (with the consistency checks), every
 * other index on the first query that needs it, and nothing kept for keys without rows.
 */
import { describe, expect, it } from "vitest";
import { methods } from "../../../generated/methods.js";
import { RefErrorCode } from "../../../reference/errors.js";
import type { AccountRecord } from "../../../reference/records.js";
import { EMPTY, ReferenceStore } from "../../../reference/store.js";
import { buildDataset } from "./build.js";

const ACCOUNTS = methods.getCompressedAccountsByOwner.pagination?.order ?? [];
const SIGNATURES = methods.getCompressionSignaturesForTokenOwner.pagination?.order ?? [];
const BALANCES = methods.getCompressedTokenBalancesByOwner.pagination?.order ?? [];

const built = buildDataset(7);
const { dataset, trees } = built;

describe("store construction and lookups", () => {
  it("builds no lazy index at construction, nor for lookups", () => {
    const store = new ReferenceStore(dataset);
    expect(store.builtIndexes()).toEqual([]);
    const a = dataset.accounts[0] as AccountRecord;
    store.account(a.hash);
    store.unspentByHash(a.hash);
    store.unspentByAddress("11111111111111111111111111111111");
    store.token(a.hash);
    store.unspentToken(a.hash);
    store.tree(trees.v1.tree);
    store.treeByQueue(trees.v1.queue);
    expect(store.builtIndexes()).toEqual([]);
  });

  it("builds each index on the first query that needs it, and only that one", () => {
    const store = new ReferenceStore(dataset);
    const owner = built.programOwners[0] as string;
    store.accountsByOwner(owner, ACCOUNTS);
    expect(store.builtIndexes()).toEqual(["accountsByOwner"]);
    store.signaturesForOwner(owner, SIGNATURES);
    expect(store.builtIndexes()).toEqual(["accountsByOwner", "signaturesByOwner"]);
    store.tokenBalancesByOwner(owner, BALANCES);
    expect(store.builtIndexes()).toEqual(["accountsByOwner", "tokenOwnerBalances", "balancesByOwner", "signaturesByOwner"]);
    store.inputQueue(trees.v2a.tree);
    expect(store.builtIndexes()).toContain("nullifierQueueIndexes");
    expect(store.builtIndexes()).not.toContain("outputQueues");
    expect(store.builtIndexes()).not.toContain("holdersByMint");
  });

  it("sorts a list once per order and keeps it; keys without rows share one empty list", () => {
    const store = new ReferenceStore(dataset);
    const owner = built.programOwners[1] as string;
    const list = store.accountsByOwner(owner, ACCOUNTS);
    // Equal orders (another array with the same keys) share the sorted list.
    expect(
      store.accountsByOwner(
        owner,
        ACCOUNTS.map((k) => ({ ...k })),
      ),
    ).toBe(list);
    const reversed = ACCOUNTS.map((k) => ({ ...k, direction: k.direction === "asc" ? ("desc" as const) : ("asc" as const) }));
    expect(store.accountsByOwner(owner, reversed).rows).toEqual([...list.rows].reverse());
    const unknown = store.accountsByOwner("11111111111111111111111111111111", ACCOUNTS);
    expect(unknown).toBe(EMPTY);
    expect(unknown.after({ leafIndex: 3, hash: owner })).toBe(0);
    expect(unknown.page(0, 10)).toEqual([]);
    expect(store.ownerData("11111111111111111111111111111111", ACCOUNTS).bytes.length).toBe(0);
  });

  it("finds trees by tree and by queue key", () => {
    const store = new ReferenceStore(dataset);
    expect(store.trees()).toEqual(dataset.trees);
    for (const t of dataset.trees) {
      expect(store.tree(t.tree)).toBe(t);
      expect(store.treeByQueue(t.queue)).toBe(t);
    }
    // An AddressV2 tree is its own queue; a state tree's key is not a queue.
    expect(store.treeByQueue(trees.addressV2.tree)).toBe(trees.addressV2);
    expect(store.treeByQueue(trees.v1.tree)).toBeUndefined();
    expect(store.tree(trees.v1.queue)).toBeUndefined();
  });

  it("finds accounts by hash (spent or not) and unspent ones by hash and address", () => {
    const store = new ReferenceStore(dataset);
    for (const a of dataset.accounts) {
      expect(store.account(a.hash)).toBe(a);
      expect(store.unspentByHash(a.hash)).toBe(a.spent ? null : a);
      if (a.address !== null && !a.spent) expect(store.unspentByAddress(a.address)).toBe(a);
    }
    const versions = dataset.accounts.filter((a) => a.address !== null && a.spent);
    expect(versions.length).toBeGreaterThan(0);
    for (const old of versions) expect(store.unspentByAddress(old.address as string)?.spent ?? false).toBe(false);
  });

  it("refuses records that contradict one another", () => {
    const inconsistent = (data: typeof dataset, message: RegExp) => {
      try {
        new ReferenceStore(data);
      } catch (err) {
        expect((err as { code?: string }).code).toBe(RefErrorCode.DATASET_INCONSISTENT);
        expect((err as Error).message).toMatch(message);
        return;
      }
      throw new TypeError("no error");
    };
    const a = dataset.accounts[0] as AccountRecord;
    inconsistent({ ...dataset, accounts: [...dataset.accounts, a] }, /duplicate account hash/);
    inconsistent({ ...dataset, trees: [...dataset.trees, { ...trees.v1 }] }, /listed twice/);
    inconsistent({ ...dataset, trees: [...dataset.trees, { ...trees.v1, tree: "another tree" }] }, /belongs to two trees/);
    const live = dataset.accounts.find((x) => x.address !== null && !x.spent) as AccountRecord;
    inconsistent({ ...dataset, accounts: [...dataset.accounts, { ...live, hash: "another hash" }] }, /held by two unspent accounts/);
    inconsistent({ ...dataset, tokens: [...dataset.tokens, { ...(dataset.tokens[0] as (typeof dataset.tokens)[0]) }] }, /two token records/);
    inconsistent({ ...dataset, accounts: dataset.accounts.filter((x) => x.hash !== dataset.tokens[0]?.hash) }, /unknown account/);
  });
});
