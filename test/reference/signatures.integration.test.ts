/**
 * The signature methods against brute force over the dataset records: which transactions each
 * lists (SignatureRecord.opened/closed joined with the accounts' owners and addresses and the
 * token records' owners), in the documented order (slot desc, signature bytes desc), walked page
 * by page with limits 1, 7 and the default, with Photon's cursor rules and error texts.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListener, type Params, type Schemas } from "../../generated/index.js";
import { methods } from "../../generated/methods.js";
import { TOKEN_PROGRAM } from "../../reference/records.js";
import type { SignatureRecord } from "../../reference/records.js";
import { decodeBase58, encodeBase58, parseJson, stringifyJson } from "../../runtime/index.js";
import { bytes, call, callError, dataset, handlers, profile } from "./fixture.js";

type SignatureInfo = Schemas["SignatureInfo"];
type PagedMethod =
  | "getCompressionSignaturesForOwner"
  | "getCompressionSignaturesForAddress"
  | "getCompressionSignaturesForTokenOwner"
  | "getLatestCompressionSignatures";

// ---------------------------------------------------------------- oracle (brute force over the records)

const accountByHash = new Map(dataset.accounts.map((a) => [a.hash, a]));
const tokenByHash = new Map(dataset.tokens.map((t) => [t.hash, t]));
const signatureBytes = new Map(dataset.signatures.map((s) => [s.signature, bytes(s.signature)]));
const newestFirst = (a: SignatureRecord, b: SignatureRecord) =>
  b.slot - a.slot || Buffer.compare(signatureBytes.get(b.signature) as Buffer, signatureBytes.get(a.signature) as Buffer);
const info = (s: SignatureRecord): SignatureInfo => ({ signature: s.signature, slot: s.slot, blockTime: s.blockTime });

/** Every transaction that opened or closed an account `touches` accepts, newest first, each once. */
function expected(touches: (hash: string) => boolean): SignatureInfo[] {
  return dataset.signatures
    .filter((s) => s.opened.some(touches) || s.closed.some(touches))
    .sort(newestFirst)
    .map(info);
}
const byOwner = (owner: string) => expected((h) => accountByHash.get(h)?.owner === owner);
const byAddress = (address: string) => expected((h) => accountByHash.get(h)?.address === address);
const byTokenOwner = (owner: string) => expected((h) => tokenByHash.get(h)?.owner === owner);
/** Per account hash, the transactions naming it in `opened` or `closed` (one pass over the records), newest first. */
const touching = new Map<string, SignatureRecord[]>();
for (const s of dataset.signatures) for (const h of new Set([...s.opened, ...s.closed])) touching.set(h, [...(touching.get(h) ?? []), s]);
const byAccount = (hash: string) => [...(touching.get(hash) ?? [])].sort(newestFirst).map(info);
const latest = expected(() => true);

// ---------------------------------------------------------------- walking

const defaultLimit = (method: PagedMethod) => methods[method].pagination?.defaultLimit as number;

/** The 72-byte cursor of an item: slot u64 LE ‖ signature. */
function cursorOf(item: SignatureInfo): string {
  const slot = Buffer.alloc(8);
  slot.writeBigUInt64LE(BigInt(item.slot));
  return encodeBase58(Buffer.concat([slot, bytes(item.signature)]));
}

/** Every item of a list, page by page with `limit` (the default when absent), checking each page's size and cursor. */
function walk<M extends PagedMethod>(method: M, params: Params<M>, limit?: number): { items: SignatureInfo[]; pages: number } {
  const size = limit ?? defaultLimit(method);
  const items: SignatureInfo[] = [];
  let cursor: string | null = null;
  for (let pages = 1; pages <= 100_000; pages++) {
    const p = { ...params, ...(limit === undefined ? {} : { limit }), ...(cursor === null ? {} : { cursor }) } as Params<M>;
    const value = call(method, p).value as { items: SignatureInfo[]; cursor: string | null };
    expect(value.items.length).toBeLessThanOrEqual(size);
    // Photon's last-page rule: a cursor exactly when the page is full, naming its last item.
    expect(value.cursor === null).toBe(value.items.length < size);
    if (value.cursor !== null) expect(value.cursor).toBe(cursorOf(value.items[value.items.length - 1] as SignatureInfo));
    items.push(...value.items);
    cursor = value.cursor;
    if (cursor === null) return { items, pages };
  }
  throw new Error(`${method} did not end`);
}

