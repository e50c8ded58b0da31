import { createHash } from "node:crypto";
import {
  FIELD_SIZE,
  HIGHEST_ADDRESS_PLUS_ONE,
  addressQueue,
  addressTree,
  featureFlags,
  getBatchAddressTreeInfo,
  localTestActiveStateTreeInfos,
} from "@lightprotocol/stateless.js";
import { describe, expect, it } from "vitest";
import { datasetProfile, generateDataset, LOCALNET_TREES, MIN_ACCOUNTS, TREES } from "../../reference/dataset.js";
import { datasetLines } from "../../reference/dataset-file.js";
import { TOKEN_PROGRAM, U64_MAX } from "../../reference/records.js";
import type { AccountRecord, Dataset, SignatureRecord, TreeRecord } from "../../reference/records.js";
import { formats, stringifyJson } from "../../runtime/index.js";
import { byteOrder, bytes, dataset, profile } from "./fixture.js";
import { expectedBalances, expectedHolders } from "./oracles.js";

const digest = (d: Dataset) => {
  const h = createHash("sha256");
  for (const line of datasetLines(d)) h.update(`${line}\n`);
  return h.digest("hex");
};

const accounts = dataset.accounts;
const byHash = new Map(accounts.map((a) => [a.hash, a]));
const treeOf = new Map(dataset.trees.map((t) => [t.tree, t]));
const typeOf = (a: AccountRecord) => treeOf.get(a.tree)?.type;
/** The transaction that opened / closed each hash (the first one, if a hash were opened twice). */
const openedBy = new Map<string, SignatureRecord>();
const closedBy = new Map<string, SignatureRecord>();
for (const s of dataset.signatures) {
  for (const h of s.opened) if (!openedBy.has(h)) openedBy.set(h, s);
  for (const h of s.closed) if (!closedBy.has(h)) closedBy.set(h, s);
}
const big = (value: Uint8Array) => BigInt(`0x${Buffer.from(value).toString("hex")}`);
const fieldSize = BigInt(FIELD_SIZE.toString());

describe("generateDataset determinism", () => {
  it("gives the same bytes for the same seed and different bytes for another seed", () => {
    const a = digest(generateDataset({ seed: 5, accounts: MIN_ACCOUNTS }));
    expect(digest(generateDataset({ seed: 5, accounts: MIN_ACCOUNTS }))).toBe(a);
    expect(digest(generateDataset({ seed: 6, accounts: MIN_ACCOUNTS }))).not.toBe(a);
  });

  it("matches the pinned digest (same bytes on every machine; update only on purpose)", () => {
    expect(digest(generateDataset({ seed: 7, accounts: 12_000 }))).toBe("3bbc9568d825f69328a439fadc5bf286f767a0cfb42675a8e5e640d8460b38e9");
  });

  it("has the requested size, about a fifth of it token accounts", () => {
    expect(dataset.seed).toBe(1);
    expect(dataset.accounts).toHaveLength(20_000);
    expect(dataset.tokens).toHaveLength(4_000);
    const small = generateDataset({ seed: 3, accounts: MIN_ACCOUNTS });
    expect(small.accounts).toHaveLength(MIN_ACCOUNTS);
    expect(() => datasetProfile(small)).not.toThrow();
  });

  it("rejects sizes below MIN_ACCOUNTS and non-integer seeds", () => {
    expect(() => generateDataset({ accounts: MIN_ACCOUNTS - 1 })).toThrow(/at least/);
    expect(() => generateDataset({ seed: 1.5 })).toThrow(/seed/);
  });
});

