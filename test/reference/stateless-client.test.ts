/**
 * The ecosystem's published client, @lightprotocol/stateless.js 0.23.3, against the reference
 * indexer: every public compression method of its `Rpc` class, called as an application calls it
 * (`createRpc(url, url)`: only the compression endpoint is ours; a loopback URL makes the client
 * take its tree infos from its localnet constants), each result checked against the dataset's
 * records, and the JSON-RPC traffic checked too (the method names the client sends, and the
 * fields it validates and then drops). Methods that need the Solana RPC side are listed in
 * OUT_OF_SCOPE with the reason; a test keeps that list and the checks equal to the Rpc prototype.
 *
 * (This file replaces test/reference/stateless.test.ts, which covered the 7 methods of 0.50.0.)
 * What the client sends and expects, method by method: .scratch/stateless-expectations.md.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type CompressedAccountWithMerkleContext,
  DerivationMode,
  LIGHT_TOKEN_PROGRAM_ID,
  type ParsedTokenAccount,
  Rpc,
  type SignatureWithMetadata,
  TreeType,
  addressQueue,
  addressTree,
  batchAddressTree,
  bn,
  createRpc,
  deriveAddressV2,
  featureFlags,
} from "@lightprotocol/stateless.js";
import { encodeBase58 } from "@photon-indexer-kit/runtime";
import { PublicKey } from "@solana/web3.js";
import { beforeAll, describe, expect, it } from "vitest";
import { TOKEN_PROGRAM, U64_MAX, datasetProfile, generateDataset } from "../../reference/index.js";
import type { AccountRecord, SignatureRecord, TokenRecord } from "../../reference/records.js";
import { root } from "../helpers/paths.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { b58, big, expectAccount, expectSignatures, expectTokenData, expectTreeInfo, expectWireAccount, expectWireTokenData } from "./stateless/check.js";
import { DatasetView, TREE_TYPE, base58OfField, bytesOf, fieldOf } from "./stateless/expected.js";
import { PHOTON_ZERO_BYTES, batchedNullifier, zeroHash } from "./stateless/merkle.js";
import { Roots, expectAccountProof, expectNewAddressProofs, expectValidityProof } from "./stateless/proofs.js";
import { type WireExchange, answerValue, resultOf, traced } from "./stateless/wire.js";

const dataset = generateDataset();
const profile = datasetProfile(dataset);
const view = new DatasetView(dataset);
const roots = new Roots();
/** The client under test, created against the reference indexer of the describe block below. */
let rpc: Rpc;

/** Client methods that need more than the compression endpoint, each with why it is not tested here. */
const OUT_OF_SCOPE: Readonly<Record<string, string>> = {
  getCachedActiveStateTreeInfo: "deprecated no-op: resolves undefined without any request",
  getCachedActiveStateTreeInfos: "deprecated no-op: resolves undefined without any request",
  doFetch:
    "reads the mainnet/devnet state-tree lookup tables from the Solana RPC (getAccountInfo of the LUT accounts); getStateTreeInfos calls it only for a non-loopback URL",
  getAccountInfoInterface:
    "Solana RPC getAccountInfo beside getCompressedAccount (tested) of the V2-derived address; indexer errors are swallowed by Promise.allSettled",
  getSignaturesForAddressInterface:
    "Solana RPC getSignaturesForAddress merged with getCompressionSignaturesForAddress (tested); indexer errors are swallowed by Promise.allSettled",
  getSignaturesForOwnerInterface:
    "Solana RPC getSignaturesForAddress merged with getCompressionSignaturesForOwner (tested); indexer errors are swallowed by Promise.allSettled",
  getTokenAccountBalanceInterface:
    "Solana RPC getTokenAccountBalance added to getCompressedTokenBalancesByOwner (tested); indexer errors are swallowed by Promise.allSettled",
  getBalanceInterface: "Solana RPC getBalance, else getCompressedBalanceByOwner (tested); indexer errors are swallowed by Promise.allSettled",
};

// ---------------------------------------------------------------------------------------------
// Inputs and small helpers

/** A base58 hash or address as the BN254 the client takes. */
const bnOf = (base58: string) => bn(bytesOf(base58));
const keyOf = (base58: string) => new PublicKey(base58);
const methodsOf = (exchanges: readonly WireExchange[]) => exchanges.map((e) => e.method);
const only = (exchanges: readonly WireExchange[]): WireExchange => {
  expect(exchanges, "one request").toHaveLength(1);
  return exchanges[0] as WireExchange;
};

/** Unspent accounts the proof and lookup tests use: for every state tree one in the tree, and one still in an output queue. */
function accountSamples(): { inTree: AccountRecord[]; queued: AccountRecord } {
  const stateTrees = dataset.trees.filter((t) => t.type === "StateV1" || t.type === "StateV2");
  const inTree = stateTrees.flatMap((t) => {
    const candidates = dataset.accounts.filter((x) => !x.spent && x.tree === t.tree && !view.inOutputQueue(x));
    // Preferably one with an address and data (every field filled).
    const a = candidates.find((x) => x.address !== null && x.data !== null) ?? candidates[0];
    return a === undefined ? [] : [a];
  });
  expect(new Set(inTree.map((a) => view.treeOf(a).type))).toEqual(new Set(["StateV1", "StateV2"]));
  return { inTree, queued: view.firstUnspent("in an output queue", (a) => view.inOutputQueue(a)) };
}

function unspentIn(type: "StateV1" | "StateV2", n: number): AccountRecord[] {
  const out = dataset.accounts.filter((a) => !a.spent && view.treeOf(a).type === type && !view.inOutputQueue(a));
  // Spread over the trees of that type: round-robin by tree.
  const byTree = new Map<string, AccountRecord[]>();
  for (const a of out) {
    const list = byTree.get(a.tree);
    if (list === undefined) byTree.set(a.tree, [a]);
    else list.push(a);
  }
  const picked: AccountRecord[] = [];
  for (let i = 0; picked.length < n; i++) {
    let added = false;
    for (const list of byTree.values()) {
      const a = list[i * 37];
      if (a !== undefined && picked.length < n) {
        picked.push(a);
        added = true;
      }
    }
    if (!added) break;
  }
  expect(picked, `${n} unspent ${type} accounts in their trees`).toHaveLength(n);
  return picked;
}

