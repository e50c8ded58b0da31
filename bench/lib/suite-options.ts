/**
 * The suite as `photon-conformance run --url URL` runs it with no other flag, for the benches
 * that run it in process: the bundled corpus and the spec-derived cases, the reference fixtures
 * profile, the session's defaults (conformance/session.ts `SESSION_DEFAULTS`: cases in flight, a
 * request's deadline), not strict. Each fact is read from where the CLI reads it.
 */
import type { Fixtures } from "../../conformance/case-format.js";
import { casesDir, readFixtures } from "../../conformance/fixtures.js";
import type { RunOptions } from "../../conformance/run.js";
import { SESSION_DEFAULTS } from "../../conformance/session.js";

/** Cases in flight by default (`--concurrency`). */
export const DEFAULT_CONCURRENCY: number = SESSION_DEFAULTS.concurrency;

/** The reference fixtures profile (`--fixtures` unset). */
export const referenceFixtures = (): Promise<Fixtures> => readFixtures();

/** runSuite's options for `run --url URL`, with `extra` on top (a shard, another concurrency). */
export function cliRunOptions(url: string, fixtures: Fixtures, extra: Partial<RunOptions> = {}): RunOptions {
  return {
    url,
    casesDir,
    fixtures,
    concurrency: DEFAULT_CONCURRENCY,
    timeoutMs: SESSION_DEFAULTS.timeoutMs,
    strict: false,
    derived: true,
    ...extra,
  };
}
