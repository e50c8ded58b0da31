/**
 * One run session: what `run`, `diff`, `record` and `--discover` share, built once by `openSession`:
 * settings (SESSION_DEFAULTS with overrides), the output-edge redactor, one target per side with its
 * own headers, fixtures, the spec (spec-bundle.ts), the selected cases, `ensureReachable()` (a target
 * refusing every first answer stops with one coded error, refusals.ts), `pool()` and `close()`.
 * Errors are coded (conformance/errors.ts) and travel as values where a run goes on.
 */
import { createHash } from "node:crypto";
import { connect } from "node:net";
import { closest, distance } from "fastest-levenshtein";
import picomatch from "picomatch";
import { startReferenceIndexer, type ReferenceIndexer } from "../reference/serve.js";
import { ClientErrorCode, createRedactor, internalError, PhotonError, secretsOf, stringifyJson, type Redactor } from "@photon-indexer-kit/runtime";
import { runPool, type PoolOptions } from "./pool.js";
import { loadCases, type ConformanceCase, type Fixtures } from "./case-format.js";
import { deriveCases, withDerived } from "./derive.js";
import { discoverFixtures } from "./discover.js";
import { ConfErrorCode, UnreachableError, UsageError } from "./errors.js";
import { readFixtures, referenceFixturesFile } from "./fixtures.js";
import { refusalWatch, settleRefusal, type RefusalWatch } from "./refusals.js";
import { appliesTo, defaultSpec, methodsCalled, shownSpecFile, type SpecBundle } from "./spec-bundle.js";
import { aliasesOf, canonicalMethod, type MethodTable } from "./spec-facts.js";
import { createTarget, type ExchangeObserver, type RawTarget } from "./target.js";

/** What every command uses unless told otherwise. */
export const SESSION_DEFAULTS = Object.freeze({
  /** One request's deadline (`--timeout`). */
  timeoutMs: 10_000,
  /** 429/502/503/504 and connection failures: retried with backoff, `Retry-After` honoured, within a budget. */
  retry: Object.freeze({ retries: 5, minDelayMs: 100, maxDelayMs: 5000, budgetMs: 10_000 }),
  /** A response body larger than this is refused (16 MiB). */
  maxBodyBytes: 16 * 1024 * 1024,
  /** Cases in flight (`--concurrency`). */
  concurrency: 4,
  /** `run --max-time`: 30 minutes. */
  maxTimeMs: 30 * 60_000,
  /** `run --case-time`: 2 minutes, ample for the corpus's longest walks at several hundred ms a page. */
  caseTimeMs: 2 * 60_000,
});

export interface Shard {
  readonly index: number;
  readonly total: number;
}

/** One side of a session. No `url`: the embedded reference indexer, started once the cases are selected. */
export interface TargetSpec {
  readonly url?: string | undefined;
  /** Sent to this side only; each value is a secret. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

export interface SelectionOptions {
  readonly casesDir: string;
  readonly methods?: readonly string[] | undefined;
  readonly caseGlobs?: readonly string[] | undefined;
  readonly shard?: Shard | null | undefined;
  /** No case matching `methods`/`caseGlobs` is a usage error naming them (the CLI); else the selection is empty. */
  readonly requireMatch?: boolean | undefined;
  /**
   * Add the spec-derived cases (derive.ts) to the corpus's, a hand-written case winning an id both
   * have. Default false here; the CLI turns it on for `run`, `diff` and `--list` (not `record`).
   */
  readonly derived?: boolean | undefined;
  /**
   * The interface judged against (`--spec`; default the bundled one): derived cases come from its
   * table, and a case of a method the bundled spec defines and this one lacks is left out (not run,
   * not counted; the session's notes say how many).
   */
  readonly spec?: SpecBundle | undefined;
}

