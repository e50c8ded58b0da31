/**
 * How both command lines (photon-conformance and photon-gen) end on a thrown value, as the
 * README's exit-code tables state: a coded error ends with the status its area's catalogue gives
 * its code (`PhotonError.exitStatus`: 2 "could not be carried out" unless the catalogue says
 * otherwise, e.g. 130 for Ctrl-C); commander's own usage errors with 2; anything uncoded or
 * internal (a bug) with 2, printed as `unexpected error`. It imports only the runtime package and
 * commander, so both CLIs share it without an arrow between generator/ and conformance/.
 */
import { CommanderError, InvalidArgumentError } from "commander";
import { ExitStatus, InternalError, PhotonError, type ExitStatusValue } from "@photon-indexer-kit/runtime";

export { ExitStatus, type ExitStatusValue };

/** How a CLI ends on a thrown value. */
export interface ExitPlan {
  readonly status: ExitStatusValue;
  /** The error is one the command expects (print its message as is); else `unexpected error`. */
  readonly expected: boolean;
  /** commander already printed it (its own usage errors, --help, --version). */
  readonly printed: boolean;
}

export function exitFor(err: unknown): ExitPlan {
  if (err instanceof PhotonError && !(err instanceof InternalError)) return { status: err.exitStatus, expected: true, printed: false };
  // An option value refused outside commander's own parsing (commander prints the ones it parses).
  if (err instanceof InvalidArgumentError) return { status: ExitStatus.USAGE, expected: true, printed: false };
  if (err instanceof CommanderError) return { status: err.exitCode === 0 ? ExitStatus.OK : ExitStatus.USAGE, expected: true, printed: true };
  return { status: ExitStatus.USAGE, expected: false, printed: false };
}