/** Pages a cursor-paginated call to its end (at most `maxPages`), returning the pages. */
async function pages<T>(
  call: (cursor: string | undefined) => Promise<{ items: T[]; cursor: string | null }>,
  maxPages = 50,
): Promise<{ items: T[]; cursor: string | null }[]> {
  const out: { items: T[]; cursor: string | null }[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const page = await call(cursor);
    out.push(page);
    if (page.cursor === null) return out;
    cursor = page.cursor;
  }
  throw new Error(`no null cursor after ${maxPages} pages`);
}

function expectPageSizes(sizes: readonly number[], total: number, limit: number): void {
  // Full pages, then a short one (possibly empty) with the null cursor (photon: cursor None iff items < limit).
  const expected: number[] = [];
  for (let left = total; ; left -= limit) {
    expected.push(Math.min(limit, left));
    if (left < limit) break;
  }
  expect(sizes).toEqual(expected);
}

/** Client accounts against their records, by hash (the client re-sorts each page by leafIndex descending). */
function expectAccountSet(
  accounts: readonly CompressedAccountWithMerkleContext[],
  records: readonly AccountRecord[],
  dataSlice?: { offset: number; length: number },
): void {
  const byHash = new Map(records.map((r) => [r.hash, r]));
  const seen = accounts.map((a) => b58(a.hash));
  expect(new Set(seen).size, "no account twice").toBe(seen.length);
  expect([...seen].sort()).toEqual([...byHash.keys()].sort());
  for (const a of accounts) expectAccount(view, a, byHash.get(b58(a.hash)) as AccountRecord, dataSlice ? { dataSlice } : {});
}

function expectTokenAccountSet(items: readonly ParsedTokenAccount[], tokens: readonly TokenRecord[]): void {
  const byHash = new Map(tokens.map((t) => [t.hash, t]));
  const seen = items.map((i) => b58(i.compressedAccount.hash));
  expect(new Set(seen).size, "no token account twice").toBe(seen.length);
  expect([...seen].sort()).toEqual([...byHash.keys()].sort());
  for (const item of items) {
    const token = byHash.get(b58(item.compressedAccount.hash)) as TokenRecord;
    expectAccount(view, item.compressedAccount, view.account(token.hash));
    expectTokenData(item.parsed, token);
  }
}

/** The raw token accounts of a page's exchange against the records: account and token data as sent. */
function expectWireTokenAccounts(exchange: WireExchange): void {
  const items = (answerValue(exchange) as { items: { account: unknown; tokenData: unknown }[] }).items;
  for (const item of items) {
    const hash = (item.account as { hash: string }).hash;
    expectWireAccount(view, item.account, view.account(hash));
    expectWireTokenData(item.tokenData, view.tokens.get(hash) as TokenRecord);
  }
}

const addressTreeV1 = () => view.tree(addressTree);
const addressTreeV2 = () => view.tree(batchAddressTree);

// ---------------------------------------------------------------------------------------------
// One check per public compression method of Rpc, named after it.

interface Check {
  run: () => Promise<void>;
  timeout?: number;
}

