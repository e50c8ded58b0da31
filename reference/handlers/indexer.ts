/**
 * The indexer's own state: the slot of the last indexed block, and its health.
 */
import type { Family } from "./support.js";

export const indexerHandlers = (({ store }) => ({
  getIndexerSlot() {
    return store.slot;
  },

  // Photon (get_indexer_health.rs:11-26) answers -32000 when more than 20 slots behind the chain;
  // the reference's dataset is all there is to index, so it is never behind.
  getIndexerHealth() {
    return "ok";
  },
})) satisfies Family;
