/**
 * docs/prometheus/alerts.yml passes `promtool check rules` and its unit tests (alerts.test.yml),
 * and a real Prometheus started by test/helpers/prometheus.ts scrapes a hand-written exposition,
 * answers queries about it and evaluates the rules against it. Skipped, saying why, without
 * Debian's prometheus package.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeListeners, listen } from "../../helpers/listener.js";
import { type Prometheus, prometheusSkipReason, promtool, SCRAPE_JOB, startPrometheus } from "../../helpers/prometheus.js";

const skipReason = prometheusSkipReason();
const RULES = "docs/prometheus/alerts.yml";

describe.skipIf(skipReason !== null)(`the Prometheus alert rules${skipReason === null ? "" : ` (skipped: ${skipReason})`}`, () => {
  it("pass promtool check rules", async () => {
    const { code, stdout, stderr } = await promtool(["check", "rules", RULES]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toContain("SUCCESS: 5 rules found");
  });

  it("pass their promtool unit tests (each alert silent just before it is due, firing from then on)", async () => {
    const { code, stdout, stderr } = await promtool(["test", "rules", "docs/prometheus/alerts.test.yml"]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toContain("SUCCESS");
  });
});

describe.skipIf(skipReason !== null)(`a real Prometheus scraping a hand-written exposition${skipReason === null ? "" : ` (skipped: ${skipReason})`}`, () => {
  let prometheus: Prometheus | undefined;
  let target = "";
  /** The probe gauge's value, changed by the test between scrapes. */
  let probe = 42;

  beforeAll(async () => {
    const base = await listen((req, res) => {
      if (req.url !== "/metrics") {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
      res.end(
        [
          "# HELP harness_probe A value the test sets.",
          "# TYPE harness_probe gauge",
          `harness_probe{kind="self-test"} ${probe}`,
          "# HELP photon_conformance_method_conformant 1 when the method is conformant.",
          "# TYPE photon_conformance_method_conformant gauge",
          'photon_conformance_method_conformant{method="getSlot"} 0',
          'photon_conformance_method_conformant{method="getIndexerHealth"} 1',
          "",
        ].join("\n"),
      );
    });
    target = new URL(base).host;
    prometheus = await startPrometheus({ targets: [target], scrapeIntervalMs: 500, ruleFiles: [RULES] });
  });

  afterAll(async () => {
    await prometheus?.close();
    await closeListeners();
  });

  it("reads a scraped gauge back through the query API, with the target's labels, and follows its changes", async () => {
    const p = prometheus as Prometheus;
    const [first, ...rest] = await p.waitFor("harness_probe", (r) => r.length > 0, 20_000);
    expect(rest).toEqual([]);
    expect(first?.metric).toEqual({ __name__: "harness_probe", kind: "self-test", job: SCRAPE_JOB, instance: target });
    expect(first?.value).toBe(42);

    probe = 7;
    const [changed] = await p.waitFor("harness_probe", (r) => r[0]?.value === 7, 20_000);
    expect(changed?.metric.instance).toBe(target);
    expect(await p.query(`up{instance="${target}"}`)).toMatchObject([{ value: 1 }]);
    expect(await p.query("scalar(harness_probe) * 2")).toMatchObject([{ metric: {}, value: 14 }]);
  });

  it("loads alerts.yml and holds only the non-conformant method's alert pending (its for: 10m not yet elapsed)", async () => {
    const p = prometheus as Prometheus;
    const alerts = await p.waitFor("ALERTS", (r) => r.length > 0, 20_000);
    expect(alerts.map((a) => a.metric)).toEqual([
      {
        __name__: "ALERTS",
        alertname: "PhotonMethodNotConformant",
        alertstate: "pending",
        severity: "critical",
        method: "getSlot",
        job: SCRAPE_JOB,
        instance: target,
      },
    ]);
  });
});
