/**
 * `photon-conformance serve` as a process (listening line, free port, clean SIGTERM) and the
 * fault switches of startReferenceIndexer (rate limit with Retry-After, latency).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createClient } from "../../generated/index.js";
import { ClientErrorCode, parseJson, postJson } from "../../runtime/index.js";
import { startReferenceIndexer } from "../../reference/serve.js";
import { root } from "../helpers/paths.js";

// Node with tsx's loader, not tsx's CLI: the CLI relays SIGTERM only if the child confirms it within
// 30 ms, then kills it (exit 143), so a child busy for a moment (the background tree build, a loaded
// machine) would fail the test for tsx's reason, not ours. The installed bin is plain node too.
const tsx = ["--import", "tsx/esm"];

describe("photon-conformance serve", () => {
  it("prints `listening on URL` first, serves, and exits 0 on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      [
        ...tsx,
        "--conditions=photon-indexer-kit-source",
        join(root, "scripts", "dev-conformance.mts"),
        "serve",
        "--port",
        "0",
        "--seed",
        "3",
        "--accounts",
        "12000",
      ],
      {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    try {
      const lines = createInterface({ input: child.stdout! });
      const [first] = (await once(lines, "line")) as [string];
      const m = /^listening on (http:\/\/127\.0\.0\.1:(\d+)\/)$/.exec(first);
      expect(m, first).not.toBeNull();
      expect(Number(m![2])).toBeGreaterThan(0);
      const slot = await createClient({ url: m![1]! }).getIndexerSlot();
      expect(typeof slot === "number" || typeof slot === "bigint").toBe(true);
      child.kill("SIGTERM");
      const [code] = (await once(child, "exit")) as [number | null];
      expect(code).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  }, 30_000);

  it("refuses a bad option with exit 2", async () => {
    const child = spawn(
      process.execPath,
      [...tsx, "--conditions=photon-indexer-kit-source", join(root, "scripts", "dev-conformance.mts"), "serve", "--port", "-1"],
      { cwd: root, stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(2);
    expect(stderr).toContain("--port must be an integer");
  }, 30_000);
});

describe("fault switches", () => {
  it("--rate-limit answers HTTP 429 with a JSON-RPC error body and Retry-After, which a client waits out", async () => {
    const indexer = await startReferenceIndexer({ port: 0, accounts: 12_000, rateLimit: 2 });
    try {
      const body = '{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}';
      const answers = await Promise.all([1, 2, 3].map(() => postJson(indexer.url, body, { retry: false })));
      const limited = answers.filter((a) => a.status === 429);
      expect(limited).toHaveLength(1);
      expect(limited[0]!.headers["retry-after"]).toMatch(/^[1-9]\d*$/);
      expect(parseJson(limited[0]!.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32429, message: "Exceeded rate limit." }, id: null });
      // Three calls in the same second as the three above: all limited, all retried after Retry-After.
      const client = createClient({ url: indexer.url, retry: { retries: 3, maxDelayMs: 2000 } });
      const slots = await Promise.all([client.getIndexerSlot(), client.getIndexerSlot(), client.getIndexerSlot()]);
      expect(slots).toEqual([indexer.store.slot, indexer.store.slot, indexer.store.slot]);
    } finally {
      await indexer.close();
    }
  }, 20_000);

  it("--latency delays every answer (a client with a shorter timeout gives up)", async () => {
    const indexer = await startReferenceIndexer({ port: 0, accounts: 12_000, latencyMs: 400 });
    try {
      const impatient = createClient({ url: indexer.url, timeoutMs: 50, retry: false });
      await expect(impatient.getIndexerSlot()).rejects.toMatchObject({ code: ClientErrorCode.TIMEOUT });
      const patient = createClient({ url: indexer.url, timeoutMs: 5000 });
      expect(await patient.getIndexerSlot()).toBe(indexer.store.slot);
    } finally {
      await indexer.close();
    }
  }, 20_000);
});
