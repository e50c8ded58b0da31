/**
 * The scheduler: selects cases (method, glob, shard), sends each with bounded concurrency,
 * runs every applicable check, and adds the run-wide slot check. Returns findings only;
 * reporters render them and the CLI turns them into an exit code.
 */
import picomatch from "picomatch";
import { isObject, parseJson, PhotonError, stringifyJson, type Json } from "@photon-indexer-kit/runtime";
import { resultSource, type ConformanceCase, type Fixtures } from "./case-format.js";
import { ConfErrorCode, UsageError } from "./errors.js";
import { identityOf, judge, summarize } from "./judge.js";
import { canonicalMethod, itemsOf, lookupKeyOf, methodInfo, pageOf, unregisteredMethods, type MethodTable } from "./spec-facts.js";
import { rollUp, skip, type CaseResult, type Exchange, type Finding, type RunSummary } from "./results.js";
import { decide, OPTED_OUT } from "./verdict.js";
import { deadline, formatDuration } from "./pool.js";
import { openSession, SESSION_DEFAULTS, shardOf, type Session } from "./session.js";
import { defaultSpec, type SpecBundle } from "./spec-bundle.js";
import { RootLedger } from "./checks/root-ledger.js";
import { movedNote } from "./same-slot.js";
import { caseSlot, SLOT_ORDER_ID, slotOrder } from "./slot-order.js";
import type { RawTarget } from "./target.js";

export { UnreachableError } from "./errors.js";
export { acceptsConnections, ensureReachable, selectCases, shardOf } from "./session.js";
export { SLOT_ORDER_ID, slotOrder } from "./slot-order.js";

export interface RunOptions {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly casesDir: string;
  readonly fixtures: Fixtures;
  readonly methods?: readonly string[];
  readonly caseGlobs?: readonly string[];
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly strict?: boolean;
  readonly maxRps?: number | null;
  readonly shard?: { readonly index: number; readonly total: number } | null;
  /** How the reports name the fixtures profile: the file as given, `reference` (the default) or `discovered`. */
  readonly fixturesName?: string;
  /** Time allowed for waiting out 429s per request (default 10 s). */
  readonly retryBudgetMs?: number;
  readonly maxBodyBytes?: number;
  /** The whole run's deadline (default SESSION_DEFAULTS.maxTimeMs): then cases in flight stop and the rest are not run. */
  readonly maxTimeMs?: number;
  /** One case's deadline, all its requests (walks included) together (default SESSION_DEFAULTS.caseTimeMs). */
  readonly caseTimeMs?: number;
  /**
   * When `maxTimeMs` started counting (`performance.now()`): the CLI's command start, so the
   * deadline covers what came before the run (`--discover`). Default: when runSuite starts.
   */
  readonly since?: number;
  readonly onResult?: (result: CaseResult, done: number, total: number) => void;
  /** Fail fast: after this many failed cases no case starts; the rest are reported as not run. */
  readonly maxFailures?: number;
  /** Stops the run (Ctrl-C): no case starts, the ones in flight are given up, the partial summary is returned. */
  readonly signal?: AbortSignal;
  /**
   * `--skip-method`: methods (or aliases; see `checkSkipMethods`) opted out by the user: their
   * cases are not run (reported skipped) and not serving them does not fail the verdict.
   */
  readonly skipMethods?: readonly string[];
  /**
   * The interface judged against (`--spec`; spec-bundle.ts `loadSpecBundle`): its table, validators
   * and identity. Default the bundled one; a given session's own wins.
   */
  readonly spec?: SpecBundle;
  /** Add the spec-derived cases (derive.ts) to the corpus's, as the CLI does (default: the corpus's only). */
  readonly derived?: boolean;
}

/**
 * Whether a selection holds the run-wide case: no `--method` (it is about no method), a
 * `--case` glob matching its id if globs are given, and, sharded, the one shard its id hashes
 * to, as any case's does; so shards still add up to the whole run.
 */
export function selectsRunWide(options: Pick<RunOptions, "methods" | "caseGlobs" | "shard">): boolean {
  if (options.methods?.length) return false;
  if (options.caseGlobs?.length && !picomatch([...options.caseGlobs])(SLOT_ORDER_ID)) return false;
  return !options.shard || shardOf(SLOT_ORDER_ID, options.shard.total) === options.shard.index - 1;
}

