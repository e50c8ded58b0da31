/**
 * getTransactionWithCompressionInfo(V2) against the dataset records: the accounts each transaction
 * opened and closed (SignatureRecord.opened/closed), token accounts with their token data, V2
 * merkle contexts, nullifiers and tx hashes; agreement with the signature and account methods;
 * and the synthetic `transaction` (a well-formed legacy Solana transaction carrying the signature,
 * deterministic per seed).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Transaction, VersionedTransaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListener, type Schemas } from "../../generated/index.js";
import { generateDataset } from "../../reference/dataset.js";
import { createReferenceHandlers } from "../../reference/handlers/index.js";
import type { AccountRecord, SignatureRecord, TreeRecord } from "../../reference/records.js";
import { TOKEN_PROGRAM } from "../../reference/records.js";
import { ReferenceStore } from "../../reference/store.js";
import { base58ToBigint, bigintToBase58, nullifier, transactionHash } from "../../reference/trees/poseidon.js";
import { encodeBase58, parseJson, stringifyJson } from "../../runtime/index.js";
import { bytes, call, callError, dataset, profile } from "./fixture.js";

const ZERO_HASH = encodeBase58(new Uint8Array(32));
const TREE_TYPE: Record<TreeRecord["type"], number> = { StateV1: 1, AddressV1: 2, StateV2: 3, AddressV2: 4 };

const accountByHash = new Map(dataset.accounts.map((a) => [a.hash, a]));
const tokenByHash = new Map(dataset.tokens.map((t) => [t.hash, t]));
const treeByKey = new Map(dataset.trees.map((t) => [t.tree, t]));
const signatureByText = new Map(dataset.signatures.map((s) => [s.signature, s]));

// ---------------------------------------------------------------- oracle (from the records)

const account = (hash: string) => accountByHash.get(hash) as AccountRecord;
const tree = (a: AccountRecord) => treeByKey.get(a.tree) as TreeRecord;
const tokenData = (hash: string): Schemas["TokenData"] | null => {
  const t = tokenByHash.get(hash);
  return t === undefined ? null : { mint: t.mint, owner: t.owner, amount: t.amount, delegate: t.delegate, state: t.state, tlv: t.tlv };
};
const v1 = (a: AccountRecord): Schemas["Account"] => ({
  hash: a.hash,
  address: a.address,
  data: a.data,
  owner: a.owner,
  lamports: a.lamports,
  tree: a.tree,
  leafIndex: a.leafIndex,
  seq: a.seq,
  slotCreated: a.slotCreated,
});
const v2 = (a: AccountRecord, proveByIndex: boolean): Schemas["AccountV2"] => {
  const { tree: key, ...rest } = v1(a);
  const t = tree(a);
  return { ...rest, proveByIndex, merkleContext: { treeType: TREE_TYPE[t.type], tree: key, queue: t.queue, cpiContext: null, nextTreeContext: null } };
};

/** getTransactionWithCompressionInfo's compressionInfo: closed accounts as they are now (spent), opened ones as created in the transaction's slot. */
function expectedV1(s: SignatureRecord): Schemas["CompressionInfo"] {
  return {
    closedAccounts: s.closed.map((h) => ({ account: v1(account(h)), optionalTokenData: tokenData(h) })),
    openedAccounts: s.opened.map((h) => ({ account: { ...v1(account(h)), slotCreated: s.slot }, optionalTokenData: tokenData(h) })),
  };
}

/**
 * The V2 compressionInfo: opened accounts parsed from the transaction (in the output queue exactly
 * when the tree is batched), closed ones with the nullifier Poseidon(hash, leafIndex, txHash) and the
 * transaction's hash in batched trees, the zero hash in V1 trees.
 */
function expectedV2(s: SignatureRecord): Schemas["CompressionInfoV2"] {
  const txHash = transactionHash(s.closed.map(base58ToBigint), s.opened.map(base58ToBigint), s.slot);
  return {
    closedAccounts: s.closed.map((h) => {
      const a = account(h);
      const batched = tree(a).type === "StateV2";
      return {
        account: {
          account: v2(a, a.inOutputQueue),
          nullifier: batched ? bigintToBase58(nullifier(base58ToBigint(h), a.leafIndex, txHash)) : ZERO_HASH,
          txHash: batched ? bigintToBase58(txHash) : ZERO_HASH,
        },
        optionalTokenData: tokenData(h),
      };
    }),
    openedAccounts: s.opened.map((h) => ({
      account: { ...v2(account(h), tree(account(h)).type === "StateV2"), slotCreated: s.slot },
      optionalTokenData: tokenData(h),
    })),
  };
}

