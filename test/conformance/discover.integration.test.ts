/** --discover: a fixtures profile derived from the target, enough to certify it knowing nothing of its data. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { methods } from "../../generated/methods.js";
import { main } from "../../conformance/cli/main.js";
import { discoverFixtures, MAX_CALLS } from "../../conformance/discover.js";
import { MAX_ACCOUNT_TRIES, SIGNATURE_CALLS, signatureMethods } from "../../conformance/discover/signatures.js";
import { discoverMerkleContext } from "../../conformance/discover/token-roles.js";
import type { Target } from "../../conformance/checks/check.js";
import { specMethods } from "../../conformance/spec-facts.js";
import { createTarget } from "../../conformance/target.js";
import { datasetProfile, generateDataset, TOKEN_PROGRAM } from "../../reference/index.js";
import { startReferenceIndexer } from "../../reference/serve.js";
import { captured } from "../helpers/capture.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";
import { expectedBalances } from "../reference/oracles.js";

const dir = useScratch("discover");
const indexer = useReferenceIndexer({ seed: 5 }); // data the shipped profile does not describe
const data = generateDataset({ seed: 5 });
const profile = datasetProfile(data);

const run = (...args: string[]) => captured(main, args);

const target = () => createTarget({ url: indexer().url, headers: {}, timeoutMs: 5000, maxBodyBytes: 1 << 24, maxRps: null, retry: false });
/** Discovery against targets that never move: no watch (discover/moving.integration.test.ts tests it). */
const discover = (t: Target, seedOwner: string) => discoverFixtures(t, seedOwner, specMethods, { watchMs: 0 });

describe("discoverFixtures", () => {
  it("finds token owners and mints from the token program's accounts, checked against the target's own lists", async () => {
    const found = await discover(target(), TOKEN_PROGRAM);
    expect(found.tokenProgram).toBe(TOKEN_PROGRAM);
    const many = found.tokenOwnerWithManyMints as { owner: string; mints: number; mint: string };
    // `mints` counts balance rows, as the target lists them (Photon's zero-balance rule: no row for a mint held only at amount 0).
    expect(expectedBalances(data, many.owner)).toHaveLength(many.mints);
    expect(
      indexer()
        .store.tokenAccounts(many.owner, methods.getCompressedTokenAccountsByOwner.pagination?.order ?? [])
        .some((t) => t.token.mint === many.mint),
    ).toBe(true);
    expect(indexer().store.unspentByHash(found.knownHash as string)?.address).toBe(found.knownAddress);
    expect(indexer().store.unspentByHash(found.unknownHash as string)).toBeNull();
    expect(found.slot).toBe(indexer().store.slot);
  });

  it("finds memcmp prefixes with exact counts from a complete list", async () => {
    const found = await discover(target(), profile.memcmpOwner.owner);
    const memcmp = found.memcmpOwner as { matching: { count: number }; nonMatching: { count: number }; unspent: number };
    expect(memcmp.unspent).toBe(profile.memcmpOwner.unspent);
    expect(memcmp.matching.count).toBeGreaterThan(0);
    expect(memcmp.nonMatching.count).toBe(0);
  });
});

