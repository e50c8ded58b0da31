/**
 * The long run of generate on mutated specs: many draws per family, and removals or wrong types
 * anywhere in the spec, which may leave it valid and then cost a whole generation.
 */
import fc from "fast-check";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Json } from "@photon-indexer-kit/runtime";
import { root } from "../../helpers/paths.js";
import { untilEnd, whileLive } from "../../helpers/test-signal.js";
import { base, clone, escapeRegExp, pointerOf, refusesEveryFamily, SEED, setAt, shown, useOutput, type Path } from "./mutations.js";

const output = useOutput("load-mutations-e2e");
const { out, specs, generate, expectUntouched } = output;

describe("photon-gen generate with a mutated spec, at length", () => {
  refusesEveryFamily(output, 8, SEED + 1);

  it("removals and wrong types anywhere: exit 0 or 2, never an unhandled error; generated/ untouched whenever it fails", async (context) => {
    const all: Path[] = [];
    (function walk(node: Json, path: Path): void {
      if (node === null || typeof node !== "object") return;
      for (const [key, child] of Object.entries(node)) {
        const p = [...path, Array.isArray(node) ? Number(key) : key];
        all.push(p);
        walk(child, p);
      }
    })(base, []);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...all),
        fc.option(fc.constantFrom<Json>(5, "x", [], {}, null, true), { nil: undefined }),
        whileLive(untilEnd(context), async (path, value) => {
          const doc = clone(base);
          setAt(doc, path, value);
          const file = join(specs, `anywhere-${++run}.yaml`);
          writeFileSync(file, JSON.stringify(doc, null, 1));
          const r = await generate(file);
          const what = `${value === undefined ? "remove" : `set ${JSON.stringify(value)} at`} ${pointerOf(path)}`;
          expect([0, 2], what).toContain(r.code);
          expect(r.stderr, what).not.toMatch(/unexpected error|\n\s+at /);
          if (r.code === 2) {
            expect(r.stderr, what).toMatch(new RegExp(`^photon-gen: ${escapeRegExp(shown(file))}: |^photon-gen: [^\\n]*${escapeRegExp(shown(file))}#`));
            expectUntouched();
          } else {
            // Still a valid spec: generated anew. Put the original output back for the next run.
            rmSync(out, { recursive: true, force: true });
            cpSync(join(root, "generated"), out, { recursive: true });
          }
        }),
      ),
      { seed: SEED, numRuns: 8, endOnFailure: true },
    );
  }, 60_000);
});
