import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../generator/cli.js";
import { captured } from "../helpers/capture.js";
import { ourSpec, root } from "../helpers/paths.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("cli");
const out = join(dir, "generated");

function snapshot(folder: string): Record<string, string> {
  return Object.fromEntries(readdirSync(folder).map((f) => [f, readFileSync(join(folder, f), "utf8")]));
}

const run = (...args: string[]) => captured(main, args);

function badSpec(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const spec = readFileSync(ourSpec, "utf8");

beforeAll(() => {
  cpSync(join(root, "generated"), out, { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("photon-gen check", () => {
  it("passes on the committed output", async () => {
    const r = await run("check", "--spec", ourSpec, "--out", out);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("up to date");
  });

  it("exits 1 naming stale, missing and foreign files", async () => {
    const stale = join(dir, "stale");
    cpSync(out, stale, { recursive: true });
    writeFileSync(join(stale, "client.ts"), readFileSync(join(stale, "client.ts"), "utf8") + "\n// edited\n");
    rmSync(join(stale, "server.ts"));
    writeFileSync(join(stale, "extra.ts"), "");
    const r = await run("check", "--spec", ourSpec, "--out", stale);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("changed: " + stale + "/client.ts");
    expect(r.stderr).toContain("missing: " + stale + "/server.ts");
    expect(r.stderr).toContain("not generated: " + stale + "/extra.ts");
  });
});

describe("photon-gen check from another working directory", () => {
  /** Runs the CLI with `cwd` as the working directory. */
  async function runIn(cwd: string, ...args: string[]) {
    const here = process.cwd();
    process.chdir(cwd);
    try {
      return await run(...args);
    } finally {
      process.chdir(here);
    }
  }

  it("agrees with `generate` run elsewhere: the files name the spec by what it is, not by the path it was given", { timeout: 120_000 }, async () => {
    const specs = join(dir, "my specs");
    mkdirSync(specs, { recursive: true });
    writeFileSync(join(specs, "photon.yaml"), spec);
    expect((await runIn(dir, "generate", "--spec", "my specs/photon.yaml", "--out", "gen")).code).toBe(0);
    expect(readFileSync(join(dir, "gen", "types.ts"), "utf8")).toMatch(/^ \* Spec: photon\.yaml$/m);
    for (const [cwd, args] of [
      [specs, ["--spec", "photon.yaml", "--out", "../gen"]],
      [join(dir, "gen"), ["--spec", join(specs, "photon.yaml"), "--out", "."]],
    ] as const) {
      const r = await runIn(cwd, "check", ...args);
      expect(r.stderr, cwd).toBe("");
      expect(r.code, cwd).toBe(0);
    }
  });

  it("names in its hint the `generate` command with the options it was given", { timeout: 120_000 }, async () => {
    const specs = join(dir, "my specs");
    writeFileSync(join(specs, "photon.yaml"), spec.replace("Returns the slot of the last block indexed.", "The slot."));
    const r = await runIn(dir, "check", "--spec", "my specs/photon.yaml", "--out", "gen", "--runtime", "@photon-indexer-kit/runtime");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("run `photon-gen generate --spec 'my specs/photon.yaml' --out gen --runtime @photon-indexer-kit/runtime`:\n");
    // Options left to their defaults are left out.
    const bare = await runIn(join(dir, "gen"), "check", "--spec", "../my specs/photon.yaml");
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain("run `photon-gen generate --spec '../my specs/photon.yaml'`:\n");
  });
});

describe("photon-gen generate with a bad spec", () => {
  const cases: [string, string, RegExp][] = [
    ["invalid YAML", "openapi: 3.0.3\ninfo: [unclosed\n", /invalid YAML at line \d+/],
    ["not OpenAPI 3.0", "swagger: '2.0'\ninfo: {title: x, version: '1'}\npaths: {}\n", /#\/openapi: expected `openapi: 3\.0\.x`/],
    [
      "an unknown $ref",
      spec.replace("$ref: '#/components/schemas/Hash'", "$ref: '#/components/schemas/Nope'"),
      /#\/.+\/\$ref: \$ref "#\/components\/schemas\/Nope" does not resolve/,
    ],
    [
      "a cyclic $ref",
      spec.replace(/(\n {4}Hash:\n)/, "\n    Loop:\n      $ref: '#/components/schemas/Loop'$1"),
      /#\/components\/schemas\/Loop\/\$ref: \$ref "#\/components\/schemas\/Loop" is a cycle/,
    ],
    [
      "a path without the JSON-RPC envelope",
      "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /rest:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema: {type: object, properties: {name: {type: string}}}\n      responses: {'200': {description: ok}}\n",
      /#\/paths\/~1rest\/post\/requestBody\/content\/application~1json\/schema: the request body is not a JSON-RPC envelope/,
    ],
    ["a missing file", "", /cannot read the spec: ENOENT/],
  ];

  it.each(cases)("%s: exits 2 naming file and pointer, generated/ untouched", async (name, text, message) => {
    const before = snapshot(out);
    const file = name === "a missing file" ? join(dir, "missing.yaml") : badSpec(`${name.replace(/\W+/g, "-")}.yaml`, text);
    const r = await run("generate", "--spec", file, "--out", out);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain(file.split("/").pop());
    expect(r.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    expect(snapshot(out)).toEqual(before);
    expect(readdirSync(dir).filter((f) => f.startsWith(".generated."))).toEqual([]);
  });

  it("exits 2 on an unknown option", async () => {
    const r = await run("generate", "--nope");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option");
  });
});
