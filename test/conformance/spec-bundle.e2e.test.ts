/**
 * `--spec 0.50.0` over the whole corpus: the reference certified on 0.50.0's seven methods, a
 * 0.50.0 deployment certified against 0.50.0 and not against the default spec.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../conformance/cli/main.js";
import { readFixtures, referenceFixturesFile } from "../../conformance/fixtures.js";
import type { RunSummary } from "../../conformance/results.js";
import { runSuite, type RunOptions } from "../../conformance/run.js";
import { defaultSpec, loadSpecBundle, type SpecBundle } from "../../conformance/spec-bundle.js";
import { canonicalMethod, unregisteredMethods } from "../../conformance/spec-facts.js";
import { methods, spec } from "../../generated/index.js";
import { startReferenceIndexer, type ReferenceIndexer } from "../../reference/serve.js";
import { captured } from "../helpers/capture.js";
import { failedCases } from "../helpers/failed-cases.js";
import { root } from "../helpers/paths.js";
import { OLD, OLD_METHODS, startOldDeployment } from "./support/old-spec.js";

const casesDir = join(root, "conformance", "cases");

describe("--spec 0.50.0", () => {
  let reference: ReferenceIndexer;
  let deployment: { url: string; close(): Promise<void> };
  let old: SpecBundle;
  let certified: { spec: RunSummary["spec"]; passed: boolean; notes?: string[]; methods?: RunSummary["methods"]; cases: { method: string }[] };
  let againstOld: RunSummary;
  let againstDefault: RunSummary;
  const dir = mkdtempSync(join(tmpdir(), "photon-spec-option-"));

  beforeAll(async () => {
    reference = await startReferenceIndexer({ host: "127.0.0.1", port: 0 });
    old = await loadSpecBundle(OLD);
    deployment = await startOldDeployment(reference.url, old);
    const fixtures = await readFixtures(referenceFixturesFile);
    const out = join(dir, "certificate.json");
    const r = await captured(main, ["run", "--spec", OLD, "--url", reference.url, "--reporter", "json", "--output", out]);
    expect(r.code, r.stderr).toBe(0);
    certified = JSON.parse(readFileSync(out, "utf8")) as typeof certified;
    againstOld = await runSuite({ url: deployment.url, casesDir, fixtures, derived: true, spec: old } as RunOptions & { derived: boolean });
    againstDefault = await runSuite({ url: deployment.url, casesDir, fixtures, derived: true } as RunOptions & { derived: boolean });
  }, 120_000);

  afterAll(async () => {
    await deployment?.close();
    await reference?.close();
  });

  it("certifies the reference on the seven methods of 0.50.0 only, and the certificate states 0.50.0", () => {
    expect(certified.passed).toBe(true);
    expect(certified.spec).toEqual(old.spec);
    expect(certified.spec.version).toBe(OLD);
    expect(certified.methods?.map((m) => m.method)).toEqual(OLD_METHODS);
    expect(certified.methods?.every((m) => m.status === "conformant")).toBe(true);
    expect(certified.cases.length).toBeGreaterThan(0);
    for (const r of certified.cases) {
      const method = canonicalMethod(r.method, defaultSpec.methods);
      if (method !== undefined) expect(OLD_METHODS).toContain(method);
    }
    expect(
      certified.notes?.some((n) => /cases calling \d+ methods that Photon indexer JSON-RPC 0\.50\.0 \(--spec\) does not define were left out/.test(n)),
    ).toBe(true);
  });

  it("certifies a 0.50.0 deployment with --spec 0.50.0", () => {
    const failed = failedCases(againstOld);
    expect(failed).toEqual([]);
    expect(againstOld.counts.fail).toBe(0);
    expect(againstOld.passed).toBe(true);
    expect(againstOld.spec.version).toBe(OLD);
    expect(againstOld.methods?.map((m) => [m.method, m.status])).toEqual(OLD_METHODS.map((m) => [m, "conformant"]));
  });

  it("does not certify it against the default spec, naming the methods it does not serve", () => {
    expect(againstDefault.passed).toBe(false);
    expect(againstDefault.spec.version).toBe(spec.version);
    const notServed = againstDefault.methods?.filter((m) => m.status === "not served").map((m) => m.method);
    const expected = Object.keys(methods).filter((m) => !OLD_METHODS.includes(m));
    expect(new Set(notServed)).toEqual(new Set(expected));
    const failing = againstDefault.methods?.filter((m) => m.fails).map((m) => m.method);
    expect(new Set(failing)).toEqual(new Set(expected.filter((m) => !unregisteredMethods().includes(m))));
  });
});
