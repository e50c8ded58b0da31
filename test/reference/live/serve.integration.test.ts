/**
 * The live reference is right at every slot: with the chain stopped at several points, every
 * method's answer equals that of a fresh store and forest built over the same records (the
 * frozen reference, which the rest of test/reference checks against Photon's rules). Over HTTP
 * each request reads one state, and the result memo never serves an earlier state's answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringifyJson } from "@photon-indexer-kit/runtime";
import { datasetProfile, generateDataset } from "../../../reference/dataset.js";
import { createReferenceHandlers } from "../../../reference/handlers/index.js";
import type { Dataset } from "../../../reference/records.js";
import { type ReferenceIndexer, startReferenceIndexer } from "../../../reference/serve.js";
import { ReferenceStore } from "../../../reference/store.js";
import { answer, type Call } from "./answer.js";
import { Forest } from "../../../reference/trees/forest.js";

/** A call of every method the reference serves, on the profile's entities and on what the chain moved last. */
function calls(data: Dataset, live: ReferenceIndexer["live"]): Call[] {
  const p = profile;
  const { owners, tokenOwners, mint } = (live as NonNullable<typeof live>).entities();
  const recent = data.signatures.slice(-6);
  const opened = recent.flatMap((s) => s.opened);
  const closed = recent.flatMap((s) => s.closed);
  const hashes = [...opened, ...closed, p.knownHash, p.ownerWithOneAccount.hash, ...p.ownerWithBatchedAccounts.inTree];
  const unspent = hashes.filter((h) => data.accounts.find((a) => a.hash === h && !a.spent));
  const inV1 = unspent.filter((h) => data.accounts.find((a) => a.hash === h)?.seq !== null);
  const inV2 = unspent.filter((h) => data.accounts.find((a) => a.hash === h)?.seq === null);
  const addressV1 = p.trees.addressV1;
  const addressV2 = p.trees.addressV2;
  const newest = data.addresses.slice(-3).map((a) => a.address);
  const batched = p.trees.stateV2;
  const out: Call[] = [
    ["getIndexerSlot", undefined],
    ["getIndexerHealth", undefined],
    ["getLatestCompressionSignatures", { limit: 30 }],
    ["getLatestNonVotingSignatures", { limit: 30 }],
    ["getMultipleCompressedAccounts", { hashes }],
    ["getMultipleCompressedAccountsV2", { hashes }],
    ["getCompressedMintTokenHolders", { mint }],
    ["getMultipleCompressedAccountProofs", { hashes: inV1.slice(0, 6) }],
    ["getMultipleCompressedAccountProofsV2", { hashes: unspent.slice(0, 6) }],
    ["getMultipleNewAddressProofs", [p.unknownAddress, ...newest.slice(0, 1)]],
    [
      "getMultipleNewAddressProofsV2",
      [...newest, p.unknownAddress].flatMap((address) => [
        { address, tree: addressV1 },
        { address, tree: addressV2 },
      ]),
    ],
    ["getValidityProof", { hashes: inV1.slice(0, 2), newAddressesWithTrees: [{ address: p.unknownAddress, tree: addressV1 }] }],
    ["getValidityProofV2", { hashes: unspent.slice(0, 3), newAddressesWithTrees: [{ address: p.unknownAddress, tree: addressV2 }] }],
    ["getQueueInfo", {}],
  ];
  for (const tree of batched) out.push(["getQueueElements", { tree, outputQueue: { limit: 6 }, inputQueue: { limit: 6 } }]);
  out.push(["getQueueElements", { tree: addressV2, addressQueue: { limit: 6 } }]);
  for (const owner of [...owners, p.ownerWithManyAccounts.owner])
    out.push(
      ["getCompressedAccountsByOwner", { owner }],
      ["getCompressedAccountsByOwnerV2", { owner, limit: 9 }],
      ["getCompressedBalanceByOwner", { owner }],
      ["getCompressionSignaturesForOwner", { owner }],
    );
  for (const owner of [...tokenOwners, p.tokenOwnerWith1000TokenAccounts.owner])
    out.push(
      ["getCompressedTokenAccountsByOwner", { owner }],
      ["getCompressedTokenAccountsByOwnerV2", { owner, mint }],
      ["getCompressedTokenBalancesByOwner", { owner }],
      ["getCompressedTokenBalancesByOwnerV2", { owner }],
      ["getCompressionSignaturesForTokenOwner", { owner }],
    );
  out.push(["getCompressedTokenAccountsByDelegate", { delegate: p.delegateWithManyAccounts.delegate, limit: 20 }]);
  out.push(["getCompressedTokenAccountsByDelegateV2", { delegate: p.delegateWithManyAccounts.delegate, limit: 20 }]);
  for (const hash of [...opened.slice(0, 4), ...closed.slice(0, 2)]) {
    out.push(["getCompressedAccount", { hash }], ["getCompressedAccountV2", { hash }], ["getCompressedAccountBalance", { hash }]);
    out.push(["getCompressedTokenAccountBalance", { hash }], ["getCompressionSignaturesForAccount", { hash }]);
  }
  for (const hash of inV1.slice(0, 2)) out.push(["getCompressedAccountProof", { hash }]);
  for (const hash of inV2.slice(0, 2)) out.push(["getCompressedAccountProofV2", { hash }]);
  for (const address of data.addresses.slice(-2).map((a) => a.address)) out.push(["getCompressionSignaturesForAddress", { address }]);
  for (const s of recent)
    out.push(["getTransactionWithCompressionInfo", { signature: s.signature }], ["getTransactionWithCompressionInfoV2", { signature: s.signature }]);
  return out;
}