export interface SessionOptions extends SelectionOptions {
  /** One per side: run and record have one, diff two (under test, then trusted). */
  readonly targets: readonly TargetSpec[];
  /** The fixtures profile as a value; else `fixturesFile` (default the reference profile), or discovered. */
  readonly fixtures?: Fixtures | undefined;
  readonly fixturesFile?: string | undefined;
  /** Derive the fixtures profile from the first target, starting at `seedOwner`. */
  readonly discover?: boolean | undefined;
  readonly seedOwner?: string | undefined;
  /** How reports name the profile; default: `discovered`, the file as given, or `reference`. */
  readonly fixturesName?: string | undefined;
  readonly timeoutMs?: number | undefined;
  readonly retryBudgetMs?: number | undefined;
  readonly maxBodyBytes?: number | undefined;
  readonly maxRps?: number | null | undefined;
  readonly concurrency?: number | undefined;
  /** Values to mask besides the targets' credentials and header values (--secret, PHOTON_SECRETS). */
  readonly secrets?: readonly string[] | undefined;
  /**
   * The command's deadline (`run --max-time`): once it fires, discovery sends nothing more and
   * keeps what it found (the session's notes say so).
   */
  readonly signal?: AbortSignal | undefined;
  /** Told of every exchange with the targets (watch's metrics). */
  readonly observe?: ExchangeObserver | undefined;
  /** The selection of an earlier session of these options, reused while its fixtures are the same (watch's runs). */
  readonly memo?: SelectionMemo | undefined;
}

/** The settings a session runs with: SESSION_DEFAULTS under the caller's values. */
export interface SessionSettings {
  readonly timeoutMs: number;
  readonly retry: { readonly retries: number; readonly minDelayMs: number; readonly maxDelayMs: number; readonly budgetMs: number };
  readonly maxBodyBytes: number;
  readonly maxRps: number | null;
  readonly concurrency: number;
}

export interface Session {
  readonly settings: SessionSettings;
  /** The interface judged against (`--spec`). */
  readonly spec: SpecBundle;
  readonly redact: Redactor;
  readonly targets: readonly RawTarget[];
  /** Each target's URL as given (the reference indexer's when the side named none). */
  readonly urls: readonly string[];
  readonly fixtures: Fixtures;
  /** The profile `--discover` derived, for reports to show. */
  readonly discovered: Fixtures | undefined;
  readonly fixturesName: string;
  readonly cases: readonly ConformanceCase[];
  /** What every report of the session should say about its targets (the embedded reference's limits). */
  readonly notes: readonly string[];
  /** Throws UnreachableError for the first target nothing answers at; once `signal` fires (a deadline), asks nothing more. */
  ensureReachable(signal?: AbortSignal): Promise<void>;
  /** Runs `work` over the cases (or `items`) within the pool's bounds; results in case order. */
  pool<T>(work: (c: ConformanceCase, signal: AbortSignal) => Promise<T>, options?: PoolOptions<T>, items?: readonly ConformanceCase[]): Promise<T[]>;
  close(): Promise<void>;
}

/** The settings of a session: SESSION_DEFAULTS under the caller's values. */
export function sessionSettings(options: Pick<SessionOptions, "timeoutMs" | "retryBudgetMs" | "maxBodyBytes" | "maxRps" | "concurrency">): SessionSettings {
  return {
    timeoutMs: options.timeoutMs ?? SESSION_DEFAULTS.timeoutMs,
    retry: { ...SESSION_DEFAULTS.retry, budgetMs: options.retryBudgetMs ?? SESSION_DEFAULTS.retry.budgetMs },
    maxBodyBytes: options.maxBodyBytes ?? SESSION_DEFAULTS.maxBodyBytes,
    maxRps: options.maxRps ?? null,
    concurrency: options.concurrency ?? SESSION_DEFAULTS.concurrency,
  };
}

/**
 * The one redactor of a command's output edge (stdout, stderr, reports, recorded files): each
 * target's credential query values and userinfo, every header value, and each extra secret.
 * Nothing being judged passes through it.
 */
export function redactorFor(targets: readonly TargetSpec[], secrets: readonly string[] = []): Redactor {
  return createRedactor([...secretsOf(undefined, undefined, secrets), ...targets.flatMap((t) => secretsOf(t.url, t.headers))]);
}

/** A target with the session's settings. */
export function targetOf(
  spec: { readonly url: string; readonly headers?: Readonly<Record<string, string>> | undefined },
  settings: SessionSettings,
  observe?: ExchangeObserver,
): RawTarget {
  return createTarget({
    observe,
    url: spec.url,
    headers: spec.headers ?? {},
    timeoutMs: settings.timeoutMs,
    maxBodyBytes: settings.maxBodyBytes,
    maxRps: settings.maxRps,
    retry: settings.retry,
  });
}