describe("discoverFixtures for the 0.51.2 methods", () => {
  it("finds the delegate, the mint with many holders and the delegate's second mint as the reference profile states them", async () => {
    const found = await discover(target(), TOKEN_PROGRAM);
    const { spent: _s, ...delegate } = profile.delegateWithManyAccounts;
    expect(found.delegateWithManyAccounts).toEqual(delegate);
    const { delegate: d, mint, unspent } = profile.delegatedMint;
    expect(found.delegatedMint).toEqual({ delegate: d, mint, unspent });
    // Every field written is the reference's; tiedHolders and supply are not checked by discovery, so not written.
    const { tiedHolders: _t, supply: _u, ...holders } = profile.mintWithManyHolders;
    expect(found.mintWithManyHolders).toEqual(holders);
    expect(found.mintWithManyHolders).not.toHaveProperty("supply");
  });

  it("reads knownHash's merkle context from the V2 lookup, checked against the V1 answer's tree", async () => {
    expect(await discoverMerkleContext(target(), specMethods, "hash", profile.knownHash)).toEqual(profile.merkleContexts.knownHash);
    // A batched-tree account's context is not written: the cases read merkleContexts.knownHash as a V1 state tree's.
    expect(await discoverMerkleContext(target(), specMethods, "hash", profile.ownerWithOneAccount.hash)).toBeUndefined();
  });

  /** The reference, its answers of `method` rewritten by `edit` (the parsed body, in place). */
  const hostile = (method: string, edit: (value: Record<string, unknown>) => void): Target & { calls: () => number } => {
    const inner = target();
    let calls = 0;
    return {
      display: inner.display,
      calls: () => calls,
      call: async (m, params, signal) => {
        calls++;
        const exchange = await inner.call(m, params, signal);
        const value = (exchange.body as { result?: { value?: Record<string, unknown> } } | undefined)?.result?.value;
        if (m === method && value) edit(value);
        return exchange;
      },
    };
  };

  it("a delegate field of the wrong type: no delegate keys, no crash", async () => {
    const t = hostile("getCompressedTokenAccountsByDelegate", (v) => {
      for (const item of v.items as { tokenData: Record<string, unknown> }[]) item.tokenData.delegate = 42;
    });
    const found = await discover(t, TOKEN_PROGRAM);
    expect(found).not.toHaveProperty("delegateWithManyAccounts");
    expect(found).not.toHaveProperty("delegatedMint");
    expect(found.tokenProgram).toBe(TOKEN_PROGRAM);
  });

  it("a holders cursor that never ends, and balances of the wrong type: no holders key, within the call bound", async () => {
    const looping = hostile("getCompressedMintTokenHolders", (v) => {
      v.cursor = "3t9dCZ5Y5EJt1wLgiTCmHo4HmhDTW1ixAZoeS6otfZEmDenNkjdsmY";
    });
    const found = await discover(looping, TOKEN_PROGRAM);
    expect(found).not.toHaveProperty("mintWithManyHolders");
    expect(found).not.toHaveProperty("delegatedMint");
    expect(looping.calls()).toBeLessThanOrEqual(MAX_CALLS);
    const badBalances = hostile("getCompressedMintTokenHolders", (v) => {
      for (const item of v.items as Record<string, unknown>[]) item.balance = "lots";
    });
    expect(await discover(badBalances, TOKEN_PROGRAM)).not.toHaveProperty("mintWithManyHolders");
  });

  it("a target whose every answer is a list that never ends stops at the call bound", async () => {
    let calls = 0;
    const endless: Target = {
      display: "endless",
      call: async (method, params) => {
        calls++;
        const items = Array.from({ length: 1000 }, (_, i) => ({ hash: String(i), address: String(i), data: { data: "AAAA" } }));
        return {
          request: { method, params },
          status: 200,
          headers: {},
          text: "",
          body: { result: { context: { slot: 1 }, value: { items, cursor: `c${calls}` } } },
          parseError: null,
          error: null,
        } as never;
      },
    };
    const found = await discover(endless, TOKEN_PROGRAM);
    expect(calls).toBeLessThanOrEqual(MAX_CALLS);
    expect(found).not.toHaveProperty("mintWithManyHolders");
    expect(found).not.toHaveProperty("merkleContexts");
  });
});

