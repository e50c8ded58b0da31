/**
 * `photon-conformance check FILE`: offline checks of captured traffic, one JSON line per exchange
 * (`{"request": …, "response": …, "status": 200}`), each judged by the checks that need no live call.
 * Memory stays flat in the number of lines (CHECK_BOUNDS): an over-long line is counted and skipped
 * unread. Unreadable input is a CaseError (exit 2).
 */
import { open, stat, type FileHandle } from "node:fs/promises";
import { isObject, parseJson, type Json } from "@photon-indexer-kit/runtime";
import type { ConformanceCase } from "./case-format.js";
import { CaseError } from "./case-format.js";
import { ConfErrorCode, ConformanceError } from "./errors.js";
import type { Target } from "./checks/check.js";
import { RootLedger } from "./checks/root-ledger.js";
import { identityOf, judge, summarize } from "./judge.js";
import { fail, noCases, rollUp, type CaseCounts, type CaseResult, type Exchange, type RunSummary, type Tally } from "./results.js";
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
  live: false,
  call: async () => {
    throw new ConformanceError(ConfErrorCode.OFFLINE, "a check that needs a live call does not apply to captured traffic");
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

/** One exchange parsed from its line, or the input finding that refuses the line. */
type Parsed = { readonly entry: Record<string, Json>; readonly status: number } | CaseResult;

/**
 * Parses a line's text and takes it out of the line (`text` becomes ""), synchronously: the
 * line's string must not outlive the parse, or scavenges promote it and peak RSS grows with the input.
 */
function parseLine(line: { readonly n: number; text: string }): Parsed {
  const text = line.text;
  line.text = "";
  let entry: unknown;
  try {
    entry = parseJson(text);
  } catch (err) {
    return inputError(line.n, `not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(entry) || !("request" in entry) || !("response" in entry)) return inputError(line.n, "an exchange needs `request` and `response`");
  const status = entry.status === undefined ? 200 : entry.status;
  if (typeof status !== "number" || !Number.isInteger(status)) return inputError(line.n, "`status` must be an integer");
  return { entry, status };
}

async function judgeEntry(
  line: number,
  file: string,
  entry: Record<string, Json>,
  status: number,
  strict: boolean,
  spec: SpecBundle,
  roots: RootLedger,
): Promise<CaseResult> {
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
  const findings = await judge(testCase, exchange, offline, { strict, requestId, skip: SKIP, spec, roots });
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

/** A line of the input; a consumer may take `text` out (set it to "") to drop the string early. */
export type Line = { readonly n: number; text: string } | { readonly n: number; readonly tooLong: number };

/** Bytes a line buffer keeps between lines; one grown past this for a longer line is dropped after it. */
const KEPT_LINE_BUFFER = 4 * MiB;

/**
 * The lines of a byte stream (LF or CRLF), numbered from 1; a line over `max` bytes is reported by
 * its length, never held. Each chunk is done with before the next is asked for (the source may
 * refill one buffer); a line across chunks is copied into one reused line buffer.
 */
export async function* linesOf(input: AsyncIterable<Buffer>, max: number): AsyncGenerator<Line> {
  let buffer = Buffer.alloc(0);
  let size = 0;
  let over = -1; // bytes of the current line when it is past `max`
  let n = 0;
  const take = (piece: Buffer): void => {
    if (over >= 0) over += piece.length;
    else if (size + piece.length > max) {
      over = size + piece.length;
      size = 0;
    } else if (piece.length > 0) {
      if (size + piece.length > buffer.length) {
        const grown = Buffer.allocUnsafeSlow(Math.min(max, Math.max(2 * buffer.length, size + piece.length, 65536)));
        buffer.copy(grown, 0, 0, size);
        buffer = grown;
      }
      piece.copy(buffer, size);
      size += piece.length;
    }
  };
  const line = (text: string): Line => ({ n: ++n, text: text.endsWith("\r") ? text.slice(0, -1) : text });
  const end = (): Line => {
    const done: Line = over >= 0 ? { n: ++n, tooLong: over } : line(buffer.toString("utf8", 0, size));
    size = 0;
    over = -1;
    if (buffer.length > KEPT_LINE_BUFFER) buffer = Buffer.alloc(0);
    return done;
  };
  for await (const chunk of input) {
    let start = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, start)) {
      // The whole line in this chunk: decoded from it, no copy.
      if (size === 0 && over < 0) yield line(chunk.toString("utf8", start, at));
      else {
        take(chunk.subarray(start, at));
        yield end();
      }
      start = at + 1;
    }
    take(chunk.subarray(start));
  }
  if (size > 0 || over >= 0) yield end();
}

const formatBytes = (n: number) => (n % MiB === 0 ? `${n / MiB} MiB` : `${n} bytes`);

/** Counts per method and check over every case; methods outside the spec are counted together, so the keys stay few. */
function tallier(methods: MethodTable) {
  const blank = noCases;
  const counts = blank();
  const byMethod: Record<string, CaseCounts> = {};
  const byCheck: Record<string, CaseCounts> = {};
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

/**
 * A listed result, copied here: kept objects allocated at the judging's own sites would make V8
 * pretenure those sites, and every later result would then die in the old generation.
 */
function kept(result: CaseResult): CaseResult {
  return { ...result, findings: result.findings.map((f) => ({ ...f })) };
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
  // The file's ledger of roots, as a run's: one root per (tree, rootSeq) across its exchanges, and its Poseidon folds remembered.
  const roots = new RootLedger();
  const totals = tallier(spec.methods);
  const results: CaseResult[] = [];
  let problems = 0;
  let n = 0;
  let done = 0;
  // One read buffer, refilled in place: linesOf is done with each block before asking for the next.
  const file = handle;
  const block = Buffer.allocUnsafeSlow(65536);
  const chunks = async function* (): AsyncGenerator<Buffer> {
    for (;;) {
      let read: number;
      try {
        ({ bytesRead: read } = await file.read(block, 0, block.length, null));
      } catch (err) {
        throw unreadable(options.file, err, n);
      }
      if (read === 0) return;
      yield block.subarray(0, read);
    }
  };
  try {
    for await (const line of linesOf(chunks(), maxLine)) {
      n = line.n;
      let result: CaseResult;
      if ("tooLong" in line) result = inputError(line.n, `longer than the ${formatBytes(maxLine)} line cap (${line.tooLong} bytes): not parsed`);
      else if (line.text.trim() === "") continue;
      else {
        const parsed = parseLine(line);
        result = "entry" in parsed ? await judgeEntry(line.n, options.file, parsed.entry, parsed.status, options.strict ?? false, spec, roots) : parsed;
      }
      totals.add(result);
      const problem = result.status === "fail" || result.status === "warn";
      if (results.length < CHECK_BOUNDS.listedFirst) results.push(kept(result));
      else if (problem && problems < CHECK_BOUNDS.listedProblems) results.push(kept(result)), problems++;
      done++;
      options.onResult?.(result, done);
    }
  } finally {
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
