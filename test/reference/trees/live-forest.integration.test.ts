/**
 * The forest follows a moving dataset (`Forest.apply`): after every change written into the
 * records by `applyChange`, every answer of a forest that followed the changes equals the answer
 * of a fresh forest over the same records. Followers whose trees were built before the changes,
 * partly built, never built, or being built in slices (warm) while the changes come.
 *
 * The Poseidon outputs of the dataset's trees are recorded once (beforeAll) and served from a memo
 * file, so that a fresh forest per comparison costs little hashing: only what the changes add is hashed.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeBase58, stringifyJson } from "../../../runtime/index.js";
import { generateDataset, MIN_ACCOUNTS } from "../../../reference/dataset.js";
import { Random } from "../../../reference/random.js";
import type { AccountRecord, Dataset, TreeRecord, TreeType } from "../../../reference/records.js";
import { asAddress } from "../../../reference/roles/keys.js";
import { type AddressWithTree, Forest, ZERO_HASH } from "../../../reference/trees/forest.js";
import { recordPoseidon, usePoseidonMemo } from "../../../reference/trees/poseidon.js";
import type { MerkleTree } from "../../../reference/trees/state-tree.js";
import { ChangeMaker, type TxBuilder } from "./live-changes.js";

/** A 32-byte value that is no account's hash and no stored leaf. */
const NOWHERE = encodeBase58(Uint8Array.from({ length: 32 }, (_, i) => i + 1));

let template: Dataset;
let memoDir: string;

beforeAll(() => {
  template = generateDataset({ seed: 1, accounts: MIN_ACCOUNTS });
  const recording = recordPoseidon();
  const forest = new Forest(template);
  for (const t of template.trees) forest.root(t.tree);
  memoDir = mkdtempSync(join(tmpdir(), "live-forest-"));
  recording.stop().write(join(memoDir, "memo.bin"));
  usePoseidonMemo(join(memoDir, "memo.bin"));
}, 120_000);

afterAll(() => {
  usePoseidonMemo(null);
  if (memoDir) rmSync(memoDir, { recursive: true, force: true });
});

/** The dataset's first trees of each type, as the tests name them. */
function treesOf(dataset: Dataset) {
  const of = (type: TreeType, n: number) => dataset.trees.filter((t) => t.type === type)[n] as TreeRecord;
  return { smt1: of("StateV1", 0), smt2: of("StateV1", 1), bmt1: of("StateV2", 0), bmt2: of("StateV2", 1), amt1: of("AddressV1", 0), amt2: of("AddressV2", 0) };
}

const isV2 = (dataset: Dataset, a: AccountRecord) => dataset.trees.find((t) => t.tree === a.tree)?.type === "StateV2";
const unspentInTree = (dataset: Dataset, tree: string) => dataset.accounts.filter((a) => a.tree === tree && !a.spent && !a.inOutputQueue);

interface Probes {
  accounts: AccountRecord[];
  hashes: string[];
  addresses: AddressWithTree[];
}

