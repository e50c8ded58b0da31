/**
 * The package as another project meets it. `npm pack` (which builds dist/ through `prepare`),
 * then a fresh project outside this repository (so nothing resolves from our own node_modules)
 * installs only the tarball, runs `npx photon-gen generate --out ./gen`, builds with its own
 * `tsc` twice (nodenext, and bundler resolution) into `outDir`, runs the built JavaScript
 * against the reference indexer from the installed `photon-indexer-kit/reference`, and
 * type-checks the same code with `moduleResolution: node10` (typesVersions).
 */
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../helpers/paths.js";

interface PackedFile {
  readonly path: string;
}

const work = mkdtempSync(join(tmpdir(), "photon-package-"));
const consumer = join(work, "consumer");
let packed: readonly string[] = [];

function run(command: string, args: readonly string[], options: SpawnSyncOptions & { cwd: string }): string {
  const result = spawnSync(command, args, { encoding: "utf8", timeout: 60_000, ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} (in ${options.cwd}) exited ${result.status ?? result.signal}:\n${String(result.stdout)}\n${String(result.stderr)}`);
  }
  return String(result.stdout);
}

const STRICT = {
  target: "ES2022",
  lib: ["ES2023"],
  types: ["node"],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  noFallthroughCasesInSwitch: true,
  noPropertyAccessFromIndexSignature: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  skipLibCheck: false,
};

/** What the consumer's program does: the generated client, the error classes where the README says, both package entries. */
const MAIN = `import { createClient, PhotonClientError, RpcError } from "../gen/index.js";
import { RpcError as RuntimeRpcError } from "photon-indexer-kit/runtime";
import { startReferenceIndexer } from "photon-indexer-kit/reference";
import { casesDir, readFixtures, runSuite } from "photon-indexer-kit/conformance";

const indexer = await startReferenceIndexer({ host: "127.0.0.1", port: 0 });
try {
  const photon = createClient({ url: indexer.url });
  const fixtures = await readFixtures();
  const many = fixtures["ownerWith1000"];
  const owner = typeof many === "object" && many !== null && !Array.isArray(many) ? String(many["owner"]) : "";
  const page = await photon.getCompressedAccountsByOwner({ owner, limit: 3 });
  const slot = await photon.getIndexerSlot();
  let rpcError = "none";
  try {
    await createClient({ url: indexer.url, validate: false }).getCompressedAccount({ hash: "not-a-hash" });
  } catch (err) {
    if (err instanceof RpcError && err instanceof RuntimeRpcError) rpcError = String(err.code);
    else if (err instanceof PhotonClientError) rpcError = err.code;
  }
  const suite = await runSuite({ url: indexer.url, casesDir, fixtures, methods: ["getIndexerSlot"] });
  console.log(JSON.stringify({ owner, items: page.value.items.length, slot: String(slot), rpcError, suitePassed: suite.passed, cases: suite.results.length }));
} finally {
  await indexer.close();
}
`;

beforeAll(() => {
  // `npm pack` runs `prepare` (the build), so the tarball holds dist/ as the sources are now.
  const out = run("npm", ["pack", "--json", "--pack-destination", work], { cwd: root, timeout: 120_000 });
  const [info] = JSON.parse(out.slice(out.indexOf("["))) as [{ filename: string; files: PackedFile[] }];
  packed = info.files.map((f) => f.path);
  mkdirSync(join(consumer, "src"), { recursive: true });
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  const typesNode = (JSON.parse(readFileSync(join(root, "node_modules", "@types", "node", "package.json"), "utf8")) as { version: string }).version;
  // Only the tarball and @types/node; its dependencies come from the npm cache our `npm ci` filled.
  run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", join(work, info.filename), `@types/node@${typesNode}`], { cwd: consumer, timeout: 120_000 });
  writeFileSync(join(consumer, "src", "main.ts"), MAIN);
  const tsconfig = (name: string, options: Record<string, unknown>) =>
    writeFileSync(join(consumer, name), JSON.stringify({ compilerOptions: { ...STRICT, ...options }, include: ["src", "gen"] }, null, 2));
  tsconfig("tsconfig.nodenext.json", { module: "nodenext", moduleResolution: "nodenext", outDir: "build/nodenext", rootDir: "." });
  tsconfig("tsconfig.bundler.json", { module: "esnext", moduleResolution: "bundler", outDir: "build/bundler", rootDir: "." });
  tsconfig("tsconfig.node10.json", { module: "esnext", moduleResolution: "node10", noEmit: true });
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("package: a consumer project installing the packed tarball", () => {
  it("ships dist, LICENSE and the README, and no tests, scratch files or bench results", () => {
    expect(packed).toEqual(expect.arrayContaining(["LICENSE", "README.md", "package.json", "dist/generated/validators.js", "dist/conformance/index.js", "dist/reference/index.js", "spec/photon-indexer.yaml"]));
    expect(packed.filter((p) => /^(test|\.scratch|bench|node_modules|scripts)\//.test(p) || /\.test\.[jt]s$/.test(p) || p.includes("RESULTS"))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, string | Record<string, string>> };
    const targets = Object.values(manifest.exports).flatMap((t) => (typeof t === "string" ? [t] : Object.entries(t).filter(([c]) => c === "types" || c === "default").map(([, p]) => p)));
    for (const target of targets) expect(packed, target).toContain(target.replace(/^\.\//, ""));
  });

  it("generates with `npx photon-gen generate --out ./gen`, only TypeScript", () => {
    run("npx", ["--no", "photon-gen", "generate", "--out", "./gen"], { cwd: consumer });
    const index = readFileSync(join(consumer, "gen", "index.ts"), "utf8");
    expect(index).toContain(`export * from "./validators.js";`);
    expect(readFileSync(join(consumer, "gen", "validators.ts"), "utf8")).toContain("export const methodValidators");
  }, 90_000);

  it("builds with tsc (nodenext) to runnable JavaScript that answers from the installed reference indexer", () => {
    const tsc = join(consumer, "node_modules", "typescript", "bin", "tsc");
    run(process.execPath, [tsc, "-p", "tsconfig.nodenext.json"], { cwd: consumer });
    const answer = JSON.parse(run(process.execPath, ["build/nodenext/src/main.js"], { cwd: consumer }).trim()) as Record<string, unknown>;
    expect(answer).toEqual({ owner: "hcY3gaGGhe2azGPt2RqtjCQtW5uVs5QBCZ9Ymmjcxrp", items: 3, slot: "301002501", rpcError: "-32602", suitePassed: true, cases: expect.any(Number) });
    expect(answer.cases).toBeGreaterThan(1);
  }, 90_000);

  it("builds with tsc (bundler resolution), and runs under a resolver that sets the `source` condition", () => {
    const tsc = join(consumer, "node_modules", "typescript", "bin", "tsc");
    run(process.execPath, [tsc, "-p", "tsconfig.bundler.json"], { cwd: consumer });
    // tsx and other tools set `source`: the package's own condition must not answer it with files it does not ship.
    const answer = JSON.parse(run(process.execPath, ["--conditions=source", "build/bundler/src/main.js"], { cwd: consumer }).trim()) as Record<string, unknown>;
    expect(answer).toMatchObject({ items: 3, rpcError: "-32602", suitePassed: true });
  }, 90_000);

  it("type-checks with moduleResolution node10 (typesVersions)", () => {
    const tsc = join(consumer, "node_modules", "typescript", "bin", "tsc");
    expect(run(process.execPath, [tsc, "-p", "tsconfig.node10.json"], { cwd: consumer })).toBe("");
  }, 90_000);
});
