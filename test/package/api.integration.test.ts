/**
 * The programmatic API as the README and docs/ show it: the "inside a vitest test" example
 * (docs/conformance.md), run as it is written, and every `import … from "photon-indexer-kit/…"`
 * in those pages resolved against the package's entries.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { casesDir, readFixtures, runSuite } from "photon-indexer-kit/conformance";
import { startReferenceIndexer, type ReferenceIndexer } from "photon-indexer-kit/reference";
import { root } from "../helpers/paths.js";

// ---- the docs' example, verbatim from here to the matching marker ----
let indexer: ReferenceIndexer;
beforeAll(async () => {
  indexer = await startReferenceIndexer({ host: "127.0.0.1", port: 0 });
});
afterAll(() => indexer.close());

it("answers getCompressedAccountsByOwner as the suite requires", async () => {
  const summary = await runSuite({
    url: indexer.url,
    casesDir, // the corpus shipped with the package
    fixtures: await readFixtures(), // the profile of the reference's default dataset
    methods: ["getCompressedAccountsByOwner"],
  });
  expect(summary.results.filter((r) => r.status === "fail").map((r) => r.id)).toEqual([]);
  expect(summary.passed).toBe(true);
});
// ---- end of the docs' example ----

describe("README and docs", () => {
  const pages = [
    "README.md",
    ...readdirSync(join(root, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  const text = pages.map((page) => readFileSync(join(root, page), "utf8")).join("\n");

  it("shows the example above as it runs here", () => {
    const source = readFileSync(import.meta.filename, "utf8");
    const example = /\/\/ ---- the docs' example[^\n]*\n([\s\S]*?)\/\/ ---- end of the docs' example/.exec(source)![1]!;
    const imports = source.split("\n").filter((l) => l.startsWith("import ") && l.includes('"photon-indexer-kit/'));
    for (const line of [...imports, ...example.trim().split("\n")]) expect(text, line).toContain(line);
  });

  it("imports only what each entry exports", async () => {
    const found = [...text.matchAll(/^import \{([^}]*)\} from "(photon-indexer-kit\/[a-z]+)";$/gm)];
    expect(found.length).toBeGreaterThanOrEqual(4);
    for (const [, names, entry] of found) {
      const module = (await import(entry!)) as Record<string, unknown>;
      for (const name of names!
        .split(",")
        .map((n) => n.trim())
        .filter((n) => n !== "" && !n.startsWith("type ")))
        expect(module[name], `${name} from ${entry}`).toBeDefined();
    }
  });
});
