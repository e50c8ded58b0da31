/**
 * Spec-derived cases (conformance/derive.ts): one set per method with params, read from the
 * method table; stable ids; a hand-written case of the same id wins; all pass against the
 * reference; a server that ignores an unknown field or clamps the limit fails the case that
 * says so; `cases derive --out DIR` writes files that load back as the same cases.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCases, parseOrSkip, type ConformanceCase, type Fixtures } from "../../conformance/case-format.js";
import { main } from "../../conformance/cli/main.js";
import { DERIVED_TAG, deriveCases, deriveDocuments, derivedYaml, UNKNOWN_FIELD } from "../../conformance/derive.js";
import { readFixtures } from "../../conformance/fixtures.js";
import { runSuite } from "../../conformance/run.js";
import { loadSelection, openSession } from "../../conformance/session.js";
import { methods } from "../../generated/index.js";
import { isObject, parseJson, stringifyJson } from "../../runtime/index.js";
import { captured } from "../helpers/capture.js";
import { root } from "../helpers/paths.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";

const casesDir = join(root, "conformance", "cases");
const reference = useReferenceIndexer();
const scratch = useScratch("derive-test");
let fixtures: Fixtures;

beforeAll(async () => {
  fixtures = await readFixtures();
});

/** Comparable form of a case: everything but where it came from (the file, the spec it was derived from). */
const shape = ({ file: _file, derivedFrom: _from, ...rest }: ConformanceCase) => rest;

