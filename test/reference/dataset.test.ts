import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { datasetProfile, generateDataset, MIN_ACCOUNTS } from "../../reference/dataset.js";
import { datasetLines } from "../../reference/dataset-file.js";
import { TOKEN_PROGRAM, U64_MAX } from "../../reference/records.js";
import type { Dataset } from "../../reference/records.js";
import { formats, stringifyJson } from "../../runtime/index.js";
import { byteOrder, bytes, dataset, profile } from "./fixture.js";

const digest = (d: Dataset) => {
  const h = createHash("sha256");
  for (const line of datasetLines(d)) h.update(`${line}\n`);
  return h.digest("hex");
};

describe("generateDataset determinism", () => {
  it("gives the same bytes for the same seed and different bytes for another seed", () => {
    const a = digest(generateDataset({ seed: 5, accounts: MIN_ACCOUNTS }));
    expect(digest(generateDataset({ seed: 5, accounts: MIN_ACCOUNTS }))).toBe(a);
    expect(digest(generateDataset({ seed: 6, accounts: MIN_ACCOUNTS }))).not.toBe(a);
  });

  it("matches the pinned digest (same bytes on every machine; update only on purpose)", () => {
    expect(digest(generateDataset({ seed: 7, accounts: 12_000 }))).toBe("9fdef0274371d088b8684b2f45521ffeff9bddb669a470861566f1eeb0126733");
  });

  it("has the requested size, about a fifth of it token accounts", () => {
    expect(dataset.seed).toBe(1);
    expect(dataset.accounts).toHaveLength(20_000);
    expect(dataset.tokens).toHaveLength(4_000);
  });

  it("rejects sizes below MIN_ACCOUNTS and non-integer seeds", () => {
    expect(() => generateDataset({ accounts: MIN_ACCOUNTS - 1 })).toThrow(/at least/);
    expect(() => generateDataset({ seed: 1.5 })).toThrow(/seed/);
  });
});

