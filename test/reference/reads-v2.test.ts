/**
 * The V2 account reads (getCompressedAccountV2, getMultipleCompressedAccountsV2,
 * getCompressedAccountsByOwnerV2) against the dataset records: the AccountV2 shape with
 * `proveByIndex` and `merkleContext` from the account's tree (checked against stateless.js's
 * localnet tree infos as well), the V1 lookups' rules, and paging in the documented order.
 */
import { localTestActiveStateTreeInfos } from "@lightprotocol/stateless.js";
import { describe, expect, it } from "vitest";
import type { Schemas } from "../../generated/index.js";
import { createReferenceHandlers } from "../../reference/handlers/index.js";
import type { AccountRecord, Dataset, TreeType } from "../../reference/records.js";
import { U64_MAX } from "../../reference/records.js";
import { ReferenceStore } from "../../reference/store.js";
import type { CallContext } from "../../runtime/index.js";
import { byteOrder, bytes, call, callError, dataset, profile } from "./fixture.js";
import { expectWalks, walkAll } from "./paging.js";

const ZERO_KEY = "11111111111111111111111111111111";
const TREE_TYPES: Record<TreeType, number> = { StateV1: 1, AddressV1: 2, StateV2: 3, AddressV2: 4 };
const treeOf = new Map(dataset.trees.map((t) => [t.tree, t]));
const byHash = new Map(dataset.accounts.map((a) => [a.hash, a]));

interface Slice {
  offset: number;
  length: number;
}

/** Oracle: the wire form of an account record in the V2 shape, its context from the dataset's tree record. */
function expectedV2(a: AccountRecord, slice?: Slice): Schemas["AccountV2"] {
  const tree = treeOf.get(a.tree);
  if (tree === undefined) throw new Error(`no tree record for ${a.tree}`);
  const data =
    a.data === null
      ? null
      : {
          discriminator: a.data.discriminator,
          data:
            slice === undefined
              ? a.data.data
              : Buffer.from(a.data.data, "base64")
                  .subarray(slice.offset, slice.offset + slice.length)
                  .toString("base64"),
          dataHash: a.data.dataHash,
        };
  return {
    hash: a.hash,
    address: a.address,
    data,
    owner: a.owner,
    lamports: a.lamports,
    leafIndex: a.leafIndex,
    seq: a.seq,
    slotCreated: a.slotCreated,
    proveByIndex: a.inOutputQueue,
    merkleContext: { treeType: TREE_TYPES[tree.type], tree: a.tree, queue: tree.queue, cpiContext: null, nextTreeContext: null },
  };
}

/** Oracle: the owner's unspent accounts by (leafIndex, hash bytes), only those whose data matches every memcmp. */
function expectedByOwner(owner: string, memcmps: { offset: number; bytes: number[] }[] = []): AccountRecord[] {
  return dataset.accounts
    .filter((a) => !a.spent && a.owner === owner)
    .filter((a) => {
      if (memcmps.length === 0) return true;
      if (a.data === null) return false;
      const data = Buffer.from(a.data.data, "base64");
      return memcmps.every((m) => data.subarray(m.offset, m.offset + m.bytes.length).equals(Buffer.from(m.bytes)));
    })
    .sort((a, b) => a.leafIndex - b.leafIndex || byteOrder(a.hash, b.hash));
}

/** A V2 item back in the V1 shape: what the V1 method answers for the same account. */
function asV1(a: Schemas["AccountV2"]): Schemas["Account"] {
  return {
    hash: a.hash,
    address: a.address,
    data: a.data,
    owner: a.owner,
    lamports: a.lamports,
    tree: a.merkleContext.tree,
    leafIndex: a.leafIndex,
    seq: a.seq,
    slotCreated: a.slotCreated,
  };
}

const owners = () => [
  profile.ownerWithBatchedAccounts.owner,
  profile.ownerWithManyAccounts.owner,
  profile.ownerWith1000.owner,
  profile.ownerWith1001.owner,
  profile.ownerWithOneAccount.owner,
  profile.ownerWithOnlySpentAccounts.owner,
  profile.ownerWithNoAccounts,
  profile.ownerWithBigBalance.owner,
  profile.memcmpOwner.owner,
  profile.tokenProgram,
];