/** Stable shard of a case: the same case lands on the same machine in every run. */
export function shardOf(id: string, total: number): number {
  return createHash("sha256").update(id).digest().readUInt32BE(0) % total;
}

/**
 * The cases of `--method`, `--case` and `--shard`. A method and its aliases are one method
 * (spec-facts.ts `canonicalMethod`); a name the spec lacks matches itself only.
 */
export function selectCases(
  all: readonly ConformanceCase[],
  options: Pick<SelectionOptions, "methods" | "caseGlobs" | "shard">,
  table: MethodTable = defaultSpec.methods,
): ConformanceCase[] {
  const globs = options.caseGlobs?.length ? picomatch([...options.caseGlobs]) : null;
  const named = (m: string) => canonicalMethod(m, table) ?? m;
  const wanted = new Set((options.methods ?? []).map(named));
  return all.filter(
    (c) =>
      (wanted.size === 0 || wanted.has(named(c.method))) &&
      (!globs || globs(c.id)) &&
      (!options.shard || shardOf(c.id, options.shard.total) === options.shard.index - 1),
  );
}

/** The cases of a selection, and the note on the cases the chosen spec left out (null when none was). */
interface Selected {
  readonly cases: ConformanceCase[];
  readonly leftOut: string | null;
}

const MAX_LISTED_METHODS = 5;

/** The note on cases left out because the chosen spec lacks their methods. */
function leftOutNote(left: readonly ConformanceCase[], spec: SpecBundle): string | null {
  if (left.length === 0) return null;
  const lacking = (m: string) => canonicalMethod(m, spec.methods) === undefined;
  const methods = [
    ...new Set(
      left.flatMap((c) =>
        methodsCalled(c)
          .filter(lacking)
          .map((m) => canonicalMethod(m, defaultSpec.methods) ?? m),
      ),
    ),
  ];
  const listed =
    methods.slice(0, MAX_LISTED_METHODS).join(", ") + (methods.length > MAX_LISTED_METHODS ? `, and ${methods.length - MAX_LISTED_METHODS} more` : "");
  const { title, version } = spec.spec;
  return `${left.length} case${left.length === 1 ? "" : "s"} calling ${methods.length} method${methods.length === 1 ? "" : "s"} that ${title} ${version} (--spec) does not define ${left.length === 1 ? "was" : "were"} left out, not run and not counted (${listed})`;
}

/**
 * Each `--method` name: a method or alias of the chosen spec, or the method of some case (a
 * protocol case's own name, such as an unknown method it sends); else a usage error naming the
 * spec, with the nearest method name when one is close.
 */
function checkMethods(names: readonly string[], all: readonly ConformanceCase[], spec: SpecBundle): void {
  for (const name of names) {
    if (canonicalMethod(name, spec.methods) !== undefined || all.some((c) => c.method === name)) continue;
    const known = Object.values(spec.methods).flatMap((m) => [m.name, ...aliasesOf(m)]);
    const near = known.length > 0 ? closest(name, known) : "";
    const hint = near && distance(name.toLowerCase(), near.toLowerCase()) <= Math.max(2, Math.floor(name.length / 4)) ? ` (did you mean ${near}?)` : "";
    throw new UsageError(
      `--method ${name} is not a method of the spec (${spec.spec.title} ${spec.spec.version})${hint}; \`--list\` shows the case ids and methods`,
    );
  }
}

