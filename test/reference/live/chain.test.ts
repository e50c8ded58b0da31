/**
 * The live chain's clock: two chains of one seed follow one history; `lag` N serves the state N
 * slots behind the stream; a request in flight holds changes back until its answer is written,
 * and a pending change holds new requests back until it is applied.
 */
import { describe, expect, it } from "vitest";
import { datasetProfile, generateDataset } from "../../../reference/dataset.js";
import { LiveChain } from "../../../reference/live/chain.js";
import { pinnedBy } from "../../../reference/live/pinned.js";
import { startReferenceIndexer } from "../../../reference/serve.js";
import { ReferenceStore } from "../../../reference/store.js";
import { Forest } from "../../../reference/trees/forest.js";

function chain(seed: number, lag = 0) {
  const data = generateDataset({ seed: 2, accounts: 10_000 });
  const store = new ReferenceStore(data);
  const errors: string[] = [];
  const live = new LiveChain(data, store, new Forest(data), { intervalMs: 1_000, seed, lag }, pinnedBy(datasetProfile(data), store), (what, err) =>
    errors.push(`${what}: ${String(err)}`),
  );
  return { data, live, errors };
}

describe("the live chain", () => {
  it("follows one history for one seed, another for another", () => {
    const a = chain(9);
    const b = chain(9);
    const c = chain(10);
    for (let i = 0; i < 30; i++) for (const x of [a, b, c]) x.live.tick();
    const sigs = (x: typeof a) => x.data.signatures.slice(-30).map((s) => s.signature);
    expect(sigs(a)).toEqual(sigs(b));
    expect(sigs(a)).not.toEqual(sigs(c));
    expect(a.data.slot).toBe(b.data.slot);
    expect([...a.errors, ...b.errors, ...c.errors]).toEqual([]);
  });

  it("with lag N serves the state N slots behind, then the same history", () => {
    const now = chain(4);
    const behind = chain(4, 3);
    const start = now.data.slot;
    for (let i = 0; i < 10; i++) {
      now.live.tick();
      behind.live.tick();
    }
    expect(now.data.slot).toBe(start + 10);
    expect(behind.data.slot).toBe(start + 7);
    expect(behind.data.signatures.at(-1)).toEqual(now.data.signatures.at(-4));
  });

  it("holds a change back while a request reads, and new requests while a change waits", () => {
    const { data, live } = chain(1);
    const slot = data.slot;
    const order: string[] = [];
    let release = () => {};
    live.gate.enter((done) => {
      release = done;
      order.push(`read ${data.slot - slot}`);
    });
    live.tick();
    expect(data.slot).toBe(slot); // the reader holds it
    live.gate.enter((done) => {
      order.push(`read ${data.slot - slot}`);
      done();
    });
    expect(order).toEqual(["read 0"]); // the new reader waits for the pending change
    release();
    expect(order).toEqual(["read 0", "read 1"]);
    expect(live.gate.version).toBe(1);
  });

  it("moves a dataset that has no profile (a hand-made file): nothing is pinned", async () => {
    const data = { ...generateDataset({ seed: 6, accounts: 10_000 }), seed: null };
    const errors: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((text: string) => (errors.push(String(text)), true)) as typeof process.stderr.write;
    try {
      const indexer = await startReferenceIndexer({ port: 0, data, warmTrees: false, live: { intervalMs: 3_600_000 } });
      const live = indexer.live as NonNullable<typeof indexer.live>;
      const start = data.slot;
      for (let i = 0; i < 20; i++) live.tick();
      await indexer.close();
      expect(data.slot).toBe(start + 20);
    } finally {
      process.stderr.write = write;
    }
    expect(errors).toEqual([]);
  });
});
