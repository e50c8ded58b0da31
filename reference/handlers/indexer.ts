/**
 * The indexer's own state: the slot of the last indexed block.
 */
import type { Family } from "./support.js";

export const indexerHandlers = ((store) => ({
  getIndexerSlot() {
    return store.slot;
  },
})) satisfies Family<"getIndexerSlot">;
