/**
 * Balance methods against the dataset records: getCompressedAccountBalance (and its alias
 * getCompressedBalance, over HTTP through the generated listener), getCompressedBalanceByOwner
 * (a u64 sum; above u64::MAX Photon fails) and getCompressedTokenAccountBalance (by hash, and
 * by the token account's own address: DECISIONS row 60).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListener, type Handlers, methodNames } from "../../generated/index.js";
import type { AccountRecord } from "../../reference/records.js";
import { TOKEN_PROGRAM, U64_MAX } from "../../reference/records.js";
import { parseJson, stringifyJson } from "../../runtime/index.js";
import { call, callError, dataset, handlers, profile } from "./fixture.js";

const byHash = new Map(dataset.accounts.map((a) => [a.hash, a]));
const tokenByHash = new Map(dataset.tokens.map((t) => [t.hash, t]));
const exact = (n: bigint): number | bigint => (n > BigInt(Number.MAX_SAFE_INTEGER) ? n : Number(n));

/** Oracle: the sum of an owner's unspent lamports. */
const lamportsOf = (owner: string) => dataset.accounts.filter((a) => !a.spent && a.owner === owner).reduce((sum, a) => sum + BigInt(a.lamports), 0n);

describe("getCompressedAccountBalance", () => {
  it("answers the lamports of the unspent account named by hash or address (address wins), 0 otherwise", () => {
    const known = byHash.get(profile.knownHash) as AccountRecord;
    expect(call("getCompressedAccountBalance", { hash: profile.knownHash }).value).toBe(known.lamports);
    expect(call("getCompressedAccountBalance", { address: profile.knownAddress }).value).toBe(known.lamports);
    expect(call("getCompressedAccountBalance", { address: profile.knownAddress, hash: profile.unknownHash }).value).toBe(known.lamports);
    expect(call("getCompressedAccountBalance", { address: profile.unknownAddress, hash: profile.knownHash }).value).toBe(0);
    const updated = byHash.get(profile.updatedAddress.hash) as AccountRecord;
    expect(call("getCompressedAccountBalance", { address: profile.updatedAddress.address }).value).toBe(updated.lamports);
    for (const params of [{ hash: profile.spentHash }, { hash: profile.unknownHash }, { address: profile.spentAddress }])
      expect(call("getCompressedAccountBalance", params).value).toBe(0);
    expect(byHash.get(profile.spentHash)?.lamports).not.toBe(0);
    expect(call("getCompressedAccountBalance", { hash: profile.accountWithBigLamports.hash }).value).toBe(U64_MAX);
  });

  it("answers every unspent batched account, in or out of the output queue", () => {
    const batched = profile.ownerWithBatchedAccounts;
    for (const hash of [...batched.inTree, ...batched.inOutputQueue])
      expect(call("getCompressedAccountBalance", { hash }).value).toBe(byHash.get(hash)?.lamports);
    for (const hash of [...batched.inInputQueue, ...batched.nullified]) expect(call("getCompressedAccountBalance", { hash }).value).toBe(0);
  });

  it("rejects a lookup with neither key", () => {
    const err = callError("getCompressedAccountBalance", {});
    expect([err.code, err.message]).toEqual([-32000, "Validation Error: Either address or hash must be provided"]);
  });
});

describe("getCompressedBalanceByOwner", () => {
  it("sums each owner's unspent lamports exactly, 0 without accounts", () => {
    const owners = [
      profile.ownerWithBigBalance.owner,
      profile.ownerWith1000.owner,
      profile.ownerWith1001.owner,
      profile.ownerWithOneAccount.owner,
      profile.ownerWithBatchedAccounts.owner,
      profile.memcmpOwner.owner,
      TOKEN_PROGRAM,
    ];
    for (const owner of owners) expect(call("getCompressedBalanceByOwner", { owner }).value).toBe(exact(lamportsOf(owner)));
    const bigBalance = call("getCompressedBalanceByOwner", { owner: profile.ownerWithBigBalance.owner }).value;
    expect(bigBalance).toBe(profile.ownerWithBigBalance.balance);
    expect(BigInt(bigBalance)).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
    for (const owner of [profile.ownerWithOnlySpentAccounts.owner, profile.ownerWithNoAccounts, profile.tokenOwnerWithManyMints.owner])
      expect(call("getCompressedBalanceByOwner", { owner }).value).toBe(0);
  });

  it("answers -32000 Internal server error above u64::MAX, as Photon's parse of its owner_balances row fails", () => {
    const many = profile.ownerWithManyAccounts;
    expect(many.lamportsOverflow).toBe(true);
    expect(lamportsOf(many.owner)).toBeGreaterThan(U64_MAX);
    const err = callError("getCompressedBalanceByOwner", { owner: many.owner });
    expect([err.code, err.message]).toEqual([-32000, "Internal server error"]);
  });
});

