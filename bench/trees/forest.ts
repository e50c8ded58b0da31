import { poseidon as wasmPoseidon } from "@railgun-community/poseidon-hash-wasm/pkg-cjs/poseidon_hash_wasm.js";
import { Forest } from "../../reference/index.js";
import type { Dataset } from "../../reference/index.js";
import { hashCount, MAX_HEIGHT, zeroHash } from "../../reference/trees/poseidon.js";
import { figure, fmtNumber, type BenchOptions, type FigureResult, type Table } from "../lib/figure.js";
import { inTurns, median, pairedRatio, summary } from "../lib/stats.js";
import type { Pools } from "./inputs.js";

/**
 * The Poseidon calls of a forest build that take three inputs, from the tree model (forest.ts):
 * a nullifier per nullified batched-tree account, and a leaf per element of a V1 address tree
 * (its addresses and its two initial elements). Every other call (Merkle parents, V2 address
 * leaves, transaction-hash chains) takes two.
 */
function threeInputCalls(dataset: Dataset): number {
  const type = new Map(dataset.trees.map((t) => [t.tree, t.type]));
  const nullifiers = dataset.accounts.filter((a) => type.get(a.tree) === "StateV2" && a.spent && !a.inInputQueue).length;
  const v1Trees = dataset.trees.filter((t) => t.type === "AddressV1");
  const v1Leaves = v1Trees.reduce((n, t) => n + 2 + dataset.addresses.filter((a) => a.tree === t.tree && !a.queued).length, 0);
  return nullifiers + v1Leaves;
}

/**
 * The same number of calls of the hash library reference/trees/poseidon.ts uses
 * (@railgun-community/poseidon-hash-wasm), two- and three-input, chained on full-size values, with
 * the bigint ↔ hex conversions its interface needs (the floor of any caller holding bigints); no field check.
 */
function hashLoop(two: number, three: number): number {
  let x = 0x2a5f0f4e5d8f5c2e1b0c7a9e8d6f4b3a2c1e0f9d8c7b6a5f4e3d2c1b0a998877n;
  const y = 0x1c2d3e4f5a6b7c8d9eafb0c1d2e3f405162738495a6b7c8d9eaf0b1c2d3e4f50n;
  const t0 = performance.now();
  for (let i = 0; i < two; i++) x = BigInt(`0x${wasmPoseidon([x.toString(16), y.toString(16)])}`);
  for (let i = 0; i < three; i++) x = BigInt(`0x${wasmPoseidon([x.toString(16), y.toString(16), i.toString(16)])}`);
  const ms = performance.now() - t0;
  if (x === 0n) throw new Error("unreachable: Poseidon gave 0");
  return ms;
}

/** 4. The whole forest built in process against its hashing alone. */
export async function forestFigure(p: Pools, options: BenchOptions): Promise<{ result: FigureResult; table: Table }> {
  const rounds = options.quick ? 1 : 3;
  const { dataset } = p;
  const build = () => {
    const forest = new Forest(dataset);
    const perTree: { ms: number; hashes: number }[] = [];
    const h0 = hashCount();
    const t0 = performance.now();
    for (const tree of dataset.trees) {
      const h = hashCount();
      const t = performance.now();
      forest.root(tree.tree);
      perTree.push({ ms: performance.now() - t, hashes: hashCount() - h });
    }
    return { ms: performance.now() - t0, hashes: hashCount() - h0, perTree };
  };
  // Warm-up: the smaller trees and a short loop (JIT), and every level's zero value (computed once per process), unmeasured.
  {
    zeroHash(MAX_HEIGHT);
    const forest = new Forest(dataset);
    for (const tree of dataset.trees.filter((t) => t.type === "StateV2")) forest.root(tree.tree);
    hashLoop(2000, 500);
  }
  const three = threeInputCalls(dataset);
  const ours: number[] = [];
  const base: number[] = [];
  const perTree: { ms: number; hashes: number }[][] = [];
  let hashes = 0;
  for (let r = 0; r < rounds; r++) {
    const order = inTurns(r, ["ours", "base"] as const);
    for (const side of order) {
      if (side === "ours") {
        const b = build();
        ours.push(b.ms);
        perTree.push(b.perTree);
        if (hashes !== 0 && b.hashes !== hashes) throw new Error(`a forest build made ${b.hashes} Poseidon calls, an earlier one ${hashes}`);
        hashes = b.hashes;
      } else {
        // The first round's build tells the count; the baseline of round 0 then runs after it.
        if (hashes === 0) throw new Error("the baseline needs the build's hash count first");
        base.push(hashLoop(hashes - three, three));
      }
    }
  }
  if (three > hashes) throw new Error(`the tree model counts ${three} three-input calls of ${hashes}`);
  const table: Table = {
    title: `Forest build per tree, in process (default dataset: ${dataset.accounts.length.toLocaleString("en-US")} accounts, ${dataset.addresses.length.toLocaleString("en-US")} addresses; median of ${rounds})`,
    columns: ["tree", "type", "height", "Poseidon calls", "ms", "µs/call"],
    rows: dataset.trees.map((tree, i) => {
      const ms = median(perTree.map((t) => t[i]!.ms));
      const n = perTree[0]![i]!.hashes;
      return [tree.tree.slice(0, 4), tree.type, String(tree.height), n.toLocaleString("en-US"), fmtNumber(ms), n > 0 ? fmtNumber((ms * 1000) / n) : "—"];
    }),
    notes: [
      "each tree built by its root (forest.root), one after the other, on a fresh Forest: the synchronous build a proof on an unbuilt tree runs; the server's background warm-up runs the same steps in 2-ms slices",
      `the zero values of the levels (${MAX_HEIGHT} calls, computed once per process) were computed by the warm-up and are not counted`,
    ],
  };
  return {
    result: figure({
      id: "trees.forest",
      what: `the whole forest (${dataset.trees.length} trees, ${hashes.toLocaleString("en-US")} Poseidon calls) built in process (${rounds} rounds)`,
      ours: {
        label: "Forest: every tree's root",
        unit: "hashes/s",
        ...summary(
          ours.map((ms) => (hashes * 1000) / ms),
          0,
        ),
      },
      baseline: {
        label: `the hash library we use (@railgun-community/poseidon-hash-wasm) alone, the same ${fmtNumber(hashes - three)} two-input + ${fmtNumber(three)} three-input calls, tight loop`,
        unit: "hashes/s",
        ...summary(
          base.map((ms) => (hashes * 1000) / ms),
          0,
        ),
      },
      ratio: pairedRatio(base, ours),
      ratioOf: "ours ÷ baseline Poseidon hashes/s (baseline time ÷ ours)",
      aim: { op: ">=", value: 0.9, text: "≥ 0.9× the hash library alone" },
      notes: [
        "three-input calls counted from the tree model: a nullifier per nullified batched-tree account, a leaf per V1 address-tree element",
        "bound by the hash library itself (WebAssembly; about 1.6× poseidon-lite's hashes/s, the same function): the rest is reading leaves (base58 → bigint) and the field check",
      ],
    }),
    table,
  };
}
