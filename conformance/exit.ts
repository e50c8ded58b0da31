/**
 * The one place that maps outcomes and error codes to exit statuses, for both CLIs
 * (photon-conformance and photon-gen), as README's exit-code tables state them:
 *
 *   0    done: conformant, generated, up to date
 *   1    a verdict against: a required check failed, generated/ is stale, a diff change
 *        matches --fail-on, a case recorded without an answer
 *   2    the command could not be carried out: usage, unreadable input (spec, cases, config,
 *        fixtures, dataset), an unreachable target; also any error that carries no code or an
 *        `…_INTERNAL` one (a bug), which the CLIs print as `unexpected error`
 *   130  stopped by Ctrl-C (128 + SIGINT), its partial reports written
 *
 * A coded error (runtime/errors.ts `PhotonError`) is looked up by its code; every code not in
 * `STATUS_BY_CODE` means "could not be carried out" (2). This module imports no area's
 * catalogue but runtime's and conformance's, so photon-gen can use it without an arrow from
 * conformance/ into generator/.
 */
import { CommanderError, InvalidArgumentError } from "commander";
import { InternalError, PhotonError } from "../runtime/errors.js";
import { ConfErrorCode } from "./errors.js";

export const ExitStatus = {
  OK: 0,
  FAILED: 1,
  USAGE: 2,
  INTERRUPTED: 130,
} as const;

export type ExitStatusValue = (typeof ExitStatus)[keyof typeof ExitStatus];

/** Codes whose status is not USAGE. */
const STATUS_BY_CODE: ReadonlyMap<string, ExitStatusValue> = new Map<string, ExitStatusValue>([
  [ConfErrorCode.INTERRUPTED, ExitStatus.INTERRUPTED],
  [ConfErrorCode.DEADLINE, ExitStatus.FAILED],
]);

/** The exit status of a coded error's code. */
export function exitStatusOf(code: string): ExitStatusValue {
  return STATUS_BY_CODE.get(code) ?? ExitStatus.USAGE;
}

/** How a CLI ends on a thrown value. */
export interface ExitPlan {
  readonly status: ExitStatusValue;
  /** The error is one the command expects (print its message as is); else `unexpected error`. */
  readonly expected: boolean;
  /** commander already printed it (its own usage errors, --help, --version). */
  readonly printed: boolean;
}

export function exitFor(err: unknown): ExitPlan {
  if (err instanceof PhotonError && !(err instanceof InternalError)) return { status: exitStatusOf(err.code), expected: true, printed: false };
  // An option value refused outside commander's own parsing (commander prints the ones it parses).
  if (err instanceof InvalidArgumentError) return { status: ExitStatus.USAGE, expected: true, printed: false };
  if (err instanceof CommanderError) return { status: err.exitCode === 0 ? ExitStatus.OK : ExitStatus.USAGE, expected: true, printed: true };
  return { status: ExitStatus.USAGE, expected: false, printed: false };
}
