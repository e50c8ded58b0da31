/** What flows through a run: exchanges in, findings out. Reporters only read these. */
import type { Json } from "@photon-indexer-kit/runtime";
import type { ConformanceCase, SpecSource } from "./case-format.js";

export type Status = "pass" | "fail" | "warn" | "skip";

/**
 * A case's outcome: a finding's status, or `notRun`: the run stopped before the case started or
 * finished (Ctrl-C, --max-time, --max-failures). Not run is neither a failure nor a skip.
 */
export type CaseStatus = Status | "notRun";

/** Cases per outcome. */
export type CaseCounts = Record<CaseStatus, number>;

export const noCases = (): CaseCounts => ({ pass: 0, fail: 0, warn: 0, skip: 0, notRun: 0 });

export interface Finding {
  /** The check's name: http, envelope, schema, errors, pagination, semantics. */
  readonly check: string;
  readonly status: Status;
  readonly message: string;
  readonly expected?: string;
  readonly actual?: string;
  /**
   * Set on a finding a reader should see although it changes no status (a passing batch
   * answered in another order than Photon's): the run's `notes` name it.
   */
  readonly note?: true;
  /** Why a warning decides nothing, as a code (read it, never the message): see FindingReason. */
  readonly reason?: FindingReasonCode;
}

/** The coded reasons a finding can carry. */
export const FindingReason = {
  /** Inconclusive: a relation's answers stated different slots on every try (the target moved; same-slot.ts). */
  MOVED: "PHOTON_CONF_MOVED",
} as const;

export type FindingReasonCode = (typeof FindingReason)[keyof typeof FindingReason];

