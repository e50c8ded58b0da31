/**
 * The generated client against the generated server stubs over real HTTP on 127.0.0.1:
 * every method, JSON-RPC errors, retries on 429, cursor iteration and exact uint64.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, createListener, type Handlers, type Item, type Params } from "../../generated/index.js";
import { ClientErrorCode, encodeBase58, parseJson, PhotonClientError, RpcError, stringifyJson } from "../../runtime/index.js";
import { root } from "../helpers/paths.js";

const fixture = (name: string) => (parseJson(readFileSync(join(root, "test", "fixtures", "responses", `${name}.json`), "utf8")) as { result: any }).result;
const key = (n: number) => encodeBase58(new Uint8Array(32).fill(n));

type Signature = Item<"getCompressionSignaturesForTokenOwner">;
const signatures: Signature[] = Array.from({ length: 25 }, (_, i) => ({
  signature: encodeBase58(new Uint8Array(64).fill(i + 1)),
  slot: 2n ** 60n - BigInt(i),
  blockTime: 1714081554 + i,
}));

const slot = 18446744073709551615n;
let stuckCursor = false; // the server repeats one cursor forever
const context = { slot: 7 };
const emptyPage = { context, value: { items: [], cursor: null } };
const treeContext = { treeType: 3, tree: key(20), queue: key(21), cpiContext: null };
const proofOf = (hash: string) => ({ hash, leafIndex: 4, merkleTree: key(20), proof: [key(5), key(6)], root: key(7), rootSeq: 2n ** 60n });
/** Which handler answered the last balance call, and under which name it was called. */
let balanceCalls: { method: string; hash: unknown }[] = [];
const handlers: Handlers = {
  getCompressedAccount: (params) => {
    if (!params.address && !params.hash) throw RpcError.validation("Either address or hash must be provided");
    return params.hash === fixture("account").value.hash ? fixture("account") : fixture("accountNull");
  },
  getMultipleCompressedAccounts: () => fixture("multiple"),
  getCompressedAccountsByOwner: () => fixture("accountsByOwner"),
  getCompressedTokenAccountsByOwner: () => fixture("tokenAccounts"),
  getCompressedTokenBalancesByOwner: () => fixture("balances"),
  getCompressionSignaturesForTokenOwner: (params) => {
    if (stuckCursor) return { context: { slot: 7 }, value: { items: signatures.slice(0, 1), cursor: "5" } };
    // A tiny paginated source: cursor = index of the next item, as decimal text.
    const start = params.cursor ? Number(params.cursor) : 0;
    const limit = Number(params.limit ?? 1000);
    const items = signatures.slice(start, start + limit);
    return { context: { slot: 7 }, value: { items, cursor: items.length < limit ? null : String(start + limit) } };
  },
  getIndexerSlot: () => slot,
  getCompressedAccountV2: () => ({ context, value: null }),
  getMultipleCompressedAccountsV2: (params) => ({ context, value: { items: (params.hashes ?? params.addresses ?? []).map(() => null) } }),
  getCompressedAccountsByOwnerV2: () => emptyPage,
  getCompressedTokenAccountsByOwnerV2: () => emptyPage,
  getCompressedTokenAccountsByDelegate: () => emptyPage,
  getCompressedTokenAccountsByDelegateV2: () => emptyPage,
  getCompressedTokenBalancesByOwnerV2: () => emptyPage,
  getCompressedAccountBalance: (params, ctx) => {
    balanceCalls.push({ method: ctx.method, hash: params.hash });
    return { context, value: 2n ** 64n - 2n };
  },
  getCompressedBalanceByOwner: () => ({ context, value: 0 }),
  getCompressedTokenAccountBalance: () => ({ context, value: { amount: 0 } }),
  getCompressedMintTokenHolders: () => emptyPage,
  getCompressionSignaturesForAccount: () => ({ context, value: { items: signatures.slice(0, 2) } }),
  getCompressionSignaturesForAddress: () => emptyPage,
  getCompressionSignaturesForOwner: () => emptyPage,
  getLatestCompressionSignatures: () => emptyPage,
  getLatestNonVotingSignatures: () => ({ context, value: { items: [{ ...signatures[0]!, error: null }] } }),
  getTransactionWithCompressionInfo: () => ({ transaction: { slot: 1 }, compressionInfo: { closedAccounts: [], openedAccounts: [] } }),
  getTransactionWithCompressionInfoV2: () => ({ transaction: { slot: 1 }, compressionInfo: { closedAccounts: [], openedAccounts: [] } }),
  getCompressedAccountProof: (params) => ({ context, value: proofOf(params.hash) }),
  getCompressedAccountProofV2: (params) => {
    const { merkleTree: _tree, ...proof } = proofOf(params.hash);
    return { context, value: { ...proof, proveByIndex: false, treeContext } };
  },
  getMultipleCompressedAccountProofs: (params) => ({ context, value: params.map(proofOf) }),
  getMultipleCompressedAccountProofsV2: () => ({ context, value: [] }),
  getMultipleNewAddressProofs: () => ({ context, value: [] }),
  getMultipleNewAddressProofsV2: () => ({ context, value: [] }),
  getValidityProof: () => ({
    context,
    value: {
      compressedProof: { a: new Array(32).fill(0), b: new Array(64).fill(0), c: new Array(32).fill(0) },
      roots: [],
      rootIndices: [],
      leafIndices: [],
      leaves: [],
      merkleTrees: [],
    },
  }),
  getValidityProofV2: () => ({ context: { slot: 0 }, value: { compressedProof: null, accounts: [], addresses: [] } }),
  getQueueElements: () => ({ context }),
  getQueueInfo: () => ({ queues: [{ tree: key(20), queue: key(21), queueType: 5, queueSize: 0 }], slot: 7 }),
  getIndexerHealth: () => "ok",
  getAccountInterface: () => ({ context, value: null }),
  getMultipleAccountInterfaces: () => ({ context, value: [] }),
};