/** Walks with limits 1, 7 and the default and expects `want` each time. */
function expectWalks<M extends PagedMethod>(method: M, params: Params<M>, want: SignatureInfo[]): void {
  for (const limit of [1, 7, undefined]) {
    const { items, pages } = walk(method, params, limit);
    expect(items, `${method} limit ${limit ?? "default"}`).toEqual(want);
    const size = limit ?? defaultLimit(method);
    expect(pages).toBe(Math.floor(want.length / size) + 1);
  }
}

// ---------------------------------------------------------------- tests

describe("the oracle's roles", () => {
  it("cover more than a page, same-slot ties, an address with history and unknown keys", () => {
    expect(byOwner(profile.ownerWithManyAccounts.owner)).toHaveLength(profile.ownerWithManyAccounts.signatures);
    expect(profile.ownerWithManyAccounts.signatures).toBeGreaterThan(1000);
    expect(latest).toHaveLength(dataset.signatures.length);
    // Some slot holds several transactions, so the signature tie-break decides their order.
    expect(latest.some((s, i) => i > 0 && latest[i - 1]?.slot === s.slot)).toBe(true);
    expect(byAddress(profile.addressWithHistory.address).map((s) => s.signature)).toEqual([...profile.addressWithHistory.signatures].reverse());
  });
});

describe("getCompressionSignaturesForOwner", () => {
  it("lists the full history of a program owner's accounts (spent ones too), newest first, over pages of 1, 7 and 1000", () => {
    const { owner } = profile.ownerWithManyAccounts;
    const want = byOwner(owner);
    expectWalks("getCompressionSignaturesForOwner", { owner }, want);
    // Spent accounts count: some listed transaction only closed (or opened) an account spent since.
    const spentOnly = dataset.accounts.filter((a) => a.owner === owner && a.spent).map((a) => a.hash);
    expect(spentOnly.length).toBeGreaterThan(0);
    const listed = new Set(want.map((s) => s.signature));
    for (const hash of spentOnly.slice(0, 20)) for (const s of byAccount(hash)) expect(listed.has(s.signature)).toBe(true);
  });

  it("counts token accounts for the token program (their account owner), and batched-tree accounts like any other", () => {
    expectWalks("getCompressionSignaturesForOwner", { owner: TOKEN_PROGRAM }, byOwner(TOKEN_PROGRAM));
    const batched = profile.ownerWithBatchedAccounts.owner;
    expectWalks("getCompressionSignaturesForOwner", { owner: batched }, byOwner(batched));
    expect(byOwner(batched).length).toBeGreaterThanOrEqual(profile.ownerWithBatchedAccounts.unspent);
  });

  it("answers an empty page with a null cursor for an owner of nothing, and for limit 0", () => {
    expect(call("getCompressionSignaturesForOwner", { owner: profile.ownerWithNoAccounts }).value).toEqual({ items: [], cursor: null });
    expect(call("getCompressionSignaturesForOwner", { owner: profile.ownerWithManyAccounts.owner, limit: 0 }).value).toEqual({ items: [], cursor: null });
  });
});

describe("getCompressionSignaturesForAddress", () => {
  it("lists the transactions of every version of an address, newest first", () => {
    const { address, signatures } = profile.addressWithHistory;
    expectWalks("getCompressionSignaturesForAddress", { address }, byAddress(address));
    expect(walk("getCompressionSignaturesForAddress", { address }).items.map((s) => s.signature)).toEqual([...signatures].reverse());
  });

  it("finds the history of an address no unspent account holds any more, and nothing for an unknown address", () => {
    const spent = byAddress(profile.spentAddress);
    expect(spent.length).toBeGreaterThan(0);
    expectWalks("getCompressionSignaturesForAddress", { address: profile.spentAddress }, spent);
    expectWalks("getCompressionSignaturesForAddress", { address: profile.updatedAddress.address }, byAddress(profile.updatedAddress.address));
    expect(call("getCompressionSignaturesForAddress", { address: profile.unknownAddress }).value).toEqual({ items: [], cursor: null });
  });

  it("keeps a cursor on a full last page; the next call is empty with a null cursor", () => {
    const { address } = profile.addressWithHistory;
    const want = byAddress(address);
    const full = call("getCompressionSignaturesForAddress", { address, limit: want.length }).value;
    expect(full.items).toEqual(want);
    expect(full.cursor).toBe(cursorOf(want[want.length - 1] as SignatureInfo));
    expect(call("getCompressionSignaturesForAddress", { address, limit: want.length, cursor: full.cursor }).value).toEqual({ items: [], cursor: null });
  });
});