describe("AccountV2 and its merkleContext", () => {
  it("gives every unspent account its tree's type and queue, as stateless.js's localnet tree infos have them", () => {
    const infos = new Map(localTestActiveStateTreeInfos().map((i) => [i.tree.toBase58(), i]));
    const seen = new Set<string>();
    for (const a of dataset.accounts) {
      if (a.spent || seen.has(a.tree)) continue;
      seen.add(a.tree);
      const got = call("getCompressedAccountV2", { hash: a.hash }).value;
      const info = infos.get(a.tree);
      expect(info, `stateless.js knows tree ${a.tree}`).toBeDefined();
      expect(got?.merkleContext).toEqual({
        treeType: info?.treeType,
        tree: info?.tree.toBase58(),
        queue: info?.queue.toBase58(),
        cpiContext: null,
        nextTreeContext: null,
      });
    }
    expect([...seen].map((t) => treeOf.get(t)?.type).sort()).toEqual(["StateV1", "StateV1", "StateV2", "StateV2", "StateV2", "StateV2", "StateV2"]);
  });

  it("proves batched accounts in the output queue by index, with seq null, and V1 accounts by path with their seq", () => {
    const batched = profile.ownerWithBatchedAccounts;
    for (const hash of batched.inOutputQueue) {
      const a = call("getCompressedAccountV2", { hash }).value;
      expect(a).toEqual(expectedV2(byHash.get(hash) as AccountRecord));
      expect([a?.proveByIndex, a?.seq, a?.merkleContext.treeType]).toEqual([true, null, 3]);
    }
    for (const hash of batched.inTree) {
      const a = call("getCompressedAccountV2", { hash }).value;
      expect([a?.proveByIndex, a?.seq, a?.merkleContext.treeType]).toEqual([false, null, 3]);
      expect(a?.merkleContext.queue).toBe(treeOf.get(a?.merkleContext.tree as string)?.queue);
    }
    // Spent accounts, in the input queue or nullified, are not served.
    for (const hash of [...batched.inInputQueue, ...batched.nullified]) expect(call("getCompressedAccountV2", { hash }).value).toBeNull();
    const v1 = dataset.accounts.find((a) => !a.spent && treeOf.get(a.tree)?.type === "StateV1" && a.seq !== null) as AccountRecord;
    const got = call("getCompressedAccountV2", { hash: v1.hash }).value;
    expect([got?.proveByIndex, got?.seq, got?.merkleContext.treeType, got?.merkleContext.queue.startsWith("nfq")]).toEqual([false, v1.seq, 1, true]);
  });

  it("answers tree type 0 and the zero queue for an account whose tree the index has no record of (as Photon reads NULL columns)", () => {
    const [a, b] = dataset.accounts.filter((x) => !x.spent).slice(0, 2) as [AccountRecord, AccountRecord];
    const bare: Dataset = { ...dataset, trees: [], accounts: [a, b], tokens: [], signatures: [], addresses: [] };
    const handlers = createReferenceHandlers(new ReferenceStore(bare));
    const got = handlers.getCompressedAccountV2({ hash: a.hash }, {} as CallContext) as { value: Schemas["AccountV2"] };
    expect(got.value.merkleContext).toEqual({ treeType: 0, tree: a.tree, queue: ZERO_KEY, cpiContext: null, nextTreeContext: null });
  });
});