const CHECKS: Readonly<Record<string, Check>> = {
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

  getCompressedAccount: {
    run: async () => {
      const { inTree, queued } = accountSamples();
      const big = view.account(profile.accountWithBigLamports.hash);
      const token = view.account(profile.tokenAccountWithMaxAmount);
      for (const record of [...inTree, queued, big, token, view.account(profile.ownerWithOneAccount.hash)]) {
        const { value, exchanges } = await traced(() => rpc.getCompressedAccount(undefined, bnOf(record.hash)));
        const e = only(exchanges);
        expect([e.method, e.params]).toEqual(["getCompressedAccountV2", { hash: record.hash }]);
        expect(value).not.toBeNull();
        expectAccount(view, value as CompressedAccountWithMerkleContext, record);
        expectWireAccount(view, answerValue(e), record);
      }
      for (const [address, hash] of [
        [profile.knownAddress, profile.knownHash],
        [profile.updatedAddress.address, profile.updatedAddress.hash],
      ] as const) {
        const { value, exchanges } = await traced(() => rpc.getCompressedAccount(bnOf(address)));
        expect(only(exchanges).params).toEqual({ address });
        expectAccount(view, value as CompressedAccountWithMerkleContext, view.account(hash));
      }
      for (const hash of [profile.spentHash, profile.unknownHash]) expect(await rpc.getCompressedAccount(undefined, bnOf(hash)), hash).toBeNull();
      for (const address of [profile.spentAddress, profile.unknownAddress]) expect(await rpc.getCompressedAccount(bnOf(address)), address).toBeNull();
    },
  },

  getMultipleCompressedAccounts: {
    run: async () => {
      const { inTree, queued } = accountSamples();
      const records = [...inTree, queued, view.account(profile.accountWithBigLamports.hash), view.account(profile.tokenAccountWithMaxAmount)];
      const hashes = records.map((r) => r.hash);
      const { value, exchanges } = await traced(() => rpc.getMultipleCompressedAccounts(hashes.map(bnOf)));
      const e = only(exchanges);
      expect([e.method, e.params]).toEqual(["getMultipleCompressedAccountsV2", { hashes }]);
      expectAccountSet(value, records);
      // The client sorts by leafIndex descending; the reference answers in request order.
      const raw = (answerValue(e) as { items: unknown[] }).items;
      expect(raw).toHaveLength(records.length);
      raw.forEach((item, i) => expectWireAccount(view, item, records[i] as AccountRecord));
    },
  },

  getCompressedBalance: {
    run: async () => {
      const known = view.account(profile.knownHash);
      const cases: [string, bigint][] = [
        [profile.accountWithBigLamports.hash, U64_MAX],
        [profile.knownHash, BigInt(known.lamports)],
        [profile.spentHash, 0n],
        [profile.unknownHash, 0n],
      ];
      for (const [hash, lamports] of cases) {
        const { value, exchanges } = await traced(() => rpc.getCompressedBalance(undefined, bnOf(hash)));
        expect([only(exchanges).method, only(exchanges).params]).toEqual(["getCompressedBalance", { hash }]);
        expect(big(value), hash).toBe(lamports);
      }
      const { value, exchanges } = await traced(() => rpc.getCompressedBalance(bnOf(profile.knownAddress)));
      expect(only(exchanges).params).toEqual({ address: profile.knownAddress });
      expect(big(value)).toBe(BigInt(known.lamports));
      expect(big(await rpc.getCompressedBalance(bnOf(profile.unknownAddress)))).toBe(0n);
    },
  },

  getCompressedBalanceByOwner: {
    run: async () => {
      const rich = view.ownerWithBigLamports();
      expect(rich.lamports > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
      const cases: [string, bigint][] = [
        [rich.owner, rich.lamports],
        [profile.ownerWithOneAccount.owner, view.lamportsOfOwner(profile.ownerWithOneAccount.owner)],
        [profile.ownerWithOnlySpentAccounts.owner, 0n],
        [profile.ownerWithNoAccounts, 0n],
      ];
      for (const [owner, lamports] of cases) {
        const { value, exchanges } = await traced(() => rpc.getCompressedBalanceByOwner(keyOf(owner)));
        expect([only(exchanges).method, only(exchanges).params]).toEqual(["getCompressedBalanceByOwner", { owner }]);
        expect(big(value), owner).toBe(lamports);
      }
    },
  },

  getCompressedAccountProof: {
    run: async () => {
      const { inTree, queued } = accountSamples();
      for (const record of [...inTree, queued]) {
        const { value, exchanges } = await traced(() => rpc.getCompressedAccountProof(bnOf(record.hash)));
        const e = only(exchanges);
        expect([e.method, e.params]).toEqual(["getCompressedAccountProofV2", { hash: record.hash }]);
        expectAccountProof(view, roots, value, answerValue(e), record, "single");
      }
      await expect(rpc.getCompressedAccountProof(bnOf(profile.unknownHash))).rejects.toThrow();
    },
  },

  getMultipleCompressedAccountProofs: {
    run: async () => {
      // One call per tree height: Photon proves a whole batch at its first tree's height (leaf_node_proof.rs).
      const { queued } = accountSamples();
      for (const records of [unspentIn("StateV1", 6), [...unspentIn("StateV2", 4), queued]]) {
        const hashes = records.map((r) => r.hash);
        const { value, exchanges } = await traced(() => rpc.getMultipleCompressedAccountProofs(hashes.map(bnOf)));
        const e = only(exchanges);
        // Positional params: the hash list itself (photon HashList).
        expect([e.method, e.params]).toEqual(["getMultipleCompressedAccountProofsV2", hashes]);
        const raw = answerValue(e) as unknown[];
        expect(value).toHaveLength(records.length);
        records.forEach((record, i) => expectAccountProof(view, roots, value[i] as (typeof value)[number], raw[i], record, "multiple"));
      }
    },
    timeout: 60_000,
  },

  getCompressedAccountsByOwner: {
    run: async () => {
      // Every account of an owner with 2500, over default pages of 1000.
      const { owner, unspent } = profile.ownerWithManyAccounts;
      const seen: CompressedAccountWithMerkleContext[] = [];
      const sizes: number[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages((cursor) => rpc.getCompressedAccountsByOwner(keyOf(owner), cursor ? { cursor } : undefined))) {
          seen.push(...page.items);
          sizes.push(page.items.length);
        }
      });
      expect(exchanges[0]?.params).toEqual({ owner, filters: [] });
      expect(methodsOf(exchanges).every((m) => m === "getCompressedAccountsByOwnerV2")).toBe(true);
      expectPageSizes(sizes, unspent, 1000);
      expectAccountSet(seen, view.unspentOfOwner(owner));
      for (const e of exchanges)
        for (const raw of (answerValue(e) as { items: { hash: string }[] }).items) expectWireAccount(view, raw, view.account(raw.hash));

      // 1000 exactly: a full page with a cursor, then an empty page with none; limit 1: a page per account.
      const w1000 = await pages((cursor) => rpc.getCompressedAccountsByOwner(keyOf(profile.ownerWith1000.owner), cursor ? { cursor } : undefined));
      expect(w1000.map((p) => p.items.length)).toEqual([1000, 0]);
      const one = await pages((cursor) =>
        rpc.getCompressedAccountsByOwner(keyOf(profile.ownerWithOneAccount.owner), { limit: bn(1), ...(cursor ? { cursor } : {}) }),
      );
      expect(one.map((p) => p.items.length)).toEqual([1, 0]);
      expectAccountSet(
        one.flatMap((p) => p.items),
        view.unspentOfOwner(profile.ownerWithOneAccount.owner),
      );
      const none = await rpc.getCompressedAccountsByOwner(keyOf(profile.ownerWithNoAccounts));
      expect(none).toEqual({ items: [], cursor: null });

      // memcmp filters and dataSlice.
      const mc = profile.memcmpOwner;
      for (const f of mc.filters) {
        const filter = { memcmp: { offset: f.offset, bytes: f.bytes } };
        const { value, exchanges: fx } = await traced(() => rpc.getCompressedAccountsByOwner(keyOf(mc.owner), { filters: [filter] }));
        expect(only(fx).params).toEqual({ owner: mc.owner, filters: [filter] });
        const wanted = Buffer.from(bytesOf(f.bytes));
        const matching = view.unspentOfOwner(mc.owner).filter((a) => {
          if (a.data === null) return false;
          return Buffer.from(a.data.data, "base64")
            .subarray(f.offset, f.offset + wanted.length)
            .equals(wanted);
        });
        expect(matching).toHaveLength(f.count);
        expectAccountSet(value.items, matching);
      }
      const dataSlice = { offset: 1, length: 3 };
      const { value: sliced, exchanges: sx } = await traced(() => rpc.getCompressedAccountsByOwner(keyOf(mc.owner), { dataSlice }));
      expect(only(sx).params).toEqual({ owner: mc.owner, filters: [], dataSlice });
      expectAccountSet(sliced.items, view.unspentOfOwner(mc.owner), dataSlice);
    },
    timeout: 120_000,
  },

  getCompressedTokenAccountsByOwner: {
    run: async () => {
      const t1000 = profile.tokenOwnerWith1000TokenAccounts;
      const seen: ParsedTokenAccount[] = [];
      const sizes: number[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages((cursor) =>
          rpc.getCompressedTokenAccountsByOwner(keyOf(t1000.owner), { limit: bn(400), ...(cursor ? { cursor } : {}) }),
        )) {
          seen.push(...page.items);
          sizes.push(page.items.length);
        }
      });
      expect(methodsOf(exchanges).every((m) => m === "getCompressedTokenAccountsByOwnerV2")).toBe(true);
      expect(exchanges[0]?.params).toEqual({ owner: t1000.owner, limit: 400 });
      expectPageSizes(sizes, t1000.unspent, 400);
      expectTokenAccountSet(
        seen,
        view.unspentTokens((t) => t.owner === t1000.owner),
      );
      for (const e of exchanges) expectWireTokenAccounts(e);

      const t1001 = profile.tokenOwnerWith1001TokenAccounts;
      const p1001 = await pages((cursor) => rpc.getCompressedTokenAccountsByOwner(keyOf(t1001.owner), cursor ? { cursor } : {}));
      expect(p1001.map((p) => p.items.length)).toEqual([1000, 1]);
      expectTokenAccountSet(
        p1001.flatMap((p) => p.items),
        view.unspentTokens((t) => t.owner === t1001.owner),
      );

      const many = profile.tokenOwnerWithManyMints;
      const { value: byMint, exchanges: mx } = await traced(() => rpc.getCompressedTokenAccountsByOwner(keyOf(many.owner), { mint: keyOf(many.mint) }));
      expect(only(mx).params).toEqual({ owner: many.owner, mint: many.mint });
      expectTokenAccountSet(
        byMint.items,
        view.unspentTokens((t) => t.owner === many.owner && t.mint === many.mint),
      );

      // Frozen, delegated, with tlv (the client drops tlv; the wire keeps it), and u64::MAX.
      const { value: oneAccount, exchanges: ox } = await traced(() => rpc.getCompressedTokenAccountsByOwner(keyOf(profile.tokenOwnerWithOneAccount.owner)));
      expectTokenAccountSet(oneAccount.items, [view.tokens.get(profile.tokenOwnerWithOneAccount.hash) as TokenRecord]);
      expect(oneAccount.items[0]?.parsed.state).toBe(2);
      expectWireTokenAccounts(only(ox));
      const bigOwner = profile.tokenOwnerWithBigAmounts;
      const { value: bigItems, exchanges: bx } = await traced(() =>
        rpc.getCompressedTokenAccountsByOwner(keyOf(bigOwner.owner), { mint: keyOf(bigOwner.maxMint) }),
      );
      expect(bigItems.items.map((i) => big(i.parsed.amount))).toEqual([U64_MAX]);
      expectWireTokenAccounts(only(bx));

      expect(await rpc.getCompressedTokenAccountsByOwner(keyOf(profile.tokenOwnerWithNoAccounts))).toEqual({ items: [], cursor: null });
    },
    timeout: 120_000,
  },

  getCompressedTokenAccountsByDelegate: {
    run: async () => {
      const delegate = view.delegateWithMostAccounts();
      const expected = view.unspentTokens((t) => t.delegate === delegate);
      const seen: ParsedTokenAccount[] = [];
      const sizes: number[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages(
          (cursor) => rpc.getCompressedTokenAccountsByDelegate(keyOf(delegate), { limit: bn(100), ...(cursor ? { cursor } : {}) }),
          500,
        )) {
          seen.push(...page.items);
          sizes.push(page.items.length);
        }
      });
      expect(methodsOf(exchanges).every((m) => m === "getCompressedTokenAccountsByDelegateV2")).toBe(true);
      expect(exchanges[0]?.params).toEqual({ delegate, limit: 100 });
      expectPageSizes(sizes, expected.length, 100);
      expectTokenAccountSet(seen, expected);
      for (const e of exchanges) expectWireTokenAccounts(e);
    },
    timeout: 60_000,
  },

  getCompressedTokenAccountBalance: {
    run: async () => {
      const one = view.tokens.get(profile.tokenOwnerWithOneAccount.hash) as TokenRecord;
      const spent = dataset.tokens.find((t) => view.account(t.hash).spent && BigInt(t.amount) !== 0n) as TokenRecord;
      const cases: [string, bigint][] = [
        [profile.tokenAccountWithMaxAmount, U64_MAX],
        [one.hash, BigInt(one.amount)],
        [spent.hash, 0n],
        [profile.unknownHash, 0n],
      ];
      for (const [hash, amount] of cases) {
        const { value, exchanges } = await traced(() => rpc.getCompressedTokenAccountBalance(bnOf(hash)));
        expect([only(exchanges).method, only(exchanges).params]).toEqual(["getCompressedTokenAccountBalance", { hash }]);
        expect(big(value.amount), hash).toBe(amount);
      }
    },
  },

  getCompressedTokenBalancesByOwner: {
    run: async () => {
      // Deprecated call: `token_balances` on the wire (snake_case), camel-cased by the client.
      const many = profile.tokenOwnerWithManyMints;
      const seen: { mint: string; balance: bigint }[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages((cursor) => rpc.getCompressedTokenBalancesByOwner(keyOf(many.owner), { limit: bn(7), ...(cursor ? { cursor } : {}) }))) {
          seen.push(...page.items.map((b) => ({ mint: b.mint.toBase58(), balance: big(b.balance) })));
        }
      });
      expect(methodsOf(exchanges).every((m) => m === "getCompressedTokenBalancesByOwner")).toBe(true);
      expect(exchanges[0]?.params).toEqual({ owner: many.owner, limit: 7 });
      expect(Object.keys(answerValue(exchanges[0]) as object).sort()).toEqual(["cursor", "token_balances"]);
      expect(seen).toEqual(view.balances(many.owner));
      const bigOwner = profile.tokenOwnerWithBigAmounts;
      for (const [mint, balance] of [
        [bigOwner.maxMint, U64_MAX],
        [bigOwner.sumMint, BigInt(bigOwner.sumBalance)],
      ] as const) {
        const res = await rpc.getCompressedTokenBalancesByOwner(keyOf(bigOwner.owner), { mint: keyOf(mint) });
        expect(res.items.map((b) => [b.mint.toBase58(), big(b.balance)])).toEqual([[mint, balance]]);
      }
      const zero = profile.ownerWithZeroBalance;
      const res = await rpc.getCompressedTokenBalancesByOwner(keyOf(zero.owner), { mint: keyOf(zero.mint) });
      expect(res.items.map((b) => [b.mint.toBase58(), big(b.balance)])).toEqual([[zero.mint, 0n]]);
    },
    timeout: 60_000,
  },

  getCompressedTokenBalancesByOwnerV2: {
    run: async () => {
      const t1001 = profile.tokenOwnerWith1001TokenAccounts;
      const seen: { mint: string; balance: bigint }[] = [];
      const sizes: number[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages(async (cursor) => {
          const res = await rpc.getCompressedTokenBalancesByOwnerV2(keyOf(t1001.owner), cursor ? { cursor } : {});
          expect(res.context.slot).toBe(dataset.slot);
          return res.value;
        })) {
          seen.push(...page.items.map((b) => ({ mint: b.mint.toBase58(), balance: big(b.balance) })));
          sizes.push(page.items.length);
        }
      });
      expect(methodsOf(exchanges).every((m) => m === "getCompressedTokenBalancesByOwnerV2")).toBe(true);
      expect(Object.keys(answerValue(exchanges[0]) as object).sort()).toEqual(["cursor", "items"]);
      expect(sizes).toEqual([1000, 1]);
      expect(seen).toEqual(view.balances(t1001.owner));
      const bigOwner = profile.tokenOwnerWithBigAmounts;
      const res = await rpc.getCompressedTokenBalancesByOwnerV2(keyOf(bigOwner.owner));
      expect(res.value.items.map((b) => ({ mint: b.mint.toBase58(), balance: big(b.balance) }))).toEqual(view.balances(bigOwner.owner));
      expect(res.value.items.some((b) => big(b.balance) === U64_MAX)).toBe(true);
    },
    timeout: 60_000,
  },

  getCompressionSignaturesForAccount: {
    run: async () => {
      // A spent account: the transactions that opened and closed it; an unspent one: the one that opened it.
      const spent = view.account(profile.spentHash);
      const unspent = view.account(profile.knownHash);
      for (const [record, n] of [
        [spent, 2],
        [unspent, 1],
      ] as const) {
        const { value, exchanges } = await traced(() => rpc.getCompressionSignaturesForAccount(bnOf(record.hash)));
        expect([only(exchanges).method, only(exchanges).params]).toEqual(["getCompressionSignaturesForAccount", { hash: record.hash }]);
        const expected = view.signaturesForAccount(record.hash);
        expect(expected).toHaveLength(n);
        expectSignatures(value, expected);
      }
      // Photon answers an account without history with an error (get_compression_signatures_for_account.rs: RecordNotFound).
      await expect(rpc.getCompressionSignaturesForAccount(bnOf(profile.unknownHash))).rejects.toThrow();
    },
  },

  getCompressionSignaturesForAddress: {
    run: async () => {
      // Every version of an updated address, one signature a page.
      const address = profile.updatedAddress.address;
      const seen: SignatureWithMetadata[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages((cursor) => rpc.getCompressionSignaturesForAddress(keyOf(address), { limit: bn(1), ...(cursor ? { cursor } : {}) }))) {
          expect(page.items.length).toBeLessThanOrEqual(1);
          seen.push(...page.items);
        }
      });
      expect(exchanges[0]?.params).toEqual({ address, limit: 1 });
      expect(methodsOf(exchanges).every((m) => m === "getCompressionSignaturesForAddress")).toBe(true);
      const expected = view.signaturesForAddress(address);
      expect(expected.length).toBeGreaterThanOrEqual(2);
      expectSignatures(seen, expected);
      expect((await rpc.getCompressionSignaturesForAddress(keyOf(profile.unknownAddress))).items).toEqual([]);
    },
  },

  getCompressionSignaturesForOwner: {
    run: async () => {
      const owner = profile.ownerWithManyAccounts.owner;
      const seen: SignatureWithMetadata[] = [];
      const sizes: number[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages((cursor) => rpc.getCompressionSignaturesForOwner(keyOf(owner), cursor ? { cursor } : undefined))) {
          seen.push(...page.items);
          sizes.push(page.items.length);
        }
      });
      expect(exchanges[0]?.params).toEqual({ owner });
      expect(methodsOf(exchanges).every((m) => m === "getCompressionSignaturesForOwner")).toBe(true);
      const expected = view.signaturesForOwner(owner);
      expectPageSizes(sizes, expected.length, 1000);
      expectSignatures(seen, expected);
      expect((await rpc.getCompressionSignaturesForOwner(keyOf(profile.ownerWithNoAccounts))).items).toEqual([]);
    },
    timeout: 60_000,
  },

  getCompressionSignaturesForTokenOwner: {
    run: async () => {
      const { owner, signatures } = profile.tokenOwnerWith1000TokenAccounts;
      const seen: SignatureWithMetadata[] = [];
      const sizes: number[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages((cursor) =>
          rpc.getCompressionSignaturesForTokenOwner(keyOf(owner), { limit: bn(150), ...(cursor ? { cursor } : {}) }),
        )) {
          seen.push(...page.items);
          sizes.push(page.items.length);
        }
      });
      expect(exchanges[0]?.params).toEqual({ owner, limit: 150 });
      const expected = view.signaturesForTokenOwner(owner);
      expect(expected).toHaveLength(signatures);
      expectPageSizes(sizes, expected.length, 150);
      expectSignatures(seen, expected);
      const t1001 = profile.tokenOwnerWith1001TokenAccounts.owner;
      const p1001 = await pages((cursor) => rpc.getCompressionSignaturesForTokenOwner(keyOf(t1001), cursor ? { cursor } : undefined));
      expectSignatures(
        p1001.flatMap((p) => p.items),
        view.signaturesForTokenOwner(t1001),
      );
    },
    timeout: 60_000,
  },

  getLatestCompressionSignatures: {
    run: async () => {
      // Every signature of the dataset, newest first, over default pages (client argument order: cursor, limit).
      const seen: { signature: string; slot: number; blockTime: number }[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages(async (cursor) => {
          const res = await rpc.getLatestCompressionSignatures(cursor);
          expect(res.context.slot).toBe(dataset.slot);
          return res.value;
        }, 200)) {
          seen.push(...page.items);
        }
      });
      expect(exchanges[0]?.params).toEqual({});
      expect(methodsOf(exchanges).every((m) => m === "getLatestCompressionSignatures")).toBe(true);
      expectSignatures(seen, view.newestFirst);
      const first = await rpc.getLatestCompressionSignatures(undefined, 7);
      expectSignatures(first.value.items, view.newestFirst.slice(0, 7));
      expect(first.value.cursor).not.toBeNull();
    },
    timeout: 120_000,
  },

  getLatestNonVotingSignatures: {
    run: async () => {
      // Not paginated in its result (no cursor), but it takes limit and cursor (client argument order: limit, cursor).
      const { value, exchanges } = await traced(() => rpc.getLatestNonVotingSignatures(50));
      expect([only(exchanges).method, only(exchanges).params]).toEqual(["getLatestNonVotingSignatures", { limit: 50 }]);
      expect(value.context.slot).toBe(dataset.slot);
      expect(value.value.items.map((s) => s.error)).toEqual(new Array(50).fill(null));
      expectSignatures(value.value.items, view.newestFirst.slice(0, 50));
      const cursor = (await rpc.getLatestCompressionSignatures(undefined, 50)).value.cursor as string;
      const next = await rpc.getLatestNonVotingSignatures(50, cursor);
      expectSignatures(next.value.items, view.newestFirst.slice(50, 100));
    },
  },

  getCompressedMintTokenHolders: {
    run: async () => {
      const mint = view.mintWithMostHolders();
      const seen: { owner: string; balance: bigint }[] = [];
      const { exchanges } = await traced(async () => {
        for (const page of await pages(async (cursor) => {
          const res = await rpc.getCompressedMintTokenHolders(keyOf(mint), { limit: bn(100), ...(cursor ? { cursor } : {}) });
          expect(res.context.slot).toBe(dataset.slot);
          return res.value;
        }, 1000)) {
          seen.push(...page.items.map((h) => ({ owner: h.owner.toBase58(), balance: big(h.balance) })));
        }
      });
      expect(exchanges[0]?.params).toEqual({ mint, limit: 100 });
      expect(methodsOf(exchanges).every((m) => m === "getCompressedMintTokenHolders")).toBe(true);
      const expected = view.holders(mint);
      expect(expected.length).toBeGreaterThan(100);
      expect(seen).toEqual(expected);
      const bigOwner = profile.tokenOwnerWithBigAmounts;
      const maxHolders = await rpc.getCompressedMintTokenHolders(keyOf(bigOwner.maxMint));
      expect(maxHolders.value.items.map((h) => ({ owner: h.owner.toBase58(), balance: big(h.balance) }))).toEqual(view.holders(bigOwner.maxMint));
      expect(big((maxHolders.value.items[0] as { balance: bigint }).balance)).toBe(U64_MAX);
      const zero = profile.ownerWithZeroBalance;
      const zeroHolders = await rpc.getCompressedMintTokenHolders(keyOf(zero.mint));
      expect(zeroHolders.value.items.map((h) => [h.owner.toBase58(), big(h.balance)])).toEqual([[zero.owner, 0n]]);
    },
    timeout: 60_000,
  },

  getTransactionWithCompressionInfo: {
    run: async () => {
      // An update (closes and opens), the transaction opening the most token accounts, one closing a token account and one closing a batched account.
      const transactions = view.transactionsToCheck();
      expect(transactions.length).toBeGreaterThanOrEqual(2);
      for (const s of transactions) await expectTransaction(s);
      // A signature the indexer never saw: Photon fails to fetch it from Solana and answers an error.
      await expect(rpc.getTransactionWithCompressionInfo(base58OfSignature(7))).rejects.toThrow();
    },
  },

  getMultipleNewAddressProofs: {
    run: async () => {
      const tree = addressTreeV1();
      expect([tree.type, tree.queue]).toEqual(["AddressV1", addressQueue]);
      const addresses = view.newAddresses(tree.tree);
      expect(addresses.length).toBeGreaterThanOrEqual(2);
      const { value, exchanges } = await traced(() => rpc.getMultipleNewAddressProofs(addresses.map((a) => bn(a.toString()))));
      const e = only(exchanges);
      // Positional params: the address list itself, no tree (Photon uses ADDRESS_TREE_V1).
      expect([e.method, e.params]).toEqual(["getMultipleNewAddressProofs", addresses.map(base58OfField)]);
      expectNewAddressProofs(view, roots, value, answerValue(e) as unknown[], addresses, tree);
    },
  },

  getValidityProof: {
    run: async () => {
      // Deprecated: looks the accounts up first, then asks for a proof with new addresses in the V1 address tree.
      const accounts = unspentIn("StateV1", 2);
      const tree = addressTreeV1();
      const address = view.newAddresses(tree.tree)[0] as bigint;
      const { value, exchanges } = await traced(() =>
        rpc.getValidityProof(
          accounts.map((a) => bnOf(a.hash)),
          [bn(address.toString())],
        ),
      );
      expect(methodsOf(exchanges)).toEqual(["getMultipleCompressedAccountsV2", "getValidityProofV2"]);
      expect(exchanges[1]?.params).toEqual({
        hashes: accounts.map((a) => a.hash),
        newAddressesWithTrees: [{ address: base58OfField(address), tree: tree.tree }],
      });
      expectValidityProof(view, roots, value, accounts, [{ address, tree }]);

      // New addresses only: the account lookup still goes out, with no hashes.
      const second = view.newAddresses(tree.tree)[1] as bigint;
      const { value: addressOnly, exchanges: ax } = await traced(() => rpc.getValidityProof([], [bn(address.toString()), bn(second.toString())]));
      expect(ax.map((e) => [e.method, e.params])).toEqual([
        ["getMultipleCompressedAccountsV2", { hashes: [] }],
        ["getValidityProofV2", { hashes: [], newAddressesWithTrees: [address, second].map((a) => ({ address: base58OfField(a), tree: tree.tree })) }],
      ]);
      expectValidityProof(
        view,
        roots,
        addressOnly,
        [],
        [
          { address, tree },
          { address: second, tree },
        ],
      );
    },
  },

  getValidityProofV0: {
    run: async () => {
      // Batched accounts in their trees plus a new address of the V2 address tree.
      const accounts = unspentIn("StateV2", 2);
      const tree = addressTreeV2();
      const address = view.newAddresses(tree.tree)[0] as bigint;
      const hashes = accounts.map((a) => ({ hash: bnOf(a.hash), tree: keyOf(a.tree), queue: keyOf(view.treeOf(a).queue) }));
      const { value, exchanges } = await traced(() =>
        rpc.getValidityProofV0(hashes, [{ address: bn(address.toString()), tree: keyOf(tree.tree), queue: keyOf(tree.queue) }]),
      );
      const e = only(exchanges);
      expect([e.method, e.params]).toEqual([
        "getValidityProofV2",
        { hashes: accounts.map((a) => a.hash), newAddressesWithTrees: [{ address: base58OfField(address), tree: tree.tree }] },
      ]);
      expectValidityProof(view, roots, value, accounts, [{ address, tree }]);

      // Only accounts in an output queue: proven by index, no Groth16 proof.
      const { queued } = accountSamples();
      const byIndex = await rpc.getValidityProofV0([{ hash: bnOf(queued.hash), tree: keyOf(queued.tree), queue: keyOf(view.treeOf(queued).queue) }]);
      expectValidityProof(view, roots, byIndex, [queued], []);

      // State trees of different heights in one proof: Photon refuses (prover/prove.rs: "All state trees … same height").
      const mixed = [unspentIn("StateV1", 1)[0], accounts[0]] as AccountRecord[];
      await expect(
        rpc.getValidityProofV0(mixed.map((a) => ({ hash: bnOf(a.hash), tree: keyOf(a.tree), queue: keyOf(view.treeOf(a).queue) }))),
      ).rejects.toThrow();
    },
  },

  getValidityProofV2: {
    run: async () => {
      // Merkle contexts as getCompressedAccount returns them (batched trees: a V2 address goes with V2
      // state, the prover has no circuit mixing heights 26 and 40), and V2 addresses: derived from a
      // seed (the default mode, with the light-token program) or given as they are (standard).
      const accounts = unspentIn("StateV2", 2);
      const contexts: CompressedAccountWithMerkleContext[] = [];
      for (const a of accounts) contexts.push((await rpc.getCompressedAccount(undefined, bnOf(a.hash))) as CompressedAccountWithMerkleContext);
      const treeInfo = await rpc.getAddressTreeInfoV2();
      const tree = addressTreeV2();
      const seed = Buffer.alloc(32, 0);
      seed.write("stateless-client.test", "utf8");
      const derived = fieldOf(deriveAddressV2(seed, treeInfo.tree, LIGHT_TOKEN_PROGRAM_ID).toBase58());
      const derivedProof = await traced(() => rpc.getValidityProofV2(contexts, [{ address: seed, treeInfo }]));
      expect(only(derivedProof.exchanges).params).toEqual({
        hashes: accounts.map((a) => a.hash),
        newAddressesWithTrees: [{ address: base58OfField(derived), tree: tree.tree }],
      });
      expectValidityProof(view, roots, derivedProof.value, accounts, [{ address: derived, tree }]);

      const plain = view.newAddresses(tree.tree)[0] as bigint;
      const standard = await rpc.getValidityProofV2(
        contexts,
        [{ address: Buffer.from(plain.toString(16).padStart(64, "0"), "hex"), treeInfo }],
        DerivationMode.standard,
      );
      expectValidityProof(view, roots, standard, accounts, [{ address: plain, tree }]);
    },
  },

  getValidityProofAndRpcContext: {
    run: async () => {
      const accounts = unspentIn("StateV1", 4);
      const { value, exchanges } = await traced(() =>
        rpc.getValidityProofAndRpcContext(accounts.map((a) => ({ hash: bnOf(a.hash), tree: keyOf(a.tree), queue: keyOf(view.treeOf(a).queue) }))),
      );
      expect([only(exchanges).method, only(exchanges).params]).toEqual([
        "getValidityProofV2",
        { hashes: accounts.map((a) => a.hash), newAddressesWithTrees: [] },
      ]);
      expect(value.context.slot).toBe(dataset.slot);
      expectValidityProof(view, roots, value.value, accounts, []);
    },
  },
};

