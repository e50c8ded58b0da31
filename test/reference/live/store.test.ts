/**
 * The store follows a moving dataset: after each change of the live stream, the updated store's
 * answers (lists, balances, histories, lookups, transactions) equal those of a fresh store over
 * the same records, item caches included.
 */
import { describe, expect, it } from "vitest";
import { stringifyJson } from "@photon-indexer-kit/runtime";
import { datasetProfile, generateDataset } from "../../../reference/dataset.js";
import { createReferenceHandlers } from "../../../reference/handlers/index.js";
import { applyChange } from "../../../reference/live/apply.js";
import { pinnedBy } from "../../../reference/live/pinned.js";
import { LiveStream } from "../../../reference/live/stream.js";
import type { AddressRecord } from "../../../reference/records.js";
import { ReferenceStore } from "../../../reference/store.js";
import { answer, type Call } from "./answer.js";

function calls(entities: { owners: string[]; tokenOwners: string[]; mint: string }, hashes: string[], signatures: string[]): Call[] {
  const out: Call[] = [
    ["getIndexerSlot", undefined],
    ["getLatestCompressionSignatures", { limit: 50 }],
    ["getLatestNonVotingSignatures", { limit: 20 }],
  ];
  for (const owner of entities.owners) {
    out.push(["getCompressedAccountsByOwner", { owner }], ["getCompressedAccountsByOwnerV2", { owner, limit: 7 }], ["getCompressedBalanceByOwner", { owner }]);
    out.push(["getCompressionSignaturesForOwner", { owner }]);
  }
  for (const owner of entities.tokenOwners) {
    out.push(["getCompressedTokenAccountsByOwner", { owner }], ["getCompressedTokenAccountsByOwnerV2", { owner, mint: entities.mint }]);
    out.push(
      ["getCompressedTokenBalancesByOwner", { owner }],
      ["getCompressedTokenBalancesByOwnerV2", { owner }],
      ["getCompressionSignaturesForTokenOwner", { owner }],
    );
  }
  out.push(
    ["getCompressedMintTokenHolders", { mint: entities.mint }],
    ["getCompressedAccountsByOwner", { owner: "cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m", limit: 5 }],
  );
  for (const hash of hashes) {
    out.push(
      ["getCompressedAccount", { hash }],
      ["getCompressedAccountV2", { hash }],
      ["getCompressedAccountBalance", { hash }],
      ["getCompressionSignaturesForAccount", { hash }],
    );
    out.push(["getCompressedTokenAccountBalance", { hash }]);
  }
  out.push(["getMultipleCompressedAccountsV2", { hashes }]);
  // V2 transactions carry nullifiers, which the forest computes: test/reference/live/serve.integration.test.ts covers them.
  for (const signature of signatures) out.push(["getTransactionWithCompressionInfo", { signature }]);
  return out;
}

describe("a store following the live stream", () => {
  it("answers after every change as a fresh store over the same records", async () => {
    const dataset = generateDataset({ seed: 3, accounts: 10_000 });
    const store = new ReferenceStore(dataset);
    const stream = new LiveStream(dataset, 3, pinnedBy(datasetProfile(dataset), store), (tree) => store.inputQueue(tree).elements.map((e) => e.account.hash));
    const handlers = createReferenceHandlers(store);
    const queued = new Map<string, AddressRecord>(dataset.addresses.filter((a) => a.queued).map((a) => [`${a.tree} ${a.address}`, a]));
    const touchedHashes: string[] = [];
    const signatures: string[] = [];
    let compared = 0;
    for (let step = 0; step < 60; step++) {
      const change = stream.next();
      const touched = applyChange(dataset, change, { account: (h) => store.account(h), queuedAddress: (t, a) => queued.get(`${t} ${a}`) });
      for (const a of change.addresses) if (a.queued) queued.set(`${a.tree} ${a.address}`, a);
      store.apply(change, touched);
      touchedHashes.push(...change.opened.map((a) => a.hash), ...change.closed, ...change.appended.flatMap((b) => b.items));
      signatures.push(change.signature.signature);
      if (step % 5 !== 4) continue;
      const fresh = createReferenceHandlers(new ReferenceStore(dataset));
      for (const call of calls(stream.entities(), touchedHashes.slice(-12), signatures.slice(-4))) {
        expect(await answer(handlers, call), `${call[0]} ${stringifyJson(call[1] ?? null)} after ${step + 1} changes`).toBe(await answer(fresh, call));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(500);
    expect(store.slot).toBe(dataset.slot);
  });
});
