/**
 * --discover on a moving target: it states only what stays true while the chain moves, and sets
 * the rest aside under `mayMove`, so the cases needing an exact value are skipped, naming it.
 * Scripted fakes (in-process targets whose lists move under the test's control), then the live
 * reference (one slot every 20 ms).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeBase58, type Json } from "@photon-indexer-kit/runtime";
import { parseOrSkip, type Fixtures } from "../../../conformance/case-format.js";
import type { Target } from "../../../conformance/checks/check.js";
import { discoverFixtures } from "../../../conformance/discover.js";
import { activeActors, actorsOf } from "../../../conformance/discover/moving.js";
import { casesDir } from "../../../conformance/fixtures.js";
import type { Exchange } from "../../../conformance/results.js";
import { runSuite } from "../../../conformance/run.js";
import { specMethods } from "../../../conformance/spec-facts.js";
import { createTarget } from "../../../conformance/target.js";
import { type ReferenceIndexer, startReferenceIndexer } from "../../../reference/serve.js";

const key = (n: number) => encodeBase58(Buffer.alloc(32, n));
const OWNER = key(7);

interface Account {
  hash: string;
  address: string;
  owner: string;
  data: { discriminator: number; data: string; dataHash: string };
}

let made = 0;
/** A program account of OWNER with an address and 4 bytes of data (01 02 03 04). */
const account = (): Account => {
  made++;
  return { hash: key(100 + made), address: key(200 + made), owner: OWNER, data: { discriminator: 1, data: "AQIDBA==", dataHash: key(50) } };
};

/**
 * A scripted chain: its slot and OWNER's accounts, answered as a JSON-RPC indexer would (the slot
 * method, OWNER's list in one page, OWNER's newest transaction at slot `newest` when set,
 * "method not found" for the rest). `before` runs before each
 * answer: the test moves the chain there.
 */
function chain(accounts: Account[], before: (method: string, chain: { slot: number; accounts: Account[]; newest: number | null }) => void = () => {}) {
  const state = { slot: 100, accounts, newest: null as number | null };
  const answer = (result: Json | undefined): Exchange =>
    ({
      status: 200,
      headers: {},
      text: "",
      body: result === undefined ? { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } } : { jsonrpc: "2.0", id: 1, result },
      parseError: null,
      error: null,
    }) as unknown as Exchange;
  const target: Target = {
    display: "scripted",
    call: async (method, params) => {
      before(method, state);
      if (method === "getIndexerSlot") return answer(state.slot);
      const owner = (params as { owner?: string } | undefined)?.owner;
      if (method === "getCompressedAccountsByOwner" && owner === OWNER)
        return answer({ context: { slot: state.slot }, value: { items: state.accounts as unknown as Json, cursor: null } });
      if (method === "getCompressionSignaturesForOwner" && owner === OWNER && state.newest !== null)
        return answer({ context: { slot: state.slot }, value: { items: [{ signature: "1".repeat(64), slot: state.newest, blockTime: 0 }], cursor: null } });
      return answer(undefined);
    },
  };
  return { target, state };
}

const discover = (target: Target) => discoverFixtures(target, OWNER, specMethods, { watchMs: 0 });
const memcmpCase = (file: string, fixtures: Fixtures) => {
  const path = join(casesDir, "accounts-by-owner", `${file}.yaml`);
  return parseOrSkip(`accounts-by-owner/${file}`, path, readFileSync(path, "utf8"), fixtures);
};

