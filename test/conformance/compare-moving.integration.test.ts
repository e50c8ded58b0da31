/**
 * `diff` between moving targets: scripted fakes over the reference dataset, each answer (each
 * reply of a batch too) at a fresh slot of its own, one of them with its output queues appended
 * (`proveByIndex` false). Two correct indexers at different slots do not fail; a real difference
 * still does, at one slot or wherever the slot cannot explain it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { type DiffOptions, diffTargets } from "../../conformance/compare.js";
import { INCONCLUSIVE_ID } from "../../conformance/verdict.js";
import type { RunSummary } from "../../conformance/results.js";
import { datasetProfile, generateDataset } from "../../reference/index.js";
import { root } from "../helpers/paths.js";
import { startBroken, type BrokenServer } from "./support/broken-servers.js";

const dataset = generateDataset();
const fixtures = () => datasetProfile(dataset) as never;
const casesDir = join(root, "conformance", "cases");
const SLOT = 301002501; // the reference dataset's slot (conformance/fixtures/reference.json)

/** Every case but the proofs (their trees take long to build; the root judgement has its own tests in moving.integration.test.ts). */
const CASES = [
  "account*/**",
  "multiple*/**",
  "accounts-by-owner*/**",
  "token-*/**",
  "transactions/**",
  "batch/**",
  "slot/**",
  "signatures*/**",
  "latest-signatures/**",
  "non-voting-signatures/**",
  "balances/**",
  "holders/**",
  "queues/**",
  "health/**",
  "interfaces/**",
];

/** Applies `edit` to every V2 account object (`proveByIndex` beside `seq`) of a reply. */
function eachAccountV2(node: any, edit: (account: any) => void): void {
  if (Array.isArray(node)) for (const n of node) eachAccountV2(n, edit);
  else if (node && typeof node === "object") {
    if ("hash" in node && "seq" in node && "proveByIndex" in node) edit(node);
    for (const v of Object.values(node)) eachAccountV2(v, edit);
  }
}

/** The forester appended every output queue: each V2 account is in its tree. */
const appended = (a: any) => (a.proveByIndex = false);

/** A fake whose every reply is at `slot()` (context.slot, getIndexerSlot's and getQueueInfo's slot), each V2 account edited by `edit`. */
function moving(slot: () => number, edit: (account: any) => void = () => {}, reply: (b: any, i: number) => void = () => {}): Promise<BrokenServer> {
  return startBroken(dataset, {
    wire: (body: any) => {
      (Array.isArray(body) ? body : [body]).forEach((b, i) => {
        if (b?.result?.context) b.result.context.slot = slot();
        else if (typeof b?.result === "number" || typeof b?.result === "bigint") b.result = slot();
        else if (b?.result && typeof b.result === "object" && "slot" in b.result && "queues" in b.result) b.result.slot = slot();
        if (b?.result) eachAccountV2(b.result, edit);
        reply(b, i);
      });
      return body;
    },
  });
}

/** diff of `url` against `against` over the cases of `caseGlobs`. */
const diff = (url: string, against: string, caseGlobs: string[], more: Partial<DiffOptions> = {}) =>
  diffTargets({ url, against, casesDir, fixtures: fixtures(), caseGlobs, ...more });

const failures = (s: RunSummary) =>
  s.results.filter((r) => r.status === "fail").map((r) => `${r.id}: ${r.findings.filter((f) => f.status === "fail").map((f) => f.message)[0]}`);

