/** Tests and scripts read nothing outside the repository: the upstream specs they use are vendored. */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { root, upstream } from "../helpers/paths.js";

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? ["node_modules", ".results", "fixtures"].includes(e.name)
        ? []
        : filesUnder(join(dir, e.name))
      : /\.(ts|mts|mjs|js|json)$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

describe("tests that stand alone", () => {
  it("read the upstream specs from inside the repository, with their license and source named", () => {
    expect(relative(root, upstream).startsWith("..")).toBe(false);
    expect(readdirSync(join(upstream, "0.44.0")).filter((f) => f.endsWith(".yaml"))).toHaveLength(23);
    expect(statSync(join(upstream, "0.50.0", "api.yaml")).size).toBeGreaterThan(100_000);
    expect(statSync(join(upstream, "0.51.2", "api.yaml")).size).toBeGreaterThan(100_000);
    expect(readFileSync(join(upstream, "LICENSE"), "utf8")).toMatch(/^\s*Apache License\s+Version 2\.0/);
    const readme = readFileSync(join(upstream, "README.md"), "utf8");
    for (const s of ["github.com/helius-labs/photon", "0fdbfdf", "18eb4b8", "366a15b", "0.44.0", "0.50.0", "0.51.2"]) expect(readme).toContain(s);
  });

  it("no test, script, bench or config file points outside the repository", () => {
    const outside = [["..", "shared"].join("/"), ["", "work", "shared"].join("/"), 'join(root, "..")', '"..", "shared"', '"..", "..", "shared"'];
    const files = [
      ...filesUnder(join(root, "test")),
      ...filesUnder(join(root, "scripts")),
      ...filesUnder(join(root, "bench")),
      join(root, "vitest.config.ts"),
      join(root, "package.json"),
    ];
    expect(files.length).toBeGreaterThan(50);
    const hits = files
      .filter((f) => existsSync(f) && f !== import.meta.filename)
      .flatMap((f) => outside.filter((s) => readFileSync(f, "utf8").includes(s)).map((s) => `${relative(root, f)}: ${s}`));
    expect(hits).toEqual([]);
  });

  it("keeps snapshots whose banners name the spec by its name, no path where it was read", () => {
    for (const file of ["upstream044/types.ts", "upstream050/types.ts"]) {
      expect(readFileSync(join(root, "test", "examples", file), "utf8")).toMatch(/^ \* Spec: (0\.44\.0|api\.yaml)$/m);
    }
  });
});
