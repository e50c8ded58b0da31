import { describe, expect, it } from "vitest";
import { encodeBase58 } from "../../runtime/index.js";
import { call, callError, expectedOwnerAccounts, profile, walk, wire } from "./fixture.js";

const page = (params: Parameters<typeof call<"getCompressedAccountsByOwner">>[1]) => call("getCompressedAccountsByOwner", params).value;
const owners = () => ({
  many: profile.ownerWithManyAccounts.owner,
  w1000: profile.ownerWith1000.owner,
  w1001: profile.ownerWith1001.owner,
  one: profile.ownerWithOneAccount.owner,
  onlySpent: profile.ownerWithOnlySpentAccounts.owner,
  none: profile.ownerWithNoAccounts,
  memcmp: profile.memcmpOwner.owner,
});

describe("getCompressedAccountsByOwner order and pages", () => {
  it("returns unspent accounts in (leafIndex, hash bytes) order, ties included", () => {
    const { many } = owners();
    const expected = expectedOwnerAccounts(many);
    const all = walk("getCompressedAccountsByOwner", { owner: many }).items;
    expect(all).toEqual(expected.map(wire));
    const ties = expected.filter((a, i) => expected[i + 1]?.leafIndex === a.leafIndex);
    expect(ties.length).toBeGreaterThanOrEqual(profile.ownerWithLeafIndexTies.tiedLeafIndexes);
  });

  it("pages 2500 accounts as 1000 + 1000 + 500 with the default limit", () => {
    const { many } = owners();
    const first = page({ owner: many });
    expect(first.items).toHaveLength(1000);
    expect(first.cursor).toBe(first.items[999]?.hash);
    const second = page({ owner: many, cursor: first.cursor });
    const third = page({ owner: many, cursor: second.cursor });
    expect([second.items.length, third.items.length, third.cursor]).toEqual([1000, 500, null]);
  });

  it("gives exactly 1000 a cursor, then an empty page with a null cursor", () => {
    const { w1000 } = owners();
    const first = page({ owner: w1000 });
    expect(first.items).toHaveLength(1000);
    expect(first.cursor).not.toBeNull();
    expect(page({ owner: w1000, cursor: first.cursor })).toEqual({ items: [], cursor: null });
  });

  it("gives 1001 a full page and then a page of one", () => {
    const { w1001 } = owners();
    const first = page({ owner: w1001, limit: null });
    expect(first.items).toHaveLength(1000);
    const second = page({ owner: w1001, cursor: first.cursor });
    expect(second.items).toHaveLength(1);
    expect(second.cursor).toBeNull();
    expect(second.items[0]).toEqual(wire(expectedOwnerAccounts(w1001)[1000]!));
  });

  it("answers empty lists for owners with only spent or no accounts, and a single account", () => {
    const { onlySpent, none, one } = owners();
    expect(page({ owner: onlySpent })).toEqual({ items: [], cursor: null });
    expect(page({ owner: none })).toEqual({ items: [], cursor: null });
    expect(page({ owner: one }).items.map((a) => a.hash)).toEqual([profile.ownerWithOneAccount.hash]);
    expect(page({ owner: one, limit: 1 }).cursor).toBe(profile.ownerWithOneAccount.hash);
  });

  it("walks with limits 1, 2 and 7 to exactly the single-page result", () => {
    for (const owner of Object.values(owners())) {
      const expected = expectedOwnerAccounts(owner).map(wire);
      for (const limit of [1, 2, 7]) {
        const { items, pages } = walk("getCompressedAccountsByOwner", { owner }, limit);
        expect(items).toEqual(expected);
        expect(pages).toBe(Math.floor(expected.length / limit) + 1);
      }
    }
  });

  it("answers limit 0 with an empty page and a null cursor", () => {
    const { many } = owners();
    expect(page({ owner: many, limit: 0 })).toEqual({ items: [], cursor: null });
    expect(page({ owner: many, limit: 0, cursor: page({ owner: many, limit: 1 }).cursor })).toEqual({ items: [], cursor: null });
  });

  it("rejects a cursor that is not an unspent account of the owner", () => {
    const { many, w1000 } = owners();
    for (const cursor of [profile.unknownHash, profile.spentHash, expectedOwnerAccounts(w1000)[0]!.hash]) {
      const err = callError("getCompressedAccountsByOwner", { owner: many, cursor });
      expect([err.code, err.message]).toEqual([-32000, "Validation Error: Invalid cursor"]);
    }
  });
});