describe("discoverFixtures: signatures and transactions", () => {
  /** The dataset's one transaction that opened or closed `hash`. */
  const txOf = (hash: string, side: "opened" | "closed") => data.signatures.filter((s) => s[side].includes(hash)).map((s) => s.signature);

  it("finds a closed account and an opened token account whose transactions are the dataset's (valid alternatives to the profile's)", async () => {
    const found = await discover(target(), TOKEN_PROGRAM);
    const closed = found.closedAccount as { hash: string; openedBy: string; closedBy: string };
    // The reference profile's closedAccount is a program account of another owner; discovery from the token
    // program finds a spent token account with the same promise: opened by one transaction, closed by a later one.
    expect(data.accounts.find((a) => a.hash === closed.hash)?.spent).toBe(true);
    expect(txOf(closed.hash, "opened")).toEqual([closed.openedBy]);
    expect(txOf(closed.hash, "closed")).toEqual([closed.closedBy]);
    const opened = found.tokenAccountOpened as { hash: string; openedBy: string };
    const account = data.accounts.find((a) => a.hash === opened.hash);
    expect(account?.spent).toBe(false);
    expect(account?.owner).toBe(TOKEN_PROGRAM);
    expect(txOf(opened.hash, "opened")).toEqual([opened.openedBy]);
    expect(txOf(opened.hash, "closed")).toEqual([]);
  });

  it("picks the transaction method and its account lists by the table's `transactionAccounts` (x-transaction-accounts), not by a restated path", () => {
    const f = signatureMethods(specMethods, "hash");
    expect(f?.tx.transactionAccounts).toBeTruthy();
    expect(f?.accounts).toBe(f?.tx.transactionAccounts);
    expect(f?.tx.requiredParams).toEqual([f?.sigField]);
    // Without the fact no method qualifies: discovery of these keys is off rather than guessed.
    const stripped = Object.fromEntries(Object.entries(specMethods).map(([k, m]) => [k, { ...m, transactionAccounts: null }]));
    expect(signatureMethods(stripped, "hash")).toBeNull();
  });

  /** The reference, its answers of `method` rewritten by `edit` (the parsed result, in place), calls counted. */
  const rewriting = (method: string, edit: (result: Record<string, unknown>) => void) => {
    const inner = target();
    let calls = 0;
    const t: Target = {
      display: inner.display,
      call: async (m, params, signal) => {
        calls++;
        const exchange = await inner.call(m, params, signal);
        const result = (exchange.body as { result?: Record<string, unknown> } | undefined)?.result;
        if (m === method && result) edit(result);
        return exchange;
      },
    };
    return { t, calls: () => calls };
  };

  it("signatures of the wrong type, or a huge list: no closedAccount or tokenAccountOpened, no crash", async () => {
    const wrong = rewriting("getCompressionSignaturesForAccount", (r) => {
      for (const item of (r.value as { items: Record<string, unknown>[] }).items) item.signature = 42;
    });
    const found = await discover(wrong.t, TOKEN_PROGRAM);
    expect(found).not.toHaveProperty("closedAccount");
    expect(found).not.toHaveProperty("tokenAccountOpened");
    expect(found.tokenProgram).toBe(TOKEN_PROGRAM);
    const huge = rewriting("getCompressionSignaturesForAccount", (r) => {
      (r.value as { items: unknown[] }).items = Array.from({ length: 5000 }, () => ({ signature: "x" }));
    });
    expect(await discover(huge.t, TOKEN_PROGRAM)).not.toHaveProperty("closedAccount");
  });

  it("transactions whose account lists are not lists, or a signatures page whose cursor never ends: no keys, within the call bound", async () => {
    const broken = rewriting("getTransactionWithCompressionInfo", (r) => {
      (r.compressionInfo as Record<string, unknown>).closedAccounts = "all of them";
      (r.compressionInfo as Record<string, unknown>).openedAccounts = [{ account: { hash: 7 } }];
    });
    const found = await discover(broken.t, TOKEN_PROGRAM);
    expect(found).not.toHaveProperty("closedAccount");
    expect(found).not.toHaveProperty("tokenAccountOpened");
    const looping = rewriting("getCompressionSignaturesForOwner", (r) => {
      (r.value as Record<string, unknown>).cursor = "3t9dCZ5Y5EJt1wLgiTCmHo4HmhDTW1ixAZoeS6otfZEmDenNkjdsmY";
    });
    await discover(looping.t, TOKEN_PROGRAM);
    expect(looping.calls()).toBeLessThanOrEqual(MAX_CALLS);
    // Only the first page of a signature list is read: its cursor is never followed.
    expect(SIGNATURE_CALLS).toBe(2 + 6 + 4 * MAX_ACCOUNT_TRIES);
  });
});

describe("run --discover", () => {
  it("--max-time covers --discover: against a slow target the whole command ends by the deadline, its cases not run", async () => {
    const slow = await startReferenceIndexer({ port: 0, seed: 5, latencyMs: 300 }); // discovery alone: over 20 s
    try {
      const report = join(dir, "cut.json");
      const r = await run("run", "--url", slow.url, "--discover", "--seed-owner", TOKEN_PROGRAM, "--max-time", "2s", "--reporter", "json", "--output", report);
      expect(r.code).toBe(1);
      const json = JSON.parse(readFileSync(report, "utf8")) as { notes?: string[]; cases: { id: string; status: string; notRun?: string }[] };
      expect(json.notes).toContain("--discover was stopped by the command's deadline (--max-time): the fixtures profile holds what it had found by then");
      // No case ran (the run-wide slot-order case judges the others' answers: none).
      expect(json.cases.filter((c) => c.status === "pass" && !c.id.startsWith("run/"))).toEqual([]);
      // The deadline, not discovery's end, stopped the command: its cases say so.
      const notRun = json.cases.filter((c) => c.status === "notRun");
      expect(notRun.length).toBeGreaterThan(0);
      expect([...new Set(notRun.map((c) => c.notRun))]).toEqual(["the run's deadline of 2 s (--max-time) was reached"]);
    } finally {
      await slow.close();
    }
  }, 30_000);

  it("needs --seed-owner (usage error)", async () => {
    const r = await run("run", "--url", indexer().url, "--discover");
    expect(r.code).toBe(2);
    expect(r.out).toContain("--discover needs --seed-owner");
  });
});
