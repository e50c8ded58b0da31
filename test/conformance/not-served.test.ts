/**
 * Per-method standing (version-aware runs): a method every call of which is answered
 * -32601 is "not served" and fails the verdict unless opted out (`--skip-method`, or the spec's
 * `x-registered: false` by default); every reporter names each method's standing; a case sent
 * under an alias (getCompressedBalance) is judged as its method (schema) and selected with it.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadSelection } from "../../conformance/session.js";
import { main } from "../../conformance/cli/main.js";
import type { CaseResult, RunSummary } from "../../conformance/results.js";
import { renderReport as render, reporterNames } from "../../conformance/reporters/index.js";
import { checkSkipMethods, optOuts, runSuite, SKIP_METHOD_REASON, unregisteredReason, type RunOptions } from "../../conformance/run.js";
import { methodVerdicts } from "../../conformance/verdict.js";
import { canonicalMethod, methodInfo, unregisteredMethods } from "../../conformance/spec-facts.js";
import { methods } from "../../generated/index.js";
import { datasetProfile, generateDataset, type Dataset } from "../../reference/index.js";
import { captured } from "../helpers/capture.js";
import { root } from "../helpers/paths.js";
import { startBroken, type Defect } from "./support/broken-servers.js";

const casesDir = join(root, "conformance", "cases");
let dataset: Dataset;
let fixtures: RunOptions["fixtures"];

beforeAll(() => {
  dataset = generateDataset();
  fixtures = datasetProfile(dataset) as unknown as RunOptions["fixtures"];
});

async function runAgainst(defect: Defect, select: Partial<RunOptions>): Promise<RunSummary> {
  const server = await startBroken(dataset, defect);
  try {
    return await runSuite({ url: server.url, casesDir, fixtures, concurrency: 4, ...select });
  } finally {
    await server.close();
  }
}

/** A reference that does not register getQueueInfo: every call of it is -32601, as for an unknown method. */
const NO_QUEUE_INFO: Defect = { handlers: () => ({ getQueueInfo: undefined }) as never };
const INTERFACES = ["getAccountInterface", "getMultipleAccountInterfaces"];

const verdictOf = (summary: RunSummary, method: string) => summary.methods?.find((m) => m.method === method);

describe("the spec facts behind opt-outs and aliases", () => {
  it("reads the unregistered methods and resolves aliases from the method table", () => {
    expect(unregisteredMethods().sort()).toEqual([...INTERFACES].sort());
    expect(canonicalMethod("getCompressedBalance")).toBe("getCompressedAccountBalance");
    expect(methodInfo("getCompressedBalance")).toBe(methods.getCompressedAccountBalance);
    expect(canonicalMethod("getQueueInfo")).toBe("getQueueInfo");
    expect(canonicalMethod("toString")).toBeUndefined();
    expect(canonicalMethod("nope")).toBeUndefined();
  });

  it("opts the x-registered: false methods out by default, and --skip-method names (or aliases) on top", () => {
    expect([...optOuts()]).toEqual(INTERFACES.map((m) => [m, unregisteredReason()]));
    expect(unregisteredReason()).toBe("not registered by Photon 0.51.2 (x-registered: false)");
    const withSkip = optOuts(["getCompressedBalance", "getAccountInterface"]);
    expect(withSkip.get("getCompressedAccountBalance")).toBe(SKIP_METHOD_REASON);
    expect(withSkip.get("getAccountInterface")).toBe(SKIP_METHOD_REASON);
    expect(withSkip.get("getMultipleAccountInterfaces")).toBe(unregisteredReason());
    expect(() => checkSkipMethods(["getQueueInfo", "nope"])).toThrow(/--skip-method nope/);
  });

  it("judges a method not served only when every call (at least one) was -32601, and fails the verdict only when not opted out", () => {
    const result = (id: string, method: string, status: CaseResult["status"], served?: boolean): CaseResult => ({
      id,
      method,
      description: "",
      required: true,
      findings: [],
      exchange: null,
      status,
      durationMs: 0,
      ...(served === undefined ? {} : { served }),
    });
    const results = [
      // Every call -32601, and the cases pass (they expected it): still not served.
      result("a", "getQueueInfo", "pass", false),
      result("b", "getQueueInfo", "pass", false),
      // One call answered: served; a failing case makes it not conformant.
      result("c", "getIndexerSlot", "fail", false),
      result("d", "getIndexerSlot", "pass", true),
      // An alias counts with its method.
      result("e", "getCompressedBalance", "pass", true),
      // No call made (fixture missing): skipped, not "not served".
      result("f", "getCompressedAccount", "skip"),
      // Not in the spec: no standing.
      result("g", "getUnknownMethod", "pass", false),
    ];
    const counted = methodVerdicts(results, new Map());
    // In the method table's (spec) order.
    expect(counted.map((m) => [m.method, m.status, m.fails]).sort()).toEqual([
      ["getCompressedAccount", "skipped", false],
      ["getCompressedAccountBalance", "conformant", false],
      ["getIndexerSlot", "not conformant", false],
      ["getQueueInfo", "not served", true],
    ]);
    expect(counted.find((m) => m.method === "getQueueInfo")).toMatchObject({ calls: 2, notFound: 2, optedOut: null });
    const excused = methodVerdicts(results, new Map([["getQueueInfo", SKIP_METHOD_REASON]]));
    expect(excused.find((m) => m.method === "getQueueInfo")).toMatchObject({ status: "not served", optedOut: SKIP_METHOD_REASON, fails: false });
  });
});

