/**
 * The packed tarball in fresh projects outside the repository: the README's "Use it from another
 * project" commands, built and run against the installed reference; and the runtime alone, packed
 * from the bundled copy, with its footprint.
 */
import { execFile, spawnSync, type SpawnSyncOptions } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFixtures } from "photon-indexer-kit/conformance";
import { startReferenceIndexer } from "photon-indexer-kit/reference";
import { RUNTIME_ENTRY, RUNTIME_PACKAGE } from "../../generator/emit/runtime-package.js";
import { root } from "../helpers/paths.js";

interface PackedFile {
  readonly path: string;
}

const work = mkdtempSync(join(tmpdir(), "photon-package-"));
const consumer = join(work, "consumer");
const light = join(work, "client-only");
let packed: readonly string[] = [];
let runtimePacked: readonly string[] = [];
let runtimeTarball = "";
/** What the README's commands printed, together. */
let readmeOutput = "";

/** The most one npm, tsc or node child may take: a bound on a hang, which a loaded machine stays far under. */
const STEP_MS = 300_000;
/** The runtime may weigh at most this much installed (files' bytes under node_modules, 10^6 bytes to the MB). */
const FOOTPRINT_LIMIT_MB = 5;
/** Where npm installs the bundled runtime: inside the main package, not at the top of node_modules. */
const BUNDLED = join("node_modules", "photon-indexer-kit", "node_modules", ...RUNTIME_PACKAGE.split("/"));

/**
 * npm's environment for the fresh projects: none of the `npm_*` variables `npx vitest` set for
 * this repository, the npm cache preferred (`npm ci` filled it), and the kit's scope on an
 * address that answers nothing, so an install that needed the runtime from a registry fails.
 */
const npmEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
  npm_config_prefer_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
  [`npm_config_${RUNTIME_PACKAGE.split("/")[0]}:registry`]: "http://127.0.0.1:9/",
};

/** `npm pack` of the package in `spec` into `work`: the tarball's path and the files it holds. */
function pack(spec: string, cwd: string): { tarball: string; files: string[] } {
  const out = run("npm", ["pack", "--json", "--pack-destination", work, spec], { cwd, timeout: STEP_MS });
  const [info] = JSON.parse(out.slice(out.indexOf("["))) as [{ filename: string; files: PackedFile[] }];
  return { tarball: join(work, info.filename), files: info.files.map((f) => f.path) };
}

