/**
 * Excerpts kept for reports hold only their own characters: a run's results must not keep every
 * answer alive (V8's `slice` shares its source). Retention is measured on the heap after a full
 * collection, with a control that shows the same measure catches a plain `slice`.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { excerpt } from "../../conformance/excerpt.js";
import { createTarget, MAX_KEPT_TEXT } from "../../conformance/target.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Heap bytes still used after `keep()` made its values and dropped everything else. */
function retainedBy<T>(keep: () => T[]): { kept: T[]; bytes: number } {
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = keep();
  gc();
  return { kept, bytes: process.memoryUsage().heapUsed - before };
}

const MB = 1 << 20;
/** A distinct 2 MB one-byte text (no two share storage). */
const big = (i: number): string => `${i}:${"x".repeat(2 * MB)}`;

describe("excerpt", () => {
  it("returns short text itself and cuts long text at max, marked with …", () => {
    expect(excerpt("short", 10)).toBe("short");
    expect(excerpt("0123456789", 10)).toBe("0123456789");
    expect(excerpt("0123456789abc", 10)).toBe("0123456789…");
  });

  it("keeps the code units as cut, a split surrogate pair included", () => {
    const text = `${"a".repeat(9)}😀tail`;
    const cut = excerpt(text, 10);
    expect(cut).toBe(`${text.slice(0, 10)}…`);
    expect(cut.charCodeAt(9)).toBe(0xd83d);
  });

  it("holds nothing of its source, where a plain slice holds the whole text", () => {
    const sliced = retainedBy(() => Array.from({ length: 20 }, (_, i) => big(i).slice(0, 4096)));
    // The control: 20 slices of 4 KB keep 20 × 2 MB alive.
    expect(sliced.bytes).toBeGreaterThan(30 * MB);
    const copied = retainedBy(() => Array.from({ length: 20 }, (_, i) => excerpt(big(i), 4096)));
    expect(copied.kept[3]).toBe(`${big(3).slice(0, 4096)}…`);
    expect(copied.bytes).toBeLessThan(4 * MB);
  });
});

describe("the target's exchanges", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    let n = 0;
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(`{"jsonrpc":"2.0","id":1,"result":"${big(n++)}"}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("keep an excerpt of each answer that does not hold the answer", async () => {
    const target = createTarget({ url, headers: {}, timeoutMs: 10_000, maxBodyBytes: 16 * MB, maxRps: null, retry: false });
    const exchanges = [];
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 16; i++) exchanges.push({ ...(await target.call("getIndexerHealth", undefined)), body: undefined });
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(exchanges[5]!.bytes).toBe(2 * MB + 38);
    expect(exchanges[5]!.text).toBe(`{"jsonrpc":"2.0","id":1,"result":"5:${"x".repeat(MAX_KEPT_TEXT - 36)}…`);
    // 16 answers of 2 MB: a slice would keep 32 MB; the excerpts keep 16 × 8 KB.
    expect(grown).toBeLessThan(8 * MB);
  });
});
