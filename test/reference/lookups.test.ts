import { describe, expect, it } from "vitest";
import { methodNames, methods, methodValidators } from "../../generated/index.js";
import { U64_MAX } from "../../reference/records.js";
import { validate } from "../../runtime/index.js";
import { call, callError, dataset, handlers, profile, store, wire } from "./fixture.js";

const accountOf = (hash: string) => wire(dataset.accounts.find((a) => a.hash === hash)!);

describe("context and getIndexerSlot", () => {
  it("report the dataset slot everywhere", () => {
    expect(call("getIndexerSlot", undefined)).toBe(dataset.slot);
    const owner = profile.tokenOwnerWithManyMints.owner;
    const results = [
      call("getCompressedAccount", { hash: profile.knownHash }),
      call("getMultipleCompressedAccounts", { hashes: [] }),
      call("getCompressedAccountsByOwner", { owner: profile.ownerWithOneAccount.owner }),
      call("getCompressedTokenAccountsByOwner", { owner }),
      call("getCompressedTokenBalancesByOwner", { owner }),
      call("getCompressionSignaturesForTokenOwner", { owner }),
    ];
    for (const r of results) expect(r.context).toEqual({ slot: dataset.slot });
  });

  it("implements every method Photon registers (not the spec's `x-registered: false` ones); getIndexerSlot is a bare uint64", () => {
    const registered = methodNames.filter((m) => methods[m].registered);
    expect(registered.length).toBe(36);
    expect(Object.keys(handlers).sort()).toEqual([...registered].sort());
    const slot = handlers.getIndexerSlot(undefined, {} as never);
    expect(typeof slot).toBe("number");
    expect(validate(methodValidators.getIndexerSlot.result, slot)).toEqual([]);
  });
});

describe("getCompressedAccount", () => {
  it("finds an account by hash and by address, with every key and explicit nulls", () => {
    const byHash = call("getCompressedAccount", { hash: profile.knownHash }).value;
    expect(byHash).toEqual(accountOf(profile.knownHash));
    expect(Object.keys(byHash ?? {})).toEqual(["hash", "address", "data", "owner", "lamports", "tree", "leafIndex", "seq", "slotCreated"]);
    expect(call("getCompressedAccount", { address: profile.knownAddress, hash: null }).value?.hash).toBe(profile.knownHash);
    const nulls = call("getCompressedAccount", { hash: profile.ownerWithOneAccount.hash }).value;
    expect(nulls).toMatchObject({ address: null, data: null, seq: null });
  });

  it("lets the address win over the hash, even an unknown address", () => {
    expect(call("getCompressedAccount", { address: profile.knownAddress, hash: profile.ownerWithOneAccount.hash }).value?.hash).toBe(profile.knownHash);
    expect(call("getCompressedAccount", { address: profile.unknownAddress, hash: profile.knownHash }).value).toBeNull();
  });

  it("answers null for unknown and spent accounts, and follows an updated address", () => {
    expect(call("getCompressedAccount", { hash: profile.unknownHash }).value).toBeNull();
    expect(call("getCompressedAccount", { hash: profile.spentHash }).value).toBeNull();
    expect(call("getCompressedAccount", { address: profile.spentAddress }).value).toBeNull();
    expect(call("getCompressedAccount", { address: profile.unknownAddress }).value).toBeNull();
    expect(call("getCompressedAccount", { hash: profile.updatedAddress.spentHash }).value).toBeNull();
    expect(call("getCompressedAccount", { address: profile.updatedAddress.address }).value?.hash).toBe(profile.updatedAddress.hash);
  });

  it.each([{}, { address: null, hash: null }, { address: null }])("rejects %j with the real message", (params) => {
    const err = callError("getCompressedAccount", params);
    expect([err.code, err.message]).toEqual([-32000, "Validation Error: Either address or hash must be provided"]);
  });

  it("keeps u64 values exact", () => {
    const a = call("getCompressedAccount", { hash: profile.accountWithBigLamports.hash }).value;
    expect(a?.lamports).toBe(U64_MAX);
    expect(a?.data?.discriminator).toBe(U64_MAX);
  });
});

describe("getMultipleCompressedAccounts", () => {
  it("keeps input order, answers null for unknown or spent, repeats duplicates", () => {
    const hashes = [profile.ownerWithOneAccount.hash, profile.unknownHash, profile.knownHash, profile.spentHash, profile.knownHash];
    const items = call("getMultipleCompressedAccounts", { hashes }).value.items;
    expect(items.map((a) => a?.hash ?? null)).toEqual([profile.ownerWithOneAccount.hash, null, profile.knownHash, null, profile.knownHash]);
    expect(items[2]).toEqual(accountOf(profile.knownHash));
  });

  it("looks up addresses the same way", () => {
    const addresses = [profile.spentAddress, profile.knownAddress, profile.unknownAddress, profile.updatedAddress.address];
    const items = call("getMultipleCompressedAccounts", { addresses, hashes: null }).value.items;
    expect(items.map((a) => a?.hash ?? null)).toEqual([null, profile.knownHash, null, profile.updatedAddress.hash]);
  });

  it("answers [] for an empty list and accepts exactly 1000 entries", () => {
    expect(call("getMultipleCompressedAccounts", { addresses: [] }).value.items).toEqual([]);
    const hashes = dataset.accounts.slice(0, 1000).map((a) => a.hash);
    const items = call("getMultipleCompressedAccounts", { hashes }).value.items;
    expect(items).toHaveLength(1000);
    expect(items.filter((a) => a === null)).toHaveLength(dataset.accounts.slice(0, 1000).filter((a) => a.spent).length);
  });

  it.each([
    [{ hashes: [profile.knownHash], addresses: [profile.knownAddress] }, "Validation Error: Cannot provide both hashes and addresses"],
    [{ hashes: [], addresses: [] }, "Validation Error: Cannot provide both hashes and addresses"],
    [{}, "Validation Error: Either hashes or addresses must be provided"],
    [{ hashes: null, addresses: null }, "Validation Error: Either hashes or addresses must be provided"],
    [{ hashes: new Array<string>(1001).fill(profile.knownHash) }, "Validation Error: Too many hashes requested 1001. Maximum allowed: 1000"],
    [{ addresses: new Array<string>(1001).fill(profile.knownAddress) }, "Validation Error: Too many addresses requested 1001. Maximum allowed: 1000"],
  ])("rejects %# with the real message", (params, message) => {
    const err = callError("getMultipleCompressedAccounts", params);
    expect([err.code, err.message]).toEqual([-32000, message]);
  });
});

describe("store lookups", () => {
  it("index every account by hash and unspent ones by address", () => {
    expect(store.account(profile.spentHash)?.spent).toBe(true);
    expect(store.unspentByHash(profile.spentHash)).toBeNull();
    const withAddress = dataset.accounts.filter((a) => !a.spent && a.address !== null);
    for (const a of withAddress) expect(store.unspentByAddress(a.address as string)).toBe(a);
  });

  it("refuses inconsistent datasets", async () => {
    const { ReferenceStore } = await import("../../reference/store.js");
    const [a] = dataset.accounts;
    expect(() => new ReferenceStore({ ...dataset, accounts: [a!, a!] })).toThrow(/duplicate account hash/);
    expect(() => new ReferenceStore({ ...dataset, accounts: [] })).toThrow(/unknown account/);
  });
});
