/**
 * `photon-conformance check FILE`: offline verification of captured traffic. FILE is JSON
 * lines, one exchange a line: `{"request": …, "response": …, "status": 200}`. Each exchange
 * becomes one case judged by the checks that need no live call (envelope, schema, errors,
 * the page checks, and the semantics one exchange can show). The file is streamed line by
 * line and only findings are kept, so memory stays flat however large the file.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { parseJson } from "../runtime/index.js";
import type { ConformanceCase, Json } from "./case-format.js";
import { CaseError } from "./case-format.js";
import { isObject, type Target } from "./checks/check.js";
import { judge, summarize } from "./judge.js";
import { fail, rollUp, type CaseResult, type Exchange, type RunSummary } from "./model.js";
import { deriveExpectation } from "./offline-rules.js";

export interface CheckFileOptions {
  readonly file: string;
  readonly strict?: boolean;
  readonly onResult?: (result: CaseResult, done: number) => void;
}

const SKIP = new Set(["http"]); // captured traffic keeps no headers

const offline: Target = {
  display: "(captured traffic)",
  call: async () => {
    throw new Error("offline: a check that needs a live call does not apply to captured traffic");
  },
};

function inputError(line: number, message: string): CaseResult {
  const findings = [fail("input", `line ${line}: ${message}`)];
  return { id: `line-${line}`, method: "?", description: `line ${line}`, required: true, findings, exchange: null, status: "fail", durationMs: 0 };
}

function caseOf(line: number, file: string, request: Json, response: unknown, status: number): { testCase: ConformanceCase; requestId: unknown } {
  const single = isObject(request) ? (request as Record<string, Json>) : null;
  const method = single && typeof single.method === "string" ? single.method : Array.isArray(request) ? "(batch)" : "?";
  const error = isObject(response) && isObject(response.error) ? response.error : null;
  const derived = single && !error ? deriveExpectation(method, single.params) : { every: null, semantics: [] };
  const batch = Array.isArray(request) ? request.filter((r) => isObject(r) && "id" in r).map((r) => ({ id: (r as Record<string, Json>).id! })) : null;
  const testCase: ConformanceCase = {
    id: `line-${line}`,
    file,
    description: `${method} exchange at line ${line}`,
    method,
    params: single?.params,
    http: batch ? { method: "POST", path: null, contentType: "application/json", body: null, json: request } : null,
    expect: {
      status,
      error: error ? { code: typeof error.code === "number" ? error.code : Number.NaN, message: null, messageMatches: null } : null,
      result: null,
      every: derived.every,
      semantics: derived.semantics,
      paginate: [],
      emptyBody: false,
      batch,
      contentType: "application/json",
      envelope: true,
      body: undefined,
    },
    required: true,
    recorded: null,
    tags: [],
    skip: null,
  };
  return { testCase, requestId: single ? single.id : undefined };
}

async function judgeLine(line: number, file: string, text: string, strict: boolean): Promise<CaseResult> {
  let entry: unknown;
  try {
    entry = parseJson(text);
  } catch (err) {
    return inputError(line, `not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(entry) || !("request" in entry) || !("response" in entry)) return inputError(line, "an exchange needs `request` and `response`");
  const status = entry.status === undefined ? 200 : entry.status;
  if (typeof status !== "number" || !Number.isInteger(status)) return inputError(line, "`status` must be an integer");
  const { testCase, requestId } = caseOf(line, file, entry.request as Json, entry.response, status);
  const exchange: Exchange = {
    request: { method: "POST", url: "(captured)", headers: {}, body: "" },
    status,
    headers: { "content-type": "application/json" },
    text: "",
    body: entry.response,
    parseError: null,
    error: null,
    startedAt: 0,
    durationMs: 0,
    attempts: 1,
  };
  const findings = await judge(testCase, exchange, offline, { strict, requestId, skip: SKIP });
  if (!testCase.expect.error && testCase.method !== "(batch)" && !findings.some((f) => f.check === "schema")) {
    findings.push(fail("schema", `method ${JSON.stringify(testCase.method)} is not in the spec: its result cannot be checked`));
  }
  return { id: testCase.id, method: testCase.method, description: testCase.description, required: true, findings, exchange: null, status: rollUp(findings, true), durationMs: 0 };
}

export async function checkFile(options: CheckFileOptions): Promise<RunSummary> {
  const startedAt = new Date();
  const t0 = performance.now();
  try {
    if (!(await stat(options.file)).isFile()) throw new Error("not a file");
  } catch (err) {
    throw new CaseError(options.file, `cannot read the captured traffic: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const lines = createInterface({ input: createReadStream(options.file, { encoding: "utf8" }), crlfDelay: Infinity });
  const results: CaseResult[] = [];
  let n = 0;
  for await (const text of lines) {
    n++;
    if (text.trim() === "") continue;
    const result = await judgeLine(n, options.file, text, options.strict ?? false);
    results.push(result);
    options.onResult?.(result, results.length);
  }
  return summarize(results, `captured traffic in ${options.file}`, startedAt, performance.now() - t0, { strict: options.strict ?? false, exchanges: results.length });
}
