/**
 * The ecosystem's published client, @lightprotocol/stateless.js, against the reference
 * indexer: the methods it calls by our spec's names, with values checked against the dataset
 * and its cursor paged to the end. createRpc(url, url) with loopback URLs makes no other call.
 */
import { bn, createRpc } from "@lightprotocol/stateless.js";
import { PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetProfile, generateDataset } from "../../reference/index.js";
import { startReferenceIndexer, type ReferenceIndexer } from "../../reference/serve.js";

const dataset = generateDataset();
const profile = datasetProfile(dataset);
let indexer: ReferenceIndexer;
let rpc: ReturnType<typeof createRpc>;

beforeAll(async () => {
  indexer = await startReferenceIndexer({ port: 0, data: dataset });
  rpc = createRpc(indexer.url, indexer.url);
});
afterAll(() => indexer.close());

describe("@lightprotocol/stateless.js against the reference indexer", () => {
  it("getIndexerSlot (params [] and id test-account, POST /)", async () => {
    expect(await rpc.getIndexerSlot()).toBe(Number(profile.slot));
  });

  it("getCompressionSignaturesForTokenOwner pages through its cursor to every signature", async () => {
    const { owner, signatures } = profile.tokenOwnerWith1000TokenAccounts;
    const seen: { signature: string; slot: number; blockTime: number }[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const res = await rpc.getCompressionSignaturesForTokenOwner(new PublicKey(owner), { limit: bn(150), ...(cursor ? { cursor } : {}) });
      seen.push(...res.items);
      if (res.cursor === null) break;
      cursor = res.cursor;
    }
    const expected = indexer.store.signatures(owner);
    expect(seen).toHaveLength(signatures);
    expect(seen.map((s) => s.signature)).toEqual(expected.map((s) => s.signature));
    expect(seen.map((s) => s.slot)).toEqual(expected.map((s) => Number(s.slot)));
    expect(seen.map((s) => s.blockTime)).toEqual(expected.map((s) => Number(s.blockTime)));
  });

  it("getCompressedTokenBalancesByOwner (deprecated call) returns every mint's balance, paged", async () => {
    const { owner, mints } = profile.tokenOwnerWithManyMints;
    const seen: { mint: string; balance: string }[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const res = await rpc.getCompressedTokenBalancesByOwner(new PublicKey(owner), { limit: bn(7), ...(cursor ? { cursor } : {}) });
      seen.push(...res.items.map((b) => ({ mint: b.mint.toBase58(), balance: b.balance.toString() })));
      if (res.cursor === null) break;
      cursor = res.cursor;
    }
    expect(seen).toHaveLength(mints);
    expect(seen).toEqual(indexer.store.balances(owner).map((b) => ({ mint: b.mint, balance: b.balance.toString() })));
  });

  it("getCompressedTokenBalancesByOwner keeps balances above 2^53 exact", async () => {
    const { owner, maxMint, maxBalance } = profile.tokenOwnerWithBigAmounts;
    const res = await rpc.getCompressedTokenBalancesByOwner(new PublicKey(owner), { mint: new PublicKey(maxMint) });
    expect(res.items.map((b) => b.balance.toString())).toEqual([maxBalance.toString()]);
  });
});
