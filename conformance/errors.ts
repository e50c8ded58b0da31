/**
 * The conformance runner's coded errors, one catalogue (as fastify's `lib/errors.js`), on the
 * toolkit's `PhotonError` base (runtime/errors.ts), with the exit status of each code that does
 * not mean "could not be carried out"; messages are what the CLI prints after `photon-conformance: `.
 */
import { ExitStatus, PhotonError, type CodeOf, type ExitStatusValue } from "@photon-indexer-kit/runtime";

export const ConfErrorCode = {
  /** A command line that cannot be carried out as given: a bad flag value, an output that cannot be written, no case selected. */
  USAGE: "PHOTON_CONF_ERR_USAGE",
  /** A config file or environment variable that cannot be used (file, JSON pointer and line named). */
  CONFIG: "PHOTON_CONF_ERR_CONFIG",
  /** A case file, case folder or fixtures profile that cannot be read (`CaseError`). */
  CASE: "PHOTON_CONF_ERR_CASE",
  /** A placeholder names a fixture the profile lacks: the case is skipped, never the run. */
  MISSING_FIXTURE: "PHOTON_CONF_ERR_MISSING_FIXTURE",
  /** Nothing takes a connection at the target, or a request to it cannot be sent at all. */
  UNREACHABLE: "PHOTON_CONF_ERR_UNREACHABLE",
  /** A target whose first answers were all one refusal (HTTP 401/403, or an HTML page): nothing of it can be judged. */
  REFUSED: "PHOTON_CONF_ERR_REFUSED",
  /** A captured-traffic file (`check FILE`) that cannot be read (a `CaseError` naming the file). */
  INPUT: "PHOTON_CONF_ERR_INPUT",
  /** A check asked for a live call while judging captured traffic (`check` has no target). */
  OFFLINE: "PHOTON_CONF_ERR_OFFLINE",
  /** A deadline (`--max-time`, `--case-time`) was reached: the reason cases in flight were given up. */
  DEADLINE: "PHOTON_CONF_ERR_DEADLINE",
  /** The run was stopped (Ctrl-C): the reason it ended early. */
  INTERRUPTED: "PHOTON_CONF_ERR_INTERRUPTED",
  /** A broken invariant of the runner itself (`internalError(ConfErrorCode.INTERNAL, …)`). */
  INTERNAL: "PHOTON_CONF_ERR_INTERNAL",
} as const;

export type ConfErrorCodeValue = CodeOf<typeof ConfErrorCode>;

/** The codes that do not mean "could not be carried out" (2): their exit status. */
const EXIT_STATUS: Partial<Record<ConfErrorCodeValue, ExitStatusValue>> = {
  [ConfErrorCode.INTERRUPTED]: ExitStatus.INTERRUPTED,
  [ConfErrorCode.DEADLINE]: ExitStatus.FAILED,
};

/** The exit status of a conformance code. */
export function exitStatusOf(code: ConfErrorCodeValue): ExitStatusValue {
  return EXIT_STATUS[code] ?? ExitStatus.USAGE;
}

/** An error of the conformance runner (`code` from `ConfErrorCode`). */
export class ConformanceError extends PhotonError<ConfErrorCodeValue> {
  override name = "ConformanceError";
  constructor(code: ConfErrorCodeValue, message: string, options?: { cause?: unknown }) {
    super(code, message, { ...options, exitStatus: exitStatusOf(code) });
  }
}

/** A command line that cannot be carried out as given (exit 2). */
export class UsageError extends ConformanceError {
  override name = "UsageError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(ConfErrorCode.USAGE, message, options);
  }
}

/** A config file or environment variable that cannot be used (exit 2), with every problem found, one line each. */
export class ConfigError extends ConformanceError {
  override name = "ConfigError";
  /** Each problem on a line of its own (`file:line: /key: …`); the message joins them. */
  readonly problems: readonly string[];
  constructor(problems: string | readonly string[]) {
    const list = typeof problems === "string" ? [problems] : problems;
    super(ConfErrorCode.CONFIG, list.join("\n"));
    this.problems = list;
  }
}

/** A case file (or folder, or fixtures profile) that cannot be read; the message starts with the file. */
export class CaseError extends ConformanceError {
  override name = "CaseError";
  constructor(
    readonly file: string,
    message: string,
    code: ConfErrorCodeValue = ConfErrorCode.CASE,
  ) {
    super(code, `${file}: ${message}`);
  }
}

/** A placeholder names a fixture the profile lacks: the case is skipped, not the run. */
export class MissingFixtureError extends CaseError {
  override name = "MissingFixtureError";
  constructor(
    file: string,
    readonly key: string,
  ) {
    super(file, `the fixtures profile has no \`${key}\``, ConfErrorCode.MISSING_FIXTURE);
  }
}

/** Nothing takes a connection at the target, or a request cannot be sent at all (exit 2). */
export class UnreachableError extends ConformanceError {
  override name = "UnreachableError";
  constructor(message: string) {
    super(ConfErrorCode.UNREACHABLE, message);
  }
}