describe("getCompressedAccountV2", () => {
  it("finds an account by hash and by address, the address winning over the hash", () => {
    const expected = expectedV2(byHash.get(profile.knownHash) as AccountRecord);
    expect(call("getCompressedAccountV2", { hash: profile.knownHash }).value).toEqual(expected);
    expect(call("getCompressedAccountV2", { address: profile.knownAddress }).value).toEqual(expected);
    expect(call("getCompressedAccountV2", { address: profile.knownAddress, hash: profile.unknownHash }).value).toEqual(expected);
    expect(call("getCompressedAccountV2", { address: profile.unknownAddress, hash: profile.knownHash }).value).toBeNull();
    expect(call("getCompressedAccountV2", { hash: profile.ownerWithOneAccount.hash }).value).toMatchObject({ address: null, data: null });
  });

  it("answers null for unknown and spent accounts, and follows an updated address to its current version", () => {
    for (const params of [{ hash: profile.unknownHash }, { hash: profile.spentHash }, { address: profile.spentAddress }, { address: profile.unknownAddress }])
      expect(call("getCompressedAccountV2", params).value).toBeNull();
    const updated = profile.updatedAddress;
    expect(call("getCompressedAccountV2", { address: updated.address }).value?.hash).toBe(updated.hash);
  });

  it("keeps u64 values exact and rejects a lookup with neither key", () => {
    const big = call("getCompressedAccountV2", { hash: profile.accountWithBigLamports.hash }).value;
    expect([big?.lamports, big?.data?.discriminator]).toEqual([U64_MAX, U64_MAX]);
    for (const params of [{}, { address: null, hash: null }]) {
      const err = callError("getCompressedAccountV2", params);
      expect([err.code, err.message]).toEqual([-32000, "Validation Error: Either address or hash must be provided"]);
    }
  });
});

describe("getMultipleCompressedAccountsV2", () => {
  it("answers in input order, null for unknown or spent entries, duplicates repeated", () => {
    const batched = profile.ownerWithBatchedAccounts;
    const hashes = [
      profile.knownHash,
      profile.unknownHash,
      batched.inOutputQueue[0] as string,
      profile.spentHash,
      profile.knownHash,
      batched.inTree[0] as string,
    ];
    const expected = hashes.map((h) => {
      const a = byHash.get(h);
      return a === undefined || a.spent ? null : expectedV2(a);
    });
    expect(call("getMultipleCompressedAccountsV2", { hashes }).value.items).toEqual(expected);
    expect(expected.filter((x) => x === null)).toHaveLength(2);
    const addresses = [profile.knownAddress, profile.spentAddress, profile.updatedAddress.address, profile.unknownAddress];
    expect(call("getMultipleCompressedAccountsV2", { addresses }).value.items.map((a) => a?.hash ?? null)).toEqual([
      profile.knownHash,
      null,
      profile.updatedAddress.hash,
      null,
    ]);
    expect(call("getMultipleCompressedAccountsV2", { hashes: [] }).value.items).toEqual([]);
  });

  it("answers both and neither list with one message (V1 tells both apart), and caps each list at 1000", () => {
    for (const params of [{}, { hashes: null, addresses: null }, { hashes: [profile.knownHash], addresses: [profile.knownAddress] }]) {
      const err = callError("getMultipleCompressedAccountsV2", params);
      expect([err.code, err.message]).toEqual([-32000, "Validation Error: Either hashes or addresses must be provided"]);
    }
    const both = callError("getMultipleCompressedAccounts", { hashes: [profile.knownHash], addresses: [profile.knownAddress] });
    expect(both.message).toBe("Validation Error: Cannot provide both hashes and addresses");
    const hashes = Array.from({ length: 1001 }, () => profile.knownHash);
    expect(call("getMultipleCompressedAccountsV2", { hashes: hashes.slice(1) }).value.items).toHaveLength(1000);
    expect(callError("getMultipleCompressedAccountsV2", { hashes }).message).toBe("Validation Error: Too many hashes requested 1001. Maximum allowed: 1000");
    const addresses = Array.from({ length: 1001 }, () => profile.knownAddress);
    expect(callError("getMultipleCompressedAccountsV2", { addresses }).message).toBe(
      "Validation Error: Too many addresses requested 1001. Maximum allowed: 1000",
    );
  });
});