/** The body a case sends (a fresh id for JSON-RPC cases) and the id it carries. */
export function requestOf(c: ConformanceCase, target: RawTarget): { body: string; id: unknown } {
  if (c.http) {
    const body = c.http.body ?? (c.http.json === undefined ? "" : stringifyJson(c.http.json));
    let id: unknown;
    try {
      const parsed = body ? parseJson(body) : undefined;
      id = isObject(parsed) && "id" in parsed ? parsed.id : undefined;
    } catch {
      id = null; // a body that is not JSON is answered with id null
    }
    return { body, id };
  }
  const id = target.nextId();
  const envelope: Record<string, Json> = { jsonrpc: "2.0", id, method: c.method };
  if (c.params !== undefined) envelope.params = c.params;
  return { body: stringifyJson(envelope), id };
}

/** JSON-RPC's "Method not found": the answer of a server that does not register a method. */
export const METHOD_NOT_FOUND = -32601;

/** The reason `--skip-method` gives in the certificate. */
export const SKIP_METHOD_REASON = "--skip-method";

/** The reason a method the spec marks `x-registered: false` is opted out by default. */
export const unregisteredReason = (version: string = defaultSpec.spec.version): string => `not registered by Photon ${version} (x-registered: false)`;

/**
 * `--skip-method` names, each checked against the method table and its aliases: the method each
 * stands for, or a UsageError (exit 2) naming the first unknown one.
 */
export function checkSkipMethods(
  names: readonly string[],
  table: MethodTable = defaultSpec.methods,
  spec: { readonly title: string; readonly version: string } = defaultSpec.spec,
): string[] {
  return names.map((name) => {
    const method = canonicalMethod(name, table);
    if (method === undefined) throw new UsageError(`--skip-method ${name}: the spec (${spec.title} ${spec.version}) has no such method or alias`);
    return method;
  });
}

/**
 * The opted-out methods and why: the spec's `x-registered: false` ones by default, and each
 * `--skip-method` (which wins: its cases are not run).
 */
export function optOuts(
  skipMethods: readonly string[] = [],
  table: MethodTable = defaultSpec.methods,
  version: string = defaultSpec.spec.version,
  title: string = defaultSpec.spec.title,
): Map<string, string> {
  const out = new Map<string, string>(unregisteredMethods(table).map((m) => [m, unregisteredReason(version)]));
  for (const m of checkSkipMethods(skipMethods, table, { title, version })) out.set(m, SKIP_METHOD_REASON);
  return out;
}

/** A case of a method opted out with --skip-method: not run, reported skipped. */
function optedOutCase(c: ConformanceCase, method: string): CaseResult {
  return unstarted(c, [skip(OPTED_OUT, `${method} is opted out (--skip-method): not run`)], "skip");
}

/** The result of a case that never sent a request (or whose requests were given up). */
function unstarted(c: ConformanceCase, findings: Finding[], status: CaseResult["status"]): CaseResult {
  return { id: c.id, method: c.method, description: c.description, required: c.required, findings, exchange: null, status, durationMs: 0, ...resultSource(c) };
}

/**
 * The one notion of a case the run did not run: left unstarted by a stop (Ctrl-C, --max-time,
 * --max-failures) or given up by Ctrl-C. Neither failed nor skipped: its own status, `why` kept.
 */
export function notRun(c: ConformanceCase, why: string): CaseResult {
  return { ...unstarted(c, [], "notRun"), notRun: why };
}

/** Whether `signal` fired because the user stopped the run (Ctrl-C, or a caller's own uncoded reason), not a deadline. */
function stoppedByUser(signal: AbortSignal): boolean {
  return signal.aborted && (!(signal.reason instanceof PhotonError) || signal.reason.code === ConfErrorCode.INTERRUPTED);
}

/**
 * Whether the case's own call of its method was served: the case sends the call (a JSON-RPC
 * case, or a raw body that is one call of the case's method or an alias of it) and an answer
 * came; false when the answer is -32601 Method not found. Undefined when the case made no such call.
 */
