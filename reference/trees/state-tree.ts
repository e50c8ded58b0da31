/**
 * An append-only sparse Merkle tree hashed with Poseidon as Photon's `state_trees` holds it (zero values
 * `ZERO_BYTES`, src/ingester/persist/leaf_node.rs:139-167 at 366a15b). Only the non-empty part is stored
 * and built on first read; a `set` marks its path dirty and the next read recomputes only dirty nodes.
 */
import { internalError } from "@photon-indexer-kit/runtime";
import { RefErrorCode } from "../errors.js";
import { bigintToBase58, hash2, MAX_HEIGHT, zeroHash } from "./poseidon.js";

/** Hashes per step of an incremental build (`steps`): a few milliseconds of Poseidon (reference/trees/poseidon.ts). */
export const WORK_PER_STEP = 32;

export class MerkleTree {
  readonly height: number;
  private readonly leaves: bigint[];
  private levels: bigint[][] | null = null;
  private pending: Generator<void, bigint[][], undefined> | null = null;
  /** Positions at level 1 whose node must be recomputed from the leaves below (`set`), folded on the next read. */
  private dirty = new Set<number>();
  private writes = 0;
  /** Base58 texts of the stored nodes answered so far, by level and position: each node is encoded once. */
  private readonly texts: (string | undefined)[][] = [];

  /**
   * `leaves[i]` is leaf i (0 where nothing is stored, which is also the zero leaf); the array is
   * kept, not copied: it changes only through `set`.
   */
  constructor(height: number, leaves: bigint[]) {
    if (!Number.isInteger(height) || height < 1 || height > MAX_HEIGHT) throw internalError(RefErrorCode.INTERNAL, `a Merkle tree of height ${height}`);
    if (leaves.length > 2 ** height) throw internalError(RefErrorCode.INTERNAL, `${leaves.length} leaves do not fit a tree of height ${height}`);
    this.height = height;
    this.leaves = leaves;
  }

  /** Leaves stored (the index after the last one). */
  get size(): number {
    return this.leaves.length;
  }

  /** How many leaves have been written (`set`) so far: what a result read from this tree was current at. */
  get generation(): number {
    return this.writes;
  }

  /**
   * Writes leaf `index`: the leaves between the stored ones and it are stored as zero. Nothing is
   * hashed here; the nodes above it are recomputed when next read.
   */
  set(index: number, value: bigint): void {
    this.check(index);
    const leaves = this.leaves;
    // Writing the value a stored leaf holds changes nothing.
    if (index < leaves.length && leaves[index] === value) return;
    for (let i = leaves.length; i < index; i++) {
      leaves.push(0n);
      this.dirty.add(Math.floor(i / 2));
    }
    leaves[index] = value;
    this.dirty.add(Math.floor(index / 2));
    const texts = this.texts[0];
    if (texts !== undefined) texts[index] = undefined;
    this.writes++;
  }

  /** Leaf `index` (0 beyond the stored ones). */
  leaf(index: number): bigint {
    this.check(index);
    return this.leaves[index] ?? 0n;
  }

  /** The root: the zero value of `height` levels for an empty tree. */
  root(): bigint {
    const levels = this.build();
    return levels[this.height]?.[0] ?? zeroHash(this.height);
  }

  /**
   * The sibling hashes of leaf `index`, bottom-up (`height` of them): what Photon returns as
   * `proof` (all levels, no canopy cut: leaf_node_proof.rs:210-283 pops only the root).
   */
  proof(index: number): bigint[] {
    this.check(index);
    const levels = this.build();
    const out: bigint[] = [];
    let i = index;
    for (let k = 0; k < this.height; k++) {
      const sibling = i % 2 === 0 ? i + 1 : i - 1;
      out.push(levels[k]?.[sibling] ?? zeroHash(k));
      i = Math.floor(i / 2);
    }
    return out;
  }

  /** `proof(index)` as base58 texts (each stored node encoded on its first use, then kept; zero values once per level). */
  proofBase58(index: number): string[] {
    this.check(index);
    const levels = this.build();
    const out: string[] = new Array(this.height);
    let i = index;
    for (let k = 0; k < this.height; k++) {
      const sibling = i % 2 === 0 ? i + 1 : i - 1;
      const value = levels[k]?.[sibling];
      out[k] = value === undefined ? zeroBase58(k) : this.text(k, sibling, value);
      i = Math.floor(i / 2);
    }
    return out;
  }

  /** `leaf(index)` as base58, encoded once. */
  leafBase58(index: number): string {
    this.check(index);
    const value = this.leaves[index];
    return value === undefined ? zeroBase58(0) : this.text(0, index, value);
  }

  /** `root()` as base58, encoded once. */
  rootBase58(): string {
    const value = this.build()[this.height]?.[0];
    return value === undefined ? zeroBase58(this.height) : this.text(this.height, 0, value);
  }

