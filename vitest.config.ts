import { defineConfig } from "vitest/config";

// `unit`: no child process, `npm pack`, browser or whole-corpus run (test/test-projects.test.ts checks).
// `e2e` (`*.e2e.test.ts`) starts when unit is done, so the two never share the cores.
const E2E = "test/**/*.e2e.test.ts";

export default defineConfig({
  resolve: { conditions: ["photon-indexer-kit-source"] },
  ssr: { resolve: { conditions: ["photon-indexer-kit-source"] } },
  test: {
    pool: "forks",
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["test/**/*.test.ts"], exclude: [E2E], testTimeout: 30_000, hookTimeout: 60_000, sequence: { groupOrder: 0 } },
      },
      { extends: true, test: { name: "e2e", include: [E2E], testTimeout: 120_000, hookTimeout: 120_000, sequence: { groupOrder: 1 } } },
    ],
  },
});
