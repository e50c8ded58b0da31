/**
 * `watch` in a child process, as an operator runs it: SIGTERM mid-run exits 0 with the port closed,
 * bad command lines are one usage line, an unreachable target is watched on, secrets reach no
 * output, and a hostile target's error codes cannot multiply the series.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { request } from "undici";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { generateDataset } from "../../../reference/index.js";
import { closeListeners, freePort, listen } from "../../helpers/listener.js";
import { useScratch } from "../../helpers/scratch.js";
import { broken, startBroken } from "../support/broken-servers.js";
import { runCli } from "../../helpers/cli.js";
import { sampleOf, startWatch, totalOf, type WatchChild } from "../support/watch-child.js";

const dir = useScratch("watch-cli-e2e");
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
afterAll(closeListeners);

/** A watcher stopped (SIGKILL at worst) after the test, whatever it asserted. */
async function watching(args: string[]): Promise<WatchChild> {
  const w = await startWatch(args);
  closers.push(() => w.stop("SIGKILL"));
  return w;
}

const runsOf = (text: string) => totalOf(text, "photon_conformance_runs_total");
/** The label values of `label` over the samples of `name`. */
const labelValues = (text: string, name: string, label: string): string[] =>
  [...text.matchAll(new RegExp(`^${name}\\{[^}]*${label}="((?:[^"\\\\]|\\\\.)*)"`, "gm"))].map((m) => m[1] as string);

describe("watch in a child process", () => {
  it("SIGTERM in the middle of a run abandons it, closes the metrics port and exits 0", async () => {
    // Every getIndexerSlot answer 300 ms late and counted; 38 cases one at a time: the run lasts seconds.
    let answered = 0;
    const slow = await startBroken(generateDataset(), {
      handlers: (h) => ({ getIndexerSlot: async (p, c) => (await sleep(300), h.getIndexerSlot(p, c)) }),
      wire: (body) => ((answered += 1), body),
    });
    closers.push(slow.close);
    const w = await watching(["--url", slow.url, "--method", "getIndexerSlot", "--concurrency", "1", "--every", "1h"]);
    // Not scraped (a scrape reads the slot), so every answer so far is the run's: it is under way.
    while (answered < 3) await sleep(50);
    expect(w.stdout()).not.toMatch(/verdict/); // and has not ended
    expect(await w.stop("SIGTERM")).toBe(0);
    expect(w.stderr()).toBe("");
    expect(w.stdout()).not.toMatch(/verdict/); // an abandoned run counts for nothing
    await expect(request(w.metricsUrl)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    const after = answered;
    await sleep(1_000);
    expect(answered).toBe(after); // nothing more was sent
  });

  it("needs --url: one usage line, exit 2, nothing served", async () => {
    const { code, stdout, stderr } = await runCli(["watch", "--method", "getIndexerSlot", "--metrics-port", "0"]);
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/watch needs --url/);
  });

  it("refuses a metrics port already taken: one usage line naming it, exit 2", async () => {
    const taken = new URL(await listen((_req, res) => res.end())).port;
    const { code, stdout, stderr } = await runCli(["watch", "--url", "http://127.0.0.1:1/", "--metrics-port", taken]);
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toContain("--metrics-port");
    expect(stderr).toContain(taken);
  });

  it("watches on while the target is unreachable, logging the change once, its key and control characters never printed", async () => {
    const closed = await freePort();
    // An ESC in the URL's path: `new URL` accepts it, a terminal would obey it.
    const url = `http://127.0.0.1:${closed}/\u001b[31mred?api-key=sekrit-KEY-2718`;
    const w = await watching(["--url", url, "--method", "getIndexerSlot", "--every", "200ms"]);
    const text = await w.waitFor((t) => (sampleOf(t, 'photon_conformance_runs_total{verdict="unreachable"}') ?? 0) >= 3, 60_000);
    expect(sampleOf(text, "photon_indexer_up")).toBe(0);
    expect(runsOf(text)).toBe(sampleOf(text, 'photon_conformance_runs_total{verdict="unreachable"}'));
    expect(await w.stop()).toBe(0);
    const lines = w.stdout().trimEnd().split("\n");
    expect(lines[0]).toBe(`metrics on ${w.metricsUrl}`);
    expect(lines[1]).toMatch(
      /^watching http:\/\/127\.0\.0\.1:\d+\/\S+\[31mred\?api-key=\*\*\* every 200ms: 38 cases a run; a method reads 0 after 2 failing runs$/,
    );
    expect(lines.slice(2)).toHaveLength(1);
    expect(lines[2]).toMatch(/^\S+Z verdict unreachable: /);
    expect(w.stdout() + w.stderr() + text).not.toContain("sekrit");
    expect(w.stdout() + w.stderr()).not.toContain("\u001b");
  });

  it("keeps the last and the last failing certificates, and no output carries the key or the header's value", async () => {
    const server = await startBroken(generateDataset(), broken.holdersOutOfOrder);
    closers.push(server.close);
    const reports = join(dir, "certificates");
    const w = await watching([
      "--url",
      `${server.url}?api-key=sekrit-KEY-2718`,
      "--header",
      "Authorization: Bearer sekrit-TOKEN-3141",
      "--method",
      "getCompressedMintTokenHolders",
      "--every",
      "300ms",
      "--report-dir",
      reports,
    ]);
    const text = await w.waitFor((t) => runsOf(t) >= 2, 60_000);
    expect(sampleOf(text, 'photon_conformance_method_conformant{method="getCompressedMintTokenHolders"}')).toBe(0);
    expect(await w.stop()).toBe(0);
    const files = readdirSync(reports).sort();
    expect(files).toEqual(["last-failing.html", "last-failing.json", "last-failing.md", "last.html", "last.json", "last.md"]);
    const written = files.map((f) => readFileSync(join(reports, f), "utf8"));
    expect(written.find((t) => t.includes("getCompressedMintTokenHolders"))).toBeDefined();
    for (const out of [w.stdout(), w.stderr(), text, ...written]) expect(out).not.toMatch(/sekrit/);
  });

  it("bounds the error-code labels a hostile target answers with: the first 32, then other", async () => {
    let n = 0;
    // Every answer an error of a code never seen before; every fifth one 46 digits long.
    const hostile = await listen((req, res) => {
      req.resume().on("end", () => {
        n += 1;
        const code = n % 5 === 0 ? `1${"0".repeat(45)}` : String(-40_000 - n);
        res.writeHead(200, { "content-type": "application/json" }).end(`{"jsonrpc":"2.0","id":1,"error":{"code":${code},"message":"m${n}"}}`);
      });
    });
    const w = await watching(["--url", hostile, "--method", "getCompressedAccount", "--method", "getIndexerSlot", "--every", "100ms"]);
    const text = await w.waitFor((t) => runsOf(t) >= 3, 60_000);
    expect(n).toBeGreaterThan(100);
    const codes = new Set(labelValues(text, "photon_indexer_errors_total", "code"));
    expect(codes.size).toBe(33);
    expect(codes.has("other")).toBe(true);
    for (const code of codes) expect(code.length).toBeLessThanOrEqual(40);
    expect(new Set(labelValues(text, "photon_indexer_errors_total", "method"))).toEqual(new Set(["getCompressedAccount", "getIndexerSlot"]));
  });
});