  private text(level: number, position: number, value: bigint): string {
    let row = this.texts[level];
    if (row === undefined) {
      row = new Array(this.build()[level]?.length ?? 0);
      this.texts[level] = row;
    }
    let text = row[position];
    if (text === undefined) {
      text = bigintToBase58(value);
      row[position] = text;
    }
    return text;
  }

  /**
   * The node at `level` (0 = the leaves) and `position` when the tree stores it, else undefined
   * (a zero subtree). A level stores positions 0 to `width(level) - 1`: the nodes with a stored
   * leaf below them when the leaves are stored from 0 on, as Photon's `state_trees` rows are.
   */
  node(level: number, position: number): bigint | undefined {
    return this.build()[level]?.[position];
  }

  /** How many nodes level `level` stores (0 above the root of an empty tree). */
  width(level: number): number {
    return this.build()[level]?.length ?? 0;
  }

  private check(index: number): void {
    if (!Number.isSafeInteger(index) || index < 0 || index >= 2 ** this.height)
      throw internalError(RefErrorCode.INTERNAL, `leaf index ${index} is outside a tree of height ${this.height}`);
  }

  /**
   * Builds the tree a slice at a time: each `next()` does about `WORK_PER_STEP` hashes, and the
   * generator ends when the tree is built (at once if it already is). A `root` or `proof` call in
   * between finishes the same build instead of starting another.
   */
  *steps(): Generator<void, void, undefined> {
    while (!this.levels) {
      this.step();
      if (!this.levels) yield;
    }
  }

  private step(): void {
    if (this.levels) return;
    this.pending ??= this.work();
    const r = this.pending.next();
    if (r.done) {
      this.levels = r.value;
      this.pending = null;
    }
  }

  private build(): bigint[][] {
    while (!this.levels) this.step();
    if (this.dirty.size > 0) this.fold(this.levels);
    return this.levels;
  }

  /** Recomputes the dirty nodes, level by level: each node once, however many writes below it. */
  private fold(levels: bigint[][]): void {
    let positions = this.dirty;
    for (let k = 1; k <= this.height; k++) {
      const below = levels[k - 1] as bigint[];
      let level = levels[k];
      if (level === undefined) {
        level = [];
        levels[k] = level;
      }
      const zero = zeroHash(k - 1);
      const next = zeroHash(k);
      const texts = this.texts[k];
      const up = new Set<number>();
      for (const j of positions) {
        const left = below[2 * j] as bigint;
        const right = below[2 * j + 1] ?? zero;
        level[j] = left === zero && right === zero ? next : hash2(left, right);
        if (texts !== undefined) texts[j] = undefined;
        up.add(Math.floor(j / 2));
      }
      positions = up;
    }
    // Cleared once every level is folded: a fold that failed (a value Poseidon refuses) fails again when read again.
    this.dirty = new Set();
  }

  private *work(): Generator<void, bigint[][], undefined> {
    const levels: bigint[][] = [this.leaves];
    let done = 0;
    for (let k = 0; k < this.height; k++) {
      const below = levels[k] as bigint[];
      if (below.length === 0) break;
      const zero = zeroHash(k);
      const next = zeroHash(k + 1);
      const up: bigint[] = new Array(Math.ceil(below.length / 2));
      for (let j = 0; j < up.length; j++) {
        const left = below[2 * j] as bigint;
        const right = below[2 * j + 1] ?? zero;
        up[j] = left === zero && right === zero ? next : hash2(left, right);
        if (++done % WORK_PER_STEP === 0) yield;
      }
      levels.push(up);
    }
    return levels;
  }
}

const zeroTexts: string[] = [];

/** `zeroHash(level)` as base58, encoded once per process. */
export function zeroBase58(level: number): string {
  let text = zeroTexts[level];
  if (text === undefined) {
    text = bigintToBase58(zeroHash(level));
    zeroTexts[level] = text;
  }
  return text;
}

/**
 * The root a proof folds to: from the leaf up, Poseidon(node, sibling) when the index bit of that
 * level is 0, Poseidon(sibling, node) when it is 1 (Photon `MerkleProofWithContext::validate`,
 * src/ingester/persist/merkle_proof_with_context.rs:21-64).
 */
export function foldProof(leaf: bigint, leafIndex: number, proof: readonly bigint[]): bigint {
  if (!Number.isSafeInteger(leafIndex) || leafIndex < 0 || leafIndex >= 2 ** proof.length)
    throw internalError(RefErrorCode.INTERNAL, `leaf index ${leafIndex} is outside a proof of ${proof.length} levels`);
  let node = leaf;
  let i = leafIndex;
  for (const sibling of proof) {
    node = i % 2 === 0 ? hash2(node, sibling) : hash2(sibling, node);
    i = Math.floor(i / 2);
  }
  return node;
}