let server: Server;
let url: string;
let throttled = 0; // requests still to answer with 429
let requests = 0;

beforeAll(async () => {
  const listener = createListener(handlers);
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests++;
    if (throttled > 0) {
      throttled--;
      res.writeHead(429, { "content-type": "application/json", "retry-after": "0" });
      res.end(stringifyJson({ jsonrpc: "2.0", error: { code: -32005, message: "Exceeded rate limit." }, id: null }));
      return;
    }
    listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/?api-key=s3cr3t-key`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = () => createClient({ url, retry: { retries: 3, minDelayMs: 1, maxDelayMs: 50 } });

describe("every method round-trips", () => {
  it("getCompressedAccount by hash, and null for an unknown hash", async () => {
    const account = fixture("account").value;
    expect(await client().getCompressedAccount({ hash: account.hash })).toEqual(fixture("account"));
    expect((await client().getCompressedAccount({ hash: key(9) })).value).toBeNull();
  });

  it("getMultipleCompressedAccounts keeps null entries", async () => {
    const result = await client().getMultipleCompressedAccounts({ hashes: [key(1), key(2), key(1)] });
    expect(result.value.items[1]).toBeNull();
    expect(result).toEqual(fixture("multiple"));
  });

  it("owner lists keep u64 values above 2^53 exactly", async () => {
    const c = client();
    const owner = key(3);
    expect((await c.getCompressedTokenAccountsByOwner({ owner })).value.items[1]!.tokenData.amount).toBe(18446744073709551615n);
    const accounts = await c.getCompressedAccountsByOwner({ owner, filters: [], dataSlice: null });
    expect(accounts.value.items[0]!.data!.discriminator).toBe(216172782113783808n);
    expect(accounts.value.items[0]!.lamports).toBe(9007199254740993n);
    expect((await c.getCompressedTokenBalancesByOwner({ owner })).value.token_balances).toEqual(fixture("balances").value.token_balances);
  });

  it("getIndexerSlot returns u64::MAX as bigint", async () => {
    expect(await client().getIndexerSlot()).toBe(slot);
  });

  it("posts to /<method> when asked, keeping the query string", async () => {
    const c = createClient({ url, methodPath: true });
    expect(await c.getIndexerSlot()).toBe(slot);
  });
});

describe("0.51.2 methods", () => {
  it("getCompressedBalance (x-aliases) is answered by getCompressedAccountBalance's handler, with its validators", async () => {
    balanceCalls = [];
    const c = createClient({ url });
    const hash = key(8);
    expect(await c.getCompressedAccountBalance({ hash })).toEqual({ context, value: 2n ** 64n - 2n });
    // The alias has no client member (nor a method-table entry): post it as stateless.js does.
    const post = async (params: unknown) => {
      const body = stringifyJson({ jsonrpc: "2.0", id: "test-account", method: "getCompressedBalance", params });
      const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
      return parseJson(await res.text()) as { result?: unknown; error?: { code: number } };
    };
    expect((await post({ hash })).result).toEqual({ context, value: 2n ** 64n - 2n });
    expect(balanceCalls).toEqual([
      { method: "getCompressedAccountBalance", hash },
      { method: "getCompressedBalance", hash },
    ]);
    // The canonical method's params validator runs for the alias too: an unknown key is -32602.
    expect((await post({ hash, extra: 1 })).error).toMatchObject({ code: -32602 });
    expect(balanceCalls).toHaveLength(2);
  });

  it("results without context (getQueueInfo, getTransactionWithCompressionInfo, getIndexerHealth) round-trip", async () => {
    const c = client();
    expect((await c.getQueueInfo({ trees: null })).queues[0]!.queueType).toBe(5);
    expect(await c.getIndexerHealth()).toBe("ok");
    expect((await c.getTransactionWithCompressionInfo({ signature: signatures[0]!.signature })).compressionInfo.openedAccounts).toEqual([]);
  });

  it("a method the spec marks `x-registered: false` may be left out of Handlers: it then answers -32601 whatever the params", async () => {
    const { getAccountInterface: _one, getMultipleAccountInterfaces: _many, ...registered } = handlers;
    const listener = createListener(registered);
    const bare = createServer(listener);
    await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
    try {
      const at = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
      const post = async (method: string, params: unknown) => {
        const res = await fetch(at, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: stringifyJson({ jsonrpc: "2.0", id: 7, method, params }),
        });
        return res.text();
      };
      const unknown = await post("getNoSuchMethod", {});
      expect(parseJson(unknown)).toEqual({ jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: 7 });
      // Valid params, invalid params, a list: the same answer as an unknown method, byte for byte.
      for (const params of [{ address: key(1) }, { address: "not base58!" }, [1, 2]]) expect(await post("getAccountInterface", params)).toBe(unknown);
      expect(await post("getMultipleAccountInterfaces", { addresses: [] })).toBe(unknown);
      // A registered method is still served.
      expect(parseJson(await post("getIndexerHealth", undefined))).toMatchObject({ result: "ok" });
    } finally {
      await new Promise<void>((resolve) => bare.close(() => resolve()));
    }
  });

  it("a proof's u64 rootSeq above 2^53 stays exact", async () => {
    const hash = key(11);
    expect((await client().getCompressedAccountProof({ hash })).value.rootSeq).toBe(2n ** 60n);
  });
});

describe("errors", () => {
  it("throws RpcError with the server's code and message", async () => {
    const err = await client()
      .getCompressedAccount({})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect(err).toMatchObject({ code: -32000, message: "Validation Error: Either address or hash must be provided" });
  });

  it("server rejects invalid params with -32602 naming the pointer", async () => {
    const c = createClient({ url, validate: false });
    const err = await c.getCompressedTokenAccountsByOwner({ owner: key(3), limit: 1001 }).catch((e: unknown) => e);
    // serde's words, as Photon sends them; the pointer travels in data.issues (DECISIONS #79).
    expect(err).toMatchObject({ code: -32602, data: { issues: [{ pointer: "/limit" }] } });
    expect((err as RpcError).message).toContain("expected a value less than or equal to 1000");
  });

  it("client rejects invalid params before sending", async () => {
    const before = requests;
    const err = await client()
      .getCompressedTokenAccountsByOwner({ owner: "not base58!" } as Params<"getCompressedTokenAccountsByOwner">)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PhotonClientError);
    expect(err).toMatchObject({ code: ClientErrorCode.INVALID_PARAMS });
    expect(requests).toBe(before);
  });

  it("never shows the api key in an error", async () => {
    const err = (await client()
      .getCompressedAccount({})
      .catch((e: unknown) => e)) as Error;
    expect(String(err) + JSON.stringify(err)).not.toContain("s3cr3t-key");
  });
});

describe("retries", () => {
  it("retries 429 with Retry-After and succeeds", async () => {
    throttled = 2;
    const before = requests;
    expect(await client().getIndexerSlot()).toBe(slot);
    expect(requests - before).toBe(3);
  });

  it("gives up after its bound with the status", async () => {
    throttled = 10;
    const before = requests;
    const err = await createClient({ url, retry: { retries: 2, minDelayMs: 1, maxDelayMs: 10 } })
      .getIndexerSlot()
      .catch((e: unknown) => e);
    expect(requests - before).toBe(3);
    expect(err).toMatchObject({ code: -32005, status: 429 });
    throttled = 0;
  });
});

describe("cursor iteration", () => {
  it("walks every page to the end", async () => {
    const seen: Signature[] = [];
    for await (const item of client().iterateCompressionSignaturesForTokenOwner({ owner: key(4), limit: 7 })) seen.push(item);
    expect(seen).toEqual(signatures);
  });

  it("ends on a full last page followed by an empty one", async () => {
    const seen: Signature[] = [];
    for await (const item of client().iterateCompressionSignaturesForTokenOwner({ owner: key(4), limit: 5 })) seen.push(item);
    expect(seen).toHaveLength(25);
  });

  it("stops on a repeated cursor", async () => {
    stuckCursor = true;
    let pages = 0;
    try {
      const walk = async () => {
        for await (const _ of client().iterateCompressionSignaturesForTokenOwner({ owner: key(4), limit: 1 })) pages++;
      };
      await expect(walk()).rejects.toMatchObject({ code: ClientErrorCode.CURSOR_REPEATED });
    } finally {
      stuckCursor = false;
    }
    expect(pages).toBe(2); // the first page, then the page that repeated its cursor
  });
});