async function select(options: SelectionOptions, fixtures: Fixtures): Promise<Selected> {
  const spec = options.spec ?? defaultSpec;
  // `--case` globs select by id, which the file's path gives: the other files are not even parsed.
  const globs = options.caseGlobs?.length ? picomatch([...options.caseGlobs]) : undefined;
  const handWritten = await loadCases(options.casesDir, fixtures, globs);
  const all = options.derived ? withDerived(handWritten, deriveCases(fixtures, spec.methods, shownSpecFile(spec))) : handWritten;
  if (options.requireMatch) checkMethods(options.methods ?? [], all, spec);
  const matching = selectCases(all, { methods: options.methods, caseGlobs: options.caseGlobs }, spec.methods);
  const applying = matching.filter((c) => appliesTo(c, spec));
  const leftOut = leftOutNote(
    matching.filter((c) => !appliesTo(c, spec)),
    spec,
  );
  if (applying.length === 0 && options.requireMatch) {
    const asked = [...(options.caseGlobs ?? []).map((g) => `--case '${g}'`), ...(options.methods ?? []).map((m) => `--method ${m}`)].join(" ");
    const why = leftOut === null ? "" : ` (${leftOut})`;
    throw new UsageError(`no case matches ${asked} (in ${options.casesDir})${why}; \`--list\` shows the case ids and methods`);
  }
  return { cases: options.shard ? selectCases(applying, { shard: options.shard }, spec.methods) : applying, leftOut };
}

/**
 * A selection kept from one session to the next of the same options: while the fixtures profile is
 * the same, the corpus is not read, parsed and filled again (watch runs it on every tick).
 */
export class SelectionMemo {
  private last: { readonly fixtures: string; readonly selected: Selected } | null = null;

  async select(options: SelectionOptions, fixtures: Fixtures): Promise<Selected> {
    const key = stringifyJson(fixtures);
    if (this.last?.fixtures === key) return this.last.selected;
    const selected = await select(options, fixtures);
    this.last = { fixtures: key, selected };
    return selected;
  }
}

/**
 * The cases of a selection: loaded, derived ones added, filtered by method and glob and by the spec's
 * methods, then sharded. With `requireMatch`, no match is a usage error (an empty shard is not).
 */
export async function loadSelection(options: SelectionOptions, fixtures: Fixtures): Promise<ConformanceCase[]> {
  return (await select(options, fixtures)).cases;
}

/** The usage error of `--discover` without a place to start. */
export const NEEDS_SEED_OWNER = "--discover needs --seed-owner PUBKEY (a program id whose accounts the target holds)";

/** The note of a discovery the command's deadline cut short. */
const DISCOVERY_CUT = "--discover was stopped by the command's deadline (--max-time): the fixtures profile holds what it had found by then";

/** A target whose calls stop when `signal` fires (an exchange with no answer, at once). */
function stoppedBy(target: RawTarget, signal: AbortSignal | undefined): RawTarget {
  if (!signal) return target;
  return { ...target, call: (method, params, own) => target.call(method, params, own ? AbortSignal.any([own, signal]) : signal) };
}

/**
 * The fixtures profile: given, discovered from the first target (--discover), or read from a file
 * (the reference one by default). Discovery stops at the command's deadline, or when the
 * target's first answers are all one refusal (that error is thrown).
 */
async function fixturesOf(
  options: SessionOptions,
  settings: SessionSettings,
  watch: RefusalWatch,
): Promise<{ fixtures: Fixtures; discovered?: Fixtures; cut?: boolean }> {
  if (options.fixtures) return { fixtures: options.fixtures };
  if (!options.discover) return { fixtures: await readFixtures(options.fixturesFile ?? referenceFixturesFile) };
  if (!options.seedOwner) throw new UsageError(NEEDS_SEED_OWNER);
  const url = options.targets[0]?.url;
  if (!url) throw new UsageError("--discover needs --url");
  try {
    const raw = targetOf({ url, headers: options.targets[0]?.headers }, settings, options.observe);
    const stop = options.signal ? AbortSignal.any([options.signal, watch.signal]) : watch.signal;
    const discovered = (await discoverFixtures(stoppedBy(watch.watch(raw), stop), options.seedOwner, (options.spec ?? defaultSpec).methods)) as Fixtures;
    const refused = watch.refused();
    if (refused) throw refused;
    return { fixtures: discovered, discovered, ...(options.signal?.aborted ? { cut: true } : {}) };
  } catch (err) {
    throw err instanceof PhotonError ? err : new UsageError((err as Error).message, { cause: err });
  }
}

/** Whether anything at the URL's host and port accepts a TCP connection within `timeoutMs`. */
export function acceptsConnections(url: string, timeoutMs: number): Promise<boolean> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return Promise.resolve(false);
  }
  const port = Number(u.port) || (u.protocol === "https:" ? 443 : 80);
  return new Promise((resolve) => {
    let settled = false;
    const socket = connect({ host: u.hostname.replace(/^\[(.*)\]$/, "$1"), port });
    const done = (ok: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(done, timeoutMs, false);
    socket.on("connect", () => done(true));
    socket.on("error", () => done(false));
  });
}

