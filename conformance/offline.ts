/**
 * `photon-conformance check FILE`: offline verification of captured traffic. FILE is JSON
 * lines, one exchange a line: `{"request": …, "response": …, "status": 200}`. Each exchange
 * becomes one case judged by the checks that need no live call (envelope, schema, errors,
 * the page checks, and the semantics one exchange can show).
 *
 * Memory stays flat in the number of lines (CHECK_BOUNDS): the file is split into lines by
 * hand over the byte stream, so a line longer than the cap is counted and skipped (a failing
 * finding naming it) without ever being held whole; lines are parsed only under the cap; and
 * results are tallied per method and check, listed in full only for the first cases and then
 * for failures and warnings up to a bound. Unreadable input is a CaseError (exit 2).
 */
import { open, stat, type FileHandle } from "node:fs/promises";
import { isObject, parseJson, type Json } from "@photon-indexer-kit/runtime";
import type { ConformanceCase } from "./case-format.js";
import { CaseError } from "./case-format.js";
import { ConfErrorCode, ConformanceError } from "./errors.js";
import type { Target } from "./checks/check.js";
import { identityOf, judge, summarize } from "./judge.js";
import { fail, rollUp, type CaseResult, type Exchange, type RunSummary, type Status, type Tally } from "./model.js";
import { deriveExpectation } from "./offline-rules.js";
import { defaultSpec, type SpecBundle } from "./spec-bundle.js";
import type { MethodTable } from "./spec-facts.js";

const MiB = 1024 * 1024;

/** The bounds of `check` (README, Safety). */
export const CHECK_BOUNDS = {
  /** Longest line parsed: the runner's body cap. A longer line is a finding, its bytes skipped. */
  lineBytes: 16 * MiB,
  /** Cases listed in `results` whatever their status. */
  listedFirst: 1000,
  /** After those, failing or warning cases listed (the rest are counted in `tally`). */
  listedProblems: 1000,
} as const;

export interface CheckFileOptions {
  readonly file: string;
  readonly strict?: boolean;
  /** Longest line parsed (default CHECK_BOUNDS.lineBytes). */
  readonly maxLineBytes?: number;
  /** Called with every case judged, listed or not. */
  readonly onResult?: (result: CaseResult, done: number) => void;
  /** The interface the traffic is judged against (`--spec`); default the bundled one. */
  readonly spec?: SpecBundle;
}

const SKIP = new Set(["http"]); // captured traffic keeps no headers

const offline: Target = {
  display: "(captured traffic)",
  call: async () => {
    throw new ConformanceError(ConfErrorCode.OFFLINE, "offline: a check that needs a live call does not apply to captured traffic");
  },
};

function inputError(line: number, message: string): CaseResult {
  const findings = [fail("input", `line ${line}: ${message}`)];
  return { id: `line-${line}`, method: "?", description: `line ${line}`, required: true, findings, exchange: null, status: "fail", durationMs: 0 };
}

