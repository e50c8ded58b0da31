import { defineConfig } from "vitest/config";

// Two projects: `unit` (pure logic, in-process servers at most; `npm run test:unit`, under a
// minute) and `e2e` (`*.e2e.test.ts`: child processes, `npm pack`, a browser, whole-suite runs).
const E2E = "test/**/*.e2e.test.ts";

export default defineConfig({
  resolve: { conditions: ["photon-indexer-kit-source"] },
  ssr: { resolve: { conditions: ["photon-indexer-kit-source"] } },
  test: {
    pool: "forks",
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: [E2E], testTimeout: 20_000 } },
      { extends: true, test: { name: "e2e", include: [E2E], testTimeout: 120_000, hookTimeout: 120_000 } },
    ],
  },
});