export function servedBy(c: ConformanceCase, exchange: Exchange, table: MethodTable = defaultSpec.methods): boolean | undefined {
  if (c.http) {
    // A raw body counts when it is a plain JSON-RPC POST of one call of the case's method (not a batch, another path or content type).
    const { method, path, contentType, body, json } = c.http;
    const plain = method === "POST" && path === null && contentType === "application/json" && body === null;
    if (!plain || !isObject(json) || typeof json.method !== "string") return undefined;
    if (canonicalMethod(json.method, table) !== (canonicalMethod(c.method, table) ?? c.method)) return undefined;
  }
  if (exchange.error || exchange.status === 0) return undefined;
  const body = exchange.body;
  return !(isObject(body) && isObject(body.error) && body.error.code === METHOD_NOT_FOUND);
}

/** A case that cannot run against this target (a fixture it needs is missing). */
export function skipped(c: ConformanceCase): CaseResult {
  return {
    id: c.id,
    method: c.method,
    description: c.description,
    required: c.required,
    findings: [skip("fixtures", c.skip ?? "skipped")],
    exchange: null,
    status: "skip",
    durationMs: 0,
    ...resultSource(c),
  };
}

/**
 * The target as one case sees it: once `signal` fires no request is sent, and one in flight
 * is aborted (an exchange with no answer naming the deadline, at once).
 */
function within(target: RawTarget, signal: AbortSignal): RawTarget {
  const stub = (method: string, body: string, started: number): Exchange => ({
    request: { method, url: target.display, headers: {}, body },
    status: 0,
    headers: {},
    text: "",
    body: undefined,
    parseError: null,
    error: `${(signal.reason as Error).message}; request not sent or given up`,
    // A deadline's or Ctrl-C's reason is coded; a caller's own abort reason counts as a stop.
    errorCode: signal.reason instanceof PhotonError ? signal.reason.code : ConfErrorCode.INTERRUPTED,
    startedAt: started,
    durationMs: performance.now() - started,
    attempts: 0,
  });
  const bounded = (method: string, body: string, send: () => Promise<Exchange>): Promise<Exchange> => {
    const started = performance.now();
    if (signal.aborted) return Promise.resolve(stub(method, body, started));
    return new Promise<Exchange>((resolve) => {
      const onAbort = () => resolve(stub(method, body, started));
      signal.addEventListener("abort", onAbort, { once: true });
      send().then(
        (exchange) => (signal.removeEventListener("abort", onAbort), resolve(exchange)),
        () => (signal.removeEventListener("abort", onAbort), resolve(stub(method, body, started))),
      );
    });
  };
  return {
    display: target.display,
    nextId: () => target.nextId(),
    send: (http, body, _own, sent) => bounded(http?.method ?? "POST", body, () => target.send(http, body, signal, sent)),
    call: (method, params) => bounded("POST", "", () => target.call(method, params, signal)),
  };
}

/** What a result keeps of its exchange once judged: the body only as far as the run-wide slot check reads it. */
function retained(exchange: Exchange, c: ConformanceCase, table: MethodTable): Exchange {
  const slot = caseSlot(exchange, c.method, c.http !== null, table);
  return { ...exchange, body: slot === null ? undefined : { result: { context: { slot } } } };
}

/** Whether a case's own request is sent to provoke an error: a raw HTTP request, an expected error, a batch expecting one. */
function isProbe(c: ConformanceCase): boolean {
  const expectsError = (m: unknown) => typeof m === "object" && m !== null && "error" in m;
  return c.http !== null || c.expect.error !== null || (c.expect.batch ?? []).some(expectsError);
}

