/**
 * watch stays flat over days: 200 back-to-back short runs leave its resident memory, open files
 * and live handles where they were after 10 (read from its own /metrics), and between runs it
 * sends nothing and burns (almost) no CPU. bench/watch.ts measures the same figures closely.
 */
import { existsSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { generateDataset } from "../../../reference/index.js";
import { startBroken } from "../support/broken-servers.js";
import { sampleOf, startWatch, totalOf } from "../support/watch-child.js";

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The reference (no defect), counting the requests it answers. */
async function countingReference(): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server = await startBroken(generateDataset(), { wire: (body) => ((requests += 1), body) });
  closers.push(server.close);
  return { url: server.url, requests: () => requests };
}

const runsOf = (text: string) => totalOf(text, "photon_conformance_runs_total");

/** What a leak would grow, as the exposition reads it. */
const footprint = (text: string) => ({
  rss: sampleOf(text, "process_resident_memory_bytes") as number,
  fds: sampleOf(text, "process_open_fds") as number,
  handles: totalOf(text, "nodejs_active_handles"),
});

/** CPU seconds (user + system) a process has used, from /proc/PID/stat (clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
    .replace(/^.*\) /s, "")
    .split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime and stime: the 14th and 15th fields
}

describe("watch over many runs", () => {
  it("holds its memory, files and handles flat across 200 short runs", async () => {
    const target = await countingReference();
    const w = await startWatch(["--url", target.url, "--case", "slot/*", "--every", "10ms"]);
    closers.push(() => w.stop("SIGKILL"));
    const at10 = footprint(await w.waitFor((t) => runsOf(t) >= 10, 120_000));
    const last = await w.waitFor((t) => runsOf(t) >= 200, 300_000);
    const at200 = footprint(last);
    expect(sampleOf(last, 'photon_conformance_runs_total{verdict="conformant"}')).toBe(runsOf(last));
    expect(at200.rss / at10.rss).toBeLessThan(1.5);
    // Read mid-run (runs follow each other), so a run's own sockets and timers come and go: a leak
    // of one a run would add 190, the pool's connections at most its concurrency (4) each.
    expect(at200.fds).toBeLessThanOrEqual(at10.fds + 20);
    expect(at200.handles).toBeLessThanOrEqual(at10.handles + 20);
    expect(await w.stop()).toBe(0);
  }, 400_000);

  // CPU time is read from /proc (Linux); elsewhere the test is skipped, saying why.
  const noProc = !existsSync("/proc/self/stat");
  it.skipIf(noProc)(
    `between runs sends nothing and uses under a tenth of a core${noProc ? " (skipped: no /proc to read CPU time from)" : ""}`,
    async () => {
      const target = await countingReference();
      const w = await startWatch(["--url", target.url, "--case", "slot/*", "--every", "1h"]);
      closers.push(() => w.stop("SIGKILL"));
      await w.waitFor((t) => runsOf(t) === 1, 60_000);
      await sleep(500); // the scrape's own slot read settles
      const [sent, cpu] = [target.requests(), cpuSeconds(w.pid)];
      await sleep(3_000); // idle, and not scraped (a scrape reads the slot)
      expect(target.requests()).toBe(sent);
      expect(cpuSeconds(w.pid) - cpu).toBeLessThan(0.3);
      expect(await w.stop()).toBe(0);
    },
    120_000,
  );
});