/** The roles' transactions plus every 5th of the dataset. */
const sample: SignatureRecord[] = [
  ...new Set([
    ...[profile.closedAccount.openedBy, profile.closedAccount.closedBy, ...profile.addressWithHistory.signatures].map(
      (t) => signatureByText.get(t) as SignatureRecord,
    ),
    ...[
      ...profile.ownerWithBatchedAccounts.inInputQueue,
      ...profile.ownerWithBatchedAccounts.nullified,
      ...profile.ownerWithBatchedAccounts.inOutputQueue,
    ].flatMap((h) => dataset.signatures.filter((s) => s.opened.includes(h) || s.closed.includes(h))),
    ...dataset.signatures.filter((_, i) => i % 5 === 0),
  ]),
];

// ---------------------------------------------------------------- tests

describe("compressionInfo", () => {
  it("lists the accounts each transaction closed and opened, in input and output order, V1 shape", () => {
    for (const s of sample) expect(call("getTransactionWithCompressionInfo", { signature: s.signature }).compressionInfo, s.signature).toEqual(expectedV1(s));
  });

  it("in the V2 shape: merkle contexts, proveByIndex as parsed, nullifiers and tx hashes of batched inputs", () => {
    for (const s of sample) expect(call("getTransactionWithCompressionInfoV2", { signature: s.signature }).compressionInfo, s.signature).toEqual(expectedV2(s));
  });

  it("covers the cases that matter: batched and V1 trees, token accounts, closes without opens", () => {
    const shapes = new Set<string>();
    for (const s of sample) {
      for (const h of s.closed) shapes.add(`closed ${tree(account(h)).type} ${tokenByHash.has(h) ? "token" : "plain"}`);
      for (const h of s.opened) shapes.add(`opened ${tree(account(h)).type} ${tokenByHash.has(h) ? "token" : "plain"}`);
      if (s.opened.length === 0) shapes.add("no outputs");
    }
    for (const shape of [
      "closed StateV1 plain",
      "closed StateV1 token",
      "closed StateV2 plain",
      "opened StateV1 plain",
      "opened StateV1 token",
      "opened StateV2 plain",
      "no outputs",
    ])
      expect(shapes).toContain(shape);
  });

  it("gives a closed batched account a real nullifier: the leaf the tree holds once a batch nullified it", () => {
    const [hash] = profile.ownerWithBatchedAccounts.nullified;
    const closer = dataset.signatures.find((s) => s.closed.includes(hash as string)) as SignatureRecord;
    const closed = call("getTransactionWithCompressionInfoV2", { signature: closer.signature }).compressionInfo.closedAccounts.find(
      (c) => c.account.account.hash === hash,
    );
    expect(closed?.account.nullifier).not.toBe(ZERO_HASH);
    expect(closed?.account.txHash).not.toBe(ZERO_HASH);
  });
});

describe("agreement with the other methods", () => {
  it("every account a transaction opened or closed lists that signature in getCompressionSignaturesForAccount", () => {
    for (const s of sample) {
      const { closedAccounts, openedAccounts } = call("getTransactionWithCompressionInfo", { signature: s.signature }).compressionInfo;
      for (const { account: a } of [...closedAccounts, ...openedAccounts]) {
        const items = call("getCompressionSignaturesForAccount", { hash: a.hash }).value.items;
        expect(items.map((i) => i.signature)).toContain(s.signature);
      }
    }
  });

  it("opens every account exactly once in its creation slot and closes exactly the spent ones once", () => {
    const opened = new Map<string, number>();
    const closed = new Map<string, number>();
    for (const s of dataset.signatures) {
      for (const h of s.opened) opened.set(h, (opened.get(h) ?? 0) + 1);
      for (const h of s.closed) closed.set(h, (closed.get(h) ?? 0) + 1);
      for (const h of s.opened) expect(account(h).slotCreated).toBe(s.slot);
    }
    for (const a of dataset.accounts) {
      expect(opened.get(a.hash)).toBe(1);
      expect(closed.get(a.hash) ?? 0).toBe(a.spent ? 1 : 0);
    }
  });

  it("an opened account still unspent is the one getCompressedAccount answers; a closed one is answered by none", () => {
    for (const s of sample.slice(0, 400)) {
      const info = call("getTransactionWithCompressionInfo", { signature: s.signature }).compressionInfo;
      for (const { account: a } of info.openedAccounts) if (!account(a.hash).spent) expect(call("getCompressedAccount", { hash: a.hash }).value).toEqual(a);
      for (const { account: a } of info.closedAccounts) expect(call("getCompressedAccount", { hash: a.hash }).value).toBeNull();
      const infoV2 = call("getTransactionWithCompressionInfoV2", { signature: s.signature }).compressionInfo;
      for (const { account: a } of infoV2.openedAccounts) {
        if (account(a.hash).spent) continue;
        // As parsed, a batched account is in the output queue; the index may have appended it since.
        expect(call("getCompressedAccountV2", { hash: a.hash }).value).toEqual({ ...a, proveByIndex: account(a.hash).inOutputQueue });
      }
    }
  });

  it("token accounts carry their token data, every other account null", () => {
    const seen = new Set<string>();
    for (const s of dataset.signatures) {
      if (!s.opened.some((h) => tokenByHash.has(h))) continue;
      for (const entry of call("getTransactionWithCompressionInfo", { signature: s.signature }).compressionInfo.openedAccounts) {
        expect(entry.optionalTokenData).toEqual(tokenData(entry.account.hash));
        expect(entry.optionalTokenData === null).toBe(entry.account.owner !== TOKEN_PROGRAM);
        if (entry.optionalTokenData !== null) seen.add(entry.account.hash);
      }
    }
    expect(seen.size).toBe(dataset.tokens.length);
  });
});