describe("getCompressedAccountsByOwner filters", () => {
  const owner = () => profile.memcmpOwner.owner;
  const count = (filters: { offset: number; bytes: string }[]) =>
    walk("getCompressedAccountsByOwner", { owner: owner(), filters: filters.map((memcmp) => ({ memcmp })) }, 7).items.length;

  it("matches memcmp against the data bytes with the profile's counts", () => {
    for (const f of profile.memcmpOwner.filters) expect(count([{ offset: f.offset, bytes: f.bytes }])).toBe(f.count);
    expect(profile.memcmpOwner.filters.map((f) => f.count)).toEqual([20, 35, 15, 36, 0, 0]);
  });

  it("returns matching accounts in list order, whose data really starts with the bytes", () => {
    const { offset, bytes } = profile.memcmpOwner.matching;
    const items = page({ owner: owner(), filters: [{ memcmp: { offset, bytes } }] }).items;
    const expected = expectedOwnerAccounts(owner()).filter(
      (a) =>
        a.data !== null &&
        Buffer.from(a.data.data, "base64")
          .subarray(0, 4)
          .equals(Buffer.from([1, 2, 3, 4])),
    );
    expect(items).toEqual(expected.map(wire));
  });

  it("ANDs several filters, treats empty bytes as matching any data, and never matches null data", () => {
    const a = profile.memcmpOwner.filters[0]!;
    const b = profile.memcmpOwner.filters[2]!;
    expect(count([a, { offset: 2, bytes: encodeBase58(Uint8Array.from([3])) }])).toBe(a.count);
    expect(count([a, b])).toBe(0);
    expect(count([{ offset: 0, bytes: "" }])).toBe(profile.memcmpOwner.withData);
    expect(count([{ offset: 10_000, bytes: "" }])).toBe(profile.memcmpOwner.withData);
    expect(profile.memcmpOwner.withData).toBeLessThan(profile.memcmpOwner.unspent);
    expect(count([])).toBe(profile.memcmpOwner.unspent);
  });

  it("pages filtered results with a full last page then an empty one", () => {
    const { offset, bytes, count: n } = profile.memcmpOwner.matching;
    const first = page({ owner: owner(), filters: [{ memcmp: { offset, bytes } }], limit: n });
    expect(first.items).toHaveLength(n);
    expect(page({ owner: owner(), filters: [{ memcmp: { offset, bytes } }], limit: n, cursor: first.cursor })).toEqual({ items: [], cursor: null });
  });

  it("rejects more than 5 filters and a filter without memcmp", () => {
    const f = { memcmp: { offset: 0, bytes: "2" } };
    expect(page({ owner: owner(), filters: [f, f, f, f, f] }).items.length).toBe(36);
    const tooMany = callError("getCompressedAccountsByOwner", { owner: owner(), filters: [f, f, f, f, f, f] });
    expect([tooMany.code, tooMany.message]).toEqual([-32000, "Validation Error: Too many filters. The maximum number of filters allowed is 5"]);
    for (const bad of [{}, { memcmp: null }]) {
      const err = callError("getCompressedAccountsByOwner", { owner: owner(), filters: [f, bad] });
      expect([err.code, err.message]).toEqual([-32000, "Validation Error: Filter instance cannot be null"]);
    }
  });

  it("slices data with dataSlice, leaving dataHash and discriminator alone", () => {
    const full = page({ owner: owner() }).items;
    const sliced = page({ owner: owner(), dataSlice: { offset: 1, length: 2 } }).items;
    const past = page({ owner: owner(), dataSlice: { offset: 1000, length: 5 } }).items;
    expect(sliced).toHaveLength(full.length);
    full.forEach((a, i) => {
      const s = sliced[i]!;
      if (a.data === null) {
        expect(s.data).toBeNull();
        return;
      }
      expect(s.data?.data).toBe(Buffer.from(a.data.data, "base64").subarray(1, 3).toString("base64"));
      expect([s.data?.dataHash, s.data?.discriminator]).toEqual([a.data.dataHash, a.data.discriminator]);
      expect({ ...s, data: null }).toEqual({ ...a, data: null });
      expect(past[i]?.data?.data).toBe("");
    });
    const short = full.find((a) => a.data?.data === "AQ==");
    expect(sliced.find((a) => a.hash === short?.hash)?.data?.data).toBe("");
  });
});