/** What to ask: a few accounts of every state in every state tree, every account a change touched, stored leaves by value, and addresses present, queued and absent. */
function probesOf(dataset: Dataset, maker: ChangeMaker, fresh: Forest, absent: readonly AddressWithTree[]): Probes {
  const accounts = new Set<AccountRecord>();
  for (const t of dataset.trees) {
    const of = dataset.accounts.filter((a) => a.tree === t.tree);
    for (const state of [
      (a: AccountRecord) => !a.spent && !a.inOutputQueue,
      (a: AccountRecord) => a.spent && !a.inInputQueue,
      (a: AccountRecord) => a.inInputQueue,
      (a: AccountRecord) => a.inOutputQueue,
    ])
      for (const a of of.filter(state).slice(0, 2)) accounts.add(a);
  }
  for (const c of maker.changes)
    for (const hash of [...c.signature.opened, ...c.signature.closed, ...c.appended.flatMap((b) => b.items), ...c.nullified.flatMap((b) => b.items)])
      accounts.add(maker.lookup.account(hash) as AccountRecord);
  const hashes = [...accounts].map((a) => a.hash);
  // Stored leaves by value: zero, nullifiers, address trees' leaves (their low elements' included), and a value stored nowhere.
  hashes.push(ZERO_HASH, NOWHERE);
  for (const a of accounts) if (a.spent && !a.inInputQueue && isV2(dataset, a)) hashes.push(fresh.nullifier(a));
  for (const t of dataset.trees) {
    const merkle = t.type.startsWith("Address") ? fresh.merkleTree(t.tree) : null;
    if (merkle) for (const i of [0, 1, merkle.size - 2, merkle.size - 1]) hashes.push(merkle.leafBase58(i));
  }
  const addresses: AddressWithTree[] = [...absent, { address: ZERO_HASH, tree: absent[0]?.tree as string }];
  for (const t of dataset.trees.filter((t) => t.type.startsWith("Address"))) {
    const of = dataset.addresses.filter((a) => a.tree === t.tree);
    for (const a of [...of.slice(0, 2), ...of.filter((a) => a.queued).slice(0, 2), ...of.slice(-3)]) addresses.push({ address: a.address, tree: t.tree });
  }
  return { accounts: [...accounts], hashes, addresses };
}

/** A tree's stored nodes (every level's width and a digest of its nodes), or null. */
function nodesOf(merkle: MerkleTree | null): unknown {
  if (merkle === null) return null;
  const digest = createHash("sha256");
  const widths: number[] = [];
  for (let k = 0; k <= merkle.height; k++) {
    widths.push(merkle.width(k));
    for (let j = 0; j < merkle.width(k); j++) digest.update(`${k}/${j}=${merkle.node(k, j)};`);
  }
  return { size: merkle.size, widths, digest: digest.digest("hex") };
}

/** Every answer of the forest's methods for the probes, as the JSON text sent (an error as its name, code and message). */
function answersOf(forest: Forest, dataset: Dataset, probes: Probes): Map<string, string> {
  const out = new Map<string, string>();
  const put = (key: string, answer: () => unknown) => {
    let value: unknown;
    try {
      value = answer();
    } catch (err) {
      const e = err as Error & { code?: unknown };
      value = { error: e.name, code: e.code ?? null, message: e.message };
    }
    out.set(key, stringifyJson(value));
  };
  for (const t of dataset.trees) {
    put(`root ${t.tree}`, () => forest.root(t.tree));
    put(`nodes ${t.tree}`, () => nodesOf(forest.merkleTree(t.tree)));
  }
  for (const h of probes.hashes) {
    put(`accountProof ${h}`, () => forest.accountProof(h));
    put(`accountProofV2 ${h}`, () => forest.accountProofV2(h));
  }
  const unspent = probes.accounts.filter((a) => !a.spent && !a.inOutputQueue);
  const v1 = unspent.filter((a) => !isV2(dataset, a)).map((a) => a.hash);
  const v2 = probes.accounts.filter((a) => !a.spent && isV2(dataset, a));
  put("accountProofs", () => forest.accountProofs(unspent.map((a) => a.hash)));
  put("accountProofsV2", () => forest.accountProofsV2(probes.accounts.map((a) => a.hash)));
  for (const item of probes.addresses) {
    put(`newAddressProofs ${item.tree} ${item.address}`, () => forest.newAddressProofs([item]));
    put(`newAddressProofs unchecked ${item.tree} ${item.address}`, () => forest.newAddressProofs([item], { checkQueue: false }));
  }
  const [absent1, absent2] = probes.addresses;
  put("validityProofV1 hashes", () => forest.validityProofV1({ hashes: v1.slice(0, 4) }));
  put("validityProofV1 addresses", () => forest.validityProofV1({ hashes: v1.slice(-1), newAddressesWithTrees: [absent1 as AddressWithTree] }));
  put("validityProofV1 batched address", () => forest.validityProofV1({ newAddressesWithTrees: [absent2 as AddressWithTree] }));
  put("validityProofV2", () => forest.validityProofV2({ hashes: v2.slice(0, 6).map((a) => a.hash), newAddressesWithTrees: [absent2 as AddressWithTree] }));
  put("validityProofV2 appended", () =>
    forest.validityProofV2({
      hashes: v2
        .filter((a) => !a.inOutputQueue)
        .slice(-2)
        .map((a) => a.hash),
    }),
  );
  for (const a of probes.accounts) {
    put(`leaf ${a.hash}`, () => forest.leaf(a));
    if (a.spent && isV2(dataset, a)) put(`nullifier ${a.hash}`, () => forest.nullifier(a));
  }
  for (const s of dataset.signatures.slice(-12)) put(`transactionHash ${s.signature}`, () => forest.transactionHash(s));
  return out;
}

