import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { conditions: ["photon-indexer-kit-source"] },
  ssr: { resolve: { conditions: ["photon-indexer-kit-source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    pool: "forks",
  },
});
