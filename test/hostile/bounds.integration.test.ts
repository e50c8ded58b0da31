/**
 * The runner's bounds: an endless walk stops at a documented bound naming it; a server answering
 * each page slowly, within --timeout, is cut by --case-time and --max-time, and sent nothing after.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { WALK_BOUNDS } from "../../conformance/checks/pagination.js";
import { useScratch } from "../helpers/scratch.js";
import { failures, rssSampler, runAgainst } from "./harness.js";
import { closeAll, idOf, respond, startRaw, using, type Behaviour } from "./servers.js";

const MiB = 1024 * 1024;
const dir = useScratch("hostile-bounds");
let reportNo = 0;
const report = () => join(dir, `b${++reportNo}.json`);

afterAll(async () => {
  await closeAll();
});

/** Paginated signature cases without a `limit` param: the server picks the page size. */
const WALK = "signatures/many-mints-walk";
const ONE = "signatures/one-account";

/**
 * Answers every request, whatever its method, with a page of `perPage` signatures of
 * `itemBytes` each, strictly in the documented order across pages, and a cursor never seen
 * before: a walk that never ends. Optionally after `delayMs`.
 */
function endlessPages(perPage: number, itemBytes: number, delayMs = 0): Behaviour {
  const pad = "a".repeat(itemBytes);
  let slot = 1_000_000_000;
  return (x) => {
    const items = Array.from({ length: perPage }, () => ({ signature: "1", slot: slot--, blockTime: 1, pad }));
    const body = JSON.stringify({ jsonrpc: "2.0", id: idOf(x.request.body), result: { context: { slot: 1 }, value: { items, cursor: `c${x.index}` } } });
    if (delayMs > 0) x.after(delayMs, () => respond(x.socket, 200, body));
    else respond(x.socket, 200, body);
  };
}

describe.sequential("a walk that never ends stops at a bound, naming it", () => {
  it(`big items: stopped at ${WALK_BOUNDS.bytes / MiB} MiB of pages, memory far below what they add up to`, async () => {
    await using(startRaw(endlessPages(8, MiB)), async (server) => {
      const rss = rssSampler();
      const r = await runAgainst(server.url, report(), { cases: [WALK] });
      const growth = rss.stop();
      expect(r.stderr).not.toContain("unexpected error");
      expect(r.code).toBe(1);
      expect(r.report).not.toBeNull();
      const c = r.report!.cases.find((x) => x.id === WALK)!;
      expect(c.status).toBe("fail");
      expect(
        failures(c).some((f) => /^pagination \| walking at the default page size: page \d+ passes the bound of 64 MiB of pages per walk/.test(f)),
        failures(c).join("\n"),
      ).toBe(true);
      // 8 MiB pages: the bound is passed on page 9, not after 5000 pages (40 GB).
      expect(server.requests.length).toBeLessThan(20);
      expect(growth).toBeLessThan(600 * MiB);
    });
  }, 60_000);

  it(`many items: stopped at ${WALK_BOUNDS.items} items`, async () => {
    await using(startRaw(endlessPages(1000, 0)), async (server) => {
      const r = await runAgainst(server.url, report(), { cases: [ONE] });
      expect(r.code).toBe(1);
      const c = r.report!.cases.find((x) => x.id === ONE)!;
      expect(
        failures(c).some((f) => /walking at the default page size: page 101 passes the bound of 100000 items per walk/.test(f)),
        failures(c).join("\n"),
      ).toBe(true);
      expect(server.requests.length).toBeLessThan(110);
    });
  }, 60_000);
});

describe.sequential("deadlines: a server answering each page slowly, within --timeout, cannot hold a run", () => {
  /** Each page's delay: a walk of endless pages outlives both deadlines. */
  const PAGE_MS = 800;

  it("--case-time: each walking case ends at its deadline, naming it, and sends nothing more", async () => {
    await using(startRaw(endlessPages(1, 0, PAGE_MS)), async (server) => {
      const r = await runAgainst(server.url, report(), { cases: [WALK, ONE], extra: ["--case-time", "2500ms"] });
      expect(r.stderr).not.toContain("unexpected error");
      expect(r.code).toBe(1);
      for (const id of [WALK, ONE]) {
        const c = r.report!.cases.find((x) => x.id === id)!;
        expect(c.status).toBe("fail");
        expect(
          failures(c).some((f) => /the case's deadline of 2\.5 s \(--case-time\) was reached/.test(f)),
          failures(c).join("\n"),
        ).toBe(true);
      }
      const sent = server.requests.length;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(server.requests.length).toBe(sent);
    });
  }, 30_000);

  it("--max-time: the run ends near it, cases in flight fail naming it, the rest are not run, reports are written", async () => {
    await using(startRaw(endlessPages(1, 0, PAGE_MS)), async (server) => {
      const cases = [WALK, ONE, "slot/indexer-slot", "account/by-address", "multiple/by-hashes-with-unknown"];
      const r = await runAgainst(server.url, report(), { cases, extra: ["--concurrency", "1", "--max-time", "3s"] });
      expect(r.stderr).not.toContain("unexpected error");
      expect(r.code).toBe(1);
      expect(r.stdout).toContain("VERDICT: NOT CONFORMANT");
      expect(r.report!.cases.map((c) => c.id).sort()).toEqual([...cases].sort());
      const all = r.report!.cases.flatMap((c) => failures(c));
      expect(
        all.some((f) => /the run's deadline of 3 s \(--max-time\) was reached; request not sent or given up/.test(f)),
        all.join("\n"),
      ).toBe(true);
      // Cases the deadline left unstarted are not run (their own status, not failures); those in flight failed.
      const notRun = r.report!.cases.filter((c) => c.status === "notRun");
      expect(notRun.every((c) => /^the run's deadline of 3 s \(--max-time\) was reached$/.test(c.notRun ?? ""))).toBe(true);
      expect(notRun.length).toBeGreaterThanOrEqual(3);
      for (const c of r.report!.cases) expect(["fail", "notRun"]).toContain(c.status);
      const sent = server.requests.length;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(server.requests.length).toBe(sent);
    });
  }, 30_000);
});