describe("getCompressionSignaturesForTokenOwner", () => {
  it("lists the histories of token owners through the store's order-taking query", () => {
    for (const owner of [profile.tokenOwnerWith1001TokenAccounts.owner, profile.tokenOwnerWithOneAccount.owner, profile.ownerWithZeroBalance.owner]) {
      expectWalks("getCompressionSignaturesForTokenOwner", { owner }, byTokenOwner(owner));
    }
    expect(byTokenOwner(profile.tokenOwnerWith1001TokenAccounts.owner)).toHaveLength(profile.tokenOwnerWith1001TokenAccounts.signatures);
  });
});

describe("getLatestCompressionSignatures", () => {
  it("lists every transaction of the index, newest first, over pages of 1, 7 and 1000", () => {
    expectWalks("getLatestCompressionSignatures", {}, latest);
  });

  it("reads a cursor as a position: a slot with signature bytes 0xff… starts at that slot's first transaction", () => {
    const k = latest.findIndex((s, i) => i > 0 && latest[i - 1]?.slot === s.slot) - 1;
    const first = latest[k] as SignatureInfo;
    expect(latest.findIndex((s) => s.slot === first.slot)).toBe(k);
    const slot = Buffer.alloc(8);
    slot.writeBigUInt64LE(BigInt(first.slot));
    const cursor = encodeBase58(Buffer.concat([slot, Buffer.alloc(64, 0xff)]));
    expect(call("getLatestCompressionSignatures", { cursor, limit: 5 }).value.items).toEqual(latest.slice(k, k + 5));
    // A real item's cursor, used on another list, continues that list after the same position.
    const { owner } = profile.ownerWithManyAccounts;
    const mine = byOwner(owner);
    const middle = mine[500] as SignatureInfo;
    const after = call("getCompressionSignaturesForOwner", { owner, cursor: cursorOf(middle), limit: 3 }).value.items;
    expect(after).toEqual(mine.slice(501, 504));
  });
});

describe("getCompressionSignaturesForAccount", () => {
  it("lists the transaction that opened an account and the one that closed it, newest first", () => {
    const { hash, openedBy, closedBy } = profile.closedAccount;
    const items = call("getCompressionSignaturesForAccount", { hash }).value.items;
    expect(items.map((s) => s.signature).sort()).toEqual([openedBy, closedBy].sort());
    expect(items).toEqual(byAccount(hash));
    expect(Object.keys(call("getCompressionSignaturesForAccount", { hash }).value)).toEqual(["items"]);
  });

  it("agrees with the records for every account: one transaction while unspent, two once spent", () => {
    for (const a of dataset.accounts) {
      const items = call("getCompressionSignaturesForAccount", { hash: a.hash }).value.items;
      expect(items).toEqual(byAccount(a.hash));
      expect(items).toHaveLength(a.spent ? 2 : 1);
    }
  });

  it("answers an unknown hash with Photon's Record Not Found", () => {
    const err = callError("getCompressionSignaturesForAccount", { hash: profile.unknownHash });
    expect([err.code, err.message]).toEqual([-32000, "Record Not Found: Account not found"]);
  });
});

describe("getLatestNonVotingSignatures", () => {
  const withError = (s: SignatureInfo) => ({ ...s, error: null });

  it("lists the first page with each transaction's error (null) and no cursor", () => {
    const value = call("getLatestNonVotingSignatures", {}).value;
    expect(Object.keys(value)).toEqual(["items"]);
    expect(value.items).toEqual(latest.slice(0, 1000).map(withError));
  });

  it("still applies the request's limit and cursor: a client pages by building cursors from the last item", () => {
    expect(call("getLatestNonVotingSignatures", { limit: 0 }).value.items).toEqual([]);
    expect(call("getLatestNonVotingSignatures", { limit: 7 }).value.items).toEqual(latest.slice(0, 7).map(withError));
    const seen: unknown[] = [];
    let cursor: string | null = null;
    for (;;) {
      const items = call("getLatestNonVotingSignatures", { limit: 1000, ...(cursor === null ? {} : { cursor }) }).value.items;
      seen.push(...items);
      if (items.length < 1000) break;
      cursor = cursorOf(items[items.length - 1] as SignatureInfo);
    }
    expect(seen).toEqual(latest.map(withError));
  });
});

