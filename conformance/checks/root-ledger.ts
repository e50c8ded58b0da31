/**
 * The run-wide ledger of roots: a tree's root at one root sequence is one value, whichever call
 * answers it (Photon answers a proof's `rootSeq` as the tree's current sequence, read with the tree's
 * nodes in one transaction, src/ingester/persist/leaf_node_proof.rs:25-30 and 118-156 at 366a15b;
 * the root history is a ring indexed by it, src/api/method/get_validity_proof/prover/prove.rs:28-50).
 * A target whose different calls answer different roots for the same (tree, rootSeq) is
 * inconsistent; within one answer the proofs check already sees it, across the answers of a run
 * this ledger does. A run owns one (`runSuite` makes it and hands it to every case's checks
 * through `CheckContext.roots`), so two runs in one process never meet each other's roots.
 */

/** Where a root was first seen: the case and the path of its proof. */
export interface RootSighting {
  readonly root: string;
  readonly where: string;
}

/** Roots kept at most (a run's proofs; beyond it new ones are not recorded, and not judged). */
export const MAX_ROOTS = 100_000;

export class RootLedger {
  readonly #roots = new Map<string, RootSighting>();

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