async function post(url: string, method: string, params?: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: stringifyJson({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return ((await res.json()) as { result: unknown }).result;
}

const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 20));
};

let indexer: ReferenceIndexer;
let data: Dataset;
let profile: ReturnType<typeof datasetProfile>;
beforeAll(async () => {
  data = generateDataset({ seed: 5, accounts: 10_000 });
  // The profile of the dataset as it starts (the chain moves its churned owners' spent counts).
  profile = datasetProfile(data);
  indexer = await startReferenceIndexer({ port: 0, data, live: { intervalMs: 2 } });
}, 120_000);
afterAll(() => indexer?.close());

describe("the live reference", () => {
  it("answers every method at every stop as the frozen reference over the same records", async () => {
    const live = indexer.live as NonNullable<ReferenceIndexer["live"]>;
    const served = createReferenceHandlers(indexer.store, {}, indexer.forest);
    let compared = 0;
    for (const stopAt of [40, 140, 300]) {
      live.start();
      await until(() => live.slotsApplied >= stopAt);
      live.stop();
      const fresh = createReferenceHandlers(new ReferenceStore(data), {}, new Forest(data));
      const methods = new Set<string>();
      for (const call of calls(data, live)) {
        expect(await answer(served, call), `${call[0]} ${stringifyJson(call[1] ?? null)} at slot ${data.slot}`).toBe(await answer(fresh, call));
        methods.add(call[0]);
        compared++;
      }
      expect(methods.size).toBe(36);
    }
    expect(compared).toBeGreaterThan(300);
  }, 240_000);

  it("moves the slot between requests and never answers from an earlier state's memo", async () => {
    const live = indexer.live as NonNullable<ReferenceIndexer["live"]>;
    live.start();
    const first = (await post(indexer.url, "getIndexerSlot")) as number;
    const latest1 = (await post(indexer.url, "getLatestCompressionSignatures", { limit: 1 })) as {
      context: { slot: number };
      value: { items: { slot: number }[] };
    };
    await until(() => data.slot > first + 3);
    const latest2 = (await post(indexer.url, "getLatestCompressionSignatures", { limit: 1 })) as typeof latest1;
    live.stop();
    expect(latest2.context.slot).toBeGreaterThan(latest1.context.slot);
    // Each answer is of one state: its newest signature is at its own context slot.
    expect(latest1.value.items[0]?.slot).toBe(latest1.context.slot);
    expect(latest2.value.items[0]?.slot).toBe(latest2.context.slot);
    expect(await post(indexer.url, "getIndexerSlot")).toBe(data.slot);
  }, 60_000);
});