/** Runs a command to success: its stdout (and, with `withStderr`, its stderr after it). */
function run(command: string, args: readonly string[], options: SpawnSyncOptions & { cwd: string; withStderr?: boolean }): string {
  const result = spawnSync(command, args, { encoding: "utf8", timeout: STEP_MS, env: npmEnv, ...options });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} (in ${options.cwd}) exited ${result.status ?? result.signal}:\n${String(result.stdout)}\n${String(result.stderr)}`,
    );
  }
  return options.withStderr ? `${String(result.stdout)}${String(result.stderr)}` : String(result.stdout);
}

/** The README's "Use it from another project" commands: its first sh block, one command a line, comments dropped. */
function readmeCommands(): string[] {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("\n## Use it from another project\n"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "");
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

/** This repository's tsc (5.9): the extra resolutions are checked with it, whichever TypeScript the README installed. */
const ourTsc = join(root, "node_modules", "typescript", "bin", "tsc");

beforeAll(() => {
  // `npm pack` runs `prepack` (the build, the runtime first), so the tarball holds dist/ as the sources are now.
  const main = pack(".", root);
  packed = main.files;
  mkdirSync(consumer, { recursive: true });
  const commands = readmeCommands();
  const install = /^npm install photon-indexer-kit(?= |$)/;
  expect(commands.filter((c) => install.test(c))).toHaveLength(1);
  for (const command of commands) {
    // The one change: the package name becomes the tarball's path (it is not on a registry).
    readmeOutput += run("sh", ["-c", command.replace(install, `npm install ${main.tarball}`)], { cwd: consumer, timeout: STEP_MS, withStderr: true });
  }
  // The runtime alone, packed from the copy the main package bundles (the README's route for a client author).
  const runtime = pack(join(consumer, BUNDLED), work);
  runtimePacked = runtime.files;
  runtimeTarball = runtime.tarball;
  mkdirSync(join(consumer, "src"), { recursive: true });
  writeFileSync(join(consumer, "src", "main.ts"), MAIN);
  const base = JSON.parse(
    readFileSync(join(consumer, "tsconfig.json"), "utf8")
      .replace(/^\s*\/\/.*$/gm, "")
      .replace(/,(\s*[}\]])/g, "$1"),
  ) as {
    compilerOptions: Record<string, unknown>;
  };
  const tsconfig = (name: string, options: Record<string, unknown>) =>
    writeFileSync(join(consumer, name), JSON.stringify({ compilerOptions: { ...STRICT, ...options }, include: ["src", "gen"] }, null, 2));
  expect(base.compilerOptions.outDir).toBe("build");
  tsconfig("tsconfig.bundler.json", { module: "esnext", moduleResolution: "bundler", outDir: "build-bundler", rootDir: "." });
  tsconfig("tsconfig.node10.json", { module: "esnext", moduleResolution: "node10", noEmit: true });
}, 10 * STEP_MS);

// Two projects' node_modules: removed without blocking, given the time a loaded disk needs.
afterAll(() => rm(work, { recursive: true, force: true, maxRetries: 3 }), STEP_MS);

describe("package: a consumer project following the README with the packed tarball", () => {
  it("ships dist, LICENSE, the README and the runtime it bundles, and no tests, scratch files or bench results", () => {
    expect(packed).toEqual(
      expect.arrayContaining([
        "LICENSE",
        "README.md",
        "package.json",
        "dist/generated/validators.js",
        "dist/conformance/index.js",
        "dist/reference/index.js",
        "spec/photon-indexer.yaml",
        "spec/versions/0.50.0.yaml",
        `node_modules/${RUNTIME_PACKAGE}/package.json`,
        `node_modules/${RUNTIME_PACKAGE}/dist/index.js`,
        `node_modules/${RUNTIME_PACKAGE}/dist/index.d.ts`,
      ]),
    );
    const own = packed.filter((p) => !p.startsWith("node_modules/"));
    expect(own.filter((p) => /^(test|\.scratch|bench|scripts)\//.test(p) || /\.test\.[jt]s$/.test(p) || p.includes("RESULTS"))).toEqual([]);
    // The runtime's sources stay home: only its dist, README and LICENSE are bundled.
    expect(packed.filter((p) => p.startsWith(`node_modules/${RUNTIME_PACKAGE}/`) && !/\/(dist\/.*|package\.json|README\.md|LICENSE)$/.test(p))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, string | Record<string, string>> };
    const targets = Object.values(manifest.exports).flatMap((t) =>
      typeof t === "string"
        ? [t]
        : Object.entries(t)
            .filter(([c]) => c === "types" || c === "default")
            .map(([, p]) => p),
    );
    for (const target of targets) expect(packed, target).toContain(target.replace(/^\.\//, ""));
    // The runtime is the bundled package's: dist/runtime/ only re-exports it (one class per error, one listener).
    expect(readFileSync(join(consumer, "node_modules", "photon-indexer-kit", "dist", "runtime", "index.js"), "utf8")).toContain(
      `export * from "${RUNTIME_PACKAGE}";`,
    );
    expect(packed.filter((p) => p.startsWith("runtime/"))).toEqual([]);
  });

  it("installs without the runtime on any registry, and with no install script to allow or warn about", () => {
    const installed = JSON.parse(readFileSync(join(consumer, "node_modules", "photon-indexer-kit", "package.json"), "utf8")) as {
      scripts?: Record<string, string>;
    };
    expect(Object.keys(installed.scripts ?? {}).filter((k) => /^(pre|post)?(install|prepare)$/.test(k))).toEqual([]);
    expect(readmeOutput).not.toMatch(/install[- ]scripts|scripts\/build\.mjs|E404/i);
    expect(existsSync(join(consumer, BUNDLED, "dist", "index.js"))).toBe(true);
    // Bundled, so nested: the project's own code cannot import the runtime package by name.
    expect(existsSync(join(consumer, "node_modules", ...RUNTIME_PACKAGE.split("/")))).toBe(false);
  });

  it("generates with `npx photon-gen generate --out ./gen`: TypeScript importing the runtime through the main package's entry", () => {
    const index = readFileSync(join(consumer, "gen", "index.ts"), "utf8");
    expect(index).toContain(`export * from "./validators.js";`);
    expect(index).toContain(`from "${RUNTIME_ENTRY}";`);
    expect(readFileSync(join(consumer, "gen", "validators.ts"), "utf8")).toContain("export const methodValidators");
    for (const name of readdirSync(join(consumer, "gen")).filter((f) => f.endsWith(".ts")))
      expect(readFileSync(join(consumer, "gen", name), "utf8"), name).not.toContain(`"${RUNTIME_PACKAGE}"`);
    expect(existsSync(join(consumer, "build", "index.js")) || existsSync(join(consumer, "build", "gen", "index.js"))).toBe(true);
  });

  it(
    "builds with the README's `npx tsc` to runnable JavaScript that answers from the installed reference indexer",
    () => {
      run("npx", ["--no", "tsc"], { cwd: consumer, timeout: STEP_MS });
      const answer = JSON.parse(run(process.execPath, ["build/src/main.js"], { cwd: consumer, timeout: STEP_MS }).trim()) as Record<string, unknown>;
      expect(answer).toEqual({
        owner: "hcY3gaGGhe2azGPt2RqtjCQtW5uVs5QBCZ9Ymmjcxrp",
        items: 3,
        slot: "301002501",
        rpcError: "-32602",
        suitePassed: true,
        cases: expect.any(Number),
      });
      expect(answer.cases).toBeGreaterThan(1);
    },
    2 * STEP_MS,
  );

  it(
    "builds with tsc (bundler resolution), and runs under a resolver that sets the `source` condition",
    () => {
      run(process.execPath, [ourTsc, "-p", "tsconfig.bundler.json"], { cwd: consumer, timeout: STEP_MS });
      // tsx and other tools set `source`: the package's own condition must not answer it with files it does not ship.
      const answer = JSON.parse(
        run(process.execPath, ["--conditions=source", "build-bundler/src/main.js"], { cwd: consumer, timeout: STEP_MS }).trim(),
      ) as Record<string, unknown>;
      expect(answer).toMatchObject({ items: 3, rpcError: "-32602", suitePassed: true });
    },
    2 * STEP_MS,
  );

  it(
    "type-checks with moduleResolution node10 (typesVersions)",
    () => {
      expect(run(process.execPath, [ourTsc, "-p", "tsconfig.node10.json"], { cwd: consumer, timeout: STEP_MS })).toBe("");
    },
    STEP_MS,
  );
});

/** Bytes of the files under `dir` (symbolic links not followed), 10^6 to the MB. */
function megabytesUnder(dir: string): number {
  const bytes = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + lstatSync(join(e.parentPath, e.name)).size, 0);
  return bytes / 1e6;
}

/** A client author's program: the generated client only. */
const CLIENT = `import { createClient, PhotonClientError, RpcError } from "../gen/index.js";

