/** stateless.js checks of the indexer methods: slot, health, a transaction indexed, the tree infos. */
import { expect } from "vitest";
import { expectTreeInfo } from "../stateless/check.js";
import { TREE_TYPE } from "../stateless/expected.js";
import { traced } from "../stateless/wire.js";
import { addressTreeV2, type Check, dataset, methodsOf, only, rpc } from "./context.js";

export const indexerChecks: Readonly<Record<string, Check>> = {
  getIndexerSlot: {
    run: async () => {
      const { value, exchanges } = await traced(() => rpc.getIndexerSlot());
      expect(value).toBe(dataset.slot);
      const e = only(exchanges);
      expect([e.method, e.params, e.id, e.status]).toEqual(["getIndexerSlot", [], "test-account", 200]);
    },
  },

  getIndexerHealth: {
    run: async () => {
      const { value, exchanges } = await traced(() => rpc.getIndexerHealth());
      expect(value).toBe("ok");
      expect([only(exchanges).method, only(exchanges).params]).toEqual(["getIndexerHealth", []]);
    },
  },

  confirmTransactionIndexed: {
    run: async () => {
      // Polls getIndexerSlot until it reaches the slot: the dataset's last slot and an earlier one are indexed at once.
      const first = dataset.signatures[0];
      for (const slot of [dataset.slot, first?.slot ?? 0]) {
        const { value, exchanges } = await traced(() => rpc.confirmTransactionIndexed(slot));
        expect(value).toBe(true);
        expect(methodsOf(exchanges)).toEqual(["getIndexerSlot"]);
      }
    },
  },

  getStateTreeInfos: {
    run: async () => {
      // Local: a loopback URL gives stateless.js's localnet constants, with no request. Every state
      // tree of the dataset must be among them, with the same queue, CPI context and type.
      const { value, exchanges } = await traced(() => rpc.getStateTreeInfos());
      expect(exchanges).toEqual([]);
      const stateTrees = dataset.trees.filter((t) => t.type === "StateV1" || t.type === "StateV2");
      expect(stateTrees.length).toBeGreaterThan(0);
      for (const tree of stateTrees)
        expectTreeInfo(
          value.find((i) => i.tree.toBase58() === tree.tree),
          tree,
        );
      const known = new Set(value.map((i) => i.tree.toBase58()));
      expect(
        [...new Set(dataset.accounts.map((a) => a.tree))].filter((t) => !known.has(t)),
        "account trees the client cannot resolve",
      ).toEqual([]);
    },
  },

  getAddressTreeInfoV2: {
    run: async () => {
      const { value, exchanges } = await traced(() => rpc.getAddressTreeInfoV2());
      expect(exchanges).toEqual([]);
      const tree = addressTreeV2();
      expect({ tree: value.tree.toBase58(), queue: value.queue.toBase58(), treeType: value.treeType }).toEqual({
        tree: tree.tree,
        queue: tree.queue,
        treeType: TREE_TYPE[tree.type],
      });
      expect(tree.type).toBe("AddressV2");
    },
  },
};