describe("discovery on a scripted chain", () => {
  it("a chain whose slot moves: no exact count is stated, each is set aside and the cases needing it skip, naming it", async () => {
    const { target } = chain([account(), account(), account()], (_, s) => void s.slot++);
    const found = await discover(target);
    const memcmp = found.memcmpOwner as Record<string, Json>;
    expect(memcmp.owner).toBe(OWNER);
    expect(memcmp).not.toHaveProperty("unspent");
    expect(memcmp.matching).not.toHaveProperty("count");
    expect(found).not.toHaveProperty("slot");
    const aside = found.mayMove as Record<string, Json>;
    expect(aside["memcmpOwner.unspent"]).toBe(3);
    expect(aside["memcmpOwner.matching.count"]).toBe(3);
    expect(aside.slot).toBe(101);
    const seen = found.watchedSlots as { fromSlot: number; toSlot: number };
    expect(seen.toSlot).toBeGreaterThan(seen.fromSlot);
    // The case needing the count is skipped with the reason; one needing only the owner's prefix runs.
    expect(memcmpCase("memcmp-owner-all", found).skip).toBe("needs fixture `memcmpOwner.unspent`, which may move on this target (the profile's mayMove)");
    expect(memcmpCase("memcmp-negative-offset", found).skip).toBeNull();
  });

  it("a list that grows while discovery watches it: the memcmp role, read over that whole list, is set aside whole", async () => {
    const { target } = chain([account(), account()], (method, s) => {
      s.slot++;
      if (method === "getCompressedAccountsByOwner") s.accounts.push(account());
    });
    const found = await discover(target);
    expect(found).not.toHaveProperty("memcmpOwner");
    expect((found.mayMove as Record<string, Json>).memcmpOwner).toMatchObject({ owner: OWNER, unspent: 3 });
    expect(memcmpCase("memcmp-negative-offset", found).skip).toBe("needs fixture `memcmpOwner.owner`, which may move on this target (the profile's mayMove)");
  });

  it("a role chosen for an exact count (one account) is set aside whole on a moving chain, the account itself still named", async () => {
    const one = account();
    const { target } = chain([one], (_, s) => void s.slot++);
    const only = (await discover(target)) as Record<string, Json>;
    expect(only).not.toHaveProperty("ownerWithOneAccount");
    expect((only.mayMove as Record<string, Json>).ownerWithOneAccount).toEqual({ owner: OWNER, unspent: 1, hash: one.hash });
    // Nobody acted on the owner's list during the watch: its account is named as known.
    expect(only.knownHash).toBe(one.hash);
  });

  it("an owner whose account was spent during the watch: none of its accounts is named as known", async () => {
    let reads = 0;
    const { target } = chain([account(), account(), account()], (method, s) => {
      s.slot++;
      if (method === "getCompressedAccountsByOwner" && ++reads === 2) s.accounts.pop();
    });
    const found = await discover(target);
    expect(found).not.toHaveProperty("knownHash");
    expect(found).not.toHaveProperty("knownAddress");
    expect((found.mayMove as Record<string, Json>).knownHash).toBeTypeOf("string");
  });

  it("an owner with a transaction in the last 150 slots: its accounts are not named as known; one quiet for longer: they are", async () => {
    const busy = chain([account(), account()], (_, s) => void s.slot++);
    busy.state.slot = 1000;
    busy.state.newest = 900;
    expect(await discover(busy.target)).not.toHaveProperty("knownHash");
    const quiet = chain([account(), account()], (_, s) => void s.slot++);
    quiet.state.slot = 1000;
    quiet.state.newest = 800;
    expect((await discover(quiet.target)).knownHash).toBe(quiet.state.accounts[0]!.hash);
  });

  it("a chain that stands still: every count is stated and nothing is set aside", async () => {
    const { target } = chain([account(), account(), account()]);
    const found = await discover(target);
    expect((found.memcmpOwner as Record<string, Json>).unspent).toBe(3);
    expect(found.slot).toBe(100);
    expect(found).not.toHaveProperty("mayMove");
    expect(found.watchedSlots).toEqual({ fromSlot: 100, toSlot: 100 });
    expect(found.knownHash).toBeTypeOf("string");
  });

  it("who can spend a token account is its token owner and its delegate; a list's change marks those of the accounts that came or went", () => {
    const tokenData = (owner: number, delegate: number | null) => {
      const bytes = Buffer.alloc(110);
      bytes.fill(1, 0, 32);
      bytes.fill(owner, 32, 64);
      if (delegate !== null) {
        bytes[72] = 1;
        bytes.fill(delegate, 73, 105);
      }
      return { hash: key(owner * 3 + (delegate ?? 0)), data: { data: bytes.toString("base64") } };
    };
    expect(actorsOf(tokenData(9, 10), true, "owner")).toEqual([key(9), key(10)]);
    expect(actorsOf({ owner: OWNER }, false, "owner")).toEqual([OWNER]);
    const kept = tokenData(11, null);
    const active = activeActors({ items: [kept, tokenData(12, 13)], complete: true }, { items: [kept, tokenData(14, null)], complete: true }, "hash", (i) =>
      actorsOf(i, true, "owner"),
    );
    expect([...active].sort()).toEqual([key(12), key(13), key(14)].sort());
  });
});

describe("run --discover against the live reference (one slot every 20 ms)", () => {
  let indexer: ReferenceIndexer;
  beforeAll(async () => {
    indexer = await startReferenceIndexer({ port: 0, live: { intervalMs: 20 } });
    await indexer.warmed;
  }, 120_000);
  afterAll(() => indexer?.close());
  const live = () => indexer.live as NonNullable<ReferenceIndexer["live"]>;

  it("a live owner's moving list: its memcmp role and its accounts are set aside, and their cases fail nothing", async () => {
    const owner = live().entities().owners[0]!;
    // The live owners start with no accounts: let the chain give them some first (100 slots).
    for (let waited = 0; live().slotsApplied < 100 && waited < 600; waited++) await new Promise((resolve) => setTimeout(resolve, 100));
    const target = createTarget({ url: indexer.url, headers: {}, timeoutMs: 10_000, maxBodyBytes: 1 << 26, maxRps: null, retry: false });
    const found = await discoverFixtures(target, owner);
    const aside = found.mayMove as Record<string, Json>;
    expect(found).not.toHaveProperty("memcmpOwner");
    expect(aside.memcmpOwner).toMatchObject({ owner });
    expect(found).not.toHaveProperty("slot");
    // The owner acts every few slots: its accounts may be spent while the suite runs.
    expect(found).not.toHaveProperty("knownHash");
    const summary = await runSuite({
      url: indexer.url,
      casesDir,
      fixtures: found,
      fixturesName: "discovered",
      caseGlobs: ["accounts-by-owner/memcmp-*", "account/*", "accounts-by-owner/one-account*"],
    });
    const failed = summary.results.filter((r) => r.status === "fail").map((r) => r.id);
    expect(failed).toEqual([]);
    const all = summary.results.find((r) => r.id === "accounts-by-owner/memcmp-owner-all");
    expect(all?.status).toBe("skip");
    expect(all?.findings[0]?.message).toBe("needs fixture `memcmpOwner.owner`, which may move on this target (the profile's mayMove)");
  }, 120_000);
});
