/**
 * Version-aware runs: `--spec VERSION|FILE` certifies a target against a chosen
 * interface. A non-default spec is compiled once at start by generator/compile.ts into the
 * shapes generated/ has (method table, validators); cases of methods it lacks are left out;
 * the certificate names it. A bad spec or an unknown version is a usage error before anything runs.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringifyJson, type Json } from "@photon-indexer-kit/runtime";
import { main } from "../../conformance/cli/main.js";
import { loadSelection } from "../../conformance/session.js";
import { bundledVersions, defaultSpec, loadSpecBundle, methodsCalled } from "../../conformance/spec-bundle.js";
import { canonicalMethod } from "../../conformance/spec-facts.js";
import { readFixtures, referenceFixturesFile } from "../../conformance/fixtures.js";
import { compileSpec } from "../../generator/compile.js";
import { methodAliases, methods, methodValidators, envelopeValidators, spec } from "../../generated/index.js";
import { captured } from "../helpers/capture.js";
import { root } from "../helpers/paths.js";
import { OLD, OLD_METHODS } from "./support/old-spec.js";

const casesDir = join(root, "conformance", "cases");
describe("compileSpec", () => {
  it("compiles the bundled spec to the generated method table, aliases and identity", async () => {
    const compiled = await compileSpec(join(root, "spec", "photon-indexer.yaml"), root);
    expect(compiled.methods).toEqual(methods);
    expect(Object.keys(compiled.methods)).toEqual(Object.keys(methods));
    expect(compiled.methodAliases).toEqual(methodAliases);
    expect(compiled.spec).toEqual(JSON.parse(JSON.stringify(spec)));
    expect(Object.keys(compiled.validators)).toEqual(Object.keys(methodValidators));
  });

  it("compiles validators that agree with the generated ones", async () => {
    const compiled = await compileSpec(join(root, "spec", "photon-indexer.yaml"), root);
    const pubkey = "11111111111111111111111111111111";
    const samples: { method: keyof typeof methodValidators; part: "params" | "result"; value: unknown }[] = [
      { method: "getCompressedAccount", part: "params", value: { address: pubkey } },
      { method: "getCompressedAccount", part: "params", value: { address: "not base58 0OIl" } },
      { method: "getCompressedAccount", part: "params", value: { address: pubkey, extra: 1 } },
      { method: "getCompressedAccountsByOwner", part: "params", value: { owner: pubkey, limit: 1000 } },
      { method: "getCompressedAccountsByOwner", part: "params", value: { owner: pubkey, limit: 1001 } },
      { method: "getCompressedAccountsByOwner", part: "params", value: { owner: pubkey, limit: -1 } },
      { method: "getCompressedAccountsByOwner", part: "params", value: {} },
      { method: "getIndexerSlot", part: "result", value: 5 },
      { method: "getIndexerSlot", part: "result", value: -5 },
      { method: "getIndexerSlot", part: "result", value: 18446744073709551615n },
      { method: "getIndexerSlot", part: "result", value: "5" },
      { method: "getCompressedAccount", part: "result", value: { context: { slot: 1 }, value: null } },
      { method: "getCompressedAccount", part: "result", value: { context: { slot: 1 } } },
      { method: "getCompressedAccount", part: "result", value: { context: {}, value: null } },
    ];
    const verdicts = samples.map((s) => {
      const generated = methodValidators[s.method][s.part];
      const mine = compiled.validators[s.method]![s.part];
      const ok = generated(s.value);
      expect(mine(s.value), `${s.method} ${s.part} ${stringifyJson(s.value as Json)}`).toBe(ok);
      if (!ok) expect(mine.errors?.[0]?.keyword).toBe(generated.errors?.[0]?.keyword);
      return ok;
    });
    // The sample holds both answers.
    expect(verdicts).toContain(true);
    expect(verdicts).toContain(false);
    for (const [name, body] of [
      ["request", { jsonrpc: "2.0", id: 1, method: "x" }],
      ["request", { jsonrpc: "1.0", id: 1, method: "x" }],
      ["response", { jsonrpc: "2.0", id: 1, result: null }],
      ["response", { jsonrpc: "2.0", id: 1, result: null, error: { code: 1, message: "" } }],
      ["error", { code: 1 }],
    ] as const) {
      expect(compiled.envelope[name](body), `${name} ${JSON.stringify(body)}`).toBe(envelopeValidators[name](body));
    }
  });

  it("compiles the bundled 0.50.0 spec: its seven methods", async () => {
    const compiled = await compileSpec(join(root, "spec", "versions", `${OLD}.yaml`), root);
    expect(compiled.spec.version).toBe(OLD);
    expect(Object.keys(compiled.methods)).toEqual(OLD_METHODS);
  });
});

describe("loadSpecBundle", () => {
  it("keeps the bundled default as it is, and lists the bundled versions", async () => {
    expect(await loadSpecBundle(undefined)).toBe(defaultSpec);
    expect(await loadSpecBundle(spec.version)).toBe(defaultSpec);
    expect(bundledVersions()).toEqual([OLD, spec.version]);
  });

  it("leaves out the cases of methods the chosen spec lacks, keeping protocol cases about unknown methods", async () => {
    const old = await loadSpecBundle(OLD);
    const fixtures = await readFixtures(referenceFixturesFile);
    const all = await loadSelection({ casesDir, derived: true }, fixtures);
    const chosen = await loadSelection({ casesDir, derived: true, spec: old }, fixtures);
    expect(chosen.length).toBeGreaterThan(0);
    expect(chosen.length).toBeLessThan(all.length);
    for (const c of chosen) {
      for (const called of methodsCalled(c)) {
        const method = canonicalMethod(called, defaultSpec.methods);
        if (method !== undefined) expect(OLD_METHODS, c.id).toContain(method);
      }
    }
    // A case of a 0.50.0 method that follows up with a method 0.50.0 lacks is left out too.
    const lacks = (m: string) => {
      const method = canonicalMethod(m);
      return method !== undefined && !OLD_METHODS.includes(method);
    };
    const following = all.filter((c) => OLD_METHODS.includes(c.method) && methodsCalled(c).some(lacks));
    expect(following.length).toBeGreaterThan(0);
    for (const c of following) expect(chosen.map((x) => x.id)).not.toContain(c.id);
    // A case about a method no spec defines stays.
    const unknown = all.filter((c) => canonicalMethod(c.method, defaultSpec.methods) === undefined);
    expect(unknown.length).toBeGreaterThan(0);
    for (const c of unknown) expect(chosen.map((x) => x.id)).toContain(c.id);
    // Derived cases come from the chosen table.
    const derived = chosen.filter((c) => c.id.startsWith("derived/"));
    expect(derived.length).toBeGreaterThan(0);
    for (const c of derived) expect(OLD_METHODS).toContain(c.method);
  });
});

describe("--spec errors", () => {
  const dir = mkdtempSync(join(tmpdir(), "photon-spec-bad-"));

  it("a broken YAML file is a usage error naming the file, before anything runs", async () => {
    const file = join(dir, "broken.yaml");
    writeFileSync(file, "openapi: 3.0.3\ninfo: [unclosed\n");
    const r = await captured(main, ["run", "--spec", file, "--url", "http://127.0.0.1:1/"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/broken\.yaml: invalid YAML at line \d+/);
    expect(r.stderr).toContain("PHOTON_GEN_ERR_YAML");
    expect(r.stderr).not.toMatch(/cannot reach|unexpected error|\n\s+at /);
  });

  it("a $ref that does not resolve is a usage error naming the file and the JSON pointer", async () => {
    const text = readFileSync(join(root, "spec", "versions", `${OLD}.yaml`), "utf8");
    const file = join(dir, "dangling.yaml");
    const broken = text.replace("$ref: '#/components/schemas/Limit'", "$ref: '#/components/schemas/NoSuchLimit'");
    expect(broken).not.toBe(text);
    writeFileSync(file, broken);
    const r = await captured(main, ["run", "--spec", file, "--url", "http://127.0.0.1:1/"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /dangling\.yaml#\/components\/[^ ]*\/\$ref: \$ref "#\/components\/schemas\/NoSuchLimit" does not resolve \[PHOTON_GEN_ERR_REF_UNKNOWN\]/,
    );
    expect(r.stderr).not.toMatch(/cannot reach|unexpected error/);
  });

  it("an unknown version is a usage error listing the bundled ones", async () => {
    const r = await captured(main, ["run", "--spec", "0.49.0", "--url", "http://127.0.0.1:1/"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--spec 0.49.0: no such bundled spec version (bundled: ${OLD}, ${spec.version}`);
    expect(r.stderr).not.toMatch(/cannot reach/);
    const listed = await captured(main, ["run", "--list", "--spec", "0.49.0"]);
    expect(listed.code).toBe(2);
  });

  it("--list and --skip-method follow the chosen spec", async () => {
    const listed = await captured(main, ["run", "--list", "--spec", OLD, "--case", "derived/**"]);
    expect(listed.code).toBe(0);
    const listedMethods = new Set(
      listed.stdout
        .trim()
        .split("\n")
        .map((l) => l.split(/\s+/)[1]),
    );
    expect(listedMethods.size).toBeGreaterThan(0);
    for (const m of listedMethods) expect(OLD_METHODS).toContain(m);
    const r = await captured(main, ["run", "--spec", OLD, "--skip-method", "getQueueInfo", "--url", "http://127.0.0.1:1/"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--skip-method getQueueInfo: the spec (Photon indexer JSON-RPC ${OLD}) has no such method or alias`);
  });
});
