/** conformance/session.ts: one session serves run, diff, record and --discover. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfErrorCode, UnreachableError, UsageError } from "../../conformance/errors.js";
import { casesDir, readFixtures } from "../../conformance/fixtures.js";
import type { ConformanceCase, Fixtures } from "../../conformance/case-format.js";
import { deadline, runPool } from "../../conformance/pool.js";
import {
  loadSelection,
  openSession,
  redactorFor,
  SelectionMemo,
  selectCases,
  SESSION_DEFAULTS,
  sessionSettings,
  shardOf,
  type Session,
} from "../../conformance/session.js";
import { ClientErrorCode, PhotonError } from "../../runtime/errors.js";

let fixtures: Fixtures;
beforeAll(async () => {
  fixtures = await readFixtures();
});

const cases = (n: number): ConformanceCase[] => Array.from({ length: n }, (_, i) => ({ id: `c${i}`, method: "m" }) as ConformanceCase);

describe("defaults", () => {
  it("one defaults object: retries, budget, delays, body cap, timeouts, concurrency", () => {
    expect(SESSION_DEFAULTS).toEqual({
      timeoutMs: 10_000,
      retry: { retries: 5, minDelayMs: 100, maxDelayMs: 5000, budgetMs: 10_000 },
      maxBodyBytes: 16 * 1024 * 1024,
      concurrency: 4,
      maxTimeMs: 30 * 60_000,
      caseTimeMs: 2 * 60_000,
    });
    expect(Object.isFrozen(SESSION_DEFAULTS) && Object.isFrozen(SESSION_DEFAULTS.retry)).toBe(true);
  });

  it("the caller's values override them", () => {
    expect(sessionSettings({})).toEqual({ timeoutMs: 10_000, retry: SESSION_DEFAULTS.retry, maxBodyBytes: 16 * 1024 * 1024, maxRps: null, concurrency: 4 });
    const s = sessionSettings({ timeoutMs: 500, retryBudgetMs: 1000, maxBodyBytes: 1024, maxRps: 7, concurrency: 2 });
    expect(s).toEqual({ timeoutMs: 500, retry: { ...SESSION_DEFAULTS.retry, budgetMs: 1000 }, maxBodyBytes: 1024, maxRps: 7, concurrency: 2 });
  });
});

describe("redactor", () => {
  it("masks every side's URL credentials and header values, and the extra secrets", () => {
    const redact = redactorFor(
      [
        { url: "http://user:pw-one@a.example/?api-key=KEY-ONE", headers: { authorization: "Bearer TOKEN-ONE" } },
        { url: "http://b.example/?api-key=KEY-TWO", headers: { "x-key": "TOKEN-TWO" } },
      ],
      ["EXTRA-SECRET"],
    );
    const shown = redact("pw-one KEY-ONE TOKEN-ONE KEY-TWO TOKEN-TWO EXTRA-SECRET kept");
    for (const secret of ["pw-one", "KEY-ONE", "TOKEN-ONE", "KEY-TWO", "TOKEN-TWO", "EXTRA-SECRET"]) expect(shown).not.toContain(secret);
    expect(shown).toContain("kept");
  });
});

describe("selection", () => {
  it("loads and selects by method and glob", async () => {
    const picked = await loadSelection({ casesDir, methods: ["getIndexerSlot"] }, fixtures);
    expect(picked.length).toBeGreaterThan(0);
    expect(picked.every((c) => c.method === "getIndexerSlot")).toBe(true);
    const globbed = await loadSelection({ casesDir, caseGlobs: ["slot/*"] }, fixtures);
    expect(globbed.every((c) => c.id.startsWith("slot/"))).toBe(true);
  });

  it("a memo hands the next session the same selection while the fixtures are the same, and selects again when they change", async () => {
    const memo = new SelectionMemo();
    const options = { casesDir, methods: ["getIndexerSlot"] };
    const first = await memo.select(options, fixtures);
    expect(await memo.select(options, { ...fixtures })).toBe(first); // equal profile: not read again
    const changed = await memo.select(options, { ...fixtures, extra: 1 });
    expect(changed).not.toBe(first);
    expect(changed.cases.map((c) => c.id)).toEqual(first.cases.map((c) => c.id));
    expect(await memo.select(options, { ...fixtures, extra: 1 })).toBe(changed);
  });

  it("no case matching is a usage error naming what was asked when required, an empty selection otherwise", async () => {
    const asked = { casesDir, methods: ["getIndexerSlot"], caseGlobs: ["none/*"] };
    expect(await loadSelection(asked, fixtures)).toEqual([]);
    const err = await loadSelection({ ...asked, requireMatch: true }, fixtures).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).code).toBe(ConfErrorCode.USAGE);
    expect((err as Error).message).toBe(`no case matches --case 'none/*' --method getIndexerSlot (in ${casesDir}); \`--list\` shows the case ids and methods`);
    // A name that is no method of the spec (nor any case's) is named as such (cli-help.test.ts).
    const unknown = await loadSelection({ ...asked, methods: ["noSuchMethod"], requireMatch: true }, fixtures).catch((e: unknown) => e);
    expect((unknown as Error).message).toMatch(/^--method noSuchMethod is not a method of the spec \(/);
  });

  it("an empty shard is not a usage error; the shards add up to the selection", async () => {
    const all = await loadSelection({ casesDir, caseGlobs: ["slot/*"], requireMatch: true }, fixtures);
    const total = all.length + 1;
    const shards = await Promise.all(
      Array.from({ length: total }, (_, i) => loadSelection({ casesDir, caseGlobs: ["slot/*"], shard: { index: i + 1, total }, requireMatch: true }, fixtures)),
    );
    expect(shards.some((s) => s.length === 0)).toBe(true);
    expect(
      shards
        .flat()
        .map((c) => c.id)
        .sort(),
    ).toEqual(all.map((c) => c.id).sort());
  });

  it("the shards of the whole corpus, derived cases included, hold each of its cases exactly once", async () => {
    const all = await loadSelection({ casesDir, derived: true }, fixtures);
    for (const total of [2, 3, 8]) {
      const shards = Array.from({ length: total }, (_, i) => selectCases(all, { shard: { index: i + 1, total } }));
      const ids = shards.flatMap((s) => s.map((c) => c.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(all.map((c) => c.id).sort());
      expect(shards.every((s) => s.length > 0)).toBe(true);
      // Stable: the same selection gives the same shard.
      expect(selectCases(all, { shard: { index: 2, total } })).toEqual(shards[1]);
    }
    expect(selectCases(all, { caseGlobs: ["account/*"] }).every((c) => c.id.startsWith("account/"))).toBe(true);
  });

  it("a case's shard depends on its id and the shard count only", () => {
    for (const id of ["slot/indexer-slot", "run/slot-order", "account/by-hash"]) {
      expect(shardOf(id, 5)).toBe(shardOf(id, 5));
      expect(shardOf(id, 5)).toBeGreaterThanOrEqual(0);
      expect(shardOf(id, 5)).toBeLessThan(5);
      expect(shardOf(id, 1)).toBe(0);
    }
  });
});

describe("openSession", () => {
  let session: Session;
  beforeAll(async () => {
    // No url: the embedded reference indexer, started once the cases are selected.
    session = await openSession({
      targets: [{}, { url: "http://127.0.0.1:9/?api-key=SECRET", headers: { "x-key": "HEADER-SECRET" } }],
      casesDir,
      methods: ["getIndexerSlot"],
      secrets: ["MORE"],
    });
  });
  afterAll(() => session.close());

  it("holds settings, fixtures, cases, one target per side and the redactor", () => {
    expect(session.settings.retry).toEqual(SESSION_DEFAULTS.retry);
    expect(session.fixturesName).toBe("reference");
    expect(session.discovered).toBeUndefined();
    expect(session.cases.length).toBeGreaterThan(0);
    expect(session.targets).toHaveLength(2);
    expect(session.urls[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(session.redact("SECRET HEADER-SECRET MORE")).not.toMatch(/SECRET|MORE/);
  });

  it("each side sends its own headers only", async () => {
    const [a, b] = session.targets;
    const x = await a!.call("getIndexerSlot", undefined);
    expect(x.status).toBe(200);
    expect(x.errorCode).toBeNull();
    expect(x.request.headers).not.toHaveProperty("x-key");
    expect(b!.display).not.toContain("SECRET");
  });

  it("ensureReachable checks every side, in order: the second one here takes no connection", async () => {
    const err = await session.ensureReachable().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnreachableError);
    expect((err as UnreachableError).code).toBe(ConfErrorCode.UNREACHABLE);
    expect((err as Error).message).toContain("cannot reach http://127.0.0.1:9/");
  });
});

describe("reachability as values", () => {
  it("a request that cannot be sent carries errorCode INVALID_OPTIONS, and is unreachable at once", async () => {
    const session = await openSession({
      targets: [{ url: "http://127.0.0.1:9/", headers: { "x-bad": "line\nbreak" } }],
      casesDir,
      methods: ["getIndexerSlot"],
    });
    try {
      const probe = await session.targets[0]!.call("getIndexerSlot", undefined);
      expect(probe.errorCode).toBe(ClientErrorCode.INVALID_OPTIONS);
      await expect(session.ensureReachable()).rejects.toBeInstanceOf(UnreachableError);
    } finally {
      await session.close();
    }
  });

  it("--discover needs a seed owner and a URL", async () => {
    await expect(openSession({ targets: [{}], casesDir, discover: true })).rejects.toThrow("--discover needs --seed-owner PUBKEY");
    await expect(openSession({ targets: [{}], casesDir, discover: true, seedOwner: "x" })).rejects.toThrow("--discover needs --url");
  });
});

describe("pool", () => {
  it("keeps at most `concurrency` in flight and returns results in order", async () => {
    let inFlight = 0;
    let most = 0;
    const results = await runPool(
      cases(12),
      async (c) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setImmediate(r));
        inFlight--;
        return c.id;
      },
      { concurrency: 3 },
    );
    expect(results).toEqual(cases(12).map((c) => c.id));
    expect(most).toBeLessThanOrEqual(3);
  });

  it("after --max-failures, starts no item: the rest are not run", async () => {
    const done: number[] = [];
    const results = await runPool(cases(5), async (c) => `ran ${c.id}`, {
      concurrency: 1,
      maxFailures: 2,
      failed: () => true,
      notRun: (c, why, check) => `${c.id}: ${check}: ${why}`,
      onResult: (_, n) => done.push(n),
    });
    expect(results).toEqual([
      "ran c0",
      "ran c1",
      "c2: run: 2 cases had failed (--max-failures 2)",
      "c3: run: 2 cases had failed (--max-failures 2)",
      "c4: run: 2 cases had failed (--max-failures 2)",
    ]);
    expect(done).toEqual([1, 2, 3, 4, 5]);
  });

  it("a stopped signal starts nothing; its reason names why", async () => {
    const stop = new AbortController();
    stop.abort(new PhotonError(ConfErrorCode.INTERRUPTED, "interrupted (SIGINT)"));
    const results = await runPool(cases(2), async () => "ran", { concurrency: 2, signal: stop.signal, notRun: (_c, why, check) => `${check}: ${why}` });
    expect(results).toEqual(["run: interrupted (SIGINT)", "run: interrupted (SIGINT)"]);
  });

  it("each item's deadline fires its signal with a coded DEADLINE reason", async () => {
    const [reason] = await runPool(cases(1), (_, signal) => new Promise<unknown>((resolve) => signal.addEventListener("abort", () => resolve(signal.reason))), {
      concurrency: 1,
      caseTimeMs: 1,
    });
    expect(reason).toBeInstanceOf(PhotonError);
    expect((reason as PhotonError).code).toBe(ConfErrorCode.DEADLINE);
    expect((reason as Error).message).toBe("the case's deadline of 1 ms (--case-time) was reached");
  });

  it("a pool that can stop early without notRun is an internal error, not a silent hole", async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(runPool(cases(1), async () => 1, { concurrency: 1, signal: stop.signal })).rejects.toMatchObject({ code: ConfErrorCode.INTERNAL });
  });

  it("deadline(null) follows only its parent", () => {
    const parent = new AbortController();
    const d = deadline(null, "", parent.signal);
    expect(d.signal.aborted).toBe(false);
    parent.abort(new Error("stop"));
    expect((d.signal.reason as Error).message).toBe("stop");
    d.clear();
  });
});
