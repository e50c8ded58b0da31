/** generate: deterministic, the committed output, headers, imports, upstream snapshots, the folder it replaces. */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/generate.js";
import { writeOutput } from "../../generator/write.js";
import { extendedSpec, ourSpec, root, upstream } from "../helpers/paths.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("generate");
const generations = new Map<string, ReturnType<typeof generate>>();
/** One generation per spec for the whole file; determinism is checked against a fresh one. */
function generated(spec: string): ReturnType<typeof generate> {
  let g = generations.get(spec);
  if (g === undefined) generations.set(spec, (g = generate(spec, root)));
  return g;
}

describe("generate", () => {
  it("is deterministic: a second run gives the same bytes", async () => {
    const a = await generated(ourSpec);
    const b = await generate(ourSpec, root);
    expect([...a.files.keys()]).toEqual([...b.files.keys()]);
    for (const [name, text] of a.files) expect(b.files.get(name), name).toBe(text);
  });

  it("produces exactly the committed generated/ for our spec", async () => {
    const { files } = await generated(ourSpec);
    for (const [name, text] of files) expect(readFileSync(join(root, "generated", name), "utf8"), name).toBe(text);
  });

  it("heads every file with the spec title, version and sha256", async () => {
    const { files, model } = await generated(extendedSpec);
    for (const [name, text] of files) {
      if (name === "README.md") {
        expect(text).toContain(`**${model.title}** version **2.3.1**`);
        expect(text).toContain(model.sha256);
      } else {
        expect(text.slice(0, 600), name).toContain(`"${model.title}" version 2.3.1`);
        expect(text.slice(0, 600), name).toContain(`sha256: ${model.sha256}`);
      }
    }
  });

  it("imports the runtime by package name only, never by a path out of its folder", async () => {
    const { files } = await generated(ourSpec);
    for (const [name, text] of files) {
      for (const m of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom "([^"]+)"/gm))
        expect(m[1], name).toMatch(/^(@photon-indexer-kit\/runtime|\.\/[\w.-]+\.js|node:\w+)$/);
    }
  });

  it("keeps the real upstream specs' snapshots", async () => {
    const upstreams = {
      upstream0512: join(upstream, "0.51.2", "api.yaml"),
      upstream050: join(upstream, "0.50.0", "api.yaml"),
      upstream044: join(upstream, "0.44.0"),
    };
    for (const [name, spec] of Object.entries(upstreams)) {
      const { files } = await generated(spec);
      for (const file of ["types.ts", "methods.ts"]) {
        await expect(files.get(file)).toMatchFileSnapshot(join(root, "test", "examples", name, file));
      }
    }
  });
});

describe("generate into another project", () => {
  it("refuses to replace a folder holding files it did not write", async () => {
    const target = join(dir, "foreign");
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, "notes.txt"), "mine");
    const { files } = await generated(extendedSpec);
    await expect(writeOutput(target, files)).rejects.toMatchObject({ code: "PHOTON_GEN_ERR_WRITE" });
    expect(readFileSync(join(target, "notes.txt"), "utf8")).toBe("mine");
  });
});
