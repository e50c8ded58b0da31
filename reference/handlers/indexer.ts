/**
 * The indexer's own state: the slot of the last indexed block, and its health.
 */
import type { Family } from "./support.js";

export const indexerHandlers = (({ store }) => ({
  getIndexerSlot() {
    return store.slot;
  },

  // Photon (get_indexer_health.rs:11-26) reads its indexed slot, asks its Solana RPC node for the
  // chain's slot and answers `ok` unless it is more than 20 slots behind (-32000 `Node is behind N
  // slots`). The reference has no chain: its dataset is all there is to index, so it is never
  // behind, and it always answers `ok`.
  getIndexerHealth() {
    return "ok";
  },
})) satisfies Family;