/** The calls a probe sends, with no params: the table's methods that take none (else its first). */
const probeMethods = (methods: MethodTable): string[] => {
  const none = Object.values(methods).filter((m) => !m.hasParams);
  return none.length > 0 ? none.map((m) => m.name) : [Object.keys(methods)[0]!];
};

/**
 * Throws UnreachableError when nothing takes a connection at the target, or a request cannot be
 * sent at all (the exchange's `errorCode` says so). A server that connects and then stalls,
 * resets or sends too much is reachable: its cases fail, naming why.
 */
export async function ensureReachable(
  target: RawTarget,
  url: string,
  timeoutMs: number,
  methods: MethodTable = defaultSpec.methods,
  signal?: AbortSignal,
): Promise<void> {
  if (signal?.aborted) return;
  const probe = await target.call(probeMethods(methods)[0]!, undefined, signal);
  if (!probe.error || probe.status !== 0 || signal?.aborted) return;
  const unsendable = probe.errorCode === ClientErrorCode.INVALID_OPTIONS;
  if (unsendable || !(await acceptsConnections(url, timeoutMs))) throw new UnreachableError(`cannot reach ${target.display}: ${probe.error}`);
}

/**
 * The certificate's word on the embedded reference indexer: what it answers without the pieces
 * Photon takes from outside (a prover, a Solana node).
 */
export const EMBEDDED_REFERENCE_NOTE =
  "the target is the embedded reference indexer: its validity proofs carry a placeholder Groth16 compressedProof (right sizes, no prover; every other field is computed from its Merkle trees), and the `transaction` objects of its transaction lookups and its health answer are synthetic (no Solana node)";

/** Opens a session: settings, redactor, fixtures, cases, then targets (starting the reference indexer for a side without a URL). */
export async function openSession(options: SessionOptions): Promise<Session> {
  const settings = sessionSettings(options);
  if (options.targets.length === 0) throw internalError(ConfErrorCode.INTERNAL, "a session needs at least one target");
  // Each side's first answers are watched (discovery's, then the probe's): all one refusal (401/403, HTML) stops the session.
  const watches = options.targets.map(() => refusalWatch());
  const { fixtures, discovered, cut } = await fixturesOf(options, settings, watches[0]!);
  const spec = options.spec ?? defaultSpec;
  const { cases, leftOut } = await (options.memo ? options.memo.select(options, fixtures) : select(options, fixtures));
  let reference: ReferenceIndexer | null = null;
  const urls: string[] = [];
  for (const side of options.targets) {
    // The embedded reference serves this one run, then stops; each Merkle tree is built when a case
    // first asks for one of its proofs, none in the background (it would compete with the run).
    if (side.url === undefined) reference ??= await startReferenceIndexer({ host: "127.0.0.1", port: 0, warmTrees: false });
    urls.push(side.url ?? reference!.url);
  }
  const targets = options.targets.map((side, i) => watches[i]!.watch(targetOf({ url: urls[i]!, headers: side.headers }, settings, options.observe)));
  return {
    settings,
    spec,
    redact: redactorFor(options.targets, options.secrets),
    targets,
    urls,
    fixtures,
    discovered,
    fixturesName: options.fixturesName ?? (options.discover ? "discovered" : (options.fixturesFile ?? "reference")),
    cases,
    notes: [...(reference === null ? [] : [EMBEDDED_REFERENCE_NOTE]), ...(leftOut === null ? [] : [leftOut]), ...(cut ? [DISCOVERY_CUT] : [])],
    async ensureReachable(signal) {
      for (const [i, target] of targets.entries()) {
        await ensureReachable(target, urls[i]!, settings.timeoutMs, spec.methods, signal);
        await settleRefusal(watches[i]!, target, probeMethods(spec.methods), signal);
      }
    },
    pool(work, poolOptions = {}, items = cases) {
      return runPool(items, work, { ...poolOptions, concurrency: poolOptions.concurrency ?? settings.concurrency });
    },
    async close() {
      await reference?.close();
    },
  };
}
