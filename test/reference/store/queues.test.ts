/**
 * The queues of batched trees against brute-force answers over hand-built datasets: output
 * queue (`inOutputQueue`, spent or not, by leaf index), input queue (spent, in the input queue, by
 * nullifier queue index counted over every nullification of the tree in transaction order),
 * address queue (queued addresses, queue index = insertion position in the tree).
 */
import { describe, expect, it } from "vitest";
import type { AccountRecord } from "../../../reference/records.js";
import { ReferenceStore } from "../../../reference/store.js";
import { buildDataset } from "./build.js";

for (const seed of [1, 2, 3]) {
  const built = buildDataset(seed);
  const { dataset, trees } = built;
  const store = new ReferenceStore(dataset);
  const accountOf = new Map(dataset.accounts.map((a) => [a.hash, a]));
  const batched = [trees.v2a, trees.v2b];

  /** Nullifier queue index of every spent account of `tree`: its rank among the tree's closings in dataset order. */
  const nullifications = (tree: string) => {
    const out = new Map<string, number>();
    for (const s of dataset.signatures) for (const h of s.closed) if (accountOf.get(h)?.tree === tree) out.set(h, out.size);
    return out;
  };

  describe(`store queues (dataset ${seed})`, () => {
    it("lists a batched tree's output queue by leaf index, spent accounts included", () => {
      let spentInQueue = 0;
      for (const t of batched) {
        const want = dataset.accounts.filter((a) => a.tree === t.tree && a.inOutputQueue).sort((a, b) => a.leafIndex - b.leafIndex);
        const queue = store.outputQueue(t.tree);
        expect(queue.elements.map((e) => e.account)).toEqual(want);
        expect(queue.elements.every((e) => e.queueIndex === e.account.leafIndex)).toBe(true);
        expect(queue.size).toBe(want.length);
        spentInQueue += want.filter((a) => a.spent).length;
        const first = want[0]?.leafIndex ?? 0;
        for (const start of [0, first, first + 1, first + 3, 10 ** 9, 2n ** 64n - 1n]) {
          const rest = want.filter((a) => BigInt(a.leafIndex) >= BigInt(start));
          expect(queue.page(start, 4).map((e) => e.account)).toEqual(rest.slice(0, 4));
          expect(queue.from(start)).toBe(want.length - rest.length);
        }
        expect(queue.page(null, 1000).length).toBe(want.length);
      }
      expect(spentInQueue).toBeGreaterThan(0);
      expect(store.outputQueue(trees.v1.tree).size).toBe(0);
    });

    it("lists a batched tree's input queue by nullifier queue index, with the spending transaction", () => {
      for (const t of batched) {
        const index = nullifications(t.tree);
        const want = dataset.accounts
          .filter((a) => a.tree === t.tree && a.spent && a.inInputQueue)
          .sort((a, b) => (index.get(a.hash) as number) - (index.get(b.hash) as number));
        expect(want.length).toBeGreaterThan(0);
        const queue = store.inputQueue(t.tree);
        expect(queue.elements.map((e) => e.account)).toEqual(want);
        for (const e of queue.elements) {
          expect(e.queueIndex).toBe(index.get(e.account.hash));
          expect(e.closedBy.closed).toContain(e.account.hash);
        }
        // Indexes count nullified accounts too, so the first queued one need not be 0.
        for (const a of dataset.accounts.filter((x) => x.tree === t.tree)) expect(store.nullifierQueueIndex(a.hash)).toBe(index.get(a.hash) ?? null);
        const middle = queue.elements[Math.floor(queue.size / 2)]?.queueIndex ?? 0;
        expect(queue.page(middle, 2).map((e) => e.queueIndex)).toEqual(
          queue.elements
            .filter((e) => e.queueIndex >= middle)
            .slice(0, 2)
            .map((e) => e.queueIndex),
        );
      }
      expect(store.inputQueue(trees.v1.tree).size).toBe(0);
      expect(dataset.accounts.some((a: AccountRecord) => a.tree === trees.v1.tree && a.spent)).toBe(true);
    });

    it("lists an address tree's queued addresses with their insertion positions", () => {
      for (const t of [trees.addressV1, trees.addressV2]) {
        const all = dataset.addresses.filter((a) => a.tree === t.tree);
        expect(store.addressesOf(t.tree)).toEqual(all);
        const queue = store.addressQueue(t.tree);
        const want = all.map((address, queueIndex) => ({ address, queueIndex })).filter((e) => e.address.queued);
        expect(queue.elements).toEqual(want);
        if (t === trees.addressV2) expect(want.length).toBeGreaterThan(0);
        else expect(want.length).toBe(0);
        const start = want[1]?.queueIndex ?? 0;
        expect(queue.page(start, 1000)).toEqual(want.filter((e) => e.queueIndex >= start));
      }
      expect(store.addressQueue(trees.v2a.tree).size).toBe(0);
    });
  });
}