describe("the derived cases", () => {
  it("read as their written YAML reads back (deriveCases skips the text, `cases derive` writes it)", () => {
    const docs = deriveDocuments();
    const viaText = docs.map((d) => parseOrSkip(d.id, `${d.id}.yaml (derived)`, derivedYaml(d), fixtures));
    const direct = deriveCases(fixtures);
    expect(direct.length).toBe(docs.length);
    expect(direct.length).toBeGreaterThan(300);
    // The text carries no source: deriveCases adds where it derived the case from (the spec).
    for (let i = 0; i < docs.length; i++)
      expect({ ...direct[i], derivedFrom: undefined }, docs[i]!.id).toStrictEqual({ ...viaText[i], derivedFrom: undefined });
  });

  it("cover every registered method with params: envelope, each required param missing, each param's type, limits, formats, unknown fields", () => {
    const ids = new Set(deriveDocuments().map((d) => d.id));
    const withParams = Object.values(methods).filter((m) => m.hasParams && m.registered);
    expect(withParams.length).toBeGreaterThan(30);
    for (const m of withParams) {
      const shapeOf = m.paramShape!;
      expect(ids, m.name).toContain(`derived/${m.name}/params-null`);
      expect(ids, m.name).toContain(`derived/${m.name}/params-absent`);
      for (const p of m.requiredParams) expect(ids, m.name).toContain(`derived/${m.name}/missing-${p}`);
      if (shapeOf.type === "array") {
        expect(ids).toContain(`derived/${m.name}/params-not-list`);
        expect(ids).toContain(`derived/${m.name}/wrong-type-item`);
        continue;
      }
      expect(ids).toContain(`derived/${m.name}/unknown-field`);
      for (const [p, fact] of Object.entries(shapeOf.properties)) {
        expect(ids).toContain(`derived/${m.name}/wrong-type-${p}`);
        if (["pubkey", "hash", "signature"].includes(fact.kind)) {
          expect(ids).toContain(`derived/${m.name}/bad-base58-${p}`);
          expect(ids).toContain(`derived/${m.name}/wrong-length-${p}`);
        }
      }
      if (m.pagination) {
        expect(ids).toContain(`derived/${m.name}/${m.pagination.limit}-above-max`);
        expect(ids).toContain(`derived/${m.name}/${m.pagination.limit}-negative`);
      }
    }
    // methods without params never read them: four calls with params of every kind, each an ordinary answer
    const withoutParams = Object.values(methods).filter((m) => !m.hasParams && m.registered);
    expect(withoutParams.length).toBeGreaterThanOrEqual(2);
    for (const m of withoutParams)
      for (const rule of ["params-absent", "params-null-ignored", "params-object-ignored", "params-list-ignored"])
        expect(ids).toContain(`derived/${m.name}/${rule}`);
    // methods Photon does not register answer -32601 whatever the params (hand-written), and list caps are -32000, not derived
    for (const m of Object.values(methods).filter((x) => !x.registered)) expect([...ids].some((id) => id.startsWith(`derived/${m.name}/`))).toBe(false);
    expect([...ids].some((id) => /max-items|too-many/.test(id))).toBe(false);
  });

  it("send what their names say, expecting -32602, except open params, which accept an unknown field", () => {
    const cases = new Map(deriveCases(fixtures).map((c) => [c.id, c]));
    const limit = cases.get("derived/getCompressedAccountsByOwner/limit-above-max")!;
    expect(limit.params).toEqual({ owner: "1".repeat(32), limit: 1001 });
    expect(limit.expect.error?.code).toBe(-32602);
    expect(cases.get("derived/getCompressedAccountsByOwner/missing-owner")!.params).toEqual({});
    expect(cases.get("derived/getTransactionWithCompressionInfo/wrong-length-signature")!.params).toEqual({ signature: "1".repeat(63) });
    expect(cases.get("derived/getCompressedAccount/unknown-field")!.expect.error?.code).toBe(-32602);
    const open = cases.get("derived/getCompressedAccountProof/unknown-field")!;
    expect(open.expect.error).toBeNull();
    expect(open.params).toEqual({ hash: fixtures.knownHash, [UNKNOWN_FIELD]: 1 });
    expect(cases.get("derived/getMultipleCompressedAccountProofs/params-not-list")!.params).toEqual({});
    expect(cases.get("derived/getCompressedAccountsByOwner/params-absent")!.params).toBeUndefined();
    const ignored = cases.get("derived/getIndexerSlot/params-list-ignored")!;
    expect(ignored.params).toEqual([1, "x"]);
    expect(ignored.expect.error).toBeNull();
    for (const c of cases.values()) expect(c.tags).toContain(DERIVED_TAG);
  });

  it("have stable ids and content across loads", () => {
    const first = deriveCases(fixtures);
    const second = deriveCases(fixtures);
    expect(second.map(shape)).toEqual(first.map(shape));
    expect(new Set(first.map((c) => c.id)).size).toBe(first.length);
  });

  it("join every selection, and a hand-written case with the same id wins", async () => {
    const all = await loadSelection({ casesDir, derived: true }, fixtures);
    const derived = deriveCases(fixtures);
    expect(all.length).toBe((await loadCases(casesDir, fixtures)).length + derived.length);
    expect(await loadSelection({ casesDir }, fixtures)).toHaveLength(all.length - derived.length);
    const globbed = await loadSelection({ casesDir, caseGlobs: ["derived/getIndexerSlot/*", "derived/getCompressedAccount/*"], derived: true }, fixtures);
    expect(globbed.length).toBeGreaterThan(5);
    expect(globbed.every((c) => /^derived\/(getCompressedAccount|getIndexerSlot)\//.test(c.id))).toBe(true);
    expect(globbed.filter((c) => c.id.startsWith("derived/getIndexerSlot/"))).toHaveLength(4);

    const mine = join(scratch, "own");
    mkdirSync(join(mine, "derived", "getCompressedAccount"), { recursive: true });
    writeFileSync(
      join(mine, "derived", "getCompressedAccount", "unknown-field.yaml"),
      `description: reviewed\nmethod: getCompressedAccount\nparams: {hash: "{{knownHash}}", other: 1}\nexpect:\n  error: {code: -32602, messageMatches: "unknown field"}\n`,
    );
    const merged = await loadSelection({ casesDir: mine, derived: true }, fixtures);
    const ids = merged.filter((c) => c.id === "derived/getCompressedAccount/unknown-field");
    expect(ids).toHaveLength(1);
    expect(ids[0]!.description).toBe("reviewed");
    expect(merged).toHaveLength(derived.length);
  });
});

/** The suite with the derived cases selected by `caseGlobs`, as the CLI runs it. */
async function runDerived(url: string, caseGlobs: string[]) {
  const session = await openSession({ targets: [{ url }], casesDir, fixtures, caseGlobs, derived: true });
  try {
    return await runSuite({ url, casesDir, fixtures, caseGlobs, concurrency: 8 }, session);
  } finally {
    await session.close();
  }
}

/** A proxy in front of the reference that rewrites each request's params: a server with one params bug. */
async function rewriting(target: string, edit: (params: Record<string, unknown>) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      let body = Buffer.concat(chunks).toString();
      try {
        const parsed = parseJson(body);
        if (isObject(parsed) && isObject(parsed.params)) {
          edit(parsed.params as Record<string, unknown>);
          body = stringifyJson(parsed);
        }
      } catch {
        // not JSON: forwarded as is
      }
      const answer = await fetch(target, { method: req.method, headers: { "content-type": req.headers["content-type"] ?? "application/json" }, body });
      res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
      res.end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

describe("against a server with a params bug", () => {
  const bugs: [string, (p: Record<string, unknown>) => void, string, string][] = [
    [
      "ignores unknown fields of closed params",
      (p) => delete p[UNKNOWN_FIELD],
      "derived/getCompressedTokenAccountsByOwner/unknown-field",
      "derived/getCompressedTokenAccountsByOwner/missing-owner",
    ],
    [
      "clamps the limit instead of refusing it",
      (p) => void (typeof p.limit === "number" && p.limit > 1000 && (p.limit = 1000)),
      "derived/getCompressedTokenAccountsByOwner/limit-above-max",
      "derived/getCompressedTokenAccountsByOwner/limit-negative",
    ],
    [
      "fills a missing owner with the zero key",
      (p) => void (p.owner === undefined && (p.owner = "1".repeat(32))),
      "derived/getCompressedTokenAccountsByOwner/missing-owner",
      "derived/getCompressedTokenAccountsByOwner/unknown-field",
    ],
  ];
  let proxies: { url: string; close(): Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(proxies.map((p) => p.close()));
    proxies = [];
  });

  it.each(bugs)("%s: the case that says so fails, its neighbours pass", async (_name, edit, failing, passing) => {
    const proxy = await rewriting(reference().url, edit);
    proxies.push(proxy);
    const summary = await runDerived(proxy.url, ["derived/getCompressedTokenAccountsByOwner/*"]);
    const status = new Map(summary.results.map((r) => [r.id, r.status]));
    expect(status.get(failing)).toBe("fail");
    expect(status.get(passing)).toBe("pass");
    expect(summary.passed).toBe(false);
    expect([...status.values()].filter((s) => s === "fail")).toHaveLength(1);
  });
});

describe("photon-conformance cases derive", () => {
  it("writes one YAML case per derived case that loads back as the same cases", async () => {
    const out = join(scratch, "written");
    const { code, stdout } = await captured(main, ["cases", "derive", "--out", out]);
    expect(code).toBe(0);
    const derived = deriveCases(fixtures);
    expect(stdout).toContain(`${derived.length} derived cases written`);
    const loaded = await loadCases(out, fixtures);
    const byId = (a: ConformanceCase, b: ConformanceCase) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    expect(loaded.sort(byId).map(shape)).toEqual(derived.sort(byId).map(shape));
  });
});