function caseOf(
  line: number,
  file: string,
  request: Json,
  response: unknown,
  status: number,
  table: MethodTable,
): { testCase: ConformanceCase; requestId: unknown } {
  const single = isObject(request) ? (request as Record<string, Json>) : null;
  const method = single && typeof single.method === "string" ? single.method : Array.isArray(request) ? "(batch)" : "?";
  const error = isObject(response) && isObject(response.error) ? response.error : null;
  const derived = single && !error ? deriveExpectation(method, single.params, table) : { every: null, semantics: [] };
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

async function judgeLine(line: number, file: string, text: string, strict: boolean, spec: SpecBundle): Promise<CaseResult> {
  let entry: unknown;
  try {
    entry = parseJson(text);
  } catch (err) {
    return inputError(line, `not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(entry) || !("request" in entry) || !("response" in entry)) return inputError(line, "an exchange needs `request` and `response`");
  const status = entry.status === undefined ? 200 : entry.status;
  if (typeof status !== "number" || !Number.isInteger(status)) return inputError(line, "`status` must be an integer");
  const { testCase, requestId } = caseOf(line, file, entry.request as Json, entry.response, status, spec.methods);
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
  const findings = await judge(testCase, exchange, offline, { strict, requestId, skip: SKIP, spec });
  if (!testCase.expect.error && testCase.method !== "(batch)" && !findings.some((f) => f.check === "schema")) {
    findings.push(fail("schema", `method ${JSON.stringify(testCase.method)} is not in the spec: its result cannot be checked`));
  }
  return {
    id: testCase.id,
    method: testCase.method,
    description: testCase.description,
    required: true,
    findings,
    exchange: null,
    status: rollUp(findings, true),
    durationMs: 0,
  };
}

type Line = { readonly n: number; readonly text: string } | { readonly n: number; readonly tooLong: number };

/**
 * The lines of a byte stream (LF or CRLF), numbered from 1. A line of more than `max` bytes is
 * reported by its length, its bytes dropped as they arrive: at most `max` bytes and one chunk
 * are ever held.
 */
export async function* linesOf(input: AsyncIterable<Buffer>, max: number): AsyncGenerator<Line> {
  let parts: Buffer[] = [];
  let size = 0;
  let over = -1; // bytes of the current line when it is past `max`
  let n = 0;
  const take = (piece: Buffer): void => {
    if (over >= 0) over += piece.length;
    else if (size + piece.length > max) {
      over = size + piece.length;
      parts = [];
    } else if (piece.length > 0) {
      parts.push(piece);
      size += piece.length;
    }
  };
  const end = (): Line => {
    n++;
    let line: Line;
    if (over >= 0) line = { n, tooLong: over };
    else {
      const text = (parts.length === 1 ? parts[0]! : Buffer.concat(parts, size)).toString("utf8");
      line = { n, text: text.endsWith("\r") ? text.slice(0, -1) : text };
    }
    parts = [];
    size = 0;
    over = -1;
    return line;
  };
  for await (const chunk of input) {
    let start = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, start)) {
      take(chunk.subarray(start, at));
      yield end();
      start = at + 1;
    }
    take(chunk.subarray(start));
  }
  if (size > 0 || over >= 0) yield end();
}

const formatBytes = (n: number) => (n % MiB === 0 ? `${n / MiB} MiB` : `${n} bytes`);

/** Counts per method and check over every case; methods outside the spec are counted together, so the keys stay few. */
function tallier(methods: MethodTable) {
  const blank = (): Record<Status, number> => ({ pass: 0, fail: 0, warn: 0, skip: 0 });
  const counts = blank();
  const byMethod: Record<string, Record<Status, number>> = {};
  const byCheck: Record<string, Record<Status, number>> = {};
  let cases = 0;
  return {
    counts,
    add(r: CaseResult): void {
      cases++;
      counts[r.status]++;
      const method = Object.hasOwn(methods, r.method) || r.method === "(batch)" || r.method === "?" ? r.method : "(not in the spec)";
      (byMethod[method] ??= blank())[r.status]++;
      for (const f of r.findings) (byCheck[f.check] ??= blank())[f.status]++;
    },
    tally: (listed: number): Tally => ({ cases, unlisted: cases - listed, byMethod, byCheck }),
  };
}

function unreadable(file: string, err: unknown, line?: number): CaseError {
  const why = err instanceof ConformanceError ? err.message : ((err as NodeJS.ErrnoException).code ?? (err as Error).message);
  return new CaseError(file, `cannot read the captured traffic${line ? ` (after line ${line})` : ""}: ${why}`, ConfErrorCode.INPUT);
}

export async function checkFile(options: CheckFileOptions): Promise<RunSummary> {
  const startedAt = new Date();
  const t0 = performance.now();
  const maxLine = options.maxLineBytes ?? CHECK_BOUNDS.lineBytes;
  let handle: FileHandle | undefined;
  try {
    // stat first: opening a FIFO would wait for a writer.
    if (!(await stat(options.file)).isFile()) throw new ConformanceError(ConfErrorCode.INPUT, "not a file");
    handle = await open(options.file, "r");
    if (!(await handle.stat()).isFile()) throw new ConformanceError(ConfErrorCode.INPUT, "not a file");
  } catch (err) {
    await handle?.close();
    throw unreadable(options.file, err);
  }
  const spec = options.spec ?? defaultSpec;
  const totals = tallier(spec.methods);
  const results: CaseResult[] = [];
  let problems = 0;
  let n = 0;
  let done = 0;
  const stream = handle.createReadStream({ highWaterMark: 65536, autoClose: false });
  const chunks = async function* (): AsyncGenerator<Buffer> {
    try {
      yield* stream;
    } catch (err) {
      throw unreadable(options.file, err, n);
    }
  };
  try {
    for await (const line of linesOf(chunks(), maxLine)) {
      n = line.n;
      let result: CaseResult;
      if ("tooLong" in line) result = inputError(line.n, `longer than the ${formatBytes(maxLine)} line cap (${line.tooLong} bytes): not parsed`);
      else if (line.text.trim() === "") continue;
      else result = await judgeLine(line.n, options.file, line.text, options.strict ?? false, spec);
      totals.add(result);
      const problem = result.status === "fail" || result.status === "warn";
      if (results.length < CHECK_BOUNDS.listedFirst) results.push(result);
      else if (problem && problems < CHECK_BOUNDS.listedProblems) results.push(result), problems++;
      done++;
      options.onResult?.(result, done);
    }
  } finally {
    stream.destroy();
    await handle.close();
  }
  const listed = { strict: options.strict ?? false, exchanges: done, listed: results.length };
  const identity = identityOf("check", { fixtures: "none (captured traffic)", strict: options.strict ?? false });
  return summarize(
    results,
    `captured traffic in ${options.file}`,
    startedAt,
    performance.now() - t0,
    listed,
    done > results.length ? { counts: totals.counts, tally: totals.tally(results.length) } : undefined,
    { identity, spec },
  );
}
