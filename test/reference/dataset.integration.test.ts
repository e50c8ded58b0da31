/** generateDataset: deterministic, well-formed values, trees, transactions, queues and addresses. */
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
import { formats } from "../../runtime/index.js";
import { byteOrder, bytes, dataset } from "./fixture.js";
import { accounts, byHash, closedBy, openedBy, treeOf, typeOf } from "./dataset-index.js";

const digest = (d: Dataset) => {
  const h = createHash("sha256");
  for (const line of datasetLines(d)) h.update(`${line}\n`);
  return h.digest("hex");
};

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
