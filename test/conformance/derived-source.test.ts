/**
 * Derived cases have no case file: their results name the spec they were derived from (relative
 * to the working directory, as case files are) and the JSON pointer of their method's path item,
 * in CaseResult.derivedFrom, and the JUnit `file` attribute and GitHub annotations carry them.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Fixtures } from "../../conformance/case-format.js";
import { deriveCases } from "../../conformance/derive.js";
import { readFixtures } from "../../conformance/fixtures.js";
import { renderReport as render } from "../../conformance/reporters/index.js";
import { runSuite } from "../../conformance/run.js";
import { openSession } from "../../conformance/session.js";
import { loadSpecBundle, shownSpecFile } from "../../conformance/spec-bundle.js";
import { root } from "../helpers/paths.js";

const specFile = relative(process.cwd(), join(root, "spec", "photon-indexer.yaml"));
let fixtures: Fixtures;
let server: Server;
let url: string;

beforeAll(async () => {
  fixtures = await readFixtures();
  // Answers every call with a null result: each derived params case expecting -32602 fails.
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"jsonrpc":"2.0","result":null,"id":1}');
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** The value a `#/…` pointer names in a parsed document. */
function at(doc: unknown, pointer: string): unknown {
  const segments = pointer
    .slice(2)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  return segments.reduce<unknown>((v, s) => (v as Record<string, unknown> | undefined)?.[s], doc);
}

describe("derived cases name their source", () => {
  it("each names the spec file and the pointer of its method's path item, which the spec holds", () => {
    const spec = parseYaml(readFileSync(join(root, "spec", "photon-indexer.yaml"), "utf8"));
    const derived = deriveCases(fixtures);
    expect(derived.length).toBeGreaterThan(300);
    for (const c of derived) {
      expect(c.derivedFrom?.file, c.id).toBe(specFile);
      expect(c.derivedFrom?.pointer, c.id).toBe(`#/paths/~1${c.method}`);
      expect((at(spec, c.derivedFrom!.pointer) as { post: { operationId: string } }).post.operationId, c.id).toBe(c.method);
    }
  });

  it("with --spec, the spec given (a bundled version's file)", async () => {
    const bundle = await loadSpecBundle("0.50.0");
    const [first] = deriveCases(fixtures, bundle.methods, shownSpecFile(bundle));
    expect(first!.derivedFrom!.file).toBe(relative(process.cwd(), join(root, "spec", "versions", "0.50.0.yaml")));
  });

  it("with --spec URL, the URL without its userinfo and query values (a report never carries them)", async () => {
    const text = readFileSync(join(root, "spec", "versions", "0.50.0.yaml"));
    const server = createServer((_req, res) => res.writeHead(200, { "content-type": "application/yaml" }).end(text));
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    try {
      const { port } = server.address() as AddressInfo;
      const bundle = await loadSpecBundle(`http://spec-user:PW_spec_7781@127.0.0.1:${port}/spec.yaml?token=TK_spec_9932`);
      const [first] = deriveCases(fixtures, bundle.methods, shownSpecFile(bundle));
      expect(first!.derivedFrom!.file).toContain(`127.0.0.1:${port}/spec.yaml`);
      expect(first!.derivedFrom!.file).not.toMatch(/PW_spec_7781|TK_spec_9932/);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it("JUnit names it in `file` and the pointer in system-out; GitHub annotations in `file=` and the message", async () => {
    const casesDir = join(root, "conformance", "cases");
    const caseGlobs = ["derived/getCompressedAccount/**"];
    const session = await openSession({ targets: [{ url }], casesDir, fixtures, caseGlobs, derived: true });
    let summary: Awaited<ReturnType<typeof runSuite>>;
    try {
      summary = await runSuite({ url, casesDir, fixtures, caseGlobs }, session);
    } finally {
      await session.close();
    }
    const failed = summary.results.filter((r) => r.status === "fail");
    expect(failed.length).toBeGreaterThan(3);
    for (const r of summary.results) {
      expect(r.file, r.id).toBeUndefined();
      expect(r.derivedFrom, r.id).toEqual({ file: specFile, pointer: "#/paths/~1getCompressedAccount" });
    }

    const xml = render("junit", summary, null);
    const testcases = [...xml.matchAll(/<testcase [^>]*>/g)].map((m) => m[0]);
    expect(testcases).toHaveLength(summary.results.length);
    for (const t of testcases) expect(t).toContain(` file="${specFile}"`);
    expect(xml).toContain(`derived from ${specFile}#/paths/~1getCompressedAccount`);

    const annotations = render("github", summary, null)
      .split("\n")
      .filter((l) => l.startsWith("::error "));
    expect(annotations).toHaveLength(failed.reduce((n, r) => n + r.findings.filter((f) => f.status === "fail").length, 0));
    for (const a of annotations) {
      expect(a).toContain(`::error file=${specFile},title=derived/getCompressedAccount/`);
      expect(a).toContain(`derived from ${specFile}#/paths/~1getCompressedAccount`);
    }
  });
});
