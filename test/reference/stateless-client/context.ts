/** The dataset, the client under test and the helpers every check of stateless.js uses. */
import { type CompressedAccountWithMerkleContext, type ParsedTokenAccount, type Rpc, addressTree, batchAddressTree, bn } from "@lightprotocol/stateless.js";
import { encodeBase58 } from "@photon-indexer-kit/runtime";
import { PublicKey } from "@solana/web3.js";
import { expect } from "vitest";
import { datasetProfile, generateDataset } from "../../../reference/index.js";
import type { AccountRecord, SignatureRecord, TokenRecord } from "../../../reference/records.js";
import { b58, big, expectAccount, expectTokenData, expectWireAccount, expectWireTokenData } from "../stateless/check.js";
import { DatasetView, base58OfField, bytesOf, fieldOf } from "../stateless/expected.js";
import { batchedNullifier } from "../stateless/merkle.js";
import { Roots } from "../stateless/proofs.js";
import { type WireExchange, answerValue, resultOf, traced } from "../stateless/wire.js";

export const dataset = generateDataset();
export const profile = datasetProfile(dataset);
export const view = new DatasetView(dataset);
export const roots = new Roots();
/** The client under test, created against the reference indexer of the describe block below. */
export let rpc: Rpc;

/** Points every check at the client created for the reference indexer. */
export function useRpc(client: Rpc): void {
  rpc = client;
}
// ---------------------------------------------------------------------------------------------
// Inputs and small helpers

/** A base58 hash or address as the BN254 the client takes. */
export const bnOf = (base58: string) => bn(bytesOf(base58));
export const keyOf = (base58: string) => new PublicKey(base58);
export const methodsOf = (exchanges: readonly WireExchange[]) => exchanges.map((e) => e.method);
export const only = (exchanges: readonly WireExchange[]): WireExchange => {
  expect(exchanges, "one request").toHaveLength(1);
  return exchanges[0] as WireExchange;
};

/** Unspent accounts the proof and lookup tests use: for every state tree one in the tree, and one still in an output queue. */
export function accountSamples(): { inTree: AccountRecord[]; queued: AccountRecord } {
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

export function unspentIn(type: "StateV1" | "StateV2", n: number): AccountRecord[] {
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
export async function pages<T>(
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

export function expectPageSizes(sizes: readonly number[], total: number, limit: number): void {
  // Full pages, then a short one (possibly empty) with the null cursor (photon: cursor None iff items < limit).
  const expected: number[] = [];
  for (let left = total; ; left -= limit) {
    expected.push(Math.min(limit, left));
    if (left < limit) break;
  }
  expect(sizes).toEqual(expected);
}

/** Client accounts against their records, by hash (the client re-sorts each page by leafIndex descending). */
export function expectAccountSet(
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

export function expectTokenAccountSet(items: readonly ParsedTokenAccount[], tokens: readonly TokenRecord[]): void {
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
export function expectWireTokenAccounts(exchange: WireExchange): void {
  const items = (answerValue(exchange) as { items: { account: unknown; tokenData: unknown }[] }).items;
  for (const item of items) {
    const hash = (item.account as { hash: string }).hash;
    expectWireAccount(view, item.account, view.account(hash));
    expectWireTokenData(item.tokenData, view.tokens.get(hash) as TokenRecord);
  }
}

export const addressTreeV1 = () => view.tree(addressTree);
export const addressTreeV2 = () => view.tree(batchAddressTree);

export interface Check {
  run: () => Promise<void>;
  timeout?: number;
}

/** getTransactionWithCompressionInfo of one signature against its record (photon get_transaction_with_compression_info.rs). */
export async function expectTransaction(s: SignatureRecord): Promise<void> {
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
export function base58OfSignature(fill: number): string {
  const signature = encodeBase58(Buffer.alloc(64, fill));
  expect(dataset.signatures.some((s) => s.signature === signature)).toBe(false);
  return signature;
}