/** getTransactionWithCompressionInfo of one signature against its record (photon get_transaction_with_compression_info.rs). */
async function expectTransaction(s: SignatureRecord): Promise<void> {
  const { value, exchanges } = await traced(() => rpc.getTransactionWithCompressionInfo(s.signature));
  const e = only(exchanges);
  expect([e.method, e.params]).toEqual(["getTransactionWithCompressionInfoV2", { signature: s.signature }]);
  expect(value, s.signature).not.toBeNull();
  const tx = value as NonNullable<typeof value>;
  // `transaction` is Solana's getTransaction answer in Photon; the stand-in's must at least carry the slot and block time.
  expect(tx.transaction).toMatchObject({ slot: s.slot, blockTime: s.blockTime });
  const info = tx.compressionInfo;
  const raw = (resultOf(e) as { compressionInfo: { openedAccounts: { account: unknown }[]; closedAccounts: { account: { account: unknown } }[] } })
    .compressionInfo;

  // Opened: in output order, as the transaction created them (photon tx_event_parser.rs:117-142:
  // a batched tree's new account is in its output queue, seq null; a V1 account has its seq).
  expect(info.openedAccounts.map((o) => b58(o.account.hash))).toEqual(s.opened);
  info.openedAccounts.forEach((o, i) => {
    const record = view.account(s.opened[i] as string);
    const batched = view.treeOf(record).type === "StateV2";
    expectAccount(view, o.account, record, { treeInfo: false, proveByIndex: batched });
    const token = view.tokens.get(record.hash);
    if (token === undefined) expect(o.maybeTokenData).toBeNull();
    else expectTokenData(o.maybeTokenData as NonNullable<typeof o.maybeTokenData>, token);
    expectWireAccount(view, raw.openedAccounts[i]?.account, record, { seq: batched ? null : record.seq, slotCreated: s.slot, proveByIndex: batched });
  });

  // Closed: as stored now (spent), in no set order (Photon collects them in a HashSet), with nullifier metadata.
  expect(info.closedAccounts.map((c) => b58(c.account.hash)).sort()).toEqual([...s.closed].sort());
  const txHashes = new Set<bigint>();
  for (const [i, c] of info.closedAccounts.entries()) {
    const record = view.account(b58(c.account.hash));
    expectAccount(view, c.account, record, { treeInfo: false });
    const token = view.tokens.get(record.hash);
    if (token === undefined) expect(c.maybeTokenData).toBeNull();
    else expectTokenData(c.maybeTokenData as NonNullable<typeof c.maybeTokenData>, token);
    const metadata = (c as { maybeNullifierMetadata?: { nullifier: bigint; txHash: bigint } }).maybeNullifierMetadata;
    expect(metadata).toBeDefined();
    const nullifier = big(metadata?.nullifier ?? 0n);
    const txHash = big(metadata?.txHash ?? 0n);
    if (view.treeOf(record).type === "StateV1") {
      // V1 trees keep neither (AccountContext: None, sent as the default hash).
      expect([nullifier, txHash]).toEqual([0n, 0n]);
    } else {
      // Batched trees: H(hash, leafIndex, txHash), one txHash for the transaction (photon account/context.rs).
      expect(txHash).not.toBe(0n);
      expect(base58OfField(nullifier), `nullifier of ${record.hash}`).toBe(base58OfField(batchedNullifier(fieldOf(record.hash), record.leafIndex, txHash)));
      txHashes.add(txHash);
    }
    expectWireAccount(view, raw.closedAccounts[i]?.account.account, record);
  }
  expect(txHashes.size).toBeLessThanOrEqual(1);

  // Token balances before and after: the client's sums by (owner, mint), or undefined without tokens.
  const sums = (hashes: readonly string[]) => {
    const out = new Map<string, bigint>();
    for (const h of hashes) {
      const t = view.tokens.get(h);
      if (t !== undefined) out.set(`${t.owner}_${t.mint}`, (out.get(`${t.owner}_${t.mint}`) ?? 0n) + BigInt(t.amount));
    }
    return out.size === 0 ? undefined : [...out].sort();
  };
  const clientSums = (rows: { owner: PublicKey; mint: PublicKey; amount: unknown }[] | undefined) =>
    rows === undefined ? undefined : rows.map((r) => [`${r.owner.toBase58()}_${r.mint.toBase58()}`, big(r.amount as bigint)] as [string, bigint]).sort();
  expect(clientSums(info.preTokenBalances)).toEqual(sums(s.closed));
  expect(clientSums(info.postTokenBalances)).toEqual(sums(s.opened));
}

