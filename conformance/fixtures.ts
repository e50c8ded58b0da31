/** Where the package's own corpus and fixtures profile are, and how a fixtures profile is read. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseJson } from "@photon-indexer-kit/runtime";
import { CaseError, type Fixtures } from "./case-format.js";
import { fixturesProblemLine, fixturesProblems } from "./fixtures-check.js";
import { packageRoot } from "./paths.js";

/** The case corpus shipped with the package (`conformance/cases/`). */
export const casesDir: string = join(packageRoot, "conformance", "cases");
/** The fixtures profile of the reference indexer's default dataset. */
export const referenceFixturesFile: string = join(packageRoot, "conformance", "fixtures", "reference.json");

/**
 * Reads a fixtures profile (a JSON object; integers above 2^53 kept as bigint); the reference one
 * by default. A field of the wrong format (fixtures-check.ts) is refused naming the file and its pointer.
 */
export async function readFixtures(file: string = referenceFixturesFile): Promise<Fixtures> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new CaseError(file, `cannot read the fixtures profile: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (err) {
    throw new CaseError(file, `invalid fixtures profile: ${(err as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new CaseError(file, "invalid fixtures profile: not a JSON object");
  const problems = fixturesProblems(value as Fixtures);
  if (problems.length > 0) throw new CaseError(file, fixturesProblemLine(problems));
  return value as Fixtures;
}