describe("a method the target does not serve", () => {
  let broken: RunSummary;
  let skipped: RunSummary;
  let defaults: RunSummary;

  beforeAll(async () => {
    const select = { methods: ["getQueueInfo", "getIndexerSlot"] };
    broken = await runAgainst(NO_QUEUE_INFO, select);
    skipped = await runAgainst(NO_QUEUE_INFO, { ...select, skipMethods: ["getQueueInfo"] });
    defaults = await runAgainst({}, { methods: [...INTERFACES, "getIndexerSlot"] });
  }, 60_000);

  it("fails the verdict, the method standing as not served", () => {
    expect(broken.passed).toBe(false);
    const queue = verdictOf(broken, "getQueueInfo")!;
    expect(queue).toMatchObject({ status: "not served", optedOut: null, fails: true });
    expect(queue.calls).toBeGreaterThan(0);
    expect(queue.notFound).toBe(queue.calls);
    expect(verdictOf(broken, "getIndexerSlot")).toMatchObject({ status: "conformant", fails: false });
  });

  it("passes with --skip-method: its cases are not run and the certificate names it opted out", () => {
    expect(skipped.passed).toBe(true);
    expect(verdictOf(skipped, "getQueueInfo")).toMatchObject({ status: "skipped", optedOut: SKIP_METHOD_REASON, fails: false, calls: 0 });
    const queueCases = skipped.results.filter((r) => r.method === "getQueueInfo");
    expect(queueCases.length).toBeGreaterThan(0);
    for (const r of queueCases) {
      expect(r.status).toBe("skip");
      expect(r.exchange).toBeNull();
      expect(r.findings.map((f) => f.message)).toEqual(["getQueueInfo is opted out (--skip-method): not run"]);
    }
    expect(skipped.options.skipMethods).toEqual(["getQueueInfo"]);
  });

  it("by default names the two interface methods not served and opted out, and passes", () => {
    expect(defaults.passed).toBe(true);
    for (const method of INTERFACES) {
      const v = verdictOf(defaults, method)!;
      expect(v).toMatchObject({ status: "not served", optedOut: "not registered by Photon 0.51.2 (x-registered: false)", fails: false });
      // Their cases (conformance/cases/interfaces) are the evidence: run, counted, passing.
      expect(v.calls).toBeGreaterThanOrEqual(3);
      expect(v.counts.fail).toBe(0);
    }
    expect(verdictOf(defaults, "getIndexerSlot")?.status).toBe("conformant");
  });

  it("every reporter shows each method's standing", () => {
    for (const name of reporterNames) {
      const failing = render(name, broken, null);
      expect(failing, name).toContain("getQueueInfo");
      expect(failing, name).toMatch(/not served \(\d+ of \d+ calls answered -32601 Method not found\): fails the verdict/);
      const optedOut = render(name, skipped, null);
      expect(optedOut, name).toContain("skipped, opted out: --skip-method");
      const byDefault = render(name, defaults, null);
      expect(byDefault, name).toMatch(/getAccountInterface/);
      expect(byDefault, name).toMatch(/not served \(\d+ of \d+ calls answered -32601 Method not found\), opted out: not registered by Photon 0\.51\.2/);
    }
  });

  it("console and github say why a run whose cases all passed still failed", () => {
    const console = render("console", broken, null);
    expect(console).toMatch(/methods: 1 not served, 1 conformant\n {4}getQueueInfo: not served/);
    const github = render("github", broken, null);
    expect(github).toMatch(/^::error title=photon-conformance \(getQueueInfo\)::getQueueInfo: not served/m);
    expect(render("junit", broken, null)).toMatch(/<property name="method\.getQueueInfo" value="not served \(/);
    expect(render("html", broken, null)).toMatch(/<td class="fail" data-status="not served">/);
  });
});

describe("--skip-method on the command line", () => {
  it("an unknown name is a usage error (exit 2) before anything runs", async () => {
    const r = await captured(main, ["run", "--skip-method", "nope", "--url", "http://127.0.0.1:1/"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--skip-method nope");
    expect(r.stderr).not.toMatch(/cannot reach/);
  });
});

describe("aliases", () => {
  it("--method selects a method's alias cases, and the alias selects its method's", async () => {
    const byMethod = await loadSelection({ casesDir, methods: ["getCompressedAccountBalance"] }, fixtures);
    const byAlias = await loadSelection({ casesDir, methods: ["getCompressedBalance"] }, fixtures);
    const sent = (cs: { method: string }[]) => new Set(cs.map((c) => c.method));
    expect(sent(byMethod)).toEqual(new Set(["getCompressedAccountBalance", "getCompressedBalance"]));
    expect(byAlias.map((c) => c.id).sort()).toEqual(byMethod.map((c) => c.id).sort());
    expect(byMethod.map((c) => c.id)).toContain("balances/alias-by-hash");
  });

  it("a case sent under an alias gets its method's schema check, which fails a broken answer", async () => {
    const select = { caseGlobs: ["balances/alias-*"] };
    const good = await runAgainst({}, select);
    const answered = good.results.filter((r) => r.method === "getCompressedBalance" && r.findings.some((f) => f.check === "schema"));
    expect(answered.map((r) => r.id).sort()).toEqual(["balances/alias-by-address", "balances/alias-by-hash", "balances/alias-unknown"]);
    expect(answered.every((r) => r.findings.find((f) => f.check === "schema")!.status === "pass")).toBe(true);
    expect(verdictOf(good, "getCompressedAccountBalance")?.status).toBe("conformant");

    // The alias shares its method's handler: a lamports value sent as text breaks the result schema.
    const broken = await runAgainst(
      { handlers: (h) => ({ getCompressedAccountBalance: async (p, c) => ({ ...(await h.getCompressedAccountBalance(p, c)), value: "12" }) as never }) },
      select,
    );
    const unknown = broken.results.find((r) => r.id === "balances/alias-unknown")!;
    expect(unknown.findings.filter((f) => f.status === "fail").map((f) => f.check)).toContain("schema");
    expect(broken.passed).toBe(false);
    expect(verdictOf(broken, "getCompressedAccountBalance")?.status).toBe("not conformant");
  });
});