/** The answers of a fresh forest over the dataset as it is now. */
function freshAnswers(dataset: Dataset, maker: ChangeMaker, absent: readonly AddressWithTree[]): { probes: Probes; answers: Map<string, string> } {
  const fresh = new Forest(dataset);
  const probes = probesOf(dataset, maker, fresh, absent);
  return { probes, answers: answersOf(fresh, dataset, probes) };
}

function expectSame(forest: Forest, dataset: Dataset, want: { probes: Probes; answers: Map<string, string> }, where: string): void {
  const got = answersOf(forest, dataset, want.probes);
  const differing = [...want.answers.keys()].filter((k) => got.get(k) !== want.answers.get(k));
  const shown = differing.slice(0, 4).map((key) => ({ key, got: got.get(key)?.slice(0, 300), want: want.answers.get(key)?.slice(0, 300) }));
  expect(shown, `${where}: ${differing.length} of ${want.answers.size} answers differ`).toEqual([]);
  expect(got.size).toBe(want.answers.size);
}

function absentAddresses(seed: number, dataset: Dataset): AddressWithTree[] {
  const rng = new Random(seed, "absent");
  const { amt1, amt2 } = treesOf(dataset);
  const address = () => encodeBase58(asAddress(rng.bytes(32)));
  return [
    { address: address(), tree: amt1.tree },
    { address: address(), tree: amt2.tree },
  ];
}

