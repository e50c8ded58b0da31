/**
 * The run-wide ledger of roots: a tree's root at one root sequence is one value whichever call answers
 * it (src/ingester/persist/leaf_node_proof.rs:25-30 and 118-156 at 366a15b); a target answering two is
 * inconsistent. One per run (`CheckContext.roots`). It also memoises the run's Poseidon folds, keyed by
 * their inputs, so a target cannot put a value there.
 */
import { poseidonHash } from "./poseidon.js";

/** Where a root was first seen: the case and the path of its proof. */
export interface RootSighting {
  readonly root: string;
  readonly where: string;
}

/** Roots kept at most (a run's proofs; beyond it new ones are not recorded, and not judged). */
export const MAX_ROOTS = 100_000;

/** Folded pairs remembered at most (~20 MB); beyond it new pairs are hashed each time. */
export const MAX_PAIRS = 100_000;

/** Poseidon of two field elements (BN254, circom's parameters), as a fold step computes it. */
export type Hash2 = (left: bigint, right: bigint) => bigint;

/** Poseidon(left, right), not remembered. */
export const hash2: Hash2 = (left, right) => poseidonHash([left, right]);

export class RootLedger {
  readonly #roots = new Map<string, RootSighting>();
  readonly #pairs = new Map<string, bigint>();

  /** Poseidon(left, right), remembered for the rest of the run. */
  readonly hash2: Hash2 = (left, right) => {
    const key = `${left.toString(36)},${right.toString(36)}`;
    let out = this.#pairs.get(key);
    if (out === undefined) {
      out = hash2(left, right);
      if (this.#pairs.size < MAX_PAIRS) this.#pairs.set(key, out);
    }
    return out;
  };

  /**
   * Records that the target answered `root` for `tree` at `rootSeq` (`where` says which case and
   * path), and returns the earlier sighting of another root for the same (tree, rootSeq), or null.
   */
  record(tree: string, rootSeq: number | bigint, root: string, where: string): RootSighting | null {
    const key = `${tree}#${rootSeq}`;
    const first = this.#roots.get(key);
    if (first) return first.root === root ? null : first;
    if (this.#roots.size < MAX_ROOTS) this.#roots.set(key, { root, where });
    return null;
  }
}