describe("the synthetic transaction", () => {
  it("is a well-formed legacy Solana transaction carrying the signature, in Photon's flat shape", () => {
    for (const s of sample.slice(0, 300)) {
      const { transaction } = call("getTransactionWithCompressionInfo", { signature: s.signature }) as { transaction: any };
      expect(Object.keys(transaction)).toEqual(["slot", "transaction", "meta", "version", "blockTime"]);
      expect([transaction.slot, transaction.blockTime, transaction.version]).toEqual([s.slot, s.blockTime, "legacy"]);
      const [text, encoding] = transaction.transaction as [string, string];
      expect(encoding).toBe("base64");
      const wire = Buffer.from(text, "base64");
      expect(VersionedTransaction.deserialize(wire).version).toBe("legacy");
      const tx = Transaction.from(wire);
      expect(tx.signatures).toHaveLength(1);
      expect(Buffer.from(tx.signatures[0]?.signature as Buffer)).toEqual(bytes(s.signature));
      const keys = tx.compileMessage().accountKeys.map((k) => k.toBase58());
      for (const h of [...s.opened, ...s.closed]) expect(keys).toContain(account(h).tree);
      const { meta } = transaction;
      expect([meta.err, meta.status]).toEqual([null, { Ok: null }]);
      expect([meta.preBalances.length, meta.postBalances.length]).toEqual([keys.length, keys.length]);
      expect(meta.preBalances[0] - meta.postBalances[0]).toBe(meta.fee);
      expect(meta.preBalances.slice(1)).toEqual(meta.postBalances.slice(1));
    }
  });

  it("is the same in both shapes, shares its recent blockhash within a slot, and is the same for the same seed", () => {
    const sameSlot = dataset.signatures.filter((s, i) => i > 0 && dataset.signatures[i - 1]?.slot === s.slot).slice(0, 5);
    expect(sameSlot.length).toBeGreaterThan(0);
    for (const s of sameSlot) {
      const before = dataset.signatures[dataset.signatures.indexOf(s) - 1] as SignatureRecord;
      const hashOf = (sig: string) =>
        Transaction.from(Buffer.from((call("getTransactionWithCompressionInfo", { signature: sig }).transaction as any).transaction[0], "base64"))
          .recentBlockhash;
      expect(hashOf(s.signature)).toBe(hashOf(before.signature));
      expect(call("getTransactionWithCompressionInfoV2", { signature: s.signature }).transaction).toEqual(
        call("getTransactionWithCompressionInfo", { signature: s.signature }).transaction,
      );
    }
    const again = createReferenceHandlers(new ReferenceStore(generateDataset()));
    for (const s of sample.slice(0, 50)) {
      const params = { signature: s.signature };
      const mine = stringifyJson(call("getTransactionWithCompressionInfoV2", params));
      expect(stringifyJson(again.getTransactionWithCompressionInfoV2(params, {} as never) as object)).toBe(mine);
    }
  });

  it("is -32000 Internal server error for a signature the chain does not know, in both shapes", () => {
    const signature = encodeBase58(new Uint8Array(64).fill(9));
    for (const err of [callError("getTransactionWithCompressionInfo", { signature }), callError("getTransactionWithCompressionInfoV2", { signature })])
      expect([err.code, err.message]).toEqual([-32000, "Internal server error"]);
  });
});

describe("over HTTP", () => {
  let server: Server;
  let url: string;
  const errors: unknown[] = [];
  beforeAll(async () => {
    server = createServer(createListener(createReferenceHandlers(new ReferenceStore(dataset)), { validateResults: true, onError: (err) => errors.push(err) }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(errors).toEqual([]);
  });

  it("answers {transaction, compressionInfo} without a context, u64 values exact", async () => {
    const s = signatureByText.get(profile.closedAccount.closedBy) as SignatureRecord;
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stringifyJson({ jsonrpc: "2.0", id: "test-account", method: "getTransactionWithCompressionInfoV2", params: { signature: s.signature } }),
    });
    const json = parseJson(await res.text()) as { result: Record<string, unknown> };
    expect(Object.keys(json.result)).toEqual(["transaction", "compressionInfo"]);
    expect(json.result).toEqual({ transaction: json.result.transaction, compressionInfo: expectedV2(s) });
  });
});