describe("getCompressedTokenAccountBalance", () => {
  it("answers {amount} of the unspent token account by hash, 0 for spent, unknown and non-token accounts", () => {
    expect(call("getCompressedTokenAccountBalance", { hash: profile.tokenAccountWithMaxAmount }).value).toEqual({ amount: U64_MAX });
    const one = tokenByHash.get(profile.tokenOwnerWithOneAccount.hash);
    expect(call("getCompressedTokenAccountBalance", { hash: profile.tokenOwnerWithOneAccount.hash }).value).toEqual({ amount: one?.amount });
    const spent = dataset.tokens.find((t) => byHash.get(t.hash)?.spent && BigInt(t.amount) > 0n);
    expect(spent).toBeDefined();
    for (const hash of [spent?.hash as string, profile.unknownHash, profile.knownHash])
      expect(call("getCompressedTokenAccountBalance", { hash }).value).toEqual({ amount: 0 });
  });

  it("by address, answers the token account holding that address (the agreed lookup), not one of the token owner's (Photon's bug)", () => {
    const withAddress = dataset.tokens.filter((t) => {
      const a = byHash.get(t.hash);
      return a !== undefined && !a.spent && a.address !== null;
    });
    expect(withAddress.length).toBeGreaterThan(10);
    for (const t of withAddress) {
      const address = byHash.get(t.hash)?.address as string;
      expect(call("getCompressedTokenAccountBalance", { address }).value).toEqual({ amount: t.amount });
      expect(call("getCompressedTokenAccountBalance", { address, hash: profile.tokenAccountWithMaxAmount }).value).toEqual({ amount: t.amount });
    }
    // Photon would answer an unspent token account of this token owner; the agreed lookup finds no account at this address.
    const owner = profile.tokenOwnerWithOneAccount.owner;
    expect(dataset.tokens.some((t) => t.owner === owner && BigInt(t.amount) > 0n)).toBe(true);
    expect(call("getCompressedTokenAccountBalance", { address: owner }).value).toEqual({ amount: 0 });
    expect(call("getCompressedTokenAccountBalance", { address: profile.knownAddress }).value).toEqual({ amount: 0 });
  });

  it("rejects a lookup with neither key", () => {
    const err = callError("getCompressedTokenAccountBalance", { address: null, hash: null });
    expect([err.code, err.message]).toEqual([-32000, "Validation Error: Either address or hash must be provided"]);
  });
});

describe("balances over HTTP (results validated by the listener)", () => {
  let server: Server;
  let url: string;
  const errors: unknown[] = [];
  beforeAll(async () => {
    // Methods whose families have not landed yet get a stub (the listener needs a handler for each); these tests call none of them.
    const stub = () => {
      throw new Error("not served in this test");
    };
    const served = Object.fromEntries(methodNames.map((m) => [m, (handlers as unknown as Partial<Record<string, unknown>>)[m] ?? stub])) as unknown as Handlers;
    server = createServer(createListener(served, { validateResults: true, onError: (err) => errors.push(err) }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(errors).toEqual([]);
  });

  async function rpc(method: string, params: unknown): Promise<{ text: string; json: any }> {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stringifyJson({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const text = await res.text();
    return { text, json: parseJson(text) };
  }

  it("serves getCompressedBalance, the alias stateless.js sends, with getCompressedAccountBalance's answers", async () => {
    const cases = [
      { hash: profile.knownHash },
      { address: profile.knownAddress },
      { hash: profile.spentHash },
      { hash: profile.accountWithBigLamports.hash },
      { hash: profile.ownerWithBatchedAccounts.inOutputQueue[0] },
    ];
    for (const params of cases) {
      const alias = await rpc("getCompressedBalance", params);
      const method = await rpc("getCompressedAccountBalance", params);
      expect(alias.json).toEqual(method.json);
      expect(alias.json.result).toEqual(call("getCompressedAccountBalance", params));
    }
    const big = await rpc("getCompressedBalance", { hash: profile.accountWithBigLamports.hash });
    expect(big.text).toContain('"value":18446744073709551615');
    const neither = await rpc("getCompressedBalance", {});
    expect(neither.json.error).toEqual({ code: -32000, message: "Validation Error: Either address or hash must be provided" });
    // The alias takes its method's params validator: an unknown key is -32602.
    expect((await rpc("getCompressedBalance", { hash: profile.knownHash, extra: 1 })).json.error.code).toBe(-32602);
  });

  it("writes u64 sums above 2^53 exactly, and the overflow as Photon's error", async () => {
    const { text } = await rpc("getCompressedBalanceByOwner", { owner: profile.ownerWithBigBalance.owner });
    expect(text).toContain(`"value":${profile.ownerWithBigBalance.balance}`);
    const over = await rpc("getCompressedBalanceByOwner", { owner: profile.ownerWithManyAccounts.owner });
    expect(over.json.error).toEqual({ code: -32000, message: "Internal server error" });
    const max = await rpc("getCompressedTokenAccountBalance", { hash: profile.tokenAccountWithMaxAmount });
    expect(max.text).toContain('"value":{"amount":18446744073709551615}');
  });
});
