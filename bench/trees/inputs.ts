/** bench/trees' inputs: the default dataset's trees and accounts, fresh addresses, and feeds that give each call inputs no earlier call had. */
import { createHash } from "node:crypto";
import { generateDataset } from "../../reference/index.js";
import type { Dataset, TreeRecord } from "../../reference/index.js";
import { encodeBase58 } from "../../runtime/index.js";

export interface Pools {
  readonly dataset: Dataset;
  /** The first V1 state tree (smt1) and its unspent accounts (their leaf is their hash). */
  readonly v1: TreeRecord;
  readonly v1Hashes: string[];
  /** Unspent accounts of the batched state trees that a batch has appended (their leaf is their hash). */
  readonly v2Hashes: string[];
  readonly v2Height: number;
  /** The V1 and V2 address trees. */
  readonly amt1: TreeRecord;
  readonly amt2: TreeRecord;
}

/** Spread over the tree (every leaf index region), deterministic: a stride prime to the length. */
function spread<T>(list: readonly T[]): T[] {
  const stride = 7919 % list.length === 0 ? 7907 : 7919;
  return list.map((_, i) => list[(i * stride) % list.length] as T);
}

export function pools(): Pools {
  // The dataset startReferenceIndexer() generates by default (seed 1, 20,000 accounts): the children serve this one.
  const dataset = generateDataset({ seed: 1, accounts: 20_000 });
  const byType = (type: TreeRecord["type"]) => dataset.trees.filter((t) => t.type === type);
  const v1 = byType("StateV1")[0];
  const amt1 = byType("AddressV1")[0];
  const amt2 = byType("AddressV2")[0];
  if (!v1 || !amt1 || !amt2) throw new Error("the dataset lacks a V1 state tree or an address tree");
  const v2Trees = new Set(byType("StateV2").map((t) => t.tree));
  const v1Hashes = spread(dataset.accounts.filter((a) => a.tree === v1.tree && !a.spent).map((a) => a.hash));
  const v2Hashes = spread(dataset.accounts.filter((a) => v2Trees.has(a.tree) && !a.spent && !a.inOutputQueue).map((a) => a.hash));
  return { dataset, v1, v1Hashes, v2Hashes, v2Height: byType("StateV2")[0]!.height, amt1, amt2 };
}

/** Addresses in no tree of the dataset, below 2^248 (first byte 0) as light-protocol derives them; the same every run. */
export function freshAddresses(dataset: Dataset, count: number): string[] {
  const taken = new Set(dataset.addresses.map((a) => a.address));
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    const bytes = createHash("sha256").update(`photon-indexer-kit bench/trees address ${i}`).digest();
    bytes[0] = 0;
    const address = encodeBase58(bytes);
    if (!taken.has(address)) out.push(address);
  }
  return out;
}

/** Takes items off the front of a list: every measured call gets inputs no earlier call had. */
export class Feed<T> {
  private at = 0;
  constructor(
    private readonly items: readonly T[],
    private readonly what: string,
  ) {}
  take(n: number): T[] {
    if (this.at + n > this.items.length) throw new Error(`${this.what}: ${this.items.length} are too few for this many calls`);
    const out = this.items.slice(this.at, this.at + n);
    this.at += n;
    return out;
  }
}