describe("getCompressedAccountsByOwnerV2", () => {
  it("walks every owner with limits 1, 7 and the default to exactly its unspent accounts by (leafIndex, hash bytes)", () => {
    for (const owner of owners())
      expectWalks(
        "getCompressedAccountsByOwnerV2",
        { owner },
        expectedByOwner(owner).map((a) => expectedV2(a)),
      );
  });

  it("lists the same accounts as getCompressedAccountsByOwner, page for page and cursor for cursor", () => {
    for (const owner of owners()) {
      for (const limit of [7, undefined]) {
        const v2 = walkAll("getCompressedAccountsByOwnerV2", { owner }, limit);
        const v1 = walkAll("getCompressedAccountsByOwner", { owner }, limit);
        expect(v2.pages).toBe(v1.pages);
        expect((v2.items as Schemas["AccountV2"][]).map(asV1)).toEqual(v1.items);
      }
    }
  });

  it("shows the batched owner's accounts in and out of the output queue, and none of its spent ones", () => {
    const batched = profile.ownerWithBatchedAccounts;
    const items = call("getCompressedAccountsByOwnerV2", { owner: batched.owner }).value.items;
    const queued = new Set(batched.inOutputQueue);
    expect(items.filter((a) => a.merkleContext.treeType === 3).map((a) => [a.hash, a.proveByIndex])).toEqual(
      expectedByOwner(batched.owner)
        .filter((a) => treeOf.get(a.tree)?.type === "StateV2")
        .map((a) => [a.hash, queued.has(a.hash)]),
    );
    expect(items.filter((a) => a.proveByIndex)).toHaveLength(batched.inOutputQueue.length);
    const hashes = new Set(items.map((a) => a.hash));
    expect([...batched.inInputQueue, ...batched.nullified].some((h) => hashes.has(h))).toBe(false);
    expect(items).toHaveLength(batched.unspent);
  });

  it("pages 1000 and 1001 accounts at the default limit: a full page keeps a cursor", () => {
    const w1000 = call("getCompressedAccountsByOwnerV2", { owner: profile.ownerWith1000.owner }).value;
    expect([w1000.items.length, w1000.cursor]).toEqual([1000, w1000.items[999]?.hash]);
    expect(call("getCompressedAccountsByOwnerV2", { owner: profile.ownerWith1000.owner, cursor: w1000.cursor }).value).toEqual({ items: [], cursor: null });
    const owner = profile.ownerWith1001.owner;
    const first = call("getCompressedAccountsByOwnerV2", { owner }).value;
    const second = call("getCompressedAccountsByOwnerV2", { owner, cursor: first.cursor }).value;
    expect([first.items.length, second.items.length, second.cursor]).toEqual([1000, 1, null]);
    expect(call("getCompressedAccountsByOwnerV2", { owner, limit: 0 }).value).toEqual({ items: [], cursor: null });
  });

  it("applies memcmp filters and data slices as the V1 method does, over every page", () => {
    const { owner, filters } = profile.memcmpOwner;
    for (const f of filters) {
      const memcmp = { offset: f.offset, bytes: [...bytes(f.bytes)] };
      const expected = expectedByOwner(owner, [memcmp]).map((a) => expectedV2(a));
      expect(expected).toHaveLength(f.count);
      expectWalks("getCompressedAccountsByOwnerV2", { owner, filters: [{ memcmp: { offset: f.offset, bytes: f.bytes } }] }, expected);
    }
    const slice = { offset: 1, length: 2 };
    expectWalks(
      "getCompressedAccountsByOwnerV2",
      { owner, dataSlice: slice },
      expectedByOwner(owner).map((a) => expectedV2(a, slice)),
    );
    const sliced = call("getCompressedAccountsByOwnerV2", { owner, dataSlice: { offset: 1_000, length: 5 } }).value.items;
    expect(sliced.filter((a) => a.data !== null).every((a) => a.data?.data === "")).toBe(true);
  });

  it("refuses a cursor that is not an unspent account of the owner, too many filters and a filter without memcmp", () => {
    const owner = profile.ownerWithManyAccounts.owner;
    for (const cursor of [profile.unknownHash, profile.spentHash, profile.knownHash]) {
      const err = callError("getCompressedAccountsByOwnerV2", { owner, cursor });
      expect([err.code, err.message]).toEqual([-32000, "Validation Error: Invalid cursor"]);
    }
    const memcmp = { offset: 0, bytes: "2" };
    const six = Array.from({ length: 6 }, () => ({ memcmp }));
    expect(callError("getCompressedAccountsByOwnerV2", { owner, filters: six }).message).toBe(
      "Validation Error: Too many filters. The maximum number of filters allowed is 5",
    );
    expect(callError("getCompressedAccountsByOwnerV2", { owner, filters: [{ memcmp: null }] }).message).toBe(
      "Validation Error: Filter instance cannot be null",
    );
  });
});