async function runCase(
  c: ConformanceCase,
  target: RawTarget,
  strict: boolean,
  signal: AbortSignal,
  observe?: (c: ConformanceCase, exchange: Exchange) => void,
  skipMethods: ReadonlySet<string> = new Set(),
  run: { readonly spec: SpecBundle; readonly roots?: RootLedger } = { spec: defaultSpec },
): Promise<CaseResult> {
  const { spec, roots } = run;
  const method = canonicalMethod(c.method, spec.methods);
  if (method !== undefined && skipMethods.has(method)) return optedOutCase(c, method);
  if (c.skip) return skipped(c);
  const started = performance.now();
  const bounded = within(target, signal);
  const { body, id } = requestOf(c, bounded);
  const exchange = await bounded.send(c.http, body, undefined, { method: c.method, probe: isProbe(c) });
  observe?.(c, exchange);
  const findings = await judge(c, exchange, bounded, { strict, requestId: id, spec, ...(roots ? { roots } : {}) });
  // Given up by Ctrl-C while it ran: what it found may be the stop's doing, so it counts as not run.
  if (stoppedByUser(signal)) return notRun(c, `given up: ${(signal.reason as Error).message}`);
  return {
    id: c.id,
    method: c.method,
    description: c.description,
    required: c.required,
    findings,
    exchange: retained(exchange, c, spec.methods),
    status: rollUp(findings, c.required),
    durationMs: performance.now() - started,
    ...resultSource(c),
    ...withServed(servedBy(c, exchange, spec.methods)),
  };
}

const withServed = (served: boolean | undefined): { served?: boolean } => (served === undefined ? {} : { served });

/**
 * Runs the selected cases against `options.url`. Given an open `session` (the CLI's: its
 * targets, cases and settings), runs that instead of opening one from `options`; the caller
 * closes it.
 */
export async function runSuite(options: RunOptions, given?: Session): Promise<RunSummary> {
  const startedAt = new Date();
  const t0 = performance.now();
  const session = given ?? (await openSession({ ...options, targets: [{ url: options.url, headers: options.headers }] }));
  try {
    const target = session.targets[0]!;
    const cases = session.cases;
    const maxTimeMs = options.maxTimeMs ?? SESSION_DEFAULTS.maxTimeMs;
    const caseTimeMs = options.caseTimeMs ?? SESSION_DEFAULTS.caseTimeMs;
    const spec = session.spec;
    const roots = new RootLedger(); // this run's: one root per tree and rootSeq across its answers
    const optedOut = optOuts(options.skipMethods, spec.methods, spec.spec.version, spec.spec.title);
    const skipMethods = new Set([...optedOut].flatMap(([m, why]) => (why === SKIP_METHOD_REASON ? [m] : [])));

    // The probe is bounded by the run's deadline too: past it, it is not sent and every case is reported not run.
    const since = options.since ?? t0;
    const reach = deadline(
      Math.max(0, maxTimeMs - (performance.now() - since)),
      `the run's deadline of ${formatDuration(maxTimeMs)} (--max-time) was reached`,
      options.signal,
    );
    try {
      await session.ensureReachable(reach.signal);
    } finally {
      reach.clear();
    }

    // One count everywhere: the progress total, `options.cases` and the summary all include the run-wide case.
    const runWide = selectsRunWide(options);
    const total = cases.length + (runWide ? 1 : 0);
    const profile = profileWatch(session.fixtures, options.fixturesName, spec.methods);
    let done = 0;
    const results = await session.pool((c, signal) => runCase(c, target, options.strict ?? false, signal, profile.observe, skipMethods, { spec, roots }), {
      maxTimeMs,
      since,
      caseTimeMs,
      maxFailures: options.maxFailures,
      failed: (r) => r.status === "fail",
      signal: options.signal,
      notRun: (c, why) => notRun(c, why),
      onResult: (r, n) => options.onResult?.(r, (done = n), total),
    });
    if (runWide) {
      const wide = slotOrder(results, spec.methods);
      results.push(wide);
      options.onResult?.(wide, ++done, total);
    }

    const summary = summarize(
      results,
      target.display,
      startedAt,
      performance.now() - t0,
      {
        concurrency: session.settings.concurrency,
        strict: options.strict ?? false,
        timeoutMs: session.settings.timeoutMs,
        maxTimeMs,
        caseTimeMs,
        cases: total,
        ...(options.shard ? { shard: `${options.shard.index}/${options.shard.total}` } : {}),
        ...(skipMethods.size > 0 ? { skipMethods: [...skipMethods] } : {}),
      },
      undefined,
      {
        identity: identityOf("run", { ...options, fixtures: options.fixturesName ?? "(given to runSuite)" }),
        notes: [...session.notes, ...profile.notes(), ...movedNote(results)],
        spec,
      },
    );
    // A method the spec declares and the target does not serve fails the verdict unless opted out.
    const stopped = options.signal?.aborted === true ? { interrupted: true as const } : {};
    return decide({ ...summary, ...stopped }, { methods: { optedOut, table: spec.methods } }).summary;
  } finally {
    if (!given) await session.close();
  }
}

