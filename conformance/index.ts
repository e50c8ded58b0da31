/**
 * `photon-indexer-kit/conformance`: the suite as a library. `runSuite` sends the corpus to a
 * URL and returns findings, `summary.passed` its verdict; `renderReport` turns them into a report.
 * Defaults (`casesDir`, `readFixtures()`) are the package's own corpus and the reference indexer's fixtures profile.
 */
export { runSuite, selectCases, UnreachableError } from "./run.js";
export { SESSION_DEFAULTS } from "./session.js";
export type { RunOptions } from "./run.js";
export { diffTargets } from "./compare.js";
export { INCONCLUSIVE_ID } from "./verdict.js";
export type { DiffOptions } from "./compare.js";
export { checkFile, CHECK_BOUNDS } from "./offline.js";
export type { CheckFileOptions } from "./offline.js";
export { loadCases, CaseError, MissingFixtureError } from "./case-format.js";
export type { ConformanceCase, Fixtures } from "./case-format.js";
export type { Json } from "@photon-indexer-kit/runtime";
export { renderReport, reporterNames } from "./reporters/index.js";
export type { ReporterName } from "./reporters/index.js";
export type { CaseResult, Exchange, Finding, RunIdentity, RunSummary, SentRequest, Status, Tally } from "./results.js";

export { casesDir, readFixtures, referenceFixturesFile } from "./fixtures.js";