describe("malformed cursors", () => {
  const cases: [string, string][] = [
    ["0OIl", "Validation Error: Invalid cursor 0OIl"],
    ["", "Validation Error: Invalid cursor length. Expected 72. Received 0."],
    [encodeBase58(new Uint8Array(64).fill(1)), "Validation Error: Invalid cursor length. Expected 72. Received 64."],
    [encodeBase58(new Uint8Array(73).fill(1)), "Validation Error: Invalid cursor length. Expected 72. Received 73."],
    // 72 leading '1's are 72 zero bytes: one more character is more than 72 bytes.
    [`${"1".repeat(72)}2`, "Validation Error: Invalid cursor length. Expected 72. Received 73."],
    // Longer than any encoding of 72 bytes: refused by its length without decoding (DECISIONS row 41) ...
    ["z".repeat(5000), "Validation Error: Invalid cursor length. Expected 72. Received more than 72."],
    // ... unless a character is not base58, which Photon's decoder reports first.
    [`${"z".repeat(200)}0`, `Validation Error: Invalid cursor ${"z".repeat(200)}0`],
  ];

  it("gives Photon's -32000 errors in every method that takes a signature cursor", () => {
    const { owner } = profile.ownerWithManyAccounts;
    const { address } = profile.addressWithHistory;
    for (const [cursor, message] of cases) {
      const errors = [
        callError("getCompressionSignaturesForOwner", { owner, cursor }),
        callError("getCompressionSignaturesForAddress", { address, cursor }),
        callError("getCompressionSignaturesForTokenOwner", { owner: profile.tokenOwnerWithOneAccount.owner, cursor }),
        callError("getLatestCompressionSignatures", { cursor }),
        callError("getLatestNonVotingSignatures", { cursor }),
      ];
      for (const err of errors) expect([err.code, err.message], cursor.slice(0, 20)).toEqual([-32000, message]);
    }
  });

  it("accepts every well-formed cursor, even of no listed item (u64::MAX slot: all; slot 0: none)", () => {
    const max = encodeBase58(Buffer.alloc(72, 0xff));
    expect(call("getLatestCompressionSignatures", { cursor: max, limit: 3 }).value.items).toEqual(latest.slice(0, 3));
    expect(call("getLatestCompressionSignatures", { cursor: encodeBase58(new Uint8Array(72)) }).value).toEqual({ items: [], cursor: null });
    const cursor = call("getLatestCompressionSignatures", { limit: 1 }).value.cursor as string;
    expect(Buffer.from(decodeBase58(cursor) as Uint8Array)).toHaveLength(72);
  });
});

describe("over HTTP", () => {
  let server: Server;
  let url: string;
  const errors: unknown[] = [];
  beforeAll(async () => {
    server = createServer(createListener(handlers, { validateResults: true, onError: (err) => errors.push(err) }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(errors).toEqual([]);
  });
  const rpc = async (method: string, params: unknown) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stringifyJson({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return parseJson(await res.text()) as { result?: any; error?: { code: number; message: string } };
  };

  it("pages an owner's history with the returned cursors and answers errors as Photon does", async () => {
    const { owner } = profile.ownerWithManyAccounts;
    const first = await rpc("getCompressionSignaturesForOwner", { owner, limit: 2 });
    const second = await rpc("getCompressionSignaturesForOwner", { owner, limit: 2, cursor: first.result.value.cursor });
    expect([...first.result.value.items, ...second.result.value.items]).toEqual(byOwner(owner).slice(0, 4));
    expect((await rpc("getCompressionSignaturesForAccount", { hash: profile.unknownHash })).error).toEqual({
      code: -32000,
      message: "Record Not Found: Account not found",
    });
    expect((await rpc("getLatestCompressionSignatures", { cursor: "0OIl" })).error).toEqual({ code: -32000, message: "Validation Error: Invalid cursor 0OIl" });
    expect((await rpc("getLatestCompressionSignatures", { limit: 1001 })).error?.code).toBe(-32602);
    expect((await rpc("getLatestNonVotingSignatures", { limit: 1 })).result.value).toEqual({ items: [{ ...latest[0], error: null }] });
  });
});
