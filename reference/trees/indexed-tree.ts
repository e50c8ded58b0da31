/**
 * Address trees as indexed Merkle trees (light-protocol; Photon's `indexed_trees` at 366a15b): elements
 * (value, nextIndex, nextValue) form a list sorted by value. V1 (height 26) hashes all three
 * (indexed_merkle_tree/helpers.rs:71-86) and starts with two elements, at sequence number 3
 * (program-libs/indexed-merkle-tree/src/lib.rs:134-184); V2 (height 40) hashes (value, nextValue)
 * and starts with one (helpers.rs:88-115). The final list depends only on the set of values, so it
 * is built by sorting, with insertion-order leaf indexes, on first use.
 */
import { internalError } from "@photon-indexer-kit/runtime";
import { RefErrorCode, ReferenceIndexerError } from "../errors.js";
import { bigintToBase58, HIGHEST_ADDRESS_PLUS_ONE, hash2, hash3 } from "./poseidon.js";
import { MerkleTree, WORK_PER_STEP } from "./state-tree.js";

/** V1 (AddressV1) or V2 (AddressV2, batched). */
export type AddressTreeVersion = 1 | 2;

export interface IndexedElement {
  readonly leafIndex: number;
  readonly value: bigint;
  readonly nextIndex: number;
  readonly nextValue: bigint;
}

/** The leaf hash of an element in a tree of `version` (Photon `compute_hash_by_tree_type`). */
export function indexedLeafHash(version: AddressTreeVersion, element: IndexedElement): bigint {
  return version === 1 ? hash3(element.value, BigInt(element.nextIndex), element.nextValue) : hash2(element.value, element.nextValue);
}

export class IndexedMerkleTree {
  readonly version: AddressTreeVersion;
  readonly height: number;
  private readonly values: bigint[];
  private built: { elements: IndexedElement[]; sorted: IndexedElement[] } | null = null;
  private merkle: MerkleTree | null = null;
  private readonly leafHashes: bigint[] = [];

  /**
   * `values`: the addresses inserted, in insertion order (unique, each above 0 and below
   * HIGHEST_ADDRESS_PLUS_ONE, checked on first use).
   */
  constructor(version: AddressTreeVersion, height: number, values: readonly bigint[]) {
    this.version = version;
    this.height = height;
    this.values = [...values];
  }

  /**
   * Inserts an address after those inserted so far, as the next leaf: it takes its low element's
   * (nextIndex, nextValue) and the low element points to it; both leaves are rewritten in the Merkle
   * tree (hashed now, their paths when next read). Before the first use only the value is kept.
   */
  insert(value: bigint): void {
    if (this.built === null) {
      this.values.push(value);
      return;
    }
    checkRange(value);
    const { elements, sorted } = this.built;
    const at = this.lowerBound(value);
    if (sorted[at]?.value === value) throw insertedTwice(value);
    // Element 0 holds value 0, below every address: there is always a low element.
    const low = sorted[at - 1] as IndexedElement;
    const leafIndex = elements.length;
    const element: IndexedElement = { leafIndex, value, nextIndex: low.nextIndex, nextValue: low.nextValue };
    const linked: IndexedElement = { leafIndex: low.leafIndex, value: low.value, nextIndex: leafIndex, nextValue: value };
    this.values.push(value);
    elements[low.leafIndex] = linked;
    sorted[at - 1] = linked;
    elements.push(element);
    sorted.splice(at, 0, element);
    if (this.merkle !== null) {
      this.merkle.set(low.leafIndex, this.leafHash(linked));
      this.merkle.set(leafIndex, this.leafHash(element));
    } else if (low.leafIndex < this.leafHashes.length) this.leafHashes[low.leafIndex] = this.leafHash(linked);
  }

  /** Addresses inserted (not counting the initial elements). */
  get inserted(): number {
    return this.values.length;
  }

  /** Every element, by leaf index: the initial ones, then the addresses in insertion order. */
  elements(): readonly IndexedElement[] {
    return this.build().elements;
  }

  /** Element at `leafIndex`. */
  element(leafIndex: number): IndexedElement {
    const e = this.build().elements[leafIndex];
    if (!e) throw internalError(RefErrorCode.INTERNAL, `no indexed element at leaf ${leafIndex}`);
    return e;
  }