describe("Forest.apply: a forest following changes answers as a fresh forest over the same records", () => {
  it("after each change of every kind, with its trees built before, partly built, or never built", () => {
    const dataset = structuredClone(template);
    const { smt1, smt2, bmt1, bmt2, amt1, amt2 } = treesOf(dataset);
    const maker = new ChangeMaker(dataset);
    const absent = absentAddresses(1, dataset);
    const built = new Forest(dataset);
    const never = new Forest(dataset);
    const partly = new Forest(dataset);
    // Every tree and index of `built`; of `partly`, the leaf indexes (zero, nullifier and address rows, which
    // make the address trees' leaves), smt1 and amt1, and none of the other state trees.
    answersOf(built, dataset, probesOf(dataset, maker, built, absent));
    for (const h of [ZERO_HASH, NOWHERE]) expect(() => partly.accountProof(h)).toThrow();
    partly.root(smt1.tree);
    partly.newAddressProofs([absent[0] as AddressWithTree]);
    expect(partly.built().sort()).toEqual([smt1.tree, amt1.tree, amt2.tree].sort());
    expect(never.built()).toEqual([]);

    const opened: AccountRecord[] = [];
    const open = (tx: TxBuilder, tree: TreeRecord, address?: TreeRecord) => opened.push(tx.open(tree.tree, address?.tree));
    let bmt1Before = 0;
    let smt1Before = 0;
    const steps: [string, (tx: TxBuilder) => void][] = [
      ["a V1 open", (tx) => open(tx, smt1)],
      ["a V1 open with an AddressV1 address", (tx) => open(tx, smt2, amt1)],
      [
        "V1 spends",
        (tx) => {
          tx.close(opened[0] as AccountRecord);
          tx.close(unspentInTree(dataset, smt1.tree)[3] as AccountRecord);
        },
      ],
      ["a V2 open into the output queue, with an AddressV2 address (queued)", (tx) => open(tx, bmt1, amt2)],
      ["a V2 spend into the input queue", (tx) => tx.close(unspentInTree(dataset, bmt1.tree)[2] as AccountRecord)],
      [
        "a batch append taking bmt1's seq past a multiple of 200, and a V1 open with an address",
        (tx) => {
          bmt1Before = bmt1.seq;
          tx.append(bmt1.tree, 200 - (bmt1.seq % 200) + 3);
          open(tx, smt1, amt1);
        },
      ],
      ["a batch nullification (the V2 spend above included)", (tx) => tx.nullify(bmt1.tree, 1000)],
      ["a batch address insertion (the queued address above included)", (tx) => tx.insert(amt2.tree, 1000)],
      [
        "V1 spends taking smt1's seq past a multiple of 2400",
        (tx) => {
          smt1Before = smt1.seq;
          const n = 2400 - (smt1.seq % 2400) + 2;
          for (const a of unspentInTree(dataset, smt1.tree).slice(10, 10 + n)) tx.close(a);
        },
      ],
      [
        "the rest of bmt1's output queue appended (the V2 open above included), and opens in three trees",
        (tx) => {
          tx.append(bmt1.tree, 1000);
          open(tx, bmt2);
          open(tx, smt1, amt1);
          open(tx, bmt2, amt2);
        },
      ],
      [
        "spends of accounts opened above, and a nullification in another tree",
        (tx) => {
          tx.close(opened[2] as AccountRecord);
          tx.close(opened[1] as AccountRecord);
          tx.close(opened[3] as AccountRecord);
          tx.nullify(bmt2.tree, 1000);
        },
      ],
      [
        "batches only: nullify, append, insert",
        (tx) => {
          tx.nullify(bmt1.tree, 1000);
          tx.append(bmt2.tree, 1000);
          tx.insert(amt2.tree, 1000);
        },
      ],
      [
        "a V1 open spent, a V2 open appended and an AddressV2 address inserted by the change that made them",
        (tx) => {
          open(tx, smt2);
          tx.close(opened.at(-1) as AccountRecord);
          open(tx, bmt1, amt2);
          open(tx, bmt1, amt1);
          tx.append(bmt1.tree, 1);
          tx.insert(amt2.tree, 1);
        },
      ],
    ];
    for (const [i, [name, build]] of steps.entries()) {
      maker.step(build, [built, never, partly]);
      const want = freshAnswers(dataset, maker, absent);
      expectSame(built, dataset, want, `built, after ${name}`);
      // `partly` is compared once it has followed a few changes with most of its trees unbuilt.
      if (i >= 4) expectSame(partly, dataset, want, `partly built, after ${name}`);
      if (i === steps.length - 1) expectSame(never, dataset, want, `never built, after ${name}`);
    }

    const [spentAtOnce, appendedAtOnce, queuedAtOnce] = opened.slice(-3) as AccountRecord[];
    expect(spentAtOnce?.spent).toBe(true);
    expect(appendedAtOnce?.inOutputQueue).toBe(false);
    expect(queuedAtOnce?.inOutputQueue).toBe(true);
    expect(dataset.addresses.find((a) => a.address === appendedAtOnce?.address)?.queued).toBe(false);

    // Root indexes: rootSeq % rootHistory, across the multiples the changes passed.
    expect(Math.floor(bmt1Before / 200)).toBeLessThan(Math.floor(bmt1.seq / 200));
    expect(Math.floor(smt1Before / 2400)).toBeLessThan(Math.floor(smt1.seq / 2400));
    const v1 = built.validityProofV1({ hashes: [(opened[5] as AccountRecord).hash] });
    expect(v1.rootIndices).toEqual([smt1.seq % 2400]);
    const appended = dataset.accounts.filter((a) => a.tree === bmt1.tree && !a.spent && !a.inOutputQueue).at(-1) as AccountRecord;
    expect(built.validityProofV2({ hashes: [appended.hash] })?.accounts[0]?.rootIndex).toEqual({ rootIndex: bmt1.seq % 200, proveByIndex: false });
    // The V2 account opened into the queue proved by index, then by its leaf once appended, and its nullifier is its leaf now.
    const queued = opened[2] as AccountRecord;
    expect(queued.spent && !queued.inInputQueue).toBe(true);
    expect(built.leaf(queued)).toBe(built.nullifier(queued));
  }, 120_000);

  it("follows changes applied between the slices of a background build (warm)", async () => {
    const dataset = structuredClone(template);
    const { smt1, smt2, bmt1, amt1, amt2 } = treesOf(dataset);
    const maker = new ChangeMaker(dataset, 31);
    const absent = absentAddresses(2, dataset);
    const forest = new Forest(dataset);
    const warming = forest.warm({ sliceMs: 0.05 });
    let applied = 0;
    let whileUnbuilt = 0;
    // A change every turn of the event loop, until the build has gone through both V1 trees (the accounts' index, their leaves, their
    // levels), or for 600 turns.
    while (!forest.built().includes(smt2.tree) && applied < 600) {
      if (!forest.built().includes(smt1.tree)) whileUnbuilt++;
      const tree = applied % 2 === 0 ? smt1 : smt2;
      maker.step(
        (tx) => {
          tx.open(tree.tree, applied % 7 === 0 ? amt1.tree : undefined);
          const unspent = unspentInTree(dataset, tree.tree);
          tx.close(unspent[maker.rng.below(unspent.length)] as AccountRecord);
          if (applied % 10 === 0) tx.open(bmt1.tree, amt2.tree);
          if (applied % 15 === 0) {
            tx.append(bmt1.tree, 4);
            tx.insert(amt2.tree, 4);
          }
        },
        [forest],
      );
      applied++;
      await nextTurn();
    }
    await warming;
    expect(whileUnbuilt).toBeGreaterThan(0);
    expectSame(forest, dataset, freshAnswers(dataset, maker, absent), `after ${applied} changes during warm()`);
  }, 120_000);

  it("replays changes made while a build reads a state tree's leaves, to the accounts it had read", () => {
    const dataset = structuredClone(template);
    const { smt1 } = treesOf(dataset);
    const maker = new ChangeMaker(dataset, 32);
    const forest = new Forest(dataset);
    // The build warm() runs for one tree, driven a slice at a time here (a private method: warm() slices by time).
    const steps = (forest as unknown as { buildSteps(record: TreeRecord): Generator<void, void, undefined> }).buildSteps(smt1);
    expect(steps.next().done).toBe(false);
    // The first slice read the first accounts of smt1: spend one of them, and open one.
    maker.step(
      (tx) => {
        tx.close(unspentInTree(dataset, smt1.tree)[0] as AccountRecord);
        tx.open(smt1.tree);
      },
      [forest],
    );
    expect(forest.built()).toEqual([]);
    for (let i = 0; i < 3; i++) expect(steps.next().done).toBe(false);
    maker.step((tx) => tx.close(unspentInTree(dataset, smt1.tree)[1] as AccountRecord), [forest]);
    while (!steps.next().done);
    expect(forest.built()).toEqual([smt1.tree]);
    expectSame(forest, dataset, freshAnswers(dataset, maker, absentAddresses(3, dataset)), "after changes during the build of smt1");
  }, 120_000);
});