describe("generated values", () => {
  const accounts = dataset.accounts;
  const tokenAccounts = accounts.filter((a) => a.owner === TOKEN_PROGRAM);
  const spentHashes = new Set(accounts.filter((a) => a.spent).map((a) => a.hash));

  it("are well-formed: base58 lengths, base64, unique hashes, (tree, leafIndex) unique", () => {
    for (const a of accounts) {
      expect(formats.hash(a.hash) && formats.pubkey(a.owner) && formats.pubkey(a.tree)).toBe(true);
      if (a.address !== null) expect(formats.pubkey(a.address)).toBe(true);
      if (a.data !== null) expect(formats.base64(a.data.data) && formats.hash(a.data.dataHash)).toBe(true);
    }
    expect(new Set(accounts.map((a) => a.hash)).size).toBe(accounts.length);
    expect(new Set(accounts.map((a) => `${a.tree}:${a.leafIndex}`)).size).toBe(accounts.length);
    for (const s of dataset.signatures) expect(formats.signature(s.signature)).toBe(true);
  });

  it("keep every slot at or below the dataset slot, block times following slots", () => {
    expect(Math.max(...accounts.map((a) => a.slotCreated), ...dataset.signatures.map((s) => s.slot))).toBeLessThanOrEqual(dataset.slot);
    const timeOf = new Map<number, number>();
    for (const s of dataset.signatures) {
      expect(timeOf.get(s.slot) ?? s.blockTime).toBe(s.blockTime);
      timeOf.set(s.slot, s.blockTime);
    }
  });

  it("hold u64 values above 2^53, up to u64::MAX, as bigint (and small ones as number)", () => {
    const big = (v: number | bigint) => typeof v === "bigint" && v > 2n ** 53n;
    expect(accounts.some((a) => a.lamports === U64_MAX)).toBe(true);
    expect(accounts.filter((a) => big(a.lamports)).length).toBeGreaterThan(10);
    expect(accounts.some((a) => a.data?.discriminator === U64_MAX)).toBe(true);
    expect(accounts.filter((a) => a.data !== null && big(a.data.discriminator)).length).toBeGreaterThan(100);
    expect(dataset.tokens.some((t) => t.amount === U64_MAX)).toBe(true);
    expect(tokenAccounts.some((a) => a.data?.discriminator === 3n << 56n)).toBe(true);
    for (const v of [...accounts.map((a) => a.lamports), ...dataset.tokens.map((t) => t.amount)]) {
      expect(typeof v === "number" ? Number.isSafeInteger(v) : v > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    }
  });

  it("cover null address, data, seq, delegate and tlv, frozen and initialized, empty data", () => {
    expect(accounts.some((a) => a.address === null) && accounts.some((a) => a.address !== null)).toBe(true);
    expect(accounts.some((a) => a.data === null) && accounts.some((a) => a.data?.data === "")).toBe(true);
    expect(accounts.some((a) => a.seq === null && !a.spent)).toBe(true);
    expect(dataset.tokens.some((t) => t.delegate === null) && dataset.tokens.some((t) => t.delegate !== null)).toBe(true);
    expect(dataset.tokens.some((t) => t.tlv === null) && dataset.tokens.some((t) => t.tlv !== null)).toBe(true);
    expect(new Set(dataset.tokens.map((t) => t.state))).toEqual(new Set(["initialized", "frozen"]));
  });

  it("give token accounts the token program as owner, discriminator-2 data holding mint, owner and amount", () => {
    const byHash = new Map(accounts.map((a) => [a.hash, a]));
    expect(tokenAccounts).toHaveLength(dataset.tokens.length);
    for (const t of dataset.tokens.slice(0, 200)) {
      const a = byHash.get(t.hash);
      expect(a?.owner).toBe(TOKEN_PROGRAM);
      const data = Buffer.from(a?.data?.data ?? "", "base64");
      expect(data.subarray(0, 32).equals(bytes(t.mint))).toBe(true);
      expect(data.subarray(32, 64).equals(bytes(t.owner))).toBe(true);
      expect(data.readBigUInt64LE(64)).toBe(BigInt(t.amount));
    }
  });

  it("link signatures to token accounts, spent ones included, several per slot, in (slot, signature) order", () => {
    const tokenHashes = new Set(dataset.tokens.map((t) => t.hash));
    const covered = new Set(dataset.signatures.flatMap((s) => s.accounts));
    for (const h of tokenHashes) expect(covered.has(h)).toBe(true);
    expect([...spentHashes].filter((h) => tokenHashes.has(h)).every((h) => dataset.signatures.filter((s) => s.accounts.includes(h)).length === 2)).toBe(true);
    const slots = dataset.signatures.map((s) => s.slot);
    expect(new Set(slots).size).toBeLessThan(slots.length);
    expect(new Set(slots).size).toBeGreaterThan(1000);
    for (let i = 1; i < dataset.signatures.length; i++) {
      const [a, b] = [dataset.signatures[i - 1]!, dataset.signatures[i]!];
      expect(a.slot < b.slot || (a.slot === b.slot && byteOrder(a.signature, b.signature) < 0)).toBe(true);
    }
  });
});

describe("datasetProfile", () => {
  it("is JSON-able with stringifyJson and stable for a seed", () => {
    const text = stringifyJson(profile);
    expect(text).toContain('"maxBalance":18446744073709551615');
    expect(stringifyJson(datasetProfile(dataset))).toBe(text);
  });

  it("names valid, distinct keys", () => {
    const keys = [
      profile.ownerWithManyAccounts.owner,
      profile.ownerWith1000.owner,
      profile.ownerWith1001.owner,
      profile.ownerWithOneAccount.owner,
      profile.ownerWithOnlySpentAccounts.owner,
      profile.ownerWithNoAccounts,
      profile.memcmpOwner.owner,
      profile.tokenOwnerWithManyMints.owner,
      profile.tokenOwnerWith1000TokenAccounts.owner,
      profile.tokenOwnerWith1001TokenAccounts.owner,
      profile.tokenOwnerWithOneAccount.owner,
      profile.ownerWithZeroBalance.owner,
      profile.tokenOwnerWithBigAmounts.owner,
      profile.tokenOwnerWithNoAccounts,
      profile.unknownAddress,
    ];
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) expect(formats.pubkey(k)).toBe(true);
    for (const h of [profile.knownHash, profile.spentHash, profile.unknownHash]) expect(formats.hash(h)).toBe(true);
  });

  it("states the promised counts", () => {
    expect(profile.slot).toBe(dataset.slot);
    expect(profile.ownerWithManyAccounts.unspent).toBe(2500);
    expect(profile.ownerWith1000.unspent).toBe(1000);
    expect(profile.ownerWith1001.unspent).toBe(1001);
    expect(profile.ownerWithOneAccount.unspent).toBe(1);
    expect(profile.ownerWithOnlySpentAccounts.spent).toBeGreaterThan(0);
    expect(profile.ownerWithLeafIndexTies.tiedLeafIndexes).toBeGreaterThanOrEqual(100);
    expect(profile.tokenOwnerWithManyMints.mints).toBeGreaterThanOrEqual(30);
    expect(profile.tokenOwnerWith1000TokenAccounts.unspent).toBe(1000);
    expect(profile.tokenOwnerWith1000TokenAccounts.sharedSlotSignatures).toBeGreaterThanOrEqual(10);
    expect(profile.tokenOwnerWith1001TokenAccounts).toMatchObject({ unspent: 1001, mints: 1001 });
    expect(profile.tokenOwnerWith1001TokenAccounts.signatures).toBeGreaterThan(1000);
    expect(profile.memcmpOwner.matching.count).toBeGreaterThan(0);
    expect(profile.memcmpOwner.nonMatching.count).toBe(0);
    expect(profile.tokenOwnerWithBigAmounts.sumBalance).toBe(2n ** 60n + 2n ** 53n + 1n);
  });

  it("names absent entities that really are absent", () => {
    const everything = new Set([...dataset.accounts.flatMap((a) => [a.hash, a.owner, a.address]), ...dataset.tokens.flatMap((t) => [t.owner, t.mint])]);
    for (const k of [profile.unknownHash, profile.unknownAddress, profile.ownerWithNoAccounts, profile.tokenOwnerWithNoAccounts])
      expect(everything.has(k)).toBe(false);
  });

  it("refuses a dataset that is not generator output", () => {
    expect(() => datasetProfile({ ...dataset, seed: null })).toThrow(/no seed/);
    expect(() => datasetProfile({ ...dataset, seed: 2 })).toThrow(/does not match/);
  });
});
