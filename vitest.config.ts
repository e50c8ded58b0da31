import { defineConfig } from "vitest/config";

// `unit`: one module at a time, in process, quick (`npm run test:unit`).
// `integration` (`*.integration.test.ts`): in process, the product whole (a served reference, many cases).
// `e2e` (`*.e2e.test.ts`): child processes, a browser, the whole corpus; `pack`: `npm pack`.
// Neither unit nor integration spawns, packs or drives a browser (test/test-projects.test.ts checks).
// The projects run one after another, so they never share the cores.
const INTEGRATION = "test/**/*.integration.test.ts";
const E2E = "test/**/*.e2e.test.ts";
const PACKS = "test/package/consumer.e2e.test.ts";

export default defineConfig({
  resolve: { conditions: ["photon-indexer-kit-source"] },
  ssr: { resolve: { conditions: ["photon-indexer-kit-source"] } },
  test: {
    pool: "forks",
    // Both cores: the tests assert no timings, and their timeouts allow for a loaded machine.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: [INTEGRATION, E2E],
          // Files share one module graph per worker: the source is imported once, not per file.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: "integration", include: [INTEGRATION], isolate: false, testTimeout: 60_000, hookTimeout: 60_000, sequence: { groupOrder: 1 } },
      },
      { extends: true, test: { name: "e2e", include: [E2E], exclude: [PACKS], testTimeout: 120_000, hookTimeout: 120_000, sequence: { groupOrder: 2 } } },
      // Alone and last: `npm pack` rebuilds dist/ in place, which the other files run from.
      { extends: true, test: { name: "pack", include: [PACKS], testTimeout: 300_000, hookTimeout: 300_000, sequence: { groupOrder: 3 } } },
    ],
  },
});
