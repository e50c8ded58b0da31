/**
 * The generator is bounded: more than 10,000 methods refused, a 100,000-value enum compiled in one
 * pass, `--spec DIR` keeps inside its folder and under 50 MiB, a URL spec is streamed against the cap.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../generator/cli.js";
import { emitValidators } from "../../generator/emit/validators.js";
import { normalizeSchema } from "../../generator/normalize/index.js";
import { captured } from "../helpers/capture.js";
import { ourSpec } from "../helpers/paths.js";
import { useScratch } from "../helpers/scratch.js";
import { methodsModel as model } from "./methods-model.js";

const dir = useScratch("bounds");
const out = join(dir, "out");

const generate = (spec: string) => captured(main, ["generate", "--spec", spec, "--out", out]);

describe("many methods, long enums", () => {
  it("refuses a spec with more than 10,000 methods: exit 2 naming the limit", async () => {
    const paths = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`/m${i}`, {}]));
    const file = join(dir, "many.json");
    writeFileSync(file, JSON.stringify({ openapi: "3.0.3", info: { title: "T", version: "1" }, paths }));
    const r = await generate(file);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/many\.json#\/paths: the spec defines more than 10000 methods \(paths\), the most photon-gen generates \[PHOTON_GEN_ERR_LIMIT\]/);
  });

  it("a 100,000-value enum is normalised and compiled (the meta-schema's pairwise uniqueness check took 27-45 s)", () => {
    const values = Array.from({ length: 100_000 }, (_, i) => `v${i}`);
    const ctx = { file: "spec.yaml", path: ["components", "schemas", "E"], rewriteRef: (r: string) => r };
    const E = normalizeSchema({ type: "string", enum: values }, ctx);
    const { code } = emitValidators(model(1, { E }, { $ref: "components.json#/definitions/E" }));
    expect(code).toContain('"v99999"');
    expect(() => normalizeSchema({ type: "string", enum: [...values, "v5"] }, ctx)).toThrow(
      expect.objectContaining({ pointer: "/components/schemas/E/enum/100000" }),
    );
  }); // the default 20 s timeout: about 2 s now
});

describe("--spec DIR", () => {
  const folder = join(dir, "folder");
  const method = join(folder, "method.yaml");

  beforeAll(() => {
    mkdirSync(folder, { recursive: true });
  });

  it("does not follow a symbolic link out of the folder", async () => {
    const outside = join(dir, "outside.yaml");
    writeFileSync(outside, "secret: 1\n");
    symlinkSync(outside, join(folder, "link.yaml"));
    const r = await generate(folder);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/link\.yaml: a symbolic link out of the spec folder is not followed \[PHOTON_GEN_ERR_READ\]/);
    rmSync(join(folder, "link.yaml"));
  });

  it("follows a symbolic link that stays inside the folder", async () => {
    mkdirSync(join(folder, "shared"), { recursive: true });
    copyFileSync(ourSpec, join(folder, "shared", "api.yaml"));
    symlinkSync(join(folder, "shared", "api.yaml"), method);
    const r = await generate(folder);
    expect(r.out).toContain("wrote 7 files");
    expect(r.code).toBe(0);
    rmSync(method);
  });

  it.skipIf(!existsSync("/dev/zero"))("refuses a device", async () => {
    const r = await generate("/dev/zero");
    expect(r.code).toBe(2);
    expect(r.out).toContain("/dev/zero: not a regular file");
  });

  it("caps the folder's files together at 50 MiB", async () => {
    const big = join(dir, "big");
    mkdirSync(big, { recursive: true });
    for (const name of ["a.yaml", "b.yaml", "c.yaml"]) {
      writeFileSync(join(big, name), "");
      truncateSync(join(big, name), 20 * 1024 * 1024); // sparse
    }
    const r = await generate(big);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/c\.yaml: spec is larger than 50 MiB \[PHOTON_GEN_ERR_READ\]/);
  });
});

describe("a URL spec", () => {
  let server: Server;
  let base = "";
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/declared") {
        res.writeHead(200, { "content-length": String(60 * 1024 * 1024) });
        res.write("openapi: 3.0.3\n");
        return; // never sends the rest
      }
      // Chunked, without a length, and without an end.
      res.writeHead(200, { "content-type": "application/yaml" });
      const chunk = Buffer.alloc(1024 * 1024, "#");
      const pump = () => {
        while (res.write(chunk)) if (res.destroyed) return;
        res.once("drain", pump);
      };
      res.on("close", () => res.removeAllListeners("drain"));
      pump();
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });

  it("is streamed against the 50 MiB cap: an endless body is cut off", async () => {
    const r = await generate(`${base}/endless.yaml`);
    expect(r.code).toBe(2);
    expect(r.out).toContain("/endless.yaml: spec is larger than 50 MiB [PHOTON_GEN_ERR_READ]");
  }, 30_000);

  it("is refused at once when it declares more than the cap", async () => {
    const r = await generate(`${base}/declared`);
    expect(r.code).toBe(2);
    expect(r.out).toContain("/declared: spec is larger than 50 MiB [PHOTON_GEN_ERR_READ]");
  });
});