const [url = "", owner = ""] = process.argv.slice(2);
const photon = createClient({ url });
const page = await photon.getCompressedAccountsByOwner({ owner, limit: 3 });
let walked = 0;
for await (const account of photon.iterateCompressedAccountsByOwner({ owner, limit: 400 })) walked += account.owner === owner ? 1 : 0;
const slot = await photon.getIndexerSlot();
let rpcError = "none";
try {
  await createClient({ url, validate: false }).getCompressedAccount({ hash: "not-a-hash" });
} catch (err) {
  if (err instanceof RpcError) rpcError = String(err.code);
  else if (err instanceof PhotonClientError) rpcError = err.code;
}
console.log(JSON.stringify({ items: page.value.items.length, walked, slot: String(slot), rpcError }));
`;

describe(`package: a client author's project installing ${RUNTIME_PACKAGE} alone, packed from the bundled copy`, () => {
  beforeAll(() => {
    mkdirSync(join(light, "src"), { recursive: true });
    writeFileSync(join(light, "package.json"), JSON.stringify({ name: "client-only", private: true, type: "module" }));
    run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", runtimeTarball], { cwd: light, timeout: STEP_MS });
    cpSync(join(root, "generated"), join(light, "gen"), { recursive: true, filter: (f) => !f.endsWith(".md") });
    writeFileSync(join(light, "src", "main.ts"), CLIENT);
    // Compiled by this repository's tsc and @types/node: the project itself installs neither.
    const compilerOptions = {
      ...STRICT,
      module: "nodenext",
      moduleResolution: "nodenext",
      outDir: "build",
      rootDir: ".",
      typeRoots: [join(root, "node_modules", "@types")],
    };
    writeFileSync(join(light, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["src", "gen"] }, null, 2));
  }, STEP_MS);

  it("ships dist, LICENSE and the README, and depends only on what runtime/package.json names", () => {
    expect(runtimePacked).toEqual(
      expect.arrayContaining(["LICENSE", "README.md", "package.json", "dist/index.js", "dist/index.d.ts", "dist/client.js", "dist/server.js"]),
    );
    expect(runtimePacked.filter((p) => !/^dist\//.test(p) && !["LICENSE", "README.md", "package.json"].includes(p))).toEqual([]);
    expect(runtimePacked.filter((p) => /\.ts$/.test(p) && !p.endsWith(".d.ts"))).toEqual([]);
    const installed = readdirSync(join(light, "node_modules"), { withFileTypes: true })
      .filter((e) => !e.name.startsWith("."))
      .flatMap((e) => (e.name.startsWith("@") ? readdirSync(join(light, "node_modules", e.name)).map((n) => `${e.name}/${n}`) : [e.name]));
    const { dependencies } = JSON.parse(readFileSync(join(root, "runtime", "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(installed.sort()).toEqual([RUNTIME_PACKAGE, ...Object.keys(dependencies)].sort());
  });

  it(`has at most ${FOOTPRINT_LIMIT_MB} MB of node_modules`, () => {
    const mb = megabytesUnder(join(light, "node_modules"));
    console.log(`${RUNTIME_PACKAGE} installed: ${mb.toFixed(2)} MB of files under node_modules`);
    expect(mb).toBeLessThanOrEqual(FOOTPRINT_LIMIT_MB);
  });

  it(
    "compiles the generated client with tsc and runs it against the reference indexer",
    async () => {
      const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
      expect(run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: light })).toBe("");
      const fixtures = await readFixtures();
      const many = fixtures.ownerWith1000;
      const owner = typeof many === "object" && many !== null && !Array.isArray(many) ? String(many.owner) : "";
      const indexer = await startReferenceIndexer({ host: "127.0.0.1", port: 0 });
      try {
        // Asynchronous: the indexer answers from this process while the client runs.
        const stdout = await new Promise<string>((resolve, reject) =>
          execFile(process.execPath, ["build/src/main.js", indexer.url, owner], { cwd: light, timeout: STEP_MS }, (err, out, errOut) =>
            err ? reject(new Error(`${err.message}\n${errOut}`)) : resolve(out),
          ),
        );
        expect(JSON.parse(stdout.trim())).toEqual({ items: 3, walked: 1000, slot: "301002501", rpcError: "-32602" });
      } finally {
        await indexer.close();
      }
    },
    2 * STEP_MS,
  );
});