export interface SentRequest {
  readonly method: string;
  /** The target URL, already redacted. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface Exchange {
  readonly request: SentRequest;
  /** 0 when no response arrived (see `error`). */
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** Characters of the whole body (`text` is cut at the target's MAX_KEPT_TEXT, 4096); absent on exchanges built elsewhere (captured traffic, hand-made). */
  readonly bytes?: number;
  /** The parsed body, or undefined when it is not JSON (see `parseError`). */
  readonly body: unknown;
  readonly parseError: string | null;
  /** A transport failure (timeout, reset, too large), already redacted. */
  readonly error: string | null;
  /**
   * The coded reason beside `error`, as a value (`PHOTON_ERR_TIMEOUT`, `PHOTON_ERR_INVALID_OPTIONS`,
   * `PHOTON_CONF_ERR_DEADLINE`, …): read it, never the message's ending. Null with an answer;
   * absent on exchanges built elsewhere (captured traffic, hand-made).
   */
  readonly errorCode?: string | null;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly attempts: number;
}

export interface CaseResult {
  readonly id: string;
  readonly method: string;
  readonly description: string;
  readonly required: boolean;
  readonly findings: readonly Finding[];
  /**
   * The case's own exchange, as reports show it: its parsed `body` is not kept once judged (a run
   * keeps only the context slot, for the slot-order check; diff keeps none), and `text` is an excerpt.
   */
  readonly exchange: Exchange | null;
  /** `diff` only: the trusted side's (`--against`) exchange for the same request. */
  readonly against?: Exchange;
  /** Status rolled up: fail if any required finding failed, warn if any warned; `notRun` with `notRun` set. */
  readonly status: CaseStatus;
  /** Why the case was not run (status `notRun`): the stop that left it unstarted or gave it up. */
  readonly notRun?: string;
  readonly durationMs: number;
  /** The case file, relative to the working directory (`conformance/cases/….yaml`), when the case came from one. */
  readonly file?: string;
  /** A derived case's source instead (it has no case file): the spec it was derived from and where in it. */
  readonly derivedFrom?: SpecSource;
  /**
   * `run` only: whether the target served the case's own call of its method: false when it was
   * answered -32601 Method not found, true for any other answer; absent when the case made no
   * such call (a raw HTTP or batch body, no answer at all, not run).
   */
  readonly served?: boolean;
}

/**
 * A method's standing in a run, aliases counted with it: `not served` (every call -32601), `not conformant`
 * (a case failed), `skipped` (none ran: opted out or no fixture), `not run` (none ran, the run stopped
 * first), `partly certified` (fewer than half ran), else `conformant`.
 */
export type MethodStatus = "conformant" | "partly certified" | "not conformant" | "not served" | "skipped" | "not run";

export interface MethodVerdict {
  /** The spec's name of the method (cases sent under an alias count here). */
  readonly method: string;
  readonly status: MethodStatus;
  /** Its cases in the run, by status. */
  readonly counts: Readonly<CaseCounts>;
  /** Calls of the method the cases made, and how many of them were answered -32601. */
  readonly calls: number;
  readonly notFound: number;
  /**
   * Why the method does not count against the verdict when not served: `--skip-method` (its cases
   * are not run), or the spec's own word (`x-registered: false`); null when it counts.
   */
  readonly optedOut: string | null;
  /** Whether this method's standing fails the verdict: not served and not opted out. */
  readonly fails: boolean;
}

export interface RunSummary {
  readonly target: string;
  readonly spec: { title: string; version: string; sha256: string };
  readonly startedAt: string;
  readonly durationMs: number;
  readonly results: readonly CaseResult[];
  readonly counts: Readonly<CaseCounts>;
  /** True only for a complete run with no failure: every case run or skipped, none failed (verdict.ts `decide`). */
  readonly passed: boolean;
  /** `run` only: Ctrl-C stopped it (its verdict is INTERRUPTED, whatever ran). */
  readonly interrupted?: true;
  readonly options: Readonly<Record<string, Json>>;
  /** The fixtures profile derived from the target with --discover, written into reports. */
  readonly discovered?: Json;
  /** Set when `results` lists only some of the cases judged (`check` on large captures): the totals. */
  readonly tally?: Tally;
  /** What was run, for every report to name: set by run, diff and check. */
  readonly identity?: RunIdentity;
  /** Run-level remarks that change no verdict, one line each (a fixtures profile that does not describe the target, reordered batch answers). */
  readonly notes?: readonly string[];
  /** `run` only: each spec method the selected cases call, with its standing (conformant, not conformant, not served, skipped), in spec order. */
  readonly methods?: readonly MethodVerdict[];
}

/** What a run was: enough for a reader of any report to reproduce the selection. */
export interface RunIdentity {
  /** The command: run, diff, check. */
  readonly command: string;
  /** photon-indexer-kit's name and version (package.json). */
  readonly tool: { readonly name: string; readonly version: string };
  /** `--case` globs, `--method` names and `--shard I/N` (null: the whole corpus). */
  readonly selection: { readonly cases: readonly string[]; readonly methods: readonly string[]; readonly shard: string | null };
  /** The fixtures profile: a file path as given, `reference` (the default), or `discovered`. */
  readonly fixtures: string;
  readonly strict: boolean;
}

/**
 * The totals of a run too large to list case by case: `counts` covers every case judged,
 * `results` the listed ones only (see `check`), and these add what the unlisted ones showed.
 */
export interface Tally {
  /** Cases judged in all (the sum of `counts`). */
  readonly cases: number;
  /** Cases judged but left out of `results`. */
  readonly unlisted: number;
  /** Case statuses per method (methods the spec does not name are counted together). */
  readonly byMethod: Readonly<Record<string, Readonly<Record<Status, number>>>>;
  /** Finding statuses per check, over every case. */
  readonly byCheck: Readonly<Record<string, Readonly<Record<Status, number>>>>;
}

export function rollUp(findings: readonly Finding[], required: boolean): Status {
  if (findings.some((f) => f.status === "fail")) return required ? "fail" : "warn";
  if (findings.some((f) => f.status === "warn")) return "warn";
  if (findings.length > 0 && findings.every((f) => f.status === "skip")) return "skip";
  return "pass";
}

export const pass = (check: string, message: string): Finding => ({ check, status: "pass", message });
export const fail = (check: string, message: string, expected?: string, actual?: string): Finding => ({
  check,
  status: "fail",
  message,
  ...(expected !== undefined ? { expected } : {}),
  ...(actual !== undefined ? { actual } : {}),
});
export const warn = (check: string, message: string): Finding => ({ check, status: "warn", message });
export const skip = (check: string, message: string): Finding => ({ check, status: "skip", message });

/** The method of results about the run as a whole (slot order, inconclusive differences, skips). */
export const RUN_WIDE_METHOD = "*";

/** A required result about the run as a whole: no case file, no exchange. */
export function runWideResult(id: string, description: string, findings: Finding[]): CaseResult {
  return { id, method: RUN_WIDE_METHOD, description, required: true, findings, exchange: null, status: rollUp(findings, true), durationMs: 0 };
}

export type { ConformanceCase, SpecSource };