describe("generated values", () => {
  const tokenAccounts = accounts.filter((a) => a.owner === TOKEN_PROGRAM);

  it("are well-formed: base58 lengths, base64, unique hashes below the BN254 modulus, (tree, leafIndex) unique", () => {
    for (const a of accounts) {
      expect(formats.hash(a.hash) && formats.pubkey(a.owner) && formats.pubkey(a.tree)).toBe(true);
      expect(big(bytes(a.hash))).toBeLessThan(fieldSize);
      if (a.address !== null) expect(formats.pubkey(a.address)).toBe(true);
      if (a.data !== null) expect(formats.base64(a.data.data) && formats.hash(a.data.dataHash)).toBe(true);
    }
    expect(new Set(accounts.map((a) => a.hash)).size).toBe(accounts.length);
    expect(new Set(accounts.map((a) => `${a.tree}:${a.leafIndex}`)).size).toBe(accounts.length);
    for (const s of dataset.signatures) expect(formats.signature(s.signature) && bytes(s.signature).length === 64).toBe(true);
    expect(new Set(dataset.signatures.map((s) => s.signature)).size).toBe(dataset.signatures.length);
  });

  it("keep every slot at or below the dataset slot, block times following slots", () => {
    const slots = [...accounts.map((a) => a.slotCreated), ...dataset.signatures.map((s) => s.slot), ...dataset.addresses.map((a) => a.slot)];
    expect(Math.max(...slots)).toBeLessThanOrEqual(dataset.slot);
    const timeOf = new Map<number, number>();
    for (const s of dataset.signatures) {
      expect(timeOf.get(s.slot) ?? s.blockTime).toBe(s.blockTime);
      timeOf.set(s.slot, s.blockTime);
    }
  });

  it("hold u64 values above 2^53, up to u64::MAX, as bigint (and small ones as number)", () => {
    const isBig = (v: number | bigint) => typeof v === "bigint" && v > 2n ** 53n;
    expect(accounts.some((a) => a.lamports === U64_MAX)).toBe(true);
    expect(accounts.filter((a) => isBig(a.lamports)).length).toBeGreaterThan(10);
    expect(accounts.some((a) => a.data?.discriminator === U64_MAX)).toBe(true);
    expect(accounts.filter((a) => a.data !== null && isBig(a.data.discriminator)).length).toBeGreaterThan(100);
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
});

describe("trees", () => {
  it("are stateless.js's localnet trees: keys, queues, CPI contexts and types", () => {
    expect(featureFlags.isV2()).toBe(true);
    const types = ["", "StateV1", "AddressV1", "StateV2", "AddressV2"];
    const infos = localTestActiveStateTreeInfos();
    expect(infos.map((i) => i.tree.toBase58())).toContain(getBatchAddressTreeInfo().tree.toBase58());
    for (const info of infos) {
      const tree = treeOf.get(info.tree.toBase58()) as TreeRecord;
      expect(tree, info.tree.toBase58()).toBeDefined();
      expect(tree.queue).toBe(info.queue.toBase58());
      expect(tree.type).toBe(types[info.treeType]);
      if (tree.type === "StateV1" || tree.type === "StateV2") expect(tree.cpiContext).toBe(info.cpiContext?.toBase58());
    }
    expect(treeOf.get(addressTree)).toMatchObject({ queue: addressQueue, type: "AddressV1", cpiContext: null });
    expect(dataset.trees.map((t) => t.tree)).toEqual(LOCALNET_TREES.map((t) => t.tree));
    expect(dataset.trees).toHaveLength(infos.length + 1);
    expect(TREES).toEqual(dataset.trees.filter((t) => t.type === "StateV1" || t.type === "StateV2").map((t) => t.tree));
  });

  it("have the heights and root histories of V1 trees (26, 2400) and batched ones (32 / 40, 200)", () => {
    const shape = (t: TreeRecord) => `${t.type}:${t.height}:${t.rootHistory}`;
    expect(new Set(dataset.trees.map(shape))).toEqual(new Set(["StateV1:26:2400", "AddressV1:26:2400", "StateV2:32:200", "AddressV2:40:200"]));
  });

  it("hold every account in a state tree, at contiguous leaf indexes from 0", () => {
    for (const a of accounts) expect(typeOf(a) === "StateV1" || typeOf(a) === "StateV2").toBe(true);
    for (const tree of TREES) {
      const leaves = accounts.filter((a) => a.tree === tree).map((a) => a.leafIndex);
      expect(leaves.length).toBeGreaterThan(0);
      expect(Math.max(...leaves)).toBe(leaves.length - 1);
    }
  });

  it("spread batched accounts mostly over bmt1, some in bmt2–bmt5", () => {
    const counts = TREES.slice(2).map((tree) => accounts.filter((a) => a.tree === tree).length);
    const [first, ...others] = counts as [number, ...number[]];
    for (const n of others) expect(n).toBeGreaterThan(50);
    expect(first).toBeGreaterThan(others.reduce((s, n) => s + n, 0));
  });

  it("count one sequence step per append and per nullification; V1 account seqs rise with leaf index", () => {
    for (const tree of dataset.trees.filter((t) => t.type === "StateV1" || t.type === "StateV2")) {
      const mine = accounts.filter((a) => a.tree === tree.tree).sort((a, b) => a.leafIndex - b.leafIndex);
      const appended = mine.filter((a) => !a.inOutputQueue);
      const nullified = mine.filter((a) => a.spent && !a.inInputQueue).length;
      expect(tree.seq, tree.tree).toBe(appended.length + nullified);
      if (tree.type === "StateV2") continue;
      for (let i = 1; i < appended.length; i++) expect((appended[i]?.seq as number) > (appended[i - 1]?.seq as number)).toBe(true);
      for (const a of appended) expect(a.seq as number).toBeLessThanOrEqual(tree.seq);
      // Before the first nullification, a tree's k-th append has seq k (Photon's snapshots: leafIndex 0, seq 1).
      expect(appended[0]?.seq).toBe(1);
    }
    const v1 = accounts.filter((a) => typeOf(a) === "StateV1");
    expect(v1.every((a) => a.seq !== null && !a.inInputQueue && !a.inOutputQueue)).toBe(true);
  });

  it("give every batched-tree account seq null, as Photon sends it (its event parser sets seq for StateV1 only), and only those", () => {
    for (const a of accounts) expect(a.seq === null, a.hash).toBe(typeOf(a) === "StateV2");
    expect(accounts.some((a) => typeOf(a) === "StateV2" && !a.inOutputQueue && !a.spent)).toBe(true);
  });

  it("count address insertions: two steps each in the V1 address tree (after the 3 of its initialisation), one per inserted address in the batched one", () => {
    const [amt1, amt2] = dataset.trees.filter((t) => t.type === "AddressV1" || t.type === "AddressV2") as [TreeRecord, TreeRecord];
    const inserted = (t: TreeRecord) => dataset.addresses.filter((a) => a.tree === t.tree && !a.queued).length;
    expect(amt1.seq).toBe(3 + 2 * inserted(amt1));
    expect(amt2.seq).toBe(inserted(amt2));
  });
});

describe("transactions", () => {
  it("open every account exactly once and close exactly the spent ones, once, never before opening", () => {
    const opens = new Map<string, number>();
    const closes = new Map<string, number>();
    for (const s of dataset.signatures) {
      for (const h of s.opened) opens.set(h, (opens.get(h) ?? 0) + 1);
      for (const h of s.closed) closes.set(h, (closes.get(h) ?? 0) + 1);
      expect(s.opened.length + s.closed.length).toBeGreaterThan(0);
    }
    expect(opens.size).toBe(accounts.length);
    for (const a of accounts) {
      expect(opens.get(a.hash), a.hash).toBe(1);
      expect(closes.get(a.hash) ?? 0).toBe(a.spent ? 1 : 0);
      expect(openedBy.get(a.hash)?.slot).toBe(a.slotCreated);
      if (a.spent) expect((closedBy.get(a.hash) as SignatureRecord).slot).toBeGreaterThanOrEqual(a.slotCreated);
    }
  });

  it("update an address in one transaction closing the old version and opening the new one", () => {
    const updates = dataset.signatures.filter((s) => s.closed.length === 1 && s.opened.length === 1);
    expect(updates.length).toBeGreaterThan(300);
    for (const s of updates) {
      const [old, now] = [byHash.get(s.closed[0] as string) as AccountRecord, byHash.get(s.opened[0] as string) as AccountRecord];
      expect(old.address).not.toBeNull();
      expect(now.address).toBe(old.address);
      expect(now.owner).toBe(old.owner);
    }
  });

  it("cover token accounts, spent ones included, some transactions opening several", () => {
    for (const t of dataset.tokens) expect(openedBy.has(t.hash)).toBe(true);
    const several = dataset.signatures.filter((s) => s.opened.length > 1);
    expect(several.length).toBeGreaterThan(10);
    expect(several.some((s) => s.opened.every((h) => byHash.get(h)?.owner === TOKEN_PROGRAM))).toBe(true);
  });

  it("are in (slot, signature bytes) order, several per slot", () => {
    const slots = dataset.signatures.map((s) => s.slot);
    expect(new Set(slots).size).toBeLessThan(slots.length);
    expect(new Set(slots).size).toBeGreaterThan(1000);
    for (let i = 1; i < dataset.signatures.length; i++) {
      const [a, b] = [dataset.signatures[i - 1] as SignatureRecord, dataset.signatures[i] as SignatureRecord];
      expect(a.slot < b.slot || (a.slot === b.slot && byteOrder(a.signature, b.signature) < 0)).toBe(true);
    }
  });
});

describe("batched queues", () => {
  const batched = accounts.filter((a) => typeOf(a) === "StateV2");

  it("keep late accounts in the output queue (inOutputQueue, unspent, the newest leaves of their tree)", () => {
    const queued = batched.filter((a) => a.inOutputQueue);
    expect(queued.length).toBeGreaterThan(20);
    expect(accounts.filter((a) => a.inOutputQueue).every((a) => typeOf(a) === "StateV2" && !a.spent && a.seq === null)).toBe(true);
    for (const tree of TREES.slice(2)) {
      const mine = batched.filter((a) => a.tree === tree);
      const firstQueued = Math.min(...mine.filter((a) => a.inOutputQueue).map((a) => a.leafIndex));
      expect(mine.every((a) => a.inOutputQueue === a.leafIndex >= firstQueued)).toBe(true);
    }
    const lastAppended = Math.max(...batched.filter((a) => !a.inOutputQueue).map((a) => a.slotCreated));
    expect(Math.min(...queued.map((a) => a.slotCreated))).toBeGreaterThan(lastAppended);
  });

  it("keep accounts spent late in the input queue: inInputQueue only on spent StateV2 accounts", () => {
    const inQueue = accounts.filter((a) => a.inInputQueue);
    expect(inQueue.length).toBeGreaterThan(5);
    for (const a of inQueue) expect(a.spent && typeOf(a) === "StateV2").toBe(true);
    const closeSlot = (a: AccountRecord) => (closedBy.get(a.hash) as SignatureRecord).slot;
    const nullified = batched.filter((a) => a.spent && !a.inInputQueue);
    expect(Math.min(...inQueue.map(closeSlot))).toBeGreaterThan(Math.max(...nullified.map(closeSlot)));
  });
});

describe("addresses", () => {
  const holders = new Map<string, AccountRecord[]>();
  for (const a of accounts) if (a.address !== null) holders.set(a.address, [...(holders.get(a.address) ?? []), a]);
  const [amt1, amt2] = [LOCALNET_TREES[7]?.tree, LOCALNET_TREES[8]?.tree];

  it("list each distinct account address once, as a valid new address (first byte 0, below 2^248 - 1)", () => {
    expect(dataset.addresses.map((a) => a.address).sort()).toEqual([...holders.keys()].sort());
    const highest = BigInt(HIGHEST_ADDRESS_PLUS_ONE.toString());
    for (const { address } of dataset.addresses) {
      const value = bytes(address);
      expect(value.length === 32 && value[0] === 0 && big(value) < highest).toBe(true);
    }
  });

  it("put an address in the address tree of its first holder's kind (amt1 for V1, amt2 for batched), keeping it across updates", () => {
    for (const record of dataset.addresses) {
      const versions = holders.get(record.address) as AccountRecord[];
      const kinds = new Set(versions.map(typeOf));
      expect(kinds.size).toBe(1);
      expect(record.tree).toBe(kinds.has("StateV1") ? amt1 : amt2);
      expect(record.slot).toBe(Math.min(...versions.map((a) => a.slotCreated)));
      expect(versions.filter((a) => !a.spent).length).toBeLessThanOrEqual(1);
    }
    expect([...holders.values()].some((v) => v.length > 2)).toBe(true);
  });

  it("queue only late addresses of the batched address tree, after every inserted one, in insertion (slot) order", () => {
    const queued = dataset.addresses.filter((a) => a.queued);
    expect(queued.length).toBeGreaterThan(5);
    for (const a of queued) {
      expect(a.tree).toBe(amt2);
      expect((holders.get(a.address) as AccountRecord[])[0]?.inOutputQueue).toBe(true);
    }
    for (const tree of [amt1, amt2]) {
      const list = dataset.addresses.filter((a) => a.tree === tree);
      for (let i = 1; i < list.length; i++) expect((list[i] as { slot: number }).slot).toBeGreaterThanOrEqual((list[i - 1] as { slot: number }).slot);
      const firstQueued = list.findIndex((a) => a.queued);
      if (firstQueued >= 0) expect(list.slice(firstQueued).every((a) => a.queued)).toBe(true);
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
      profile.ownerWithBigBalance.owner,
      profile.ownerWithBatchedAccounts.owner,
      profile.addressWithHistory.owner,
      profile.memcmpOwner.owner,
      profile.tokenOwnerWithManyMints.owner,
      profile.tokenOwnerWith1000TokenAccounts.owner,
      profile.tokenOwnerWith1001TokenAccounts.owner,
      profile.tokenOwnerWithOneAccount.owner,
      profile.ownerWithZeroBalance.owner,
      profile.tokenOwnerWithBigAmounts.owner,
      profile.tokenOwnerWithNoAccounts,
      profile.delegateWithManyAccounts.delegate,
      profile.mintWithManyHolders.mint,
      profile.unknownAddress,
    ];
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) expect(formats.pubkey(k)).toBe(true);
    for (const h of [profile.knownHash, profile.spentHash, profile.unknownHash, profile.closedAccount.hash]) expect(formats.hash(h)).toBe(true);
  });

  it("states the promised counts", () => {
    expect(profile.slot).toBe(dataset.slot);
    expect(profile.counts).toEqual({
      accounts: 20_000,
      unspentAccounts: accounts.filter((a) => !a.spent).length,
      tokenAccounts: 4_000,
      signatures: dataset.signatures.length,
      addresses: dataset.addresses.length,
    });
    expect(profile.trees).toEqual({
      stateV1: TREES.slice(0, 2),
      stateV2: TREES.slice(2),
      addressV1: LOCALNET_TREES[7]?.tree,
      addressV2: LOCALNET_TREES[8]?.tree,
    });
    expect(profile.ownerWithManyAccounts).toMatchObject({ unspent: 2500, lamportsOverflow: true });
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

  it("gives the owner of its one queued account the newest leaf of bmt1", () => {
    const one = byHash.get(profile.ownerWithOneAccount.hash) as AccountRecord;
    expect(one).toMatchObject({ tree: TREES[2], seq: null, address: null, data: null, spent: false, inOutputQueue: true });
    expect(one.leafIndex).toBe(accounts.filter((a) => a.tree === TREES[2]).length - 1);
  });

  it("counts each token role owner's signatures as exactly the transactions touching its token accounts", () => {
    for (const role of [profile.tokenOwnerWith1000TokenAccounts, profile.tokenOwnerWith1001TokenAccounts]) {
      const mine = new Set(dataset.tokens.filter((t) => t.owner === role.owner).map((t) => t.hash));
      const touching = dataset.signatures.filter((s) => [...s.opened, ...s.closed].some((h) => mine.has(h)));
      expect(role.signatures).toBe(touching.length);
    }
  });

  it("names a program owner with more than a page of signatures", () => {
    const mine = new Set(accounts.filter((a) => a.owner === profile.ownerWithManyAccounts.owner).map((a) => a.hash));
    const touching = dataset.signatures.filter((s) => [...s.opened, ...s.closed].some((h) => mine.has(h)));
    expect(profile.ownerWithManyAccounts.signatures).toBe(touching.length);
    expect(touching.length).toBeGreaterThan(1000);
  });

  it("names an owner whose unspent lamports sum above 2^53", () => {
    const mine = accounts.filter((a) => a.owner === profile.ownerWithBigBalance.owner && !a.spent);
    const sum = mine.reduce((s, a) => s + BigInt(a.lamports), 0n);
    expect(mine.every((a) => BigInt(a.lamports) < 2n ** 53n)).toBe(true);
    expect(profile.ownerWithBigBalance).toEqual({ owner: profile.ownerWithBigBalance.owner, unspent: mine.length, balance: sum });
    expect(sum > 2n ** 53n).toBe(true);
  });

  it("names batched accounts in the tree, in the output queue and in the input queue", () => {
    const b = profile.ownerWithBatchedAccounts;
    const get = (h: string) => byHash.get(h) as AccountRecord;
    expect(b.inTree.length && b.inOutputQueue.length && b.inInputQueue.length && b.nullified.length).toBeGreaterThan(0);
    for (const h of b.inTree) expect(get(h).seq === null && !get(h).inOutputQueue && !get(h).spent && typeOf(get(h)) === "StateV2").toBe(true);
    for (const h of b.inOutputQueue) expect(get(h).seq === null && get(h).inOutputQueue && !get(h).spent && typeOf(get(h)) === "StateV2").toBe(true);
    for (const h of b.inInputQueue) expect(get(h).spent && get(h).inInputQueue).toBe(true);
    for (const h of b.nullified) expect(get(h).spent && !get(h).inInputQueue && typeOf(get(h)) === "StateV2").toBe(true);
    expect(b.unspent).toBe(b.inTree.length + b.inOutputQueue.length);
  });

  it("names an address with several versions, each update one transaction", () => {
    const { address, hashes, signatures } = profile.addressWithHistory;
    expect(hashes.length).toBeGreaterThanOrEqual(3);
    expect(hashes.map((h) => byHash.get(h)?.address)).toEqual(hashes.map(() => address));
    expect(hashes.map((h) => byHash.get(h)?.spent)).toEqual(hashes.map((_, i) => i < hashes.length - 1));
    const touching = dataset.signatures.filter((s) => [...s.opened, ...s.closed].some((h) => byHash.get(h)?.address === address));
    expect(new Set(signatures)).toEqual(new Set(touching.map((s) => s.signature)));
    signatures.forEach((sig, i) => {
      const s = dataset.signatures.find((x) => x.signature === sig) as SignatureRecord;
      expect(s.opened).toEqual([hashes[i]]);
      expect(s.closed).toEqual(i === 0 ? [] : [hashes[i - 1]]);
    });
  });

  it("names a spent account with its opening and closing transactions", () => {
    const { hash, openedBy: o, closedBy: c } = profile.closedAccount;
    expect(openedBy.get(hash)?.signature).toBe(o);
    expect(closedBy.get(hash)?.signature).toBe(c);
    expect(o).not.toBe(c);
  });

  it("names a delegate with more than a page of unspent token accounts over two mints", () => {
    const d = profile.delegateWithManyAccounts;
    const mine = dataset.tokens.filter((t) => t.delegate === d.delegate);
    const unspent = mine.filter((t) => !byHash.get(t.hash)?.spent);
    expect(d).toEqual({ delegate: d.delegate, unspent: unspent.length, mints: new Set(unspent.map((t) => t.mint)).size, spent: mine.length - unspent.length });
    expect(d.unspent).toBeGreaterThan(1000);
    expect(d.mints).toBeGreaterThanOrEqual(2);
  });

  it("names a mint with more than a page of holders, balance ties and one balance above 2^53", () => {
    const m = profile.mintWithManyHolders;
    // Photon's order (balance desc, owner desc) over the mint's balance rows.
    const ordered = expectedHolders(dataset, m.mint);
    expect(m.holders).toBe(ordered.length);
    expect(m.holders).toBeGreaterThan(1000);
    // The 1000th and 1001st holders share a balance: the cursor's owner part decides.
    expect(ordered[999]?.balance).toBe(ordered[1000]?.balance);
    expect([ordered[0]?.owner, ordered[0]?.balance]).toEqual([m.topHolder.owner, m.topHolder.balance]);
    expect(m.topHolder.balance > 2n ** 53n).toBe(true);
    expect(ordered.filter((r) => r.balance === 0n)).toHaveLength(m.zeroBalanceHolders);
    expect(m.zeroBalanceHolders).toBeGreaterThan(0);
    expect(m.tiedHolders).toBeGreaterThan(900);
  });

  it("names token owners whose balance rows keep their promises under the zero-balance rule", () => {
    const tokensOf = (owner: string) => dataset.tokens.filter((t) => t.owner === owner);
    const mintsHeld = (owner: string) => new Set(tokensOf(owner).map((t) => t.mint));
    const many = profile.tokenOwnerWithManyMints;
    expect(expectedBalances(dataset, many.owner).map((r) => r.mint)).toEqual([...mintsHeld(many.owner)].sort(byteOrder));
    expect(many.mints).toBe(40);
    const t1001 = profile.tokenOwnerWith1001TokenAccounts;
    expect(tokensOf(t1001.owner).every((t) => BigInt(t.amount) > 0n)).toBe(true);
    expect(expectedBalances(dataset, t1001.owner)).toHaveLength(t1001.mints);
    const zero = profile.ownerWithZeroBalance;
    const rows = expectedBalances(dataset, zero.owner);
    expect(rows).toHaveLength(zero.balances);
    expect(rows.find((r) => r.mint === zero.mint)?.balance).toBe(0);
    expect(
      tokensOf(zero.owner)
        .filter((t) => t.mint === zero.mint)
        .every((t) => byHash.get(t.hash)?.spent && BigInt(t.amount) > 0n),
    ).toBe(true);
    const zeroAmount = tokensOf(zero.owner).filter((t) => t.mint === zero.zeroAmountMint);
    expect(zeroAmount.map((t) => [t.amount, byHash.get(t.hash)?.spent])).toEqual([[0, false]]);
    expect(rows.some((r) => r.mint === zero.zeroAmountMint)).toBe(false);
    expect(mintsHeld(zero.owner).size).toBe(zero.balances + 1);
  });

  it("names absent entities that really are absent", () => {
    const everything = new Set([
      ...accounts.flatMap((a) => [a.hash, a.owner, a.address]),
      ...dataset.tokens.flatMap((t) => [t.owner, t.mint, t.delegate]),
      ...dataset.addresses.map((a) => a.address),
    ]);
    for (const k of [profile.unknownHash, profile.unknownAddress, profile.ownerWithNoAccounts, profile.tokenOwnerWithNoAccounts])
      expect(everything.has(k)).toBe(false);
    expect(bytes(profile.unknownAddress)[0]).toBe(0);
  });

  it("refuses a dataset that is not generator output", () => {
    expect(() => datasetProfile({ ...dataset, seed: null })).toThrow(/no seed/);
    expect(() => datasetProfile({ ...dataset, seed: 2 })).toThrow(/does not match/);
  });
});
