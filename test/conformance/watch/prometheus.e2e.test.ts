/**
 * A real Prometheus (Debian's package) scrapes two `watch` processes: one of a reference with one
 * defect, whose broken method reads 1 after its first failing run and 0 from the second
 * (--confirm 2) while the others stay 1; one of a reference whose chain moves under the cases,
 * which never reads 0 and whose slot advances. The alert rules of docs/ run on what it scraped,
 * and `promtool check metrics` accepts each exposition. Skipped, saying why, without the package.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDataset } from "../../../reference/index.js";
import { type ReferenceIndexer, startReferenceIndexer } from "../../../reference/serve.js";
import { freePort } from "../../helpers/listener.js";
import { type Prometheus, prometheusSkipReason, promtool, type Series, startPrometheus } from "../../helpers/prometheus.js";
import { broken, type BrokenServer, startBroken } from "../support/broken-servers.js";
import { startWatch, type WatchChild } from "../support/watch-child.js";

const skipReason = prometheusSkipReason();
const RULES = "docs/prometheus/alerts.yml";
const BROKEN_METHOD = "getCompressedMintTokenHolders";
const MOVING_METHODS = ["getCompressedAccountsByOwner", "getCompressedBalanceByOwner", "getIndexerSlot"];

/** Each scrape's value of the series, by the scrape's time (a scrape's samples share it). */
const byScrape = (series: Series[]): Map<number, number> => {
  const out = new Map<number, number>();
  for (const s of series) for (const p of s.points) out.set(p.at, (out.get(p.at) ?? 0) + p.value);
  return out;
};

describe.skipIf(skipReason !== null)(`watch scraped by a real Prometheus${skipReason === null ? "" : ` (skipped: ${skipReason})`}`, () => {
  let prometheus: Prometheus | undefined;
  let brokenServer: BrokenServer | undefined;
  let moving: ReferenceIndexer | undefined;
  const watchers: WatchChild[] = [];
  /** `instance` labels: the two watchers' metrics endpoints. */
  let ofBroken = "";
  let ofMoving = "";

  beforeAll(async () => {
    brokenServer = await startBroken(generateDataset(), broken.holdersOutOfOrder);
    moving = await startReferenceIndexer({ port: 0, live: { intervalMs: 20 } });
    await moving.warmed; // the chain moves once its trees are built
    // Prometheus first, on ports chosen now, so it scrapes the first runs' outcome too.
    const [brokenPort, movingPort] = [await freePort(), await freePort()];
    ofBroken = `127.0.0.1:${brokenPort}`;
    ofMoving = `127.0.0.1:${movingPort}`;
    prometheus = await startPrometheus({ targets: [ofBroken, ofMoving], scrapeIntervalMs: 500, ruleFiles: [RULES] });
    const broke = ["--url", brokenServer.url, "--method", BROKEN_METHOD, "--method", "getIndexerSlot", "--every", "6s", "--confirm", "2"];
    watchers.push(await startWatch([...broke, "--metrics-port", String(brokenPort)]));
    const move = ["--url", moving.url, ...MOVING_METHODS.flatMap((m) => ["--method", m]), "--every", "2s"];
    watchers.push(await startWatch([...move, "--metrics-port", String(movingPort)]));
  }, 120_000);

  afterAll(async () => {
    for (const w of watchers.splice(0)) expect(await w.stop()).toBe(0);
    await prometheus?.close();
    await brokenServer?.close();
    await moving?.close();
  });

  it("reads the broken method 1 after one failing run and 0 from the second; the correct method stays 1", async () => {
    const p = prometheus as Prometheus;
    const held = `{method="${BROKEN_METHOD}",instance="${ofBroken}"}`;
    await p.waitFor(`photon_conformance_method_conformant${held}`, (r) => r[0]?.value === 0, 90_000);
    // Paired scrape by scrape: what the gauges read after each number of completed runs.
    const runs = byScrape(await p.series(`photon_conformance_runs_total{instance="${ofBroken}"}[10m]`));
    const conformant = byScrape(await p.series(`photon_conformance_method_conformant${held}[10m]`));
    const failing = byScrape(await p.series(`photon_conformance_method_failing_runs${held}[10m]`));
    const after = new Map<number, Set<string>>();
    for (const [at, n] of runs) after.set(n, (after.get(n) ?? new Set()).add(`conformant ${conformant.get(at)}, failing runs ${failing.get(at)}`));
    expect(after.get(1)).toEqual(new Set(["conformant 1, failing runs 1"]));
    expect(after.get(2)).toEqual(new Set(["conformant 0, failing runs 2"]));
    const other = await p.query(`min_over_time(photon_conformance_method_conformant{method="getIndexerSlot",instance="${ofBroken}"}[10m])`);
    expect(other.map((s) => s.value)).toEqual([1]);
    expect((await p.query(`photon_conformance_runs_total{instance="${ofBroken}"}`)).map((s) => s.metric.verdict)).toEqual(["not_conformant"]);
  }, 120_000);

  it("never reads 0 for a correct reference whose chain moves, and sees its slot advance", async () => {
    const p = prometheus as Prometheus;
    await p.waitFor(`photon_conformance_runs_total{instance="${ofMoving}",verdict="conformant"}`, (r) => (r[0]?.value ?? 0) >= 3, 90_000);
    const lowest = await p.query(`min_over_time(photon_conformance_method_conformant{instance="${ofMoving}"}[10m])`);
    expect(Object.fromEntries(lowest.map((s) => [s.metric.method, s.value]))).toEqual(Object.fromEntries(MOVING_METHODS.map((m) => [m, 1])));
    expect(await p.query(`photon_conformance_runs_total{instance="${ofMoving}",verdict!="conformant"}`)).toEqual([]);
    expect((await p.query(`photon_indexer_up{instance="${ofMoving}"}`)).map((s) => s.value)).toEqual([1]);
    await p.waitFor(`photon_indexer_slot_advance_rate{instance="${ofMoving}"}`, (r) => (r[0]?.value ?? 0) > 0, 30_000);
    expect((await p.query(`delta(photon_indexer_slot{instance="${ofMoving}"}[10m])`))[0]?.value).toBeGreaterThan(0);
  }, 120_000);

  it("fires docs' alert rules on what it scraped: the broken method and the frozen slot pending, nothing of the moving one", async () => {
    const p = prometheus as Prometheus;
    const alerts = await p.waitFor(`ALERTS{instance="${ofBroken}"}`, (r) => r.length >= 2, 60_000);
    expect(alerts.map((a) => [a.metric.alertname, a.metric.method, a.metric.alertstate]).sort()).toEqual([
      ["PhotonIndexerSlotStalled", undefined, "pending"],
      ["PhotonMethodNotConformant", BROKEN_METHOD, "pending"],
    ]);
    expect(await p.query(`ALERTS{instance="${ofMoving}"}`)).toEqual([]);
  }, 120_000);

  it("serves an exposition `promtool check metrics` accepts, from both watchers", async () => {
    for (const w of watchers) {
      const text = await w.scrape();
      expect(text).toContain("# TYPE photon_indexer_request_duration_seconds histogram");
      expect(text).toContain("process_resident_memory_bytes ");
      expect(await promtool(["check", "metrics"], 60_000, text)).toEqual({ code: 0, stdout: "", stderr: "" });
    }
  });
});