/** Fixture owners the profile says hold accounts (their first page cannot be empty on a target it describes). */
const OWNERS_WITH_ACCOUNTS = ["ownerWithOneAccount", "ownerWithManyAccounts", "ownerWith1000"] as const;

/**
 * Notes once when every lookup of the fixtures profile's own entities answered "not there": the
 * profile does not describe the target. Sends nothing and changes no verdict.
 */
export function profileWatch(
  fixtures: Fixtures,
  name?: string,
  table: MethodTable = defaultSpec.methods,
): { observe(c: ConformanceCase, exchange: Exchange): void; notes(): string[] } {
  const f = fixtures as Record<string, unknown>;
  const field = (key: string, sub: string): unknown => (isObject(f[key]) ? (f[key] as Record<string, unknown>)[sub] : undefined);
  const owners = new Set(OWNERS_WITH_ACCOUNTS.map((k) => field(k, "owner")).filter((o): o is string => typeof o === "string"));
  const missed: string[] = [];
  let found = 0;
  /** The profile's known entities (`knownHash`, `knownAddress`, …): values a lookup of the target must find. */
  const known = new Map(Object.entries(f).filter(([k, v]) => /^known[A-Z]/.test(k) && typeof v === "string") as [string, string][]);
  const knownKeyOf = new Map([...known].map(([k, v]) => [v, k]));
  /**
   * What a case looks up of the profile (null: nothing) and whether the answer holds it: a single
   * `x-lookup` by a known value, or the first page of a list filtered by a profile owner's own `owner` field.
   */
  const lookupOf = (c: ConformanceCase): { what: string; holds: (result: unknown) => boolean } | null => {
    const info = methodInfo(c.method, table);
    if (!info) return null;
    const p = isObject(c.params) ? c.params : {};
    const key = info.lookup && !info.lookup.items ? lookupKeyOf(info, p) : null;
    const value = key ? p[key.param] : undefined;
    if (typeof value === "string" && knownKeyOf.has(value)) {
      return { what: `its ${knownKeyOf.get(value)} ${value} is not found`, holds: (result) => isObject(pageOf(info, result)) };
    }
    const page = info.pagination;
    if (!page) return null;
    const filter = Object.entries(info.filters).find(([param, field]) => param === field && typeof p[param] === "string" && owners.has(p[param] as string));
    if (!filter) return null;
    const others = Object.keys(p).filter((k) => k !== filter[0] && k !== page.limit && p[k] !== null && p[k] !== undefined);
    if (others.length > 0 || (page.limit && p[page.limit] === 0)) return null;
    return { what: `its owner ${p[filter[0]] as string} has no accounts`, holds: (result) => (itemsOf(info, result)?.length ?? 0) > 0 };
  };
  return {
    observe(c, exchange) {
      if (c.http || exchange.error) return;
      const lookup = lookupOf(c);
      const body = exchange.body;
      if (!lookup || !isObject(body)) return;
      if ("result" in body) {
        if (lookup.holds(body.result)) found++;
        else missed.push(lookup.what);
      } else if (isObject(body.error) && /not found/i.test(String(body.error.message))) missed.push(lookup.what);
    },
    notes() {
      if (found > 0 || missed.length === 0) return [];
      const which =
        name === "reference" ? "the default fixtures profile (reference: the reference indexer's dataset)" : `the fixtures profile ${name ?? ""}`.trimEnd();
      // Named in a fixed order (the known entities, then the owners), whatever order the cases ran in.
      const first = [...new Set(missed)].sort().slice(0, 2);
      return [`${which} does not describe this target (${first.join("; ")}): run with --discover --seed-owner PUBKEY or --fixtures FILE`];
    },
  };
}