  /**
   * The element with the largest value below `value` (Photon's `value < address ORDER BY value
   * DESC LIMIT 1`, indexed_merkle_tree/proof.rs:261-364), or undefined when there is none (value 0).
   * For an address already in the tree this is its predecessor, whose nextValue is the address.
   */
  lowElement(value: bigint): IndexedElement | undefined {
    const at = this.lowerBound(value);
    return at === 0 ? undefined : this.build().sorted[at - 1];
  }

  /** Whether `value` is an element of the tree. */
  has(value: bigint): boolean {
    return this.build().sorted[this.lowerBound(value)]?.value === value;
  }

  /** The position in value order of the first element not below `value`. */
  private lowerBound(value: bigint): number {
    const sorted = this.build().sorted;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sorted[mid] as IndexedElement).value < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  leafHash(element: IndexedElement): bigint {
    return indexedLeafHash(this.version, element);
  }

  root(): bigint {
    return this.tree().root();
  }

  /** Sibling hashes of leaf `leafIndex`, bottom-up (`height` of them). */
  proof(leafIndex: number): bigint[] {
    return this.tree().proof(leafIndex);
  }

  /** The Merkle tree of the element leaves (built on first use of its root, proofs or nodes). */
  merkleTree(): MerkleTree {
    return this.tree();
  }

  /** Builds the tree a slice at a time (see `MerkleTree.steps`): leaf hashes first, then the levels. */
  *steps(): Generator<void, void, undefined> {
    const elements = this.build().elements;
    while (this.leafHashes.length < elements.length) {
      this.leafHashes.push(this.leafHash(elements[this.leafHashes.length] as IndexedElement));
      if (this.leafHashes.length % WORK_PER_STEP === 0) yield;
    }
    yield* this.tree().steps();
  }

  private tree(): MerkleTree {
    if (!this.merkle) {
      const elements = this.build().elements;
      while (this.leafHashes.length < elements.length) this.leafHashes.push(this.leafHash(elements[this.leafHashes.length] as IndexedElement));
      this.merkle = new MerkleTree(this.height, this.leafHashes);
    }
    return this.merkle;
  }

  private build(): { elements: IndexedElement[]; sorted: IndexedElement[] } {
    if (this.built) return this.built;
    const initial: { value: bigint; leafIndex: number }[] =
      this.version === 1
        ? [
            { value: 0n, leafIndex: 0 },
            { value: HIGHEST_ADDRESS_PLUS_ONE, leafIndex: 1 },
          ]
        : [{ value: 0n, leafIndex: 0 }];
    const nodes = [...initial, ...this.values.map((value, i) => ({ value, leafIndex: initial.length + i }))];
    for (const { value } of nodes.slice(initial.length)) checkRange(value);
    const order = [...nodes].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    for (let i = 1; i < order.length; i++)
      if ((order[i] as { value: bigint }).value === (order[i - 1] as { value: bigint }).value) throw insertedTwice((order[i] as { value: bigint }).value);
    const elements: IndexedElement[] = new Array(nodes.length);
    const sorted: IndexedElement[] = order.map((node, i) => {
      const next = order[i + 1];
      // The last element: V1's highest element points back to (0, 0); V2's largest address keeps
      // the zeroeth element's initial (0, HIGHEST).
      const element: IndexedElement = next
        ? { leafIndex: node.leafIndex, value: node.value, nextIndex: next.leafIndex, nextValue: next.value }
        : this.version === 1
          ? { leafIndex: node.leafIndex, value: node.value, nextIndex: 0, nextValue: 0n }
          : { leafIndex: node.leafIndex, value: node.value, nextIndex: 0, nextValue: HIGHEST_ADDRESS_PLUS_ONE };
      elements[node.leafIndex] = element;
      return element;
    });
    this.built = { elements, sorted };
    return this.built;
  }
}

function checkRange(value: bigint): void {
  if (value <= 0n || value >= HIGHEST_ADDRESS_PLUS_ONE)
    throw new ReferenceIndexerError(
      RefErrorCode.DATASET_INCONSISTENT,
      `address ${bigintToBase58(value)} is outside the range of an address tree (0, 2^248 - 1): its first byte must be 0 and it must not be 0`,
    );
}

function insertedTwice(value: bigint): ReferenceIndexerError {
  return new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `address ${bigintToBase58(value)} is inserted twice`);
}
