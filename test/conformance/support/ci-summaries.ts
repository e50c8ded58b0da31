/**
 * Run summaries for the CI-facing reports: a small one with a case of every kind
 * (failing with two findings, warned, passed, skipped), the run's identity and notes, and a
 * large one (thousands of failing cases with long messages). `extra` text goes into every
 * outside string, e.g. the injections of reporters-safety.ts.
 */
import { noCases, type CaseResult, type Exchange, type RunIdentity, type RunSummary, type Status } from "../../../conformance/results.js";

export const IDENTITY: RunIdentity = {
  command: "run",
  tool: { name: "photon-indexer-kit", version: "0.1.0" },
  selection: { cases: ["account/*"], methods: ["getCompressedAccount"], shard: "2/3" },
  fixtures: "devnet.json",
  strict: true,
};

export function exchange(id: string, extra = ""): Exchange {
  return {
    request: {
      method: "POST",
      url: `http://127.0.0.1:8784/?api-key=***${extra}`,
      headers: { "content-type": "application/json" },
      body: `{"jsonrpc":"2.0","id":1,"method":"${id}${extra}"}`,
    },
    status: 200,
    headers: { "content-type": "application/json" },
    text: `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found${extra}"}}`,
    body: undefined,
    parseError: null,
    error: null,
    startedAt: 0,
    durationMs: 12.5,
    attempts: 1,
  };
}

export function caseResult(id: string, status: Status, extra = "", over: Partial<CaseResult> = {}): CaseResult {
  const findings: CaseResult["findings"] =
    status === "fail"
      ? [
          { check: "errors", status: "fail", message: `wrong error code${extra}`, expected: "-32602", actual: `-32601${extra}` },
          { check: "envelope", status: "fail", message: `id not echoed${extra}` },
          { check: "http", status: "pass", message: "HTTP 200" },
        ]
      : status === "warn"
        ? [{ check: "schema", status: "warn", message: `unknown field \`extra\`${extra}` }]
        : status === "skip"
          ? [{ check: "fixtures", status: "skip", message: `needs fixture \`unknownHash\`, which the profile lacks${extra}` }]
          : [{ check: "http", status: "pass", message: "HTTP 200" }];
  return {
    id: `${id}${extra}`,
    method: "getCompressedAccount",
    description: `a case${extra}`,
    required: true,
    findings,
    exchange: status === "skip" ? null : exchange(id, extra),
    status,
    durationMs: 250,
    file: `conformance/cases/${id}.yaml`,
    ...over,
  };
}

export function summaryOf(results: CaseResult[], extra = "", over: Partial<RunSummary> = {}): RunSummary {
  const counts = noCases();
  for (const r of results) counts[r.status]++;
  return {
    target: `http://127.0.0.1:8784/?api-key=***${extra}`,
    spec: { title: `Photon indexer${extra}`, version: "0.50.0", sha256: "ab".repeat(32) },
    startedAt: "2025-01-01T00:00:00.000Z",
    durationMs: 1234,
    results,
    counts,
    passed: counts.fail === 0,
    options: {},
    identity: IDENTITY,
    notes: [`the batch answer came in another order than Photon's${extra}`],
    ...over,
  };
}

/** One case of each kind. */
export const smallSummary = (extra = ""): RunSummary =>
  summaryOf(
    [
      caseResult("account/bad", "fail", extra),
      caseResult("account/odd", "warn", extra),
      caseResult("account/fine", "pass", extra),
      caseResult("account/needs-hash", "skip", extra),
    ],
    extra,
  );

/** `failing` failing cases with long messages (`repeat` sentences in each outside string), and `skipped` skipped ones. */
export function largeSummary(failing: number, skipped: number, repeat = 40): RunSummary {
  const long = ` ${"a long explanation of what the target answered instead ".repeat(repeat)}`;
  const results = [
    ...Array.from({ length: failing }, (_, i) => caseResult(`bulk/case-${i}`, "fail", long)),
    ...Array.from({ length: skipped }, (_, i) => caseResult(`bulk/skipped-${i}`, "skip")),
  ];
  return summaryOf(results);
}