/** A valid 64-byte signature of no transaction. */
function base58OfSignature(fill: number): string {
  const signature = encodeBase58(Buffer.alloc(64, fill));
  expect(dataset.signatures.some((s) => s.signature === signature)).toBe(false);
  return signature;
}

// ---------------------------------------------------------------------------------------------

describe("@lightprotocol/stateless.js 0.23.3", () => {
  it("is the 0.23.3 build, sending the V2 endpoints", () => {
    const pkg = JSON.parse(readFileSync(join(root, "node_modules/@lightprotocol/stateless.js/package.json"), "utf8")) as { version: string };
    expect(pkg.version).toBe("0.23.3");
    expect(featureFlags.isV2()).toBe(true);
  });

  it("every public method of Rpc is checked here or listed as out of scope", () => {
    const own = Object.getOwnPropertyNames(Rpc.prototype).filter(
      (name) => name !== "constructor" && typeof Object.getOwnPropertyDescriptor(Rpc.prototype, name)?.value === "function",
    );
    const checked = Object.keys(CHECKS);
    const out = Object.keys(OUT_OF_SCOPE);
    expect(
      checked.filter((m) => out.includes(m)),
      "both checked and out of scope",
    ).toEqual([]);
    expect([...checked, ...out].sort()).toEqual([...own].sort());
    for (const why of Object.values(OUT_OF_SCOPE)) expect(why.length).toBeGreaterThan(20);
  });

  it("poseidon-lite reproduces Photon's zero values (the proofs below fold with it)", () => {
    for (const [level, hex] of Object.entries(PHOTON_ZERO_BYTES)) expect(zeroHash(Number(level)).toString(16).padStart(64, "0")).toBe(hex);
    expect(TreeType.AddressV2).toBe(TREE_TYPE.AddressV2);
    expect(TOKEN_PROGRAM).toBe(LIGHT_TOKEN_PROGRAM_ID.toBase58());
  });
});

describe("@lightprotocol/stateless.js 0.23.3 against the reference indexer", () => {
  const reference = useReferenceIndexer({ data: dataset });
  beforeAll(() => {
    rpc = createRpc(reference().url, reference().url);
  });

  for (const [method, check] of Object.entries(CHECKS)) it(method, check.run, check.timeout);
});