describe("diff between two moving indexers", () => {
  // Each side moves on at every reply; the one that appended its queues is always ahead (a chain appends once, for good).
  let ahead = SLOT + 1_000_000;
  let behind = SLOT + 100;
  const servers: Record<string, BrokenServer> = {};
  beforeAll(async () => {
    servers.ahead = await moving(() => ++ahead, appended);
    servers.behind = await moving(() => ++behind);
    servers.wrongLeaf = await moving(
      () => ++ahead,
      (a) => (a.leafIndex = Number(a.leafIndex) + 1),
    );
    servers.sameSlot = await moving(() => SLOT, appended);
    servers.frozen = await startBroken(dataset, {});
  });
  afterAll(async () => {
    for (const s of Object.values(servers)) await s.close();
  });

  it("does not fail two correct indexers at different slots, one with its output queues appended", async () => {
    const summary = await diff(servers.ahead!.url, servers.behind!.url, CASES, { timeoutMs: 60_000 });
    expect(failures(summary)).toEqual([]);
    expect(summary.passed).toBe(true); // the inconclusive cases stay within the default budget (10%)
    const inconclusive = summary.results.filter((r) => r.findings.some((f) => f.message.startsWith("inconclusive:")));
    // The appended accounts make cases inconclusive, never failed: a lookup, a list, a transaction (no slot of its own), a batch.
    const ids = inconclusive.map((r) => r.id);
    expect(ids).toContain("account-v2/output-queue");
    expect(ids.some((id) => id.startsWith("transactions/"))).toBe(true);
    const lookup = inconclusive.find((r) => r.id === "account-v2/output-queue")!;
    expect(lookup.status).toBe("warn");
    expect(lookup.findings.map((f) => f.message)).toContain("answers differ at result.value.proveByIndex (may move with the chain)");
    // Batches: each reply judged at its own slot, getIndexerSlot's answer ignored in any reply.
    for (const id of ["batch/mixed", "batch/repeated-keys-and-bare-notifications", "batch/lookups"])
      expect(summary.results.find((r) => r.id === id)?.status, id).toBe("pass");
    const tally = summary.results.find((r) => r.id === INCONCLUSIVE_ID)!;
    expect(tally.status).toBe("warn");
    expect(tally.findings[0]!.message).toMatch(
      new RegExp(`^${inconclusive.length} required cases? inconclusive .*--max-inconclusive 10% of \\d+ required cases compared`),
    );
  }, 180_000);

  it("fails a difference at one slot, and one the slot cannot explain (the same hash with another leaf index)", async () => {
    const same = await diff(servers.sameSlot!.url, servers.frozen!.url, ["account-v2/output-queue", "multiple-v2/*"]);
    const lookup = same.results.find((r) => r.id === "account-v2/output-queue")!;
    expect(lookup.status).toBe("fail");
    expect(lookup.findings.map((f) => f.message)).toContain("answers differ at result.value.proveByIndex");
    expect(same.passed).toBe(false);

    const wrong = await diff(servers.wrongLeaf!.url, servers.behind!.url, ["account-v2/*", "accounts-by-owner-v2/*", "transactions/v2-*"], {
      maxInconclusive: 1000,
    });
    const failed = wrong.results.filter((r) => r.status === "fail");
    expect(failed.map((r) => r.id)).toEqual(expect.arrayContaining(["account-v2/output-queue", "accounts-by-owner-v2/one-account-output-queue"]));
    // The account found moves with the chain, but the same hash fixes its content, in a lookup as in a list.
    for (const id of ["account-v2/output-queue", "accounts-by-owner-v2/one-account-output-queue"])
      expect(
        failed.find((r) => r.id === id)!.findings.some((f) => f.status === "fail" && /^the same hash \S+ differs at leafIndex/.test(f.message)),
        id,
      ).toBe(true);
    expect(wrong.passed).toBe(false);
  }, 120_000);
});

describe("diff reads each batch reply's own slot", () => {
  const servers: Record<string, BrokenServer> = {};
  beforeAll(async () => {
    // Reply 0 at SLOT + 5, the others at SLOT; the last reply's balances moved (emptied).
    const perReply = (edit: (b: any, i: number) => void) =>
      startBroken(dataset, {
        wire: (body: any) => {
          if (Array.isArray(body))
            body.forEach((b, i) => {
              if (b?.result?.context) b.result.context.slot = i === 0 ? SLOT + 5 : SLOT;
              edit(b, i);
            });
          return body;
        },
      });
    servers.moved = await perReply((b, i) => i === 3 && Array.isArray(b?.result?.value?.token_balances) && (b.result.value.token_balances = []));
    servers.wrongAtSameSlot = await perReply((b, i) => i === 0 && b?.result && (b.result.value = null));
    // The trusted side answered every reply at SLOT + 5.
    servers.trusted = await startBroken(dataset, {
      wire: (body: any) => {
        for (const b of Array.isArray(body) ? body : [body]) if (b?.result?.context) b.result.context.slot = SLOT + 5;
        return body;
      },
    });
  });
  afterAll(async () => {
    for (const s of Object.values(servers)) await s.close();
  });

  it("calls a reply read at another slot inconclusive even when another reply of the batch shares the trusted side's slot", async () => {
    const summary = await diff(servers.moved!.url, servers.trusted!.url, ["batch/lookups"]);
    const r = summary.results.find((x) => x.id === "batch/lookups")!;
    expect(r.status).toBe("warn");
    expect(r.findings[0]!.message).toMatch(
      /^inconclusive: the answers differ only where the chain moves, and the slots differed twice \(reply 3: 301002501 under test vs 301002506 trusted/,
    );
    expect(r.findings.filter((f) => f.status === "fail")).toEqual([]);
  }, 60_000);

  it("fails a reply that differs at the slot both sides state, whatever the other replies' slots", async () => {
    const summary = await diff(servers.wrongAtSameSlot!.url, servers.trusted!.url, ["batch/lookups"], { maxInconclusive: 1000 });
    const r = summary.results.find((x) => x.id === "batch/lookups")!;
    expect(r.status).toBe("fail");
    expect(r.findings[0]!.message).toBe("answers differ at 0.result.value");
  }, 60_000);
});
